/**
 * The engine: the HTTP client, the live connection and the store, composed per session.
 *
 * Start-up follows Zulip's register-then-load order: the stream connects first and its
 * `connection` event gives the current sequence S; only then is the snapshot loaded (it
 * reflects at least S). Events above S that arrive meanwhile are held by liveEvents and
 * applied after the snapshot, idempotently. A reconnect carries lastSequence and replays
 * what was missed; a fresh connection (or a server that lost our place) reloads.
 */
import { createAiClient } from './ai';
import type { UnreadSummary } from '../model/ai';
import {
  BehaviorSubject,
  EMPTY,
  NEVER,
  Observable,
  Subject,
  asyncScheduler,
  auditTime,
  catchError,
  combineLatest,
  concat,
  defer,
  distinctUntilChanged,
  filter,
  finalize,
  from,
  ignoreElements,
  map,
  merge,
  of,
  scan,
  startWith,
  switchMap,
  tap,
  type SchedulerLike,
} from 'rxjs';
import type { Logger } from '../model/logger';
import { PREVIEW_LENGTH } from '../model/constants';
import { conversationTitle, displayName, type ViewWindow } from '../model/rows';
import { notificationBody } from '../model/notification';
import { isQuietSubtype, readableText } from '../model/slack';
import { FLAT_LAYOUT, type Layout } from '../model/layout';
import type { View, ViewUpdateData } from '../model/views';
import type {
  FilterRule,
  AiCategory,
  AuthStatus,
  Conversation,
  ConversationSummary,
  ConversationUpdateData,
  HttpError,
  LiveState,
  Message,
  MessageUpdateData,
  UserData,
  MentionData,
} from '../model/types';
import { parseThreadId } from '../model/validation';
import { liveConnection, type LiveCommand } from '../streams/liveConnection';
import { liveEvents } from '../streams/liveEvents';
import { searchResults } from '../streams/searchResults';
import { localMatch, serverSections, type PaletteItem, type ServerSearch } from '../model/search';
import { shareLatest } from '../streams/shareLatest';
import { createHttpClient, HttpFailure } from './http';
import { reduceMessageChange, reduceMessages, type MessageChange } from './reduce';
import { openSse } from './sse';
import { EngineStore } from './store';

export interface EngineOptions {
  baseUrl: string;
  log: Logger;
  fetch?: typeof fetch;
  scheduler?: SchedulerLike;
  random?: () => number;
  /** Conversations per snapshot page. */
  pageSize?: number;
  /** SPEC §4.3: whether the inbox is in AI order at start (then unread conversations are classified before loading). */
  classifyOnLoad?: boolean;
}

export type LoadStatus = 'idle' | 'loading' | 'loaded' | 'error';

export interface LoadState {
  status: LoadStatus;
  loaded: number;
  total: number;
  error?: HttpError;
}

export interface ConversationDetail {
  id: string;
  status: 'loading' | 'loaded' | 'error';
  conversation?: ConversationSummary;
  participants?: UserData[];
  /** Everyone the messages name: authors, members and mentioned people. */
  members?: Record<string, UserData>;
  /** Channel, user group and custom emoji names the messages use. */
  mentions?: MentionData;
  /** The member's own user id. */
  me?: string;
  /** The member's workspace id (Slack: the team id that people of other organizations do not share). */
  workspaceId?: string;
  messages: Message[];
  error?: HttpError;
}

/** A message from someone else that just arrived live (not a replay): what a desktop notification needs. */
export interface IncomingMessage {
  conversationId: string;
  title: string;
  author: string;
  /** The body of SPEC §5, already formatted. */
  body: string;
}

/** What the page sends to create or change a custom view (SPEC §7.6). */
export interface ViewInput {
  label: string;
  filters: FilterRule[];
  combinator?: 'and' | 'or';
  parentViewId: string;
  position?: number;
  isVisible?: boolean;
}

export interface SendResult {
  ok: boolean;
  error?: string;
}

