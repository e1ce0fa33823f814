/**
 * Undo of the catch-up's last 'mark these read' in the worker (issue 14 §1), in marble diagrams:
 * every conversation restored side by side, then the stats, then whether all worked. Subscriptions
 * are asserted.
 */
import { throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CatchupMarked } from '../../src/model/ai';
import { catchupUndo } from '../../src/streams/catchupUndo';
import type { CatchupEvent } from '../../src/streams/catchupTurn';
import { stats_failed, stats_fresh } from '../fixtures/catchupReplies';
import { ioOf } from './catchupIo';

let scheduler: TestScheduler;
beforeEach(() => {
  scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
});

const MARKED: CatchupMarked[] = [
  { conversation_id: 'C1', last_read: '1.000100' },
  { conversation_id: 'C2', last_read: '2.000200' },
];

const V = {
  S: { kind: 'stats', result: stats_fresh },
  E: { kind: 'stats', result: stats_failed },
  U: { kind: 'undone', ok: true },
  N: { kind: 'undone', ok: false },
} satisfies Record<string, CatchupEvent>;

describe('catchupUndo', () => {
  it('restores every conversation at once, then reads the stats, then says it worked', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const one = cold('-t|', { t: true });
      const two = cold('--t|', { t: true });
      const stats = cold('-s|', { s: stats_fresh });
      const io = ioOf({ markUnread: (id) => (id === 'C1' ? one : two), stats: () => stats });
      expectObservable(catchupUndo(io, 's1', MARKED)).toBe('---(SU|)', V);
      expectSubscriptions(one.subscriptions).toBe('^!');
      expectSubscriptions(two.subscriptions).toBe('^-!');
      expectSubscriptions(stats.subscriptions).toBe('--^!');
      scheduler.flush();
      expect(io.log).toEqual(['markUnread(C1, 1.000100)', 'markUnread(C2, 2.000200)', 'stats(s1)']);
    });
  });

  it('one that failed (false, or a throw) makes it not all worked; the stats are read all the same', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const stats = () => cold('-e|', { e: stats_failed });
      expectObservable(catchupUndo(ioOf({ markUnread: (id) => cold('-x|', { x: id === 'C1' }), stats }), 's1', MARKED)).toBe('--(EN|)', V);
      expectObservable(
        catchupUndo(ioOf({ markUnread: (id) => (id === 'C1' ? cold('-t|', { t: true }) : throwError(() => new Error('gone'))), stats }), 's1', MARKED),
      ).toBe('--(EN|)', V);
    });
  });

  it('with no session left, no stats; with nothing to restore, done at once', () => {
    scheduler.run(({ cold, expectObservable }) => {
      expectObservable(catchupUndo(ioOf({ markUnread: () => cold('-t|', { t: true }) }), null, MARKED)).toBe('-(U|)', V);
      expectObservable(catchupUndo(ioOf({}), null, [])).toBe('(U|)', V);
    });
  });
});
