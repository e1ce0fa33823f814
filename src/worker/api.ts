/**
 * The one Comlink API of the engine (DESIGN §3). Commands are plain async methods;
 * streams are functions that take a proxied observer and return a proxied unsubscribe
 * handle. Observables do not cross by themselves: `remote()` subscribes on this side and
 * forwards next/error/complete; errors cross as {name, message}.
 */
import type { AskOptions, AskTurn, RefineEvent, RefineMode, UnreadSummary } from '../model/ai';
import * as Comlink from 'comlink';
import type { Observable } from 'rxjs';
import { createLogger, type ConsoleLike, type FatalEntry } from '../model/logger';
import { conversationTitle, displayName, type ViewWindow } from '../model/rows';
import type { Layout } from '../model/layout';
import type { AiCategory, AuthStatus, LiveState, User } from '../model/types';
import type { LiveCommand } from '../streams/liveConnection';
import { createEngine, type ConversationDetail, type IncomingMessage, type LoadState, type SendResult, type ViewInput } from './engine';
import type { View } from '../model/views';
import type { PaletteItem } from '../model/search';
import type { SearchState } from '../streams/searchResults';

export interface RemoteObserver<T> {
  next(value: T): void;
  error(error: { name: string; message: string }): void;
  complete(): void;
}

export type Unsubscribe = () => void;

/** Per built-in view: conversations, and those with unread messages. */
export interface ViewCounts {
  total: Record<string, number>;
  unread: Record<string, number>;
}

export interface EngineConfig {
  baseUrl: string;
  debug: boolean;
  url?: string;
  userAgent?: string;
  /** The inbox is in AI order at start (SPEC §4.3). */
  aiSort?: boolean;
}

let openSubscriptions = 0;

/** Subscribes on the worker side and hands back a proxied unsubscribe handle. */
function remote<T>(source: Observable<T>, observer: RemoteObserver<T>): Unsubscribe & Comlink.ProxyMarked {
  openSubscriptions += 1;
  let open = true;
  const release = () => {
    if (!open) return;
    open = false;
    openSubscriptions -= 1;
    (observer as unknown as { [Comlink.releaseProxy]?: () => void })[Comlink.releaseProxy]?.();
  };
  const subscription = source.subscribe({
    next: (value) => void Promise.resolve(observer.next(value)).catch(release),
    error: (error: unknown) => {
      const e = error as { name?: string; message?: string };
      void Promise.resolve(observer.error({ name: e?.name ?? 'Error', message: e?.message ?? String(error) })).finally(release);
    },
    complete: () => void Promise.resolve(observer.complete()).finally(release),
  });
  return Comlink.proxy(() => {
    subscription.unsubscribe();
    release();
  });
}

