/**
 * The outbox's drain (issue 14 §3), in marble diagrams: in order, one at a time, only while
 * online; an action that fails for a passing reason is retried at the head (nothing overtakes
 * it); a refusal leaves the queue and is reported; 401 stops. Subscriptions are asserted.
 */
import { BehaviorSubject, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import type { HttpError } from '../../src/model/types';
import { drainOutbox, isTransient, type OutboxResult } from '../../src/streams/outbox';

interface Entry {
  id: string;
}

let scheduler: TestScheduler;
beforeEach(() => {
  scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
});

const NETWORK: HttpError = { isNetworkError: true, status: 0, message: 'Failed to fetch' };
const REFUSED: HttpError = { isNetworkError: false, status: 403, message: 'not_in_channel' };
const SIGNED_OUT: HttpError = { isNetworkError: false, status: 401, message: 'Unauthorized' };

/** A queue the way the engine holds it, with what became of each action recorded. */
function queueOf(ids: string[]) {
  const queue = new BehaviorSubject<readonly Entry[]>(ids.map((id) => ({ id })));
  return {
    queue,
    sources: {
      queue$: queue,
      current: () => queue.value,
      remove: (entry: Entry) => queue.next(queue.value.filter((e) => e !== entry)),
      random: () => 0,
    },
    enqueue: (id: string) => queue.next([...queue.value, { id }]),
  };
}

const sent = (id: string): OutboxResult<Entry> => ({ kind: 'sent', entry: { id } });

describe('drainOutbox', () => {
  it('sends in order, one at a time, each after the one before answered', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const { sources, queue } = queueOf(['a', 'b', 'c']);
      const answers: Record<string, ReturnType<typeof cold>> = { a: cold('--x|'), b: cold('-x|'), c: cold('---x|') };
      const online = hot('t', { t: true });
      const out = drainOutbox({ ...sources, online$: online, perform: (e) => answers[e.id] as Observable<unknown> }, scheduler);
      expectObservable(out).toBe('--ab--c', { a: sent('a'), b: sent('b'), c: sent('c') });
      // Each action is asked for only once its predecessor answered.
      expectSubscriptions(answers.a!.subscriptions).toBe('^-!');
      expectSubscriptions(answers.b!.subscriptions).toBe('--^!');
      expectSubscriptions(answers.c!.subscriptions).toBe('---^--!');
      scheduler.flush();
      expect(queue.value).toEqual([]);
    });
  });

  it('waits while offline and starts at once when the connection comes back', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const { sources } = queueOf(['a']);
      const answer = cold('-x|');
      const online = hot('f---t', { f: false, t: true });
      const out = drainOutbox({ ...sources, online$: online, perform: () => answer }, scheduler);
      expectObservable(out).toBe('-----a', { a: sent('a') });
      expectSubscriptions(answer.subscriptions).toBe('----^!');
    });
  });

  it('an action taken while the drain runs is sent in the same drain, after the others', () => {
    scheduler.run(({ cold, hot, expectObservable }) => {
      const q = queueOf(['a']);
      const online = hot('t', { t: true });
      const out = drainOutbox({ ...q.sources, online$: online, perform: () => cold('--x|') }, scheduler);
      scheduler.schedule(() => q.enqueue('b'), 1);
      expectObservable(out).toBe('--a-b', { a: sent('a'), b: sent('b') });
    });
  });

  it('a passing failure keeps the action at the head: it is retried after the backoff and nothing overtakes it', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const { sources, queue } = queueOf(['a', 'b']);
      const online = hot('t', { t: true });
      const failThenOk = [cold('-#', undefined, NETWORK), cold('-x|')];
      let tries = 0;
      const b = cold('-x|');
      const perform = (e: Entry) => (e.id === 'a' ? failThenOk[tries++]! : b);
      const out = drainOutbox({ ...sources, online$: online, perform }, scheduler);
      // Fails at 1 ms; the first retry waits 500 ms (SPEC §9's first reconnect delay); b follows a.
      expectObservable(out).toBe('502ms a b', { a: sent('a'), b: sent('b') });
      expectSubscriptions(b.subscriptions).toBe('502ms ^!');
      scheduler.flush();
      expect(tries).toBe(2);
      expect(queue.value).toEqual([]);
    });
  });

  it('a refusal leaves the queue and is reported; the next action goes on', () => {
    scheduler.run(({ cold, hot, expectObservable }) => {
      const { sources, queue } = queueOf(['a', 'b']);
      const online = hot('t', { t: true });
      const perform = (e: Entry) => (e.id === 'a' ? cold('-#', undefined, REFUSED) : cold('-x|'));
      const out = drainOutbox({ ...sources, online$: online, perform }, scheduler);
      expectObservable(out).toBe('-ab', { a: { kind: 'refused', entry: { id: 'a' }, error: REFUSED }, b: sent('b') });
      scheduler.flush();
      expect(queue.value).toEqual([]);
    });
  });

  it('401 stops the drain and leaves the queue to the engine (which wipes it with the copy)', () => {
    scheduler.run(({ cold, hot, expectObservable }) => {
      const { sources, queue } = queueOf(['a', 'b']);
      const online = hot('t', { t: true });
      const b = cold('-x|');
      const perform = (e: Entry) => (e.id === 'a' ? cold('-#', undefined, SIGNED_OUT) : b);
      const out = drainOutbox({ ...sources, online$: online, perform }, scheduler);
      expectObservable(out).toBe('-a', { a: { kind: 'unauthorized', entry: { id: 'a' }, error: SIGNED_OUT } });
      scheduler.flush();
      expect(b.subscriptions).toEqual([]);
      expect(queue.value.map((e) => e.id)).toEqual(['a', 'b']);
    });
  });

  it('going offline in the middle cancels the attempt in flight; it is sent again (once) when back', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const { sources } = queueOf(['a']);
      const answer = cold('---x|');
      const online = hot('t-f--t', { t: true, f: false });
      const out = drainOutbox({ ...sources, online$: online, perform: () => answer }, scheduler);
      expectObservable(out).toBe('--------a', { a: sent('a') });
      expectSubscriptions(answer.subscriptions).toBe(['^-!', '-----^--!']);
    });
  });
});

describe('isTransient', () => {
  it.each([
    [NETWORK, true],
    [{ isNetworkError: false, status: 503, message: '' }, true],
    [{ isNetworkError: false, status: 429, message: '' }, true],
    [{ isNetworkError: false, status: 408, message: '' }, true],
    [REFUSED, false],
    [{ isNetworkError: false, status: 400, message: '' }, false],
    [SIGNED_OUT, false],
  ])('%j → %s', (error, transient) => {
    expect(isTransient(error)).toBe(transient);
  });
});
