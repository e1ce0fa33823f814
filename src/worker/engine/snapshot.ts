/**
 * Snapshot and sync: loading every conversation in pages, the member's views, reloads and the
 * refresh button, and starting from a saved state.
 *
 * Where a session's data comes from:
 *  - a cold start loads the snapshot progressively (each page shown as it arrives);
 *  - a reload (a resync, a fetch that completed, a failed write) collects every page and swaps them in
 *    at once, so the list never empties;
 *  - `startFrom(saved)` puts a saved state (a local copy: conversations, people, views, sequence) into
 *    the store before the network and answers the sequence the live stream should connect with. The
 *    session (session.ts) calls it when EngineOptions.savedState gives one; the replay from that
 *    sequence is then the delta, and the server's 'cannot replay' answer triggers a reload.
 */
import { EMPTY, catchError, finalize, from, switchMap, tap, type BehaviorSubject, type Observable } from 'rxjs';
import type { ConversationSummary, UserData } from '../../model/types';
import type { View } from '../../model/views';
import { HttpFailure } from '../http';
import type { Core } from './core';
import { toHttpError, type SavedState } from './types';

interface DataPage {
  success: boolean;
  data: { conversations: ConversationSummary[]; users?: Record<string, UserData> };
  total?: number;
  next_cursor?: string | null;
}

/** Conversations in a first load's first page: more than a screen of every view, small enough to come at once (issue 14 §4). */
export const FIRST_PAGE = 300;

