import { NEVER } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/model/logger';
import type { LiveEvent } from '../../src/model/types';
import { liveEvents, type LiveEventsOutput } from '../../src/streams/liveEvents';
import {
  asReplay,
  connectionAt,
  connection_seq0,
  conversationUpdate_label,
  fetchComplete,
  messageUpdate_channelMarked,
  messageUpdate_newMessage,
  messageUpdate_threadNewMessage,
  replayComplete,
  sseMessage,
} from '../fixtures/events';

type Sse = { data: string; id?: string };

/** Incoming SSE messages. Lower case: events (sequence in brackets); j unparseable; w invalid shape. */
const IN: Record<string, Sse> = {
  a: sseMessage(messageUpdate_newMessage), // [1]
  b: sseMessage(messageUpdate_threadNewMessage), // [2]
  k: sseMessage(messageUpdate_channelMarked), // [3]
  l: sseMessage(conversationUpdate_label), // [4]
  f: sseMessage(fetchComplete), // [5]
  x: sseMessage(connection_seq0), // currentSequence 0
  y: sseMessage(connectionAt(4)), // currentSequence 4
  z: sseMessage(replayComplete),
  p: sseMessage(asReplay(messageUpdate_newMessage)), // [1], replayed
  q: sseMessage(asReplay(messageUpdate_threadNewMessage)), // [2], replayed
  j: { data: '{"type":"message_update", "sequence": 9' },
  w: { data: '{"sequence": 9, "data": {}}' },
};

const event = (e: LiveEvent, isReplay = false): LiveEventsOutput => ({ kind: 'event', event: e, isReplay });

/** Outputs. Upper case: the event applied; digit n: lastSequence n; r/n: replaying on/off. */
const OUT: Record<string, LiveEventsOutput> = {
  A: event(messageUpdate_newMessage),
  B: event(messageUpdate_threadNewMessage),
  K: event(messageUpdate_channelMarked),
  L: event(conversationUpdate_label),
  F: event(fetchComplete),
  X: event(connection_seq0),
  Y: event(connectionAt(4)),
  Z: event(replayComplete),
  P: event(asReplay(messageUpdate_newMessage), true),
  Q: event(asReplay(messageUpdate_threadNewMessage), true),
  r: { kind: 'replaying', replaying: true },
  n: { kind: 'replaying', replaying: false },
};
for (let s = 0; s <= 5; s++) OUT[String(s)] = { kind: 'sequence', lastSequence: s };

const LOADING = { t: true, f: false };

