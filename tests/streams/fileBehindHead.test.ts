/**
 * A warm start's order (issue 14 §4), in marble diagrams: live events are held before anything else, the whole
 * copy is filed before they are released, a copy that is gone or unreadable releases them and asks for a
 * snapshot, a reload asked for meanwhile owns the list, and the session's end cancels the read. Subscriptions
 * are asserted.
 */
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { fileBehindHead, type FilingStep } from '../../src/streams/fileBehindHead';

let scheduler: TestScheduler;
beforeEach(() => {
  scheduler = new TestScheduler((actual, expected) => expect(actual).toStrictEqual(expected));
});

type Whole = { n: number };
const WHOLE: Whole = { n: 97_600 };
const steps = {
  h: { kind: 'hold' },
  f: { kind: 'file', state: WHOLE },
  r: { kind: 'release' },
  g: { kind: 'reload', reason: 'gone' },
} satisfies Record<string, FilingStep<Whole>>;

describe('fileBehindHead', () => {
  it('holds the live events at once, files the whole copy when it is read, then releases them', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const read = cold<Whole | null>('----w|', { w: WHOLE });
      expectObservable(
        fileBehindHead(
          () => read,
          () => false,
        ),
      ).toBe('h---(fr|)', steps);
      expectSubscriptions(read.subscriptions).toBe('^---!');
    });
  });

  it('reads the whole copy once: a read that answers more than once is taken at its first answer', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const read = cold<Whole | null>('--w--w|', { w: WHOLE });
      expectObservable(
        fileBehindHead(
          () => read,
          () => false,
        ),
      ).toBe('h-(fr|)', steps);
      expectSubscriptions(read.subscriptions).toBe('^-!');
    });
  });

  it('a copy that is gone (another tab wiped it) releases the events and asks for a snapshot', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const read = cold<Whole | null>('---n|', { n: null });
      expectObservable(
        fileBehindHead(
          () => read,
          () => false,
        ),
      ).toBe('h--(rg|)', steps);
      expectSubscriptions(read.subscriptions).toBe('^--!');
    });
  });

  it('a copy that cannot be read does the same, with the error for the log', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const failure = new Error('The transaction was aborted');
      const read = cold<Whole | null>('--#', undefined, failure);
      expectObservable(
        fileBehindHead(
          () => read,
          () => false,
        ),
      ).toBe('h-(ru|)', { ...steps, u: { kind: 'reload', reason: 'unreadable', error: failure } });
      expectSubscriptions(read.subscriptions).toBe('^-!');
    });
  });

  it('once the session asked for a reload (the server cannot replay), the whole copy is dropped and nothing is released', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      let reloading = false;
      scheduler.schedule(() => (reloading = true), 2);
      const read = cold<Whole | null>('----w|', { w: WHOLE });
      expectObservable(
        fileBehindHead(
          () => read,
          () => reloading,
        ),
      ).toBe('h---|', steps);
      expectSubscriptions(read.subscriptions).toBe('^---!');
    });
  });

  it('the session ends before the copy is read: the read is cancelled, nothing is filed', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const read = cold<Whole | null>('-----w|', { w: WHOLE });
      expectObservable(
        fileBehindHead(
          () => read,
          () => false,
        ),
        '^--!',
      ).toBe('h--', steps);
      expectSubscriptions(read.subscriptions).toBe('^--!');
    });
  });

  it('reads nothing before it is subscribed, and reads again for each subscription', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const read = cold<Whole | null>('-w|', { w: WHOLE });
      let reads = 0;
      const filing = fileBehindHead(
        () => {
          reads += 1;
          return read;
        },
        () => false,
      );
      expect(reads).toBe(0);
      expectObservable(filing).toBe('h(fr|)', steps);
      expectObservable(filing, '--^').toBe('--h(fr|)', steps);
      expectSubscriptions(read.subscriptions).toBe(['^!', '--^!']);
      scheduler.flush();
      expect(reads).toBe(2);
    });
  });
});
