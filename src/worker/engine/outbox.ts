/**
 * The outbox (issue 14 §3): a mark read, mark unread, category or send that cannot reach the server
 * (offline, or a failure that passes) is not lost. It stays applied in the store, waits here in the
 * order it was taken, and is sent when the live connection is up again (src/streams/outbox.ts drains
 * it: one at a time, oldest first, retried at the head). While anything waits, a new action queues
 * behind it, so their order holds. A send keeps its client message id, so a retry never posts twice.
 * An action the server refuses is rolled back (the list reloads; a send's pending copy goes) and
 * reported on `refused$` for the page to say so. The queue is saved per member in IndexedDB
 * (localCopy/lastSession.ts), so closing the browser offline loses nothing; a session that starts finds
 * it again.
 */
import { BehaviorSubject, EMPTY, Subject, catchError, distinctUntilChanged, from, ignoreElements, map, of, switchMap, tap, type Observable } from 'rxjs';
import type { AiCategory, HttpError, Message } from '../../model/types';
import { drainOutbox, isTransient } from '../../streams/outbox';
import { readOutbox, saveOutbox } from '../localCopy/lastSession';
import type { Core } from './core';

export type OutboxAction =
  | { id: string; kind: 'mark-read'; conversationId: string; timestamp?: string }
  | { id: string; kind: 'mark-unread'; conversationId: string; timestamp?: string }
  | { id: string; kind: 'category'; conversationId: string; category: AiCategory | null }
  | { id: string; kind: 'send'; conversationId: string; text: string; threadTs?: string };

/** What the page is told of an action the server refused. */
export interface Refusal {
  kind: OutboxAction['kind'];
  conversationId: string;
  /** A send's text, so the member can take it back. */
  text?: string;
  error: string;
}

const path = (id: string, rest: string) => `/api/conversations/${encodeURIComponent(id)}/${rest}`;

/** The request an action makes (the same as the command's own). */
export function requestOf(action: OutboxAction): { path: string; method?: 'DELETE'; body?: unknown } {
  switch (action.kind) {
    case 'mark-read':
      return { path: path(action.conversationId, 'mark-read'), body: { timestamp: action.timestamp } };
    case 'mark-unread':
      return { path: path(action.conversationId, 'mark-unread'), body: action.timestamp ? { timestamp: action.timestamp } : {} };
    case 'category': {
      const label = `/api/features/ai-sort/label/${encodeURIComponent(action.conversationId)}`;
      return action.category ? { path: label, body: { category: action.category } } : { path: label, method: 'DELETE' };
    }
    case 'send':
      return {
        path: '/api/messages/send',
        body: { channel: action.conversationId, text: action.text, thread_ts: action.threadTs, client_msg_id: action.id },
      };
  }
}

/** A send's pending copy in its conversation (sorted last until the server's copy replaces it). */
export function pendingCopy(action: Extract<OutboxAction, { kind: 'send' }>, me: string): Message {
  return { ts: '9999999999.999999', text: action.text, channel: action.conversationId, user: me, pending: true, client_msg_id: action.id };
}

/** The same, once it waits in the outbox. */
export function queuedCopy(action: Extract<OutboxAction, { kind: 'send' }>, me: string): Message {
  return { ...pendingCopy(action, me), queued: true };
}

export function createOutbox(core: Core, online$: Observable<boolean>) {
  const { http, log, store, reload$, pendingSends$ } = core;
  const queue$ = new BehaviorSubject<readonly OutboxAction[]>([]);
  const refused$ = new Subject<Refusal>();
  /** Whose queue it is (saved under their key). */
  let member: string | null = null;
  /**
   * The member's saved queue has been read and merged. Until then every action waits (it must not overtake the
   * saved ones) and nothing is saved (a save of the new actions alone would overwrite the saved ones).
   */
  let loaded = false;

  const save = () => {
    if (member && loaded)
      void saveOutbox(member, queue$.value).catch((error: unknown) => log.warn('The outbox could not be saved', { message: String(error) }));
  };

  function enqueue(action: OutboxAction): void {
    queue$.next([...queue$.value, action]);
    save();
  }

  const drained$ = drainOutbox<OutboxAction>(
    {
      queue$,
      current: () => queue$.value,
      remove: (entry) => {
        queue$.next(queue$.value.filter((e) => e !== entry));
        save();
      },
      online$,
      perform: (action) => {
        const request = requestOf(action);
        return http.request(request.path, { ...(request.method ? { method: request.method } : {}), ...(request.body ? { body: request.body } : {}) });
      },
      random: core.options.random,
    },
    core.scheduler,
  ).pipe(
    tap((result) => {
      if (result.kind !== 'refused') return;
      const action = result.entry;
      log.warn('The server refused an action taken offline; rolling it back', { kind: action.kind, message: result.error.message });
      if (action.kind === 'send') pendingSends$.next({ kind: 'drop', message: pendingCopy(action, store.me) });
      else reload$.next();
      refused$.next({
        kind: action.kind,
        conversationId: action.conversationId,
        ...(action.kind === 'send' ? { text: action.text } : {}),
        error: result.error.message,
      });
    }),
  );

  /** A session's outbox: what it saved before is queued again (a send's pending copy shown), then drained while it lives. */
  function session(key: string | null): Observable<never> {
    member = key;
    loaded = false;
    queue$.next([]);
    if (!key) return EMPTY;
    return from(readOutbox<OutboxAction>(key)).pipe(
      catchError((error: unknown) => {
        log.warn('The saved outbox could not be read', { message: String(error) });
        return of([] as OutboxAction[]);
      }),
      tap((saved) => {
        for (const action of saved) if (action.kind === 'send') pendingSends$.next({ kind: 'add', message: queuedCopy(action, store.me) });
        if (saved.length) queue$.next([...saved, ...queue$.value]);
        loaded = true;
        // What was taken meanwhile is saved behind what was saved before.
        if (queue$.value.length) save();
      }),
      switchMap(() => drained$),
      ignoreElements(),
    );
  }

  const running = core.sessionKey$
    .pipe(
      distinctUntilChanged(),
      switchMap((key) => session(key)),
    )
    .subscribe({
      error: (error: unknown) => log.warn('The outbox stopped', { message: (error as Error)?.message }),
    });

  return {
    /** Whether an action must wait: something already waits (order), or it failed for a reason that passes. */
    mustWait: (error?: HttpError) => !loaded || queue$.value.length > 0 || (error !== undefined && isTransient(error)),
    enqueue,
    waiting: () => queue$.value.length,
    streams: {
      /** How many actions wait to be sent. */
      outboxSize: () => queue$.pipe(map((q) => q.length)),
      /** Actions the server refused after they waited (rolled back): the page says so. */
      outboxRefused: () => refused$.asObservable(),
    },
    dispose: () => running.unsubscribe(),
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
