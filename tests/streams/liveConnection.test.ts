import { NEVER, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LiveStatus } from '../../src/model/types';
import { liveConnection, type LiveCommand, type LiveOutput, type SseSignal } from '../../src/streams/liveConnection';
import { conversationUpdate_label, messageUpdate_newMessage, sseMessage } from '../fixtures/events';

const state = (status: LiveStatus, attempt = 0, reason?: 'max_attempts'): LiveOutput => ({
  kind: 'state',
  state: reason ? { status, attempt, reason } : { status, attempt },
});

const msgA = sseMessage(messageUpdate_newMessage);
const msgB = sseMessage(conversationUpdate_label);

/** Signals of one connection: o opened, m/n messages. */
const SIG: Record<string, SseSignal> = {
  o: { type: 'open' },
  m: { type: 'message', ...msgA },
  n: { type: 'message', ...msgB },
};

/**
 * Outputs: digit k = connecting after k failures; a…j = error after 1…10 failures;
 * C connected, D disconnected, U unauthenticated, F failed (max_attempts); m/n messages.
 */
const OUT: Record<string, LiveOutput> = {
  C: state('connected'),
  D: state('disconnected'),
  U: state('unauthenticated'),
  F: state('failed', 10, 'max_attempts'),
  m: { kind: 'message', ...msgA },
  n: { kind: 'message', ...msgB },
};
for (let k = 0; k <= 9; k++) OUT[String(k)] = state('connecting', k);
for (let k = 1; k <= 10; k++) OUT['abcdefghij'[k - 1]!] = state('error', k);

const CMD: Record<string, LiveCommand> = { c: 'connect', d: 'disconnect', r: 'reset' };

/** An open() that hands out the given connections in turn (the last one repeats) and records its calls. */
function opener(...connections: Observable<SseSignal>[]) {
  const calls: Array<[string, number | undefined]> = [];
  const open = (session: string, lastSequence: number | undefined) => {
    calls.push([session, lastSequence]);
    return connections[Math.min(calls.length, connections.length) - 1]!;
  };
  return { open, calls };
}

