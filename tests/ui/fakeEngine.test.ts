/**
 * The page tests' engine derives its commands and streams from EngineApi: one that is not written
 * out in the fake still exists, as a vitest mock with a default answer, so a new command of the
 * engine needs no edit of the fake.
 */
import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { command } from '../../src/ui/engine';
import { createFakeEngine } from './fakeEngine';

describe('the fake engine', () => {
  it('answers a command it does not write out with a mock resolving to undefined', async () => {
    const fake = createFakeEngine();
    expect(await command((api) => api.dmWith('U1'))).toBeUndefined();
    expect(fake.api.dmWith).toHaveBeenCalledWith('U1');
    fake.api.dmWith.mockResolvedValueOnce('D1');
    expect(await command((api) => api.dmWith('U1'))).toBe('D1');
  });

  it('opens a stream it does not write out: nothing is sent, and the handle unsubscribes and releases', async () => {
    createFakeEngine();
    const values: unknown[] = [];
    const handle = await command((api) => api.search(Comlink.proxy({ next: (v: unknown) => void values.push(v), error: () => {}, complete: () => {} })));
    expect(typeof handle).toBe('function');
    await handle();
    handle[Comlink.releaseProxy]();
    expect(values).toEqual([]);
  });

  it('keeps the commands it writes out', async () => {
    const fake = createFakeEngine({ flags: { aiEnabled: true } });
    expect(await command((api) => api.featureFlags())).toEqual({ aiEnabled: true });
    expect(fake.api.featureFlags).toHaveBeenCalledTimes(1);
  });
});