describe('liveEvents', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('applies events in order and drops any at or below the last applied sequence', () => {
    testScheduler.run(({ hot, expectObservable, expectSubscriptions }) => {
      const log = memoryLogger();
      const messages$ = hot('^a----b----a----k----b----l', IN);
      const expected = '     -(A1)-(B2)------(K3)----';
      const unsub = '        ^ 23ms !';

      expectObservable(liveEvents({ messages$, loading$: NEVER, log }, testScheduler), unsub).toBe(expected, OUT);
      // Unsubscribed early, at 24: l (at 26) is never seen.
      expectSubscriptions(messages$.subscriptions).toBe(unsub);
      testScheduler.flush();
      expect(log.entries).toEqual([]);
    });
  });

  it('drops events at or below an initial sequence already known', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const messages$ = hot('^a----b----k', IN);
      const expected = '     -----------(K3)';

      const out$ = liveEvents({ messages$, loading$: NEVER, log: memoryLogger(), initialSequence: 2 }, testScheduler);
      expectObservable(out$).toBe(expected, OUT);
    });
  });

  it('turns the replay flag on with replayed events and off at replay_complete, reporting changes only', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const messages$ = hot('^p-----q-----z-----k-----z', IN);
      const expected = '     -(rP1)-(Q2)--(nZ)--(K3)--Z';

      expectObservable(liveEvents({ messages$, loading$: NEVER, log: memoryLogger() }, testScheduler)).toBe(expected, OUT);
    });
  });

  it('turns the replay flag on even when the replayed event is a duplicate, without applying it', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const messages$ = hot('^p-----q-----z', IN);
      const expected = '     -r-----(Q2)--(nZ)';

      const out$ = liveEvents({ messages$, loading$: NEVER, log: memoryLogger(), initialSequence: 1 }, testScheduler);
      expectObservable(out$).toBe(expected, OUT);
    });
  });

  it('holds events while loading and releases them in order, dropping duplicates at release', () => {
    testScheduler.run(({ hot, expectObservable, expectSubscriptions }) => {
      const loading$ = hot(' t-------f-----------t-----f', LOADING);
      const messages$ = hot('^-a-b-a---------k-----l----', IN);
      const expected = '     --------(A1B2)--(K3)------(L4)';

      expectObservable(liveEvents({ messages$, loading$, log: memoryLogger() }, testScheduler)).toBe(expected, OUT);
      expectSubscriptions(loading$.subscriptions).toBe('^');
    });
  });

  it('at release, drops held events at or below the known sequence and keeps the replay flag in order', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const loading$ = hot(' t-------f', LOADING);
      const messages$ = hot('^a-p-q-z', IN);
      const expected = '     --------(rQ2nZ)';

      const out$ = liveEvents({ messages$, loading$, log: memoryLogger(), initialSequence: 1 }, testScheduler);
      expectObservable(out$).toBe(expected, OUT);
    });
  });

  it('logs an unparseable message as an error and goes on', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const log = memoryLogger();
      const messages$ = hot('^j-a', IN);
      const expected = '     ---(A1)';

      expectObservable(liveEvents({ messages$, loading$: NEVER, log }, testScheduler)).toBe(expected, OUT);
      testScheduler.flush();
      expect(log.entries).toEqual([{ level: 'error', message: 'Live event is not JSON; ignored', meta: expect.objectContaining({ data: IN.j!.data }) }]);
    });
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"message_update"'],
    ['null', 'null'],
    ['no type', '{"sequence": 9, "data": {}}'],
    ['a non-string type', '{"type": 7, "data": {}}'],
    ['a negative sequence', '{"type": "message_update", "sequence": -1, "data": {}}'],
    ['a fractional sequence', '{"type": "message_update", "sequence": 1.5, "data": {}}'],
    ['a string sequence', '{"type": "message_update", "sequence": "9", "data": {}}'],
    ['a null sequence', '{"type": "message_update", "sequence": null, "data": {}}'],
    ['a connection without currentSequence', '{"type": "connection", "data": {}}'],
  ])('warns about and ignores an event with %s', (_name, data) => {
    testScheduler.run(({ hot, expectObservable }) => {
      const log = memoryLogger();
      const messages$ = hot('^w-a', { ...IN, w: { data } });
      const expected = '     ---(A1)';

      expectObservable(liveEvents({ messages$, loading$: NEVER, log }, testScheduler)).toBe(expected, OUT);
      testScheduler.flush();
      expect(log.entries).toEqual([{ level: 'warn', message: 'Live event has an invalid shape; ignored', meta: { data } }]);
    });
  });

  it("takes a connection event's currentSequence as the last sequence only while none is known", () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const messages$ = hot('^x----a----x----y----b', IN);
      const expected = '     -(X0)-(A1)-X----Y----(B2)';

      expectObservable(liveEvents({ messages$, loading$: NEVER, log: memoryLogger() }, testScheduler)).toBe(expected, OUT);
    });
  });

  it('after a connection announcing sequence 4, events up to 4 are duplicates', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const messages$ = hot('^y----a----l----f', IN);
      const expected = '     -(Y4)-----------(F5)';

      expectObservable(liveEvents({ messages$, loading$: NEVER, log: memoryLogger() }, testScheduler)).toBe(expected, OUT);
    });
  });

  it('never drops events without a sequence (connection, replay_complete)', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const messages$ = hot('^z-z-x-x-f', IN);
      const expected = '     -Z-Z-X-X--';

      const out$ = liveEvents({ messages$, loading$: NEVER, log: memoryLogger(), initialSequence: 5 }, testScheduler);
      expectObservable(out$).toBe(expected, OUT);
    });
  });

  it('handles each event in its own error boundary: a throw skips that event only', () => {
    testScheduler.run(({ hot, expectObservable, expectSubscriptions }) => {
      const errors: string[] = [];
      const log = {
        warn: () => {
          throw new Error('logger down');
        },
        error: (message: string) => void errors.push(message),
      };
      const messages$ = hot('^w-a-w-b', IN);
      const expected = '     ---(A1)(B2)';

      expectObservable(liveEvents({ messages$, loading$: NEVER, log }, testScheduler)).toBe(expected, OUT);
      expectSubscriptions(messages$.subscriptions).toBe('^');
      testScheduler.flush();
      expect(errors).toEqual(['Live event handling failed; event skipped', 'Live event handling failed; event skipped']);
    });
  });
});
