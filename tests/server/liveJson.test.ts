/** An event's JSON on the stream is written once per event and spliced (routes/live.ts): the same text JSON.stringify gives. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storedJson } from '../../src/server/routes/live';
import type { StoredEvent } from '../../src/server/store/types';

describe('storedJson', () => {
  it('equals JSON.stringify({...event, isReplay}) for any event, either way, on every call', () => {
    fc.assert(
      fc.property(
        fc.record({ type: fc.string(), data: fc.jsonValue(), sequence: fc.nat(), timestamp: fc.nat() }),
        fc.boolean(),
        (event: StoredEvent, isReplay) => {
          expect(storedJson(event, isReplay)).toBe(JSON.stringify({ ...event, isReplay }));
          // The second call reads the cache: still right, and for the other flag too.
          expect(storedJson(event, !isReplay)).toBe(JSON.stringify({ ...event, isReplay: !isReplay }));
        },
      ),
    );
  });
});
