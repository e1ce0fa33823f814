import { type Observable, type SchedulerLike, asyncScheduler, catchError, concat, distinctUntilChanged, map, of, switchMap, timer } from 'rxjs';
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_QUERY_LENGTH } from '../model/constants';
import type { Logger } from '../model/logger';

/** One section's items carry an id; the server and the local match may both find an item. */
export interface SearchSections<T extends { id: string }> {
  conversations: T[];
  messages: T[];
  users: T[];
}

export interface SearchState<T extends { id: string }> {
  query: string;
  /** idle: nothing to search; searching: local matches shown, the server asked; done: the server answered (or failed). */
  status: 'idle' | 'searching' | 'done';
  results: SearchSections<T>;
  /** True on the first state of a new query: the selection goes back to the first result. */
  resetSelection: boolean;
}

export interface SearchInputs<T extends { id: string }> {
  query$: Observable<string>;
  /** What the worker already holds that matches, answered at once. */
  local: (query: string) => SearchSections<T>;
  /** The server's search; cancelled (unsubscribed) when the query changes. */
  search: (query: string) => Observable<SearchSections<T>>;
  log: Pick<Logger, 'warn'>;
}

const EMPTY_SECTIONS = { conversations: [], messages: [], users: [] };

/** The shown items stay where they are; the server's new ones join each section's end. */
export function mergeSections<T extends { id: string }>(shown: SearchSections<T>, server: SearchSections<T>): SearchSections<T> {
  const merge = (a: T[], b: T[]) => {
    const ids = new Set(a.map((item) => item.id));
    return [...a, ...b.filter((item) => !ids.has(item.id))];
  };
  return {
    conversations: merge(shown.conversations, server.conversations),
    messages: merge(shown.messages, server.messages),
    users: merge(shown.users, server.users),
  };
}

/**
 * The search palette's results (SPEC §4.10): a query under 2 characters clears them;
 * otherwise local matches show at once and the server is asked after 300 ms of quiet; a
 * new query cancels a pending timer or request; the server's items merge in after the
 * local ones without moving them; a failure is logged and leaves the local matches.
 *
 *   query$:   a-ab---------abc----------
 *   local:      L              L'
 *   search():            --S|      (ab: cancelled by abc before it answered → no S for ab)
 *   output:   i-s----------s'------------d'     (i idle, s searching, d done)
 *              |<-- 300 ms quiet -->|
 */
export function searchResults<T extends { id: string }>(inputs: SearchInputs<T>, scheduler: SchedulerLike = asyncScheduler): Observable<SearchState<T>> {
  return inputs.query$.pipe(
    map((q) => q.trim()),
    distinctUntilChanged(),
    switchMap((query): Observable<SearchState<T>> => {
      if (query.length < SEARCH_MIN_QUERY_LENGTH) return of({ query, status: 'idle', results: EMPTY_SECTIONS as SearchSections<T>, resetSelection: true });
      const local = inputs.local(query);
      return concat(
        of<SearchState<T>>({ query, status: 'searching', results: local, resetSelection: true }),
        timer(SEARCH_DEBOUNCE_MS, scheduler).pipe(
          switchMap(() =>
            inputs.search(query).pipe(
              map((server): SearchState<T> => ({ query, status: 'done', results: mergeSections(local, server), resetSelection: false })),
              catchError((error: unknown) => {
                inputs.log.warn('Search failed', { query, message: (error as Error)?.message });
                return of<SearchState<T>>({ query, status: 'done', results: local, resetSelection: false });
              }),
            ),
          ),
        ),
      );
    }),
  );
}
