/** Marble specs of the search pipeline (SPEC §4.10, issue 5 §2). */
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/model/logger';
import { mergeSections, searchResults, type SearchSections } from '../../src/streams/searchResults';

type Item = { id: string };
const sections = (c: string[], m: string[] = [], u: string[] = []): SearchSections<Item> => ({
  conversations: c.map((id) => ({ id })),
  messages: m.map((id) => ({ id })),
  users: u.map((id) => ({ id })),
});
const local = (q: string) => sections([`local-${q}`]);

let scheduler: TestScheduler;
beforeEach(() => {
  scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
});

describe('searchResults', () => {
  it('clears under 2 characters; shows local matches at once and the server after 300 ms of quiet', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const query$ = hot('    a 9ms b', { a: 'x', b: 'de' });
      const server = cold('    --r|', { r: sections(['srv'], ['m1']) });
      const out = searchResults({ query$, local, search: () => server, log: memoryLogger() }, scheduler);
      expectObservable(out).toBe('i 9ms s 299ms --d', {
        i: { query: 'x', status: 'idle', results: sections([]), resetSelection: true },
        s: { query: 'de', status: 'searching', results: local('de'), resetSelection: true },
        d: { query: 'de', status: 'done', results: sections(['local-de', 'srv'], ['m1']), resetSelection: false },
      });
      expectSubscriptions(server.subscriptions).toBe('10ms 300ms ^--!');
    });
  });

  it('waits for 300 ms of quiet: typing restarts the wait, and only the last query is sent', () => {
    scheduler.run(({ cold, hot, expectObservable }) => {
      const sent: string[] = [];
      const query$ = hot('a 99ms b 99ms c', { a: 'de', b: 'dep', c: 'depl' });
      const out = searchResults(
        {
          query$,
          local,
          search: (q) => {
            sent.push(q);
            return cold('r|', { r: sections([q]) });
          },
          log: memoryLogger(),
        },
        scheduler,
      );
      expectObservable(out).toBe('a 99ms b 99ms c 299ms d', {
        a: { query: 'de', status: 'searching', results: local('de'), resetSelection: true },
        b: { query: 'dep', status: 'searching', results: local('dep'), resetSelection: true },
        c: { query: 'depl', status: 'searching', results: local('depl'), resetSelection: true },
        d: { query: 'depl', status: 'done', results: sections(['local-depl', 'depl']), resetSelection: false },
      });
      scheduler.flush();
      expect(sent).toEqual(['depl']);
    });
  });

  it('cancels a stale request when the query changes while the server answers', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const query$ = hot('a 349ms b', { a: 'de', b: 'dx' });
      const slow = cold('100ms r|', { r: sections(['old']) });
      const fast = cold('r|', { r: sections(['new']) });
      const out = searchResults({ query$, local, search: (q) => (q === 'de' ? slow : fast), log: memoryLogger() }, scheduler);
      expectObservable(out).toBe('a 349ms b 299ms c', {
        a: { query: 'de', status: 'searching', results: local('de'), resetSelection: true },
        b: { query: 'dx', status: 'searching', results: local('dx'), resetSelection: true },
        c: { query: 'dx', status: 'done', results: sections(['local-dx', 'new']), resetSelection: false },
      });
      // Asked at 300 ms, cancelled at 350 ms by the new query.
      expectSubscriptions(slow.subscriptions).toBe('300ms ^ 49ms !');
    });
  });

  it('keeps the same query from searching twice (trimmed, distinct)', () => {
    scheduler.run(({ cold, hot, expectObservable }) => {
      const query$ = hot('a 9ms b', { a: 'deploy', b: ' deploy ' });
      const out = searchResults({ query$, local, search: () => cold('r|', { r: sections([]) }), log: memoryLogger() }, scheduler);
      expectObservable(out).toBe('a 299ms d', {
        a: { query: 'deploy', status: 'searching', results: local('deploy'), resetSelection: true },
        d: { query: 'deploy', status: 'done', results: local('deploy'), resetSelection: false },
      });
    });
  });

  it('keeps a failure local: logged, the local matches stay, and the next query still searches', () => {
    scheduler.run(({ cold, hot, expectObservable }) => {
      const log = memoryLogger();
      const query$ = hot('a 399ms b', { a: 'de', b: 'do' });
      const out = searchResults(
        { query$, local, search: (q) => (q === 'de' ? cold('#', undefined, new Error('down')) : cold('r|', { r: sections(['ok']) })), log },
        scheduler,
      );
      expectObservable(out).toBe('a 299ms f 99ms b 299ms d', {
        a: { query: 'de', status: 'searching', results: local('de'), resetSelection: true },
        f: { query: 'de', status: 'done', results: local('de'), resetSelection: false },
        b: { query: 'do', status: 'searching', results: local('do'), resetSelection: true },
        d: { query: 'do', status: 'done', results: sections(['local-do', 'ok']), resetSelection: false },
      });
      scheduler.flush();
      expect(log.entries).toEqual([expect.objectContaining({ level: 'warn', message: 'Search failed' })]);
    });
  });
});

describe('mergeSections', () => {
  it('keeps shown items in place and appends the new ones, once', () => {
    expect(mergeSections(sections(['a', 'b'], ['m']), sections(['b', 'c', 'a'], ['m', 'n'], ['u']))).toEqual(sections(['a', 'b', 'c'], ['m', 'n'], ['u']));
  });
});
