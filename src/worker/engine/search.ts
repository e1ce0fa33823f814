/**
 * The search palette (SPEC §4.10): local matches over the store's names and people at once, then the
 * server's message search merged in (searchResults). The page sets the query; one shared stream
 * carries the results to every reader.
 */
import { BehaviorSubject, defer, map } from 'rxjs';
import { localMatch, serverSections, type PaletteItem, type ServerSearch } from '../../model/search';
import { searchResults } from '../../streams/searchResults';
import { shareLatest } from '../../streams/shareLatest';
import type { Core } from './core';

export function createSearch(core: Core) {
  const { store, http, log, scheduler } = core;
  const searchQuery$ = new BehaviorSubject<string>('');
  const search$ = searchResults<PaletteItem>(
    {
      query$: searchQuery$,
      local: (q) =>
        localMatch(q, {
          names: store.searchNames,
          conversation: (id) => store.conversations.get(id),
          people: store.searchPeople,
          users: store.users,
          me: store.me,
        }),
      search: (q) => defer(() => http.request<ServerSearch>('/api/search', { query: { q, limit: 20 } })).pipe(map((body) => serverSections(body, store.users))),
      log,
    },
    scheduler,
  ).pipe(shareLatest());

  return {
    commands: { setSearchQuery: (q: string) => searchQuery$.next(q) },
    streams: { search: () => search$ },
  };
}