export function createSnapshot(core: Core) {
  const { log, http, ai, store, load$, reload$, changed } = core;
  const pageSize = core.options.pageSize ?? 10_000;
  let classifyOnLoad = core.options.classifyOnLoad ?? false;

  /** Classifies the unread conversations when AI is on; a failure is logged and loading goes on (SPEC §4.3). */
  async function classifyUnread(): Promise<void> {
    if (!(await core.featureFlags()).aiEnabled) return;
    const result = await log.timeAsync('classify unread conversations', () => ai.classifyUnread());
    if (!result.ok) log.warn('AI classification failed; loading without it', { message: result.error });
  }

  /**
   * Loads every conversation in pages, newest first. On a first load each page is shown
   * as it arrives (the first page is already the true top of every view); a reload
   * collects all pages and swaps them in at once, so the list never empties meanwhile.
   */
  async function fetchSnapshot(): Promise<void> {
    if (classifyOnLoad) await classifyUnread();
    const progressive = store.conversations.size === 0;
    const conversations: ConversationSummary[] = [];
    let total = 0;
    let cursor: string | undefined;
    let fetchedAll = false;
    /** Everyone is loaded (a first page of 'referenced' people asks for them with the second). */
    let peopleLoaded = !progressive;
    for (;;) {
      let page: DataPage;
      try {
        // A first load's first page is small and names only the people its rows show, so the first rows paint at
        // once; the rest come in big pages behind it, the second with everyone (issue 14 §4).
        const small = progressive && cursor === undefined;
        const limit = small ? Math.min(FIRST_PAGE, pageSize) : pageSize;
        const includeUsers = small ? 'referenced' : progressive && !peopleLoaded ? 'true' : undefined;
        page = await http.request<DataPage>('/api/conversations/data', { query: { order: 'activity', limit, cursor, includeUsers } });
      } catch (error) {
        // SPEC §4.3: no data yet (404) — fetch everything from the workspace once, then retry.
        if (!(error instanceof HttpFailure) || error.status !== 404 || fetchedAll || cursor !== undefined) throw error;
        fetchedAll = true;
        const fetched = await http.request<{ success: boolean }>('/api/conversations/fetch-all').catch(() => ({ success: false }));
        if (!fetched.success) throw new HttpFailure(false, 404, 'Failed to fetch data from Slack');
        continue;
      }
      if (cursor === undefined) total = page.total ?? 0;
      store.mergeUsers(page.data.users);
      if (page.data.users && cursor !== undefined) peopleLoaded = true;
      if (progressive) {
        store.addMany(page.data.conversations);
        changed();
      } else conversations.push(...page.data.conversations);
      const loaded = progressive ? store.conversations.size : Math.max(conversations.length, store.conversations.size);
      load$.next({ status: 'loading', loaded, total: Math.max(total, loaded) });
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    if (!peopleLoaded) {
      // Everything fit in the small first page: the rest of the workspace's people (the palette searches them).
      const people = await http.request<DataPage>('/api/conversations/data', { query: { limit: 1, includeUsers: 'true' } });
      store.mergeUsers(people.data.users);
    }
    if (!progressive) log.time('apply snapshot', () => store.replaceAll(conversations));
    await loadViews();
  }

  /** The member's views (SPEC §4.3 'load custom views'); a failure keeps the built-in ones. */
  async function loadViews(): Promise<void> {
    try {
      const [custom, builtin] = await Promise.all([
        http.request<{ views: View[] }>('/api/custom-views'),
        http.request<{ views: View[] }>('/api/builtin-views'),
      ]);
      store.setCustomViews([...builtin.views, ...custom.views]);
      changed();
    } catch (error) {
      log.warn('Custom views could not be loaded', toHttpError(error));
    }
  }

  /** Each wanted reload, one at a time (a newer one cancels the one in flight); `loading$` holds live events meanwhile. */
  const loader$ = (loading$: BehaviorSubject<boolean>): Observable<void> =>
    reload$.pipe(
      switchMap(() => {
        loading$.next(true);
        // A reload keeps showing what is held until the new snapshot replaces it.
        load$.next({ status: 'loading', loaded: store.conversations.size, total: load$.value.total });
        return from(log.timeAsync('load conversations', fetchSnapshot)).pipe(
          tap(() => {
            load$.next({ status: 'loaded', loaded: store.conversations.size, total: store.conversations.size });
            changed();
          }),
          catchError((error: unknown) => {
            log.error('Failed to load conversations', toHttpError(error));
            load$.next({ status: 'error', loaded: 0, total: 0, error: toHttpError(error) });
            return EMPTY;
          }),
          finalize(() => loading$.next(false)),
        );
      }),
    );

  /**
   * Puts a saved state into the (empty) store and answers the sequence it is up to date with. A whole state
   * shows as loaded; a head (`saved.whole`) as loading, until `fileWhole` swaps the whole in.
   */
  function startFrom(saved: SavedState): number {
    fill(saved);
    const n = store.conversations.size;
    load$.next(saved.whole ? { status: 'loading', loaded: n, total: Math.max(n, saved.total ?? n) } : { status: 'loaded', loaded: n, total: n });
    core.sequence$.next(saved.sequence);
    changed();
    return saved.sequence;
  }

  /** The whole saved state in place of its head: the list goes from the first rows to all of them, never empty. */
  function fileWhole(whole: SavedState): void {
    log.time('file the local copy', () => fill(whole));
    const n = store.conversations.size;
    load$.next({ status: 'loaded', loaded: n, total: n });
    changed();
  }

  function fill(saved: SavedState): void {
    store.replaceAll(saved.conversations, Object.fromEntries(saved.users.map((u) => [u.id, u])));
    store.setCustomViews(saved.views);
  }

  /**
   * The refresh button (SPEC §2.4, §8): a full fetch from the workspace, then a reload.
   * Answers the error text to show, or null.
   */
  async function refresh(): Promise<string | null> {
    try {
      const result = await http.request<{ success: boolean }>('/api/conversations/fetch-all', { timeoutMs: 120_000 });
      if (!result.success) return 'Failed to refresh data from Slack';
      reload$.next();
      return null;
    } catch (error) {
      log.error('Refresh failed', toHttpError(error));
      return (error as HttpFailure).isNetworkError ? 'Failed to refresh data. Please check your connection.' : 'Failed to refresh data from Slack';
    }
  }

  return {
    loader$,
    startFrom,
    fileWhole,
    commands: {
      reload: () => reload$.next(),
      refresh,
      /** SPEC §4.3: the inbox's sort mode; choosing AI classifies the unread conversations, then reloads. */
      setAiSort: async (on: boolean) => {
        const was = classifyOnLoad;
        classifyOnLoad = on;
        if (on && !was) {
          await classifyUnread();
          reload$.next();
        }
      },
    },
  };
}
