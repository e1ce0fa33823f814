/**
 * What every part of the engine shares: the store and its version, the HTTP and AI clients, the
 * scheduler and logger, who is signed in, the load state, and the signals by which applied events
 * reach the open conversation. The parts (session, snapshot, events, conversation detail, search,
 * windows, commands) each take this hub and own their own logic; engine.ts composes them.
 *
 * Every change to the store is announced by `changed()` (storeVersion$): a reader that must hear each
 * change (the list windows, the counts, a local copy that persists them) listens there. `sequence$`
 * is the member's live-event sequence the store is up to date with (undefined: not known yet).
 */
import { BehaviorSubject, Subject, asyncScheduler } from 'rxjs';
import type { Message, MessageUpdateData } from '../../model/types';
import { createAiClient } from '../ai';
import { createHttpClient } from '../http';
import type { MessageChange } from '../reduce';
import { EngineStore } from '../store';
import { toHttpError, type EngineOptions, type LoadState } from './types';
import { MESSAGE_CAP } from '../localCopy/schema';

/** A send in flight: shown as pending in its conversation until the live event arrives. */
export interface PendingSend {
  /** add: shown pending; queued: the same copy now waits in the outbox; drop: taken back out. */
  kind: 'add' | 'queued' | 'drop';
  message: Message;
}

/** Conversations whose messages are kept for offline reading, and how many of each's newest: the copy's own caps. */
const { conversations: OPENED_KEPT, perConversation: OPENED_MESSAGES } = MESSAGE_CAP;

export function createCore(options: EngineOptions) {
  const { log } = options;
  const scheduler = options.scheduler ?? asyncScheduler;
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  /**
   * Who is signed in ('workspace:user', as the last auth status said), or null: a new value starts a
   * new session. The session's token is never here: it is the browser's HttpOnly cookie.
   */
  const sessionKey$ = new BehaviorSubject<string | null>(null);
  // A 401 means the session ended (revoked, expired, signed out elsewhere): the engine signs out, which
  // wipes the member's local copy (copy.ts) and tells the page through the live state (issue 14 §2).
  const http = createHttpClient({
    baseUrl: options.baseUrl,
    fetch: fetchFn,
    onUnauthorized: () => {
      if (sessionKey$.value !== null) sessionKey$.next(null);
    },
  });
  const ai = createAiClient({ http, signedIn: () => sessionKey$.value !== null, fetch: fetchFn });
  const store = new EngineStore(log);
  const storeVersion$ = new BehaviorSubject<number>(0);
  const sequence$ = new BehaviorSubject<number | undefined>(undefined);
  const load$ = new BehaviorSubject<LoadState>({ status: 'idle', loaded: 0, total: 0 });
  /** A fresh snapshot is wanted (a reload, a refresh, a fetch that completed, a failed write). */
  const reload$ = new Subject<void>();
  /** Applied events, for the open conversation: message updates, edits and deletions, and sends in flight. */
  const messageUpdates$ = new Subject<MessageUpdateData>();
  const messageChanges$ = new Subject<MessageChange>();
  const pendingSends$ = new Subject<PendingSend>();
  /**
   * The newest messages of the conversations opened last (issue 14 §3), least recent first, at most
   * OPENED_KEPT: saved in the local copy, so a conversation opened before reads offline too.
   */
  const opened = new Map<string, Message[]>();
  const openedChanged$ = new Subject<void>();
  /** A list window with rows was sent to the page (a warm start reads the rest of its copy after the first screen). */
  const windowServed$ = new Subject<void>();
  function rememberMessages(id: string, messages: Message[]): void {
    const kept = messages.filter((m) => !m.pending).slice(-OPENED_MESSAGES);
    opened.delete(id);
    opened.set(id, kept);
    while (opened.size > OPENED_KEPT) opened.delete(opened.keys().next().value!);
    openedChanged$.next();
  }

  /** The session's feature flags, once fetched (see featureFlags). */
  let flags: Promise<Record<string, boolean>> | null = null;

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

  return {
    options,
    log,
    scheduler,
    fetchFn,
    http,
    ai,
    store,
    sessionKey$,
    storeVersion$,
    sequence$,
    /** Announces a change of the store to its readers. */
    changed: () => storeVersion$.next(store.version),
    load$,
    reload$,
    messageUpdates$,
    messageChanges$,
    pendingSends$,
    opened,
    openedChanged$,
    windowServed$,
    rememberMessages,
    featureFlags,
    /** The next featureFlags() call fetches them again (a new session, a feature_update event). */
    forgetFlags: () => {
      flags = null;
    },
  };
}

export type Core = ReturnType<typeof createCore>;
