/**
 * The outbox's drain (issue 14 §3): actions taken while Sift could not reach the server (mark
 * read, mark unread, a category, a send) wait in a queue, in the order they were taken, and are
 * sent one at a time, oldest first, while the connection is up.
 *
 * - An action that fails for a reason that passes (no network, a 5xx, 429, 408) stays at the head
 *   and is tried again after a backoff (SPEC §9's reconnect delays), or at once when the connection
 *   comes back. Nothing behind it overtakes it: a send and the mark read after it keep their order.
 * - An action the server refuses (any other 4xx) leaves the queue and is reported as `refused`, so
 *   the engine rolls back what it showed and the page says so.
 * - 401 (the session ended) stops the drain; the queue is left as it is for the engine to wipe.
 * - A send carries its client message id, so a retry after a lost answer never posts twice
 *   (the server answers the first message again).
 *
 * The queue is the caller's (held in the local copy so a closed browser keeps it); this pipeline
 * only reads its head and says what became of each action.
 */
import {
  EMPTY,
  Observable,
  catchError,
  defaultIfEmpty,
  defer,
  distinctUntilChanged,
  exhaustMap,
  expand,
  filter,
  from,
  map,
  of,
  retry,
  switchMap,
  take,
  timer,
  type SchedulerLike,
} from 'rxjs';
import type { HttpError } from '../model/types';
import { reconnectDelay } from './backoff';

export interface OutboxEntry {
  /** The action's own id (a send's client message id). */
  id: string;
}

export type OutboxResult<T extends OutboxEntry> =
  { kind: 'sent'; entry: T } | { kind: 'refused'; entry: T; error: HttpError } | { kind: 'unauthorized'; entry: T; error: HttpError };

export interface OutboxSources<T extends OutboxEntry> {
  /** The queue, oldest first; it emits whenever it changes, and its current value on subscribe (a BehaviorSubject). */
  queue$: Observable<readonly T[]>;
  /** The queue now (read before each action: what was enqueued meanwhile is sent in the same drain). */
  current: () => readonly T[];
  /** Takes the head out once it is done (sent or refused). */
  remove: (entry: T) => void;
  /** Whether the server can be reached (the live connection is up). */
  online$: Observable<boolean>;
  /** Sends one action; rejects with an HttpError-like value. */
  perform: (entry: T) => Promise<unknown> | Observable<unknown>;
  random?: () => number;
}

/** Whether a failure passes with time: the action is tried again rather than dropped. */
export function isTransient(error: HttpError): boolean {
  return error.isNetworkError || error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

function asHttpError(error: unknown): HttpError {
  const e = error as Partial<HttpError> | undefined;
  return {
    isNetworkError: e?.isNetworkError === true,
    status: typeof e?.status === 'number' ? e.status : 0,
    message: typeof e?.message === 'string' && e.message ? e.message : 'An unexpected error occurred',
  };
}

/** Thrown inside the drain so that `retry` waits and tries the head again. */
class Transient extends Error {}

export function drainOutbox<T extends OutboxEntry>(sources: OutboxSources<T>, scheduler: SchedulerLike): Observable<OutboxResult<T>> {
  const random = sources.random ?? Math.random;

  /** The head of the queue, sent once: its result, or an error that passes (to retry). */
  const sendHead = (): Observable<OutboxResult<T>> =>
    defer(() => {
      const entry = sources.current()[0];
      if (!entry) return EMPTY;
      return from(sources.perform(entry)).pipe(
        // An action answers once: its first value, or its completion (a void command), means sent.
        take(1),
        map((): OutboxResult<T> => ({ kind: 'sent', entry })),
        defaultIfEmpty({ kind: 'sent', entry } as OutboxResult<T>),
        catchError((raw: unknown) => {
          const error = asHttpError(raw);
          if (isTransient(error)) throw new Transient(error.message);
          return of<OutboxResult<T>>(error.status === 401 ? { kind: 'unauthorized', entry, error } : { kind: 'refused', entry, error });
        }),
        map((result) => {
          if (result.kind !== 'unauthorized') sources.remove(entry);
          return result;
        }),
      );
    });

  /** Every queued action in turn, until the queue is empty or the session ended. */
  const drain = (): Observable<OutboxResult<T>> =>
    sendHead().pipe(
      expand((result) => (result.kind === 'unauthorized' ? EMPTY : sendHead())),
      retry({ delay: (_error, count) => timer(reconnectDelay(count - 1, random), scheduler), resetOnSuccess: true }),
    );

  return sources.online$.pipe(
    distinctUntilChanged(),
    // Offline: nothing is tried; coming back online starts a drain at once.
    switchMap((online) =>
      online
        ? sources.queue$.pipe(
            filter((queue) => queue.length > 0),
            // One drain at a time; it reads the queue itself, so what arrives meanwhile is not missed.
            exhaustMap(() => drain()),
          )
        : EMPTY,
    ),
  );
}