interface DataPage {
  success: boolean;
  data: { conversations: ConversationSummary[]; users?: Record<string, UserData> };
  total?: number;
  next_cursor?: string | null;
}

function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpFailure) return error.toJSON();
  return { isNetworkError: false, status: 0, message: (error as Error)?.message || 'An unexpected error occurred' };
}

/** The inbox in AI order without headers or a query: its group sizes are the unread counts per category. */
const AI_SUMMARY_LAYOUT: Layout = { order: 'ai', headers: false, collapsed: [], query: '' };

export function createEngine(options: EngineOptions) {
  const { log } = options;
  const scheduler = options.scheduler ?? asyncScheduler;
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const pageSize = options.pageSize ?? 10_000;

  /**
   * Who is signed in ('workspace:user', as the last auth status said), or null: a new value starts a
   * new session. The session's token is never here: it is the browser's HttpOnly cookie.
   */
  const sessionKey$ = new BehaviorSubject<string | null>(null);
  const command$ = new Subject<LiveCommand>();
  const liveState$ = new BehaviorSubject<LiveState>({ status: 'unauthenticated', attempt: 0 });
  const replaying$ = new BehaviorSubject<boolean>(false);
  const load$ = new BehaviorSubject<LoadState>({ status: 'idle', loaded: 0, total: 0 });
  const storeVersion$ = new BehaviorSubject<number>(0);
  const messageUpdates$ = new Subject<MessageUpdateData>();
  const messageChanges$ = new Subject<MessageChange>();
  /** Sends in flight: shown as pending in their conversation until the live event arrives. */
  const pendingSends$ = new Subject<{ kind: 'add' | 'drop'; message: Message }>();
  const reload$ = new Subject<void>();
  const incoming$ = new Subject<IncomingMessage>();

  /** The session's feature flags, once fetched (see featureFlags). */
  let flags: Promise<Record<string, boolean>> | null = null;
  const http = createHttpClient({ baseUrl: options.baseUrl, fetch: fetchFn });
  const ai = createAiClient({ http, signedIn: () => sessionKey$.value !== null, fetch: fetchFn });
  let classifyOnLoad = options.classifyOnLoad ?? false;

  /** Classifies the unread conversations when AI is on; a failure is logged and loading goes on (SPEC §4.3). */
  async function classifyUnread(): Promise<void> {
    if (!(await featureFlags()).aiEnabled) return;
    const result = await log.timeAsync('classify unread conversations', () => ai.classifyUnread());
    if (!result.ok) log.warn('AI classification failed; loading without it', { message: result.error });
  }
  const store = new EngineStore(log);
  const changed = () => storeVersion$.next(store.version);

  /* ---------- the snapshot ---------- */

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
    for (;;) {
      let page: DataPage;
      try {
        page = await http.request<DataPage>('/api/conversations/data', { query: { order: 'activity', limit: pageSize, cursor } });
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
      if (progressive) {
        store.addMany(page.data.conversations);
        changed();
      } else conversations.push(...page.data.conversations);
      const loaded = progressive ? store.conversations.size : Math.max(conversations.length, store.conversations.size);
      load$.next({ status: 'loading', loaded, total: Math.max(total, loaded) });
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
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

  const loader$ = (loading$: BehaviorSubject<boolean>) =>
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

  /* ---------- one session: live connection, events, snapshot ---------- */

  function session(key: string): Observable<never> {
    return defer(() => {
      const lastSequence$ = new BehaviorSubject<number | undefined>(undefined);
      const loading$ = new BehaviorSubject<boolean>(false);
      let loadedOnce = false;
      const requestLoad = () => {
        loadedOnce = true;
        reload$.next();
      };

      const live$ = liveConnection(
        {
          session$: concat(of(key), NEVER),
          command$,
          lastSequence$,
          open: (_key, last) => openSse(http.url('/api/sse/stream', { lastSequence: last }), fetchFn),
          random: options.random,
        },
        scheduler,
      ).pipe(shareLatest());

      const states$ = live$.pipe(
        filter((o) => o.kind === 'state'),
        map((o) => o.state),
        tap((state) => {
          liveState$.next(state);
          // The stream is down before anything loaded: show the data (or its error) anyway.
          if (!loadedOnce && (state.status === 'error' || state.status === 'failed')) requestLoad();
        }),
      );

      const events$ = liveEvents(
        {
          messages$: live$.pipe(
            filter((o) => o.kind === 'message'),
            map((o) => (o.id === undefined ? { data: o.data } : { data: o.data, id: o.id })),
          ),
          loading$,
          log,
        },
        scheduler,
      ).pipe(
        tap((out) => {
          if (out.kind === 'sequence') lastSequence$.next(out.lastSequence);
          else if (out.kind === 'replaying') replaying$.next(out.replaying);
          else
            applyEvent(out.event.type, out.event.data, out.isReplay, () => {
              if (!loadedOnce) requestLoad();
              const data = out.event.data as { resync?: boolean; currentSequence?: number };
              if (data?.resync) {
                // The server's log is behind our place (a reset database): start over from its.
                lastSequence$.next(data.currentSequence);
                requestLoad();
              }
            });
        }),
      );

      return merge(states$, events$, loader$(loading$)).pipe(ignoreElements());
    });
  }

  function applyEvent(type: string, data: unknown, isReplay: boolean, onConnection: () => void): void {
    switch (type) {
      case 'connection':
        onConnection();
        return;
      case 'message_update': {
        const update = data as MessageUpdateData;
        if (store.applyMessageUpdate(update)) changed();
        messageUpdates$.next(update);
        announce(update, isReplay);
        return;
      }
      case 'conversation_update':
        if (store.applyConversationUpdate(data as ConversationUpdateData)) changed();
        // An edit or a deletion made in the workspace reaches the open conversation too.
        if ((data as MessageChange).message || (data as MessageChange).deleted_ts) messageChanges$.next(data as MessageChange);
        return;
      case 'fetch_complete':
        reload$.next();
        return;
      case 'view_update': {
        // SPEC issue 4: view changes reach the member's other tabs through the stream.
        const update = data as ViewUpdateData;
        if (update.action === 'upsert') store.upsertView(update.view);
        else if (update.action === 'delete') store.removeView(update.id);
        else if (update.action === 'reset') store.setCustomViews(update.views);
        changed();
        return;
      }
      case 'feature_update':
        flags = null; // the next featureFlags() call fetches them again
        return;
      default:
        return; // SPEC §4.8: any other event type is ignored.
    }
  }

  /** SPEC §4.8: a new message from another member may raise a notification; own messages and replays never do. */
  function announce(update: MessageUpdateData, isReplay: boolean): void {
    const message = update.message;
    if (isReplay || !message || !message.user || message.user === store.me || isQuietSubtype(message.subtype)) return;
    if (update.action === 'channel_marked' || (update.is_thread && update.action === 'new_message')) return;
    const conversation = store.conversations.get(update.conversation_id);
    const names = {
      user: (id: string) => {
        const u = store.users.get(id);
        return u ? displayName(u, id) : undefined;
      },
    };
    incoming$.next({
      conversationId: update.conversation_id,
      title: conversation ? conversationTitle(conversation, store.users) : 'Sift',
      author: displayName(store.users.get(message.user), message.user),
      body: notificationBody(readableText(message), names),
    });
  }

  const sessions = sessionKey$
    .pipe(
      distinctUntilChanged(),
      switchMap((key) => {
        store.clear();
        flags = null;
        changed();
        load$.next({ status: 'idle', loaded: 0, total: 0 });
        replaying$.next(false);
        if (!key) {
          liveState$.next({ status: 'unauthenticated', attempt: 0 });
          return EMPTY;
        }
        return session(key);
      }),
    )
    .subscribe({ error: (error: unknown) => log.fatal('The engine stopped', { message: (error as Error).message }) });

  /* ---------- what the page reads ---------- */

  interface WindowRange {
    viewId: string;
    start: number;
    end: number;
    layout: Layout;
    previewLength: number;
  }
  /* ---------- the search palette (SPEC §4.10) ---------- */
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

  /**
   * Each list's range, by the page's key, with how many subscriptions read it. A list that remounts
   * subscribes again under the same key before its old subscription's teardown reaches the worker
   * (both cross Comlink asynchronously), so a range is dropped only when its last reader leaves:
   * dropping it on the first teardown orphaned the new reader, and later ranges (a filter, a
   * scroll) never reached it.
   */
  const windowRanges = new Map<string, { range: BehaviorSubject<WindowRange>; readers: number }>();
  const rangeOf = (key: string) => {
    let entry = windowRanges.get(key);
    if (!entry)
      windowRanges.set(
        key,
        (entry = {
          range: new BehaviorSubject<WindowRange>({ viewId: 'inbox', start: 0, end: 0, layout: FLAT_LAYOUT, previewLength: PREVIEW_LENGTH }),
          readers: 0,
        }),
      );
    return entry;
  };

  /** A list window: slots [start, end) of a view in a layout, re-sent when the view, the layout or the range changes. */
  function viewWindow(key: string): Observable<ViewWindow> {
    return defer(() => {
      const entry = rangeOf(key);
      entry.readers += 1;
      return combineLatest([entry.range, storeVersion$.pipe(auditTime(16, scheduler), startWith(store.version))]).pipe(
        map(([range]) => ({ range, window: store.window(range.viewId, range.start, range.end, range.layout, range.previewLength) })),
        // The same range and an unchanged index: nothing to send. Another range (a new filter text, another
        // order) always sends, even when its window happens to have the same size and version.
        distinctUntilChanged(
          (a, b) =>
            a.range === b.range &&
            a.window.version === b.window.version &&
            a.window.items.length === b.window.items.length &&
            a.window.total === b.window.total,
        ),
        map(({ window }) => window),
        finalize(() => {
          entry.readers -= 1;
          if (entry.readers === 0 && windowRanges.get(key) === entry) windowRanges.delete(key);
        }),
      );
    });
  }

  function setWindow(key: string, viewId: string, start: number, end: number, options: { layout?: Layout; previewLength?: number } = {}): void {
    const { range } = rangeOf(key);
    const v = range.value;
    const layout = options.layout ?? FLAT_LAYOUT;
    const previewLength = options.previewLength ?? PREVIEW_LENGTH;
    const sameLayout = JSON.stringify(v.layout) === JSON.stringify(layout);
    if (v.viewId !== viewId || v.start !== start || v.end !== end || v.previewLength !== previewLength || !sameLayout) {
      range.next({ viewId, start: Math.max(0, start), end: Math.max(0, end), layout, previewLength });
    }
  }

  /** Per built-in view: conversations, and those with unread messages (the tab badges). */
  const viewCounts$ = storeVersion$.pipe(
    auditTime(50, scheduler),
    startWith(0),
    map(() => ({ total: store.counts(), unread: store.unreadCounts() })),
  );

  /** One open conversation: its messages (loaded once, then kept live) and its summary. */
  function conversation(id: string): Observable<ConversationDetail> {
    return defer(() => {
      const early: MessageUpdateData[] = [];
      const earlySub = messageUpdates$.subscribe((d) => early.push(d));
      const loaded$ = from(http.request<{ conversation: Conversation }>(`/api/conversations/${encodeURIComponent(id)}/threads`)).pipe(
        tap(({ conversation: c }) => {
          store.mergeUsers(c.members_data);
          if (!store.conversations.has(c.id)) {
            const { participants: _p, members_data: _m, messages: _msgs, last_message: _l, ...summary } = c;
            store.put(c.id, summary);
            changed();
          }
        }),
        switchMap(({ conversation: c }) => {
          earlySub.unsubscribe();
          const initial = early.reduce((msgs, d) => reduceMessages(msgs, id, d, log), c.messages);
          type Step = (msgs: Message[]) => Message[];
          const messages$ = merge(
            messageUpdates$.pipe(
              map(
                (d): Step =>
                  (msgs) =>
                    reduceMessages(msgs, id, d, log),
              ),
            ),
            messageChanges$.pipe(
              map(
                (change): Step =>
                  (msgs) =>
                    reduceMessageChange(msgs, id, change),
              ),
            ),
            pendingSends$.pipe(
              filter((p) => p.message.channel === id),
              map(({ kind, message }): Step =>
                kind === 'add' ? (msgs) => [...msgs, message] : (msgs) => msgs.filter((m) => !(m.pending && m.client_msg_id === message.client_msg_id)),
              ),
            ),
          ).pipe(
            scan((msgs, step) => step(msgs), initial),
            startWith(initial),
          );
          const summary$ = storeVersion$.pipe(
            map(() => store.conversations.get(id)),
            distinctUntilChanged(),
          );
          return combineLatest([messages$, summary$]).pipe(
            map(([messages, summary]): ConversationDetail => ({
              id,
              status: 'loaded',
              conversation: summary ?? c,
              participants: c.participants,
              members: c.members_data,
              ...(c.mentions ? { mentions: c.mentions } : {}),
              me: store.me,
              ...(store.workspaceId ? { workspaceId: store.workspaceId } : {}),
              messages,
            })),
          );
        }),
        startWith<ConversationDetail>({ id, status: 'loading', messages: [] }),
        catchError((error: unknown) => of<ConversationDetail>({ id, status: 'error', messages: [], error: toHttpError(error) })),
        finalize(() => earlySub.unsubscribe()),
      );
      return loaded$;
    });
  }

  /* ---------- commands ---------- */

  async function authStatus(): Promise<AuthStatus> {
    const status = await http.request<AuthStatus>('/api/auth/status');
    // The engine follows whom the server says the cookie signs in: another member or workspace is a new session.
    sessionKey$.next(status.authenticated && status.user ? `${status.workspace?.id ?? ''}:${status.user.id}` : null);
    if (status.authenticated && status.user) {
      store.me = status.user.id;
      store.workspaceId = status.workspace?.id ?? '';
      store.users.set(status.user.id, status.user);
    }
    return status;
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

  /** Feature flags (SPEC §7.1): fetched once per session and cached; on failure, the defaults. */
  function featureFlags(): Promise<Record<string, boolean>> {
    flags ??= http
      .request<{ flags: Record<string, { enabled: boolean }> }>('/api/features/flags')
      .then((body) => Object.fromEntries(Object.entries(body.flags).map(([name, flag]) => [name, flag.enabled])))
      .catch((error: unknown) => {
        log.warn('Feature flags unavailable; using defaults', toHttpError(error));
        flags = null;
        return { aiEnabled: false };
      });
    return flags;
  }

  async function markRead(id: string): Promise<boolean> {
    const c = store.conversations.get(id);
    if (!c) return false;
    const last_read = c.latest_message?.ts ?? c.last_read;
    // An explicit mark-as-read takes effect at once, even on a conversation held after a reply.
    store.release(id);
    if (store.applyMessageUpdate({ action: 'channel_marked', conversation_id: id, unread_count: 0, unread_count_display: 0, last_read })) changed();
    try {
      await http.request(`/api/conversations/${encodeURIComponent(id)}/mark-read`, { body: { timestamp: last_read || undefined } });
      return true;
    } catch (error) {
      log.error('Mark as read failed; reloading', toHttpError(error));
      reload$.next();
      return false;
    }
  }

  /** Sets (or, with null, removes) the member's category; applied at once, reverted if the server refuses. */
  async function setCategory(id: string, category: AiCategory | null): Promise<boolean> {
    const previous = store.conversations.get(id);
    if (!previous) return false;
    const optimistic = category
      ? { id, ai_category: category, ai_source: 'manual' as const }
      : { id, ai_category: null, ai_source: null, ai_reason: null, ai_confidence: null, ai_triggers: null };
    if (store.applyConversationUpdate({ conversation_id: id, conversation: optimistic as unknown as ConversationSummary })) changed();
    try {
      const path = `/api/features/ai-sort/label/${encodeURIComponent(id)}`;
      await http.request(path, category ? { body: { category } } : { method: 'DELETE' });
      return true;
    } catch (error) {
      log.error('Failed to update category', toHttpError(error));
      store.put(id, previous);
      changed();
      return false;
    }
  }

  /**
   * Creates (no id) or updates a custom view. Applied locally at once on success; a failure
   * is logged only (SPEC §8) and answered, so the modal can stay open with its input.
   */
  async function saveView(input: ViewInput, id?: string): Promise<{ ok: boolean; view?: View; error?: string }> {
    try {
      const path = id ? `/api/custom-views/${encodeURIComponent(id)}` : '/api/custom-views';
      const { view } = await http.request<{ view: View }>(path, { method: id ? 'PUT' : 'POST', body: input });
      store.upsertView(view);
      changed();
      return { ok: true, view };
    } catch (error) {
      log.error(id ? 'Custom view update failed' : 'Custom view create failed', toHttpError(error));
      return { ok: false, error: toHttpError(error).message };
    }
  }

  async function deleteView(id: string): Promise<{ ok: boolean; error?: string }> {
    try {
      await http.request(`/api/custom-views/${encodeURIComponent(id)}`, { method: 'DELETE' });
      store.removeView(id);
      changed();
      return { ok: true };
    } catch (error) {
      log.error('Custom view delete failed', toHttpError(error));
      return { ok: false, error: toHttpError(error).message };
    }
  }

  async function reorderViews(positions: Array<{ id: string; position: number }>): Promise<boolean> {
    try {
      const { views } = await http.request<{ views: View[] }>('/api/custom-views/reorder', { body: { positions } });
      for (const view of views) store.upsertView(view);
      changed();
      return true;
    } catch (error) {
      log.error('Custom view reorder failed', toHttpError(error));
      return false;
    }
  }

  /** Marks every unread conversation of a view read (a palette action); answers how many. */
  async function markViewRead(viewId: string): Promise<number> {
    const view = store.views.get(viewId);
    if (!view) return 0;
    const ids = view.ids(0, view.size).filter((id) => (store.conversations.get(id)?.unread_count_display ?? 0) > 0);
    let done = 0;
    // A few at a time: the server commits each mark with its event.
    for (let i = 0; i < ids.length; i += 4) {
      const batch = await Promise.all(ids.slice(i, i + 4).map((id) => markRead(id)));
      done += batch.filter(Boolean).length;
    }
    return done;
  }

  /** Marks a conversation unread again (the newest message from someone else), or back to `lastRead`. */
  async function markUnread(id: string, lastRead?: string): Promise<boolean> {
    try {
      const state = await http.request<{ last_read: string; unread_count: number }>(`/api/conversations/${encodeURIComponent(id)}/mark-unread`, {
        body: lastRead ? { timestamp: lastRead } : {},
      });
      if (store.applyMessageUpdate({ action: 'channel_marked', conversation_id: id, unread_count: state.unread_count, last_read: state.last_read })) changed();
      return true;
    } catch (error) {
      log.error('Mark as unread failed', toHttpError(error));
      return false;
    }
  }

  async function send(conversationId: string, text: string, threadTs?: string): Promise<SendResult> {
    // A thread conversation's id carries its thread: replies there go to that thread.
    const thread = threadTs ?? parseThreadId(conversationId)?.threadTs;
    const clientMsgId = crypto.randomUUID();
    // Replying marks an unread conversation read; its row keeps its place until the page releases it.
    if ((store.conversations.get(conversationId)?.unread_count_display ?? 0) > 0) store.hold(conversationId);
    // A pending copy sorts last until the server's copy (same client_msg_id) replaces it.
    const pending: Message = { ts: '9999999999.999999', text, channel: conversationId, user: store.me, pending: true, client_msg_id: clientMsgId };
    pendingSends$.next({ kind: 'add', message: pending });
    try {
      await http.request('/api/messages/send', { body: { channel: conversationId, text, thread_ts: thread, client_msg_id: clientMsgId } });
      return { ok: true };
    } catch (error) {
      // Take the pending copy back out; the page keeps the text so nothing is lost.
      pendingSends$.next({ kind: 'drop', message: pending });
      return { ok: false, error: toHttpError(error).message };
    }
  }

  async function logout(): Promise<void> {
    try {
      await http.request('/auth/logout', { method: 'POST' });
    } catch (error) {
      log.warn('Logout call failed; signing out locally anyway', toHttpError(error));
    }
    sessionKey$.next(null);
  }

  async function switchWorkspace(workspaceId: string): Promise<AuthStatus> {
    await http.request('/auth/switch-workspace', { body: { workspaceId } });
    return authStatus();
  }

  return {
    authStatus,
    logout,
    switchWorkspace,
    reload: () => reload$.next(),
    liveCommand: (command: LiveCommand) => command$.next(command),
    markRead,
    markUnread,
    setSearchQuery: (q: string) => searchQuery$.next(q),
    markViewRead,
    /** The DM with a person, when the member has one. */
    dmWith: (userId: string) => {
      for (const c of store.conversations.values()) if (c.type === 'dm' && c.dm_user === userId) return c.id;
      return null;
    },
    search$,
    saveView,
    deleteView,
    reorderViews,
    // Only a change to the views themselves re-sends the list (not every live event).
    views$: storeVersion$.pipe(
      map(() => store.viewsVersion),
      distinctUntilChanged(),
      map(() => store.listViews()),
    ),
    /** Lets a held conversation take its new place (see store.hold). */
    release: (id: string) => {
      if (store.release(id)) changed();
    },
    setCategory,
    send,
    featureFlags,
    ai,
    /** SPEC §4.3: the inbox's sort mode; choosing AI classifies the unread conversations, then reloads. */
    setAiSort: async (on: boolean) => {
      const was = classifyOnLoad;
      classifyOnLoad = on;
      if (on && !was) {
        await classifyUnread();
        reload$.next();
      }
    },
    /** The unread conversations of the inbox by AI category (the Ask AI start screen's summary). */
    unreadSummary$: storeVersion$.pipe(
      map((): UnreadSummary => {
        const sizes = store.indexFor('inbox', AI_SUMMARY_LAYOUT)?.groupSizes ?? [0, 0, 0, 0];
        return { total: sizes.reduce((a, b) => a + b, 0), urgent: sizes[0] ?? 0, can_wait: sizes[1] ?? 0, fyi: sizes[2] ?? 0 };
      }),
      distinctUntilChanged((a, b) => a.total === b.total && a.urgent === b.urgent && a.can_wait === b.can_wait && a.fyi === b.fyi),
    ),
    refresh,
    /** A person of the workspace, as the users map holds them (null when unknown). */
    user: (id: string) => store.users.get(id) ?? null,
    idAt: (viewId: string, index: number, layout?: Layout) => store.idAt(viewId, index, layout),
    slotAt: (viewId: string, index: number, layout?: Layout) => store.slotAt(viewId, index, layout),
    indexOf: (viewId: string, id: string, layout?: Layout) => store.indexOf(viewId, id, layout),
    summary: (id: string) => store.conversations.get(id) ?? null,
    setWindow,
    viewWindow,
    conversation,
    liveState$: liveState$.asObservable(),
    replaying$: replaying$.pipe(distinctUntilChanged()),
    load$: load$.asObservable(),
    viewCounts$,
    incoming$: incoming$.asObservable(),
    store,
    dispose: () => sessions.unsubscribe(),
  };
}

export type Engine = ReturnType<typeof createEngine>;
