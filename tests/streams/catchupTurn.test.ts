/**
 * One catch-up turn in the worker (issue 14 §1), in marble diagrams: the reply, then the stats;
 * no stats after a failed reply; `ask` without a session; a throw is a failure; unsubscribing
 * drops what is awaited. Subscriptions are asserted.
 */
import { throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { catchupTurn, type CatchupEvent } from '../../src/streams/catchupTurn';
import { ioOf } from './catchupIo';
import { asked_deploy, reply_expired, reply_urgent, stats_fresh } from '../fixtures/catchupReplies';

let scheduler: TestScheduler;
beforeEach(() => {
  scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
});

const V = {
  R: { kind: 'replied', result: reply_urgent },
  F: { kind: 'replied', result: reply_expired },
  S: { kind: 'stats', result: stats_fresh },
  A: { kind: 'answered', result: asked_deploy },
} satisfies Record<string, CatchupEvent>;

describe('catchupTurn', () => {
  it('in a session: the reply, then the stats read after it', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const chat = cold('--r|', { r: reply_urgent });
      const stats = cold('--s|', { s: stats_fresh });
      const io = ioOf({ chat: () => chat, stats: () => stats });
      expectObservable(catchupTurn(io, { sessionId: 's1', text: 'urgent?' })).toBe('--R-(S|)', V);
      expectSubscriptions(chat.subscriptions).toBe('^-!');
      expectSubscriptions(stats.subscriptions).toBe('--^-!');
      scheduler.flush();
      expect(io.log).toEqual(['chat(s1, urgent?)', 'stats(s1)']);
    });
  });

  it("a proposal's button answers it by id; a failed reply ends the turn without stats", () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answer = cold('-f|', { f: reply_expired });
      const io = ioOf({ answer: () => answer });
      expectObservable(catchupTurn(io, { sessionId: 's1', text: 'Mark these read', answer: { proposalId: 'p-1', confirm: true } })).toBe('-(F|)', V);
      expectSubscriptions(answer.subscriptions).toBe('^!');
      scheduler.flush();
      expect(io.log).toEqual(['answer(s1, p-1, true)']);
    });
  });

  it('without a session the question goes to ask', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const ask = cold('---a|', { a: asked_deploy });
      const io = ioOf({ ask: () => ask });
      expectObservable(catchupTurn(io, { sessionId: null, text: 'why did the deploy fail?' })).toBe('---(A|)', V);
      expectSubscriptions(ask.subscriptions).toBe('^--!');
      scheduler.flush();
      expect(io.log).toEqual(['ask(why did the deploy fail?)']);
    });
  });

  it('a call that throws is a failure with its message, not an error of the stream', () => {
    scheduler.run(({ expectObservable }) => {
      const io = ioOf({ chat: () => throwError(() => new Error('port closed')), ask: () => throwError(() => new Error('offline')) });
      expectObservable(catchupTurn(io, { sessionId: 's1', text: 'x' })).toBe('(F|)', {
        F: { kind: 'replied', result: { success: false, error: 'port closed' } },
      });
      expectObservable(catchupTurn(io, { sessionId: null, text: 'x' })).toBe('(A|)', { A: { kind: 'answered', result: { ok: false, error: 'offline' } } });
    });
  });

  it('unsubscribed (the member left): the awaited reply is dropped and the stats never read', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const chat = cold('----r|', { r: reply_urgent });
      const stats = cold('-s|', { s: stats_fresh });
      const io = ioOf({ chat: () => chat, stats: () => stats });
      expectObservable(catchupTurn(io, { sessionId: 's1', text: 'anything?' }), '--!').toBe('--', V);
      expectSubscriptions(chat.subscriptions).toBe('^-!');
      expectSubscriptions(stats.subscriptions).toBe([]);
    });
  });
});
