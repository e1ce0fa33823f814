/**
 * The start of a catch-up in the worker (issue 14 §1), in marble diagrams: the session starts;
 * a question goes out 100 ms later as a turn (or to ask, with no session); a member who leaves
 * before the start answered has that session ended and the question never sent. Subscriptions
 * are asserted.
 */
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { catchupBegin } from '../../src/streams/catchupBegin';
import type { CatchupEvent } from '../../src/streams/catchupTurn';
import { asked_deploy, reply_urgent, started_caughtUp, started_failed, started_session, stats_fresh } from '../fixtures/catchupReplies';
import { ioOf } from './catchupIo';

let scheduler: TestScheduler;
beforeEach(() => {
  scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
});

const V = {
  B: { kind: 'started', result: started_session },
  C: { kind: 'started', result: started_caughtUp },
  X: { kind: 'started', result: started_failed },
  Q: { kind: 'asked', text: 'summarize urgent messages' },
  R: { kind: 'replied', result: reply_urgent },
  S: { kind: 'stats', result: stats_fresh },
  A: { kind: 'answered', result: asked_deploy },
} satisfies Record<string, CatchupEvent>;

describe('catchupBegin', () => {
  it('without a question: the start, and nothing more', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const start = cold('--b|', { b: started_session });
      const io = ioOf({ start: () => start });
      expectObservable(catchupBegin(io, undefined, scheduler)).toBe('--(B|)', V);
      expectObservable(catchupBegin(io, '   ', scheduler)).toBe('--(B|)', V);
      expectSubscriptions(start.subscriptions).toBe(['^-!', '^-!']);
    });
  });

  it('with a question: sent 100 ms after the session started, then its reply and the stats', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const start = cold('-b|', { b: started_session });
      const chat = cold('-r|', { r: reply_urgent });
      const stats = cold('-s|', { s: stats_fresh });
      const io = ioOf({ start: () => start, chat: () => chat, stats: () => stats });
      expectObservable(catchupBegin(io, ' summarize urgent messages ', scheduler)).toBe('-B 99ms QR(S|)', V);
      expectSubscriptions(start.subscriptions).toBe('^!');
      expectSubscriptions(chat.subscriptions).toBe('- 100ms ^!');
      expectSubscriptions(stats.subscriptions).toBe('- 101ms ^!');
      scheduler.flush();
      expect(io.log).toEqual(['start()', 'chat(s1, summarize urgent messages)', 'stats(s1)']);
    });
  });

  it('no session (caught up, or the start failed): the question goes to ask', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const ask = cold('--a|', { a: asked_deploy });
      expectObservable(catchupBegin(ioOf({ start: () => cold('-c|', { c: started_caughtUp }), ask: () => ask }), 'summarize urgent messages', scheduler)).toBe(
        '-C 99ms Q-(A|)',
        V,
      );
      expectObservable(catchupBegin(ioOf({ start: () => cold('-x|', { x: started_failed }), ask: () => ask }), 'summarize urgent messages', scheduler)).toBe(
        '-X 99ms Q-(A|)',
        V,
      );
    });
  });

  it('left before the start answered: the start is still awaited, its session ended at once, the question never sent', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const start = cold('---b|', { b: started_session });
      const end = cold('--e|', { e: { success: true } });
      const io = ioOf({ start: () => start, end: () => end });
      expectObservable(catchupBegin(io, 'summarize urgent messages', scheduler), '-!').toBe('-', V);
      expectSubscriptions(start.subscriptions).toBe('^--!');
      expectSubscriptions(end.subscriptions).toBe('---^-!');
      scheduler.flush();
      expect(io.log).toEqual(['start()', 'end(s1)']);
    });
  });

  it('left while the question waits: nothing is sent, and the session is the page’s to end', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const start = cold('-b|', { b: started_session });
      const io = ioOf({ start: () => start });
      expectObservable(catchupBegin(io, 'summarize urgent messages', scheduler), '- 50ms !').toBe('-B', V);
      expectSubscriptions(start.subscriptions).toBe('^!');
      scheduler.flush();
      expect(io.log).toEqual(['start()']);
    });
  });
});