export function createApi(config: EngineConfig, fetchFn?: typeof fetch) {
  const fatal: FatalEntry[] = [];
  const fatalListeners = new Set<(entry: FatalEntry) => void>();
  const log = createLogger({
    debug: config.debug,
    console: console as ConsoleLike,
    now: () => Date.now(),
    url: () => config.url,
    userAgent: config.userAgent,
    fatalStore: {
      read: () => fatal,
      write: (entries) => {
        const entry = entries[entries.length - 1];
        if (entry) for (const listener of fatalListeners) listener(entry);
      },
    },
  });
  const engine = createEngine({ baseUrl: config.baseUrl, log, fetch: fetchFn, classifyOnLoad: config.aiSort ?? false });

  return {
    /* commands */
    authStatus: (): Promise<AuthStatus> => engine.authStatus(),
    logout: () => engine.logout(),
    switchWorkspace: (workspaceId: string) => engine.switchWorkspace(workspaceId),
    reload: () => engine.reload(),
    liveCommand: (command: LiveCommand) => engine.liveCommand(command),
    markRead: (id: string) => engine.markRead(id),
    markUnread: (id: string, lastRead?: string) => engine.markUnread(id, lastRead),
    release: (id: string) => engine.release(id),
    setSearchQuery: (q: string) => engine.setSearchQuery(q),
    markViewRead: (viewId: string) => engine.markViewRead(viewId),
    dmWith: (userId: string) => engine.dmWith(userId),
    saveView: (input: ViewInput, id?: string) => engine.saveView(input, id),
    deleteView: (id: string) => engine.deleteView(id),
    reorderViews: (positions: Array<{ id: string; position: number }>) => engine.reorderViews(positions),
    /** Options of the focus inbox modal: the member's channels and the workspace's people. */
    focusOptions: () => {
      const channels = [...engine.store.conversations.values()]
        .filter((c) => c.type === 'channel')
        .map((c) => (c.is_private ? { id: c.id, label: `#${c.name}`, detail: 'Private' } : { id: c.id, label: `#${c.name}` }))
        .sort((a, b) => a.label.localeCompare(b.label));
      const people = [...engine.store.users.values()]
        .filter((u) => u.id !== engine.store.me)
        .map((u) => ({ id: u.id, label: displayName(u, u.id), detail: (u as User).title }))
        .sort((a, b) => a.label.localeCompare(b.label));
      return { channels, people };
    },
    setCategory: (id: string, category: AiCategory | null) => engine.setCategory(id, category),
    featureFlags: () => engine.featureFlags(),
    /* AI (SPEC §7.4, §7.8): results carry their error text, so the page never sees a thrown error */
    ask: (question: string, options?: AskOptions, history?: AskTurn[]) => engine.ai.ask(question, options, history),
    classifyUnread: () => engine.ai.classifyUnread(),
    setAiSort: (on: boolean) => engine.setAiSort(on),
    catchupStart: () => engine.ai.catchupStart(),
    catchupChat: (sessionId: string, message: string) => engine.ai.catchupChat(sessionId, message),
    catchupAnswer: (sessionId: string, proposalId: string, confirm: boolean) => engine.ai.catchupAnswer(sessionId, proposalId, confirm),
    catchupSession: (sessionId: string) => engine.ai.catchupSession(sessionId),
    catchupStats: (sessionId: string) => engine.ai.catchupStats(sessionId),
    catchupEnd: (sessionId: string) => engine.ai.catchupEnd(sessionId),
    transcribe: (audio: Blob, filename?: string) => engine.ai.transcribe(audio, filename),
    /** The names of a conversation's other members (the '+N' hover list). */
    memberNames: (id: string): string[] => {
      const c = engine.summary(id);
      if (!c) return [];
      return c.member_ids.filter((m) => m !== engine.store.me).map((m) => displayName(engine.store.users.get(m), m));
    },
    refresh: () => engine.refresh(),
    user: (id: string): User | null => engine.user(id) as User | null,
    idAt: (viewId: string, index: number, layout?: Layout) => engine.idAt(viewId, index, layout),
    slotAt: (viewId: string, index: number, layout?: Layout) => engine.slotAt(viewId, index, layout),
    indexOf: (viewId: string, id: string, layout?: Layout) => engine.indexOf(viewId, id, layout),
    /** One conversation's small facts for a command (name, unread, category, last_read). */
    facts: (id: string) => {
      const c = engine.summary(id);
      return c
        ? {
            id: c.id,
            name: conversationTitle(c, engine.store.users),
            unread: c.unread_count_display,
            last_read: c.last_read,
            category: c.ai_category ?? null,
            type: c.type,
            dm_user: c.dm_user ?? null,
          }
        : null;
    },
    send: (conversationId: string, text: string, threadTs?: string): Promise<SendResult> => engine.send(conversationId, text, threadTs),
    setWindow: (key: string, viewId: string, start: number, end: number, options?: { layout?: Layout; previewLength?: number }) =>
      engine.setWindow(key, viewId, start, end, options),

    /* streams */
    liveState: (o: RemoteObserver<LiveState>) => remote(engine.liveState$, o),
    replaying: (o: RemoteObserver<boolean>) => remote(engine.replaying$, o),
    loadState: (o: RemoteObserver<LoadState>) => remote(engine.load$, o),
    viewCounts: (o: RemoteObserver<ViewCounts>) => remote(engine.viewCounts$, o),
    viewWindow: (key: string, o: RemoteObserver<ViewWindow>) => remote(engine.viewWindow(key), o),
    conversation: (id: string, o: RemoteObserver<ConversationDetail>) => remote(engine.conversation(id), o),
    incoming: (o: RemoteObserver<IncomingMessage>) => remote(engine.incoming$, o),
    views: (o: RemoteObserver<View[]>) => remote(engine.views$, o),
    search: (o: RemoteObserver<SearchState<PaletteItem>>) => remote(engine.search$, o),
    /** A refinement as it streams: {chunk}…, then {done, text} or {error}; unsubscribing cancels it. */
    refine: (text: string, mode: RefineMode, o: RemoteObserver<RefineEvent>) => remote(engine.ai.refine$(text, mode), o),
    unreadSummary: (o: RemoteObserver<UnreadSummary>) => remote(engine.unreadSummary$, o),
    fatalLog: (o: RemoteObserver<FatalEntry>) => {
      const listener = (entry: FatalEntry) => void o.next(entry);
      fatalListeners.add(listener);
      openSubscriptions += 1;
      return Comlink.proxy(() => {
        if (fatalListeners.delete(listener)) openSubscriptions -= 1;
        (o as unknown as { [Comlink.releaseProxy]?: () => void })[Comlink.releaseProxy]?.();
      });
    },

    /* diagnostics */
    openSubscriptions: () => openSubscriptions,
    dispose: () => engine.dispose(),
  };
}

export type EngineApi = ReturnType<typeof createApi>;

/** The worker's bootstrap object: the page calls start(config) once, then uses the API it returns. */
export function startEngine(endpoint: Comlink.Endpoint, fetchFn?: typeof fetch): void {
  Comlink.expose(
    {
      start: (config: EngineConfig) => Comlink.proxy(createApi(config, fetchFn)),
    },
    endpoint,
  );
}

export interface EngineBootstrap {
  start(config: EngineConfig): EngineApi;
}