describe('liveConnection', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('connects at once with the session, reports connected on open and forwards messages', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const session$ = cold('        t', { t: 'tok' });
      const conn = cold('          --o--m--n', SIG);
      const expected = '           0-C--m--n';
      const unsub = '              ^-----------!';
      const { open, calls } = opener(conn);

      const out$ = liveConnection({ session$, command$: NEVER, lastSequence$: NEVER, open }, testScheduler);

      expectObservable(out$, unsub).toBe(expected, OUT);
      expectSubscriptions(conn.subscriptions).toBe('^-----------!');
      expectSubscriptions(session$.subscriptions).toBe('^-----------!');
      testScheduler.flush();
      expect(calls).toEqual([['tok', undefined]]);
    });
  });

  it('backs off 500, 1000, 2000 … 30000 ms with random() = 0, fails after 10 attempts, stays failed, and reset reconnects', () => {
    testScheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const fail = cold<SseSignal>('#');
      const ok = cold('o', SIG);
      const { open, calls } = opener(...Array<Observable<SseSignal>>(10).fill(fail), ok);
      const command$ = hot('^ 199999ms r', CMD);
      const expected = '(0a) 496ms (1b) 996ms (2c) 1996ms (3d) 3996ms (4e) 7996ms (5f) 15996ms (6g) 29996ms (7h) 29996ms (8i) 29996ms (9F) 78496ms (0C)';
      const unsub = '^ 200009ms !';

      const out$ = liveConnection({ session$: cold('t', { t: 'tok' }), command$, lastSequence$: NEVER, open, random: () => 0 }, testScheduler);

      expectObservable(out$, unsub).toBe(expected, OUT);
      // Ten attempts at 0, 0.5, 1.5, 3.5, 7.5, 15.5, 31.5, 61.5, 91.5, 121.5 s; none while failed.
      expectSubscriptions(fail.subscriptions).toBe([
        '(^!)',
        '500ms (^!)',
        '1500ms (^!)',
        '3500ms (^!)',
        '7500ms (^!)',
        '15500ms (^!)',
        '31500ms (^!)',
        '61500ms (^!)',
        '91500ms (^!)',
        '121500ms (^!)',
      ]);
      expectSubscriptions(ok.subscriptions).toBe('200000ms ^ 9ms !');
      expectSubscriptions(command$.subscriptions).toBe('^ 200009ms !');
      testScheduler.flush();
      expect(calls).toHaveLength(11);
    });
  });

  it('adds at most 30% jitter: with random() = 0.999 the waits are 650, 1300, 2599 … 38991 ms', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const { open } = opener(cold<SseSignal>('#'));
      const expected = '(0a) 646ms (1b) 1296ms (2c) 2595ms (3d) 5195ms (4e) 10394ms (5f) 20791ms (6g) 38987ms (7h) 38987ms (8i) 38987ms (9F)';

      const out$ = liveConnection({ session$: cold('t', { t: 'tok' }), command$: NEVER, lastSequence$: NEVER, open, random: () => 0.999 }, testScheduler);

      expectObservable(out$, '^ 10m !').toBe(expected, OUT);
    });
  });

  it('resets the attempt counter and the delay after a successful open', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const fail = cold<SseSignal>('#');
      const openThenFail = cold('--o--#', SIG);
      const ok = cold('o', SIG);
      const { open } = opener(fail, fail, openThenFail, fail, ok);
      // 2 failures (waits 500, 1000); open; failure 1 again waits 500, failure 2 waits 1000.
      const expected = '(0a) 496ms (1b) 996ms 2-C--a 499ms (1b) 996ms (2C)';

      const out$ = liveConnection({ session$: cold('t', { t: 'tok' }), command$: NEVER, lastSequence$: NEVER, open, random: () => 0 }, testScheduler);

      expectObservable(out$, '^ 4s !').toBe(expected, OUT);
      expectSubscriptions(openThenFail.subscriptions).toBe('1500ms ^----!');
      expectSubscriptions(ok.subscriptions).toBe('3005ms ^ 995ms !');
    });
  });

  it('treats the server closing the stream like an error', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const conn = cold('    --o--|', SIG);
      const expected = '     0-C--a 499ms 1-C--a 499ms 1-C--a';
      const { open } = opener(conn);

      const out$ = liveConnection({ session$: cold('t', { t: 'tok' }), command$: NEVER, lastSequence$: NEVER, open, random: () => 0 }, testScheduler);

      expectObservable(out$, '^ 1020ms !').toBe(expected, OUT);
      expectSubscriptions(conn.subscriptions).toBe(['^----!', '505ms ^----!', '1010ms ^----!']);
    });
  });

  it("waits at least the server's retry: after that connection (a stopping server spreads its clients' returns)", () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const stopping = cold<SseSignal>('--o-r-|', { ...SIG, r: { type: 'retry', ms: 3_000 } });
      const back = cold('o', SIG);
      const { open } = opener(stopping, back);
      // The retry is not a message; the wait after the end is 3 s, not the backoff's 500 ms.
      const expected = '0-C---a 2999ms (1C)';

      const out$ = liveConnection({ session$: cold('t', { t: 'tok' }), command$: NEVER, lastSequence$: NEVER, open, random: () => 0 }, testScheduler);

      expectObservable(out$, '^ 4s !').toBe(expected, OUT);
      expectSubscriptions(stopping.subscriptions).toBe('^-----!');
      expectSubscriptions(back.subscriptions).toBe('3006ms ^ 994ms !');
    });
  });

  it("after the server's retry:, a return it still turns away draws again over the restart window, until a connection opens", () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const stopping = cold<SseSignal>('--o-r-|', { ...SIG, r: { type: 'retry', ms: 3_000 } });
      const down = cold<SseSignal>('#');
      const back = cold<SseSignal>('o---|', SIG);
      const after = cold<SseSignal>('o', SIG);
      const { open } = opener(stopping, down, down, back, after);
      // With random() 0.5: each failed return waits a draw over the restart window, 1 s + 0.5 × 10 s = 6 s (not the
      // backoff's 1.15 s, then 2.3 s); once a connection opened, its end waits the backoff's 575 ms again.
      const expected = '0-C---a 2999ms (1b) 5996ms (2c) 5996ms (3C)a 574ms (1C)';

      const out$ = liveConnection({ session$: cold('t', { t: 'tok' }), command$: NEVER, lastSequence$: NEVER, open, random: () => 0.5 }, testScheduler);

      expectObservable(out$, '^ 16s !').toBe(expected, OUT);
      expectSubscriptions(stopping.subscriptions).toBe('^-----!');
      expectSubscriptions(down.subscriptions).toBe(['3006ms (^!)', '9006ms (^!)']);
      expectSubscriptions(back.subscriptions).toBe('15006ms ^---!');
      expectSubscriptions(after.subscriptions).toBe('15585ms ^ 415ms !');
    });
  });

  it('a retry: shorter than the backoff does not shorten it, and one over a minute waits a minute', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const short = cold<SseSignal>('-r-|', { r: { type: 'retry', ms: 100 } });
      const long = cold<SseSignal>('-r-|', { r: { type: 'retry', ms: 600_000 } });
      const back = cold('o', SIG);
      const { open } = opener(short, long, back);
      const expected = '0--a 499ms 1--b 59999ms (2C)';

      const out$ = liveConnection({ session$: cold('t', { t: 'tok' }), command$: NEVER, lastSequence$: NEVER, open, random: () => 0 }, testScheduler);

      expectObservable(out$, '^ 61s !').toBe(expected, OUT);
      expectSubscriptions(short.subscriptions).toBe('^--!');
      expectSubscriptions(long.subscriptions).toBe('503ms ^--!');
      expectSubscriptions(back.subscriptions).toBe('60506ms ^ 494ms !');
    });
  });

  it('keeps a throwing open() local: it is a failed attempt', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      let calls = 0;
      const open = (): Observable<SseSignal> => {
        calls += 1;
        throw new Error('network down');
      };
      const out$ = liveConnection({ session$: cold('t', { t: 'tok' }), command$: NEVER, lastSequence$: NEVER, open, random: () => 0 }, testScheduler);

      expectObservable(out$, '^ 1600ms !').toBe('(0a) 496ms (1b) 996ms (2c)', OUT);
      testScheduler.flush();
      expect(calls).toBe(3);
    });
  });

  it('disconnect tears the connection down; the 5 s check reconnects with a fresh counter', () => {
    testScheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const command$ = hot('^---------d', CMD);
      const conn = cold('     --o', SIG);
      const expected = '      0-C-------D 4999ms 0-C';
      const { open, calls } = opener(conn);

      const out$ = liveConnection({ session$: cold('t', { t: 'tok' }), command$, lastSequence$: NEVER, open }, testScheduler);

      expectObservable(out$, '^ 5999ms !').toBe(expected, OUT);
      expectSubscriptions(conn.subscriptions).toBe(['^---------!', '5010ms ^ 989ms !']);
      testScheduler.flush();
      expect(calls).toEqual([
        ['tok', undefined],
        ['tok', undefined],
      ]);
    });
  });

  it('disconnect during the backoff wait cancels the pending retry', () => {
    testScheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const command$ = hot('^ 99ms d', CMD);
      const fail = cold<SseSignal>('#');
      const expected = '(0a) 96ms D 4999ms (0a)';
      const { open } = opener(fail);

      const out$ = liveConnection({ session$: cold('t', { t: 'tok' }), command$, lastSequence$: NEVER, open, random: () => 0 }, testScheduler);

      expectObservable(out$, '^ 5200ms !').toBe(expected, OUT);
      // No attempt at 500 ms: the next is the check's, at 100 + 5000 ms.
      expectSubscriptions(fail.subscriptions).toBe(['(^!)', '5100ms (^!)']);
    });
  });

  it('without a session: unauthenticated, and open() is never called, not even by connect or the check', () => {
    testScheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const session$ = cold('n', { n: null });
      const command$ = hot('^ 99ms c', CMD);
      const expected = '     U 99ms U';
      const { open, calls } = opener(cold('o', SIG));

      const out$ = liveConnection({ session$, command$, lastSequence$: NEVER, open }, testScheduler);

      expectObservable(out$, '^ 20s !').toBe(expected, OUT);
      expectSubscriptions(session$.subscriptions).toBe('^ 20s !');
      testScheduler.flush();
      expect(calls).toEqual([]);
    });
  });

  it('a new session restarts from scratch (even mid-backoff); the same session again does not', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const session$ = cold('  t 99ms t 99ms u', { t: 'tok1', u: 'tok2' });
      const first = cold('   --o--#', SIG);
      const second = cold('  --o', SIG);
      const expected = '     0-C--a 194ms 0-C';
      const { open, calls } = opener(first, second);

      const out$ = liveConnection({ session$, command$: NEVER, lastSequence$: NEVER, open, random: () => 0 }, testScheduler);

      expectObservable(out$, '^ 999ms !').toBe(expected, OUT);
      expectSubscriptions(first.subscriptions).toBe('^----!');
      expectSubscriptions(second.subscriptions).toBe('200ms ^ 799ms !');
      testScheduler.flush();
      // No retry of tok1 at 505 ms: the new session cancelled it, and started again at attempt 0.
      expect(calls).toEqual([
        ['tok1', undefined],
        ['tok2', undefined],
      ]);
    });
  });

  it('a session arriving while unauthenticated connects at once', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const session$ = cold('n 99ms t', { n: null, t: 'tok' });
      const expected = '   U 99ms 0-C';
      const { open } = opener(cold('--o', SIG));

      const out$ = liveConnection({ session$, command$: NEVER, lastSequence$: NEVER, open }, testScheduler);

      expectObservable(out$, '^ 200ms !').toBe(expected, OUT);
    });
  });

  it('connect during the backoff wait starts a fresh attempt at once', () => {
    testScheduler.run(({ cold, hot, expectObservable }) => {
      const command$ = hot('^ 2000ms c', CMD);
      const fail = cold<SseSignal>('#');
      const { open } = opener(fail, fail, fail, cold('--o', SIG));
      // Failures at 0, 500 and 1500 ms; the retry due at 1500 + 1000 ms is replaced by connect at 2001 ms.
      const expected = '(0a) 496ms (1b) 996ms (2c) 497ms 0-C';

      const out$ = liveConnection({ session$: cold('t', { t: 'tok' }), command$, lastSequence$: NEVER, open, random: () => 0 }, testScheduler);

      expectObservable(out$, '^ 3s !').toBe(expected, OUT);
    });
  });

  it('passes the latest known lastSequence to open() at each attempt', () => {
    testScheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const lastSequence$ = cold('a 999ms b 1999ms c', { a: undefined, b: 7, c: 9 });
      const command$ = hot('^ 3999ms r', CMD);
      const first = cold('       --o 1500ms #', SIG);
      const later = cold('       --o', SIG);
      // Opens at 0; the stream dies at 1503; the retry at 2003 asks from 7; reset at 4000 asks from 9.
      const expected = '         0-C 1500ms a 499ms 1-C 1994ms 0-C';
      const { open, calls } = opener(first, later);

      const out$ = liveConnection({ session$: cold('t', { t: 'tok' }), command$, lastSequence$, open, random: () => 0 }, testScheduler);

      expectObservable(out$, '^ 4999ms !').toBe(expected, OUT);
      expectSubscriptions(lastSequence$.subscriptions).toBe('^ 4999ms !');
      expectSubscriptions(later.subscriptions).toBe(['2003ms ^ 1996ms !', '4000ms ^ 999ms !']);
      testScheduler.flush();
      expect(calls).toEqual([
        ['tok', undefined],
        ['tok', 7],
        ['tok', 9],
      ]);
    });
  });
});
