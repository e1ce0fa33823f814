import {
  EMPTY,
  asyncScheduler,
  catchError,
  combineLatest,
  concat,
  defer,
  distinctUntilChanged,
  ignoreElements,
  merge,
  mergeMap,
  of,
  startWith,
  switchMap,
  tap,
  timer,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import { LIVE_CHECK_INTERVAL_MS, LIVE_MAX_RECONNECT_ATTEMPTS, LIVE_MAX_RETRY_HINT_MS, LIVE_RESTART_RETRY_MS } from '../model/constants';
import type { LiveState, LiveStatus } from '../model/types';
import { reconnectDelay } from './backoff';

/**
 * What one stream connection reports: the HTTP stream opened, one SSE message, or the server's `retry:` (how
 * long to wait before coming back: a server that stops spreads its clients' returns over several seconds).
 */
export type SseSignal = { type: 'open' } | { type: 'message'; data: string; id?: string } | { type: 'retry'; ms: number };
export type LiveCommand = 'connect' | 'disconnect' | 'reset';
export type LiveOutput = { kind: 'state'; state: LiveState } | { kind: 'message'; data: string; id?: string };

export interface LiveConnectionInputs {
  /** Who is signed in (the engine's session key), or null = nobody. Only distinct values count. */
  session$: Observable<string | null>;
  /** Explicit commands. The stream starts as if 'connect' had been commanded. */
  command$: Observable<LiveCommand>;
  /** The latest applied sequence; its latest value is read at each attempt. */
  lastSequence$: Observable<number | undefined>;
  /** One stream connection: {type:'open'} when the HTTP stream opens, then messages; errors or completes when it ends. */
  open: (session: string, lastSequence: number | undefined) => Observable<SseSignal>;
  /** Jitter source in [0, 1); Math.random by default. */
  random?: () => number;
}

const stateOf = (status: LiveStatus, attempt: number, reason?: 'max_attempts'): LiveOutput => ({
  kind: 'state',
  state: reason ? { status, attempt, reason } : { status, attempt },
});

/**
 * The live connection (SPEC §4.2, §7.3, §9): its status and the raw messages of the current
 * stream connection, reconnecting with backoff. Gaps below are not to scale.
 *
 *   session$:  t-----------------------------------------------------
 *   command$:  ---------------------------------d--------------------   (starts as if 'connect')
 *   open():    --o--m--#            --o---------!          --o-------
 *   output:    0-C--m--a  ~500 ms~  1-C---------D  ~5 s~   0-C-------
 *
 *   ten consecutive failures (random() = 0), then 'reset':
 *   open():    #    #    #    …    #                     #
 *   output:    (0a) (1b) (2c) …    (9F) ----- stays ----- (0a) …
 *   waits:         500  1000  2000 … 30000                 (fresh counter)
 *
 *   session$ null:   U------   (open() is never called; a session arriving connects at once)
 *
 * Legend: digit k connecting after k failures, C connected, m message, a…i error after
 * 1…9 failures, F failed (attempt 10, reason max_attempts), D disconnected,
 * U unauthenticated. The n-th consecutive failure (counted since the last open) waits
 * round(reconnectDelay(n - 1)) ms on `scheduler`; the LIVE_MAX_RECONNECT_ATTEMPTS-th ends
 * in failed, which stays until 'reset', 'connect' or a new session.
 *
 * A server's `retry:` on a connection (issue 15 §2: a stopping server spreads its clients' returns) makes the
 * wait after that connection's end at least that long, never above LIVE_MAX_RETRY_HINT_MS:
 *
 *   open():    --o--r(3000)--|
 *   output:    0-C-----------a  ~3 s (not 500 ms)~  1-C---
 *
 * and, while no connection opens, after each failure that follows (the server still restarting), a wait drawn
 * again over the restart window LIVE_RESTART_RETRY_MS (the backoff's, when longer):
 *
 *   open():    --o--r(3000)--|  ~3 s~  #  ~1-11 s (6 s at random() 0.5)~  #  ~6 s~  o
 *
 * A new distinct session, 'connect' or 'reset' restarts from scratch (attempt 0), tearing the
 * current connection down. While disconnected with a session, a check LIVE_CHECK_INTERVAL_MS
 * later starts a fresh attempt. The latest lastSequence$ value is read at each attempt.
 * A failing connection (error, completion or a throwing open()) never ends the output.
 */
/** A wait over the window a stopping Sift server draws its `retry:` from. */
function restartWait(random: () => number): number {
  return Math.round(LIVE_RESTART_RETRY_MS.min + random() * LIVE_RESTART_RETRY_MS.spread);
}

export function liveConnection(inputs: LiveConnectionInputs, scheduler: SchedulerLike = asyncScheduler): Observable<LiveOutput> {
  const { session$, command$, lastSequence$, open, random = Math.random } = inputs;

  return defer(() => {
    let lastSequence: number | undefined;
    const trackSequence$ = lastSequence$.pipe(
      tap((sequence) => (lastSequence = sequence)),
      ignoreElements(),
    );

    /**
     * One attempt after `failures` consecutive failures, then whatever follows its end. `inherited`: the last
     * server's `retry:` while no connection has opened since (WHATWG's reconnection time persists): a client
     * whose first return finds the server still down keeps its own spread on the next tries.
     */
    const attempt = (session: string, failures: number, inherited = 0): Observable<LiveOutput> =>
      defer(() => {
        let opened = false;
        /** The server's `retry:` on this connection, in ms (the inherited one until it opens). */
        let hint = inherited;
        /** Whether this connection's server sent it (else it is inherited, or none). */
        let fresh = false;
        return concat(
          of(stateOf('connecting', failures)),
          defer(() => open(session, lastSequence)).pipe(
            mergeMap((signal): Observable<LiveOutput> => {
              if (signal.type === 'retry') {
                hint = Math.min(Math.max(0, signal.ms), LIVE_MAX_RETRY_HINT_MS);
                fresh = true;
                return EMPTY;
              }
              if (signal.type === 'open') {
                opened = true;
                hint = 0;
                return of(stateOf('connected', 0));
              }
              return of(signal.id === undefined ? { kind: 'message', data: signal.data } : { kind: 'message', data: signal.data, id: signal.id });
            }),
            // An error and a completion both mean the server closed the stream.
            catchError(() => EMPTY),
          ),
          defer(() => afterFailure(session, opened ? 1 : failures + 1, hint, fresh)),
        );
      });

    const afterFailure = (session: string, failures: number, hint = 0, fresh = true): Observable<LiveOutput> =>
      failures >= LIVE_MAX_RECONNECT_ATTEMPTS
        ? of(stateOf('failed', failures, 'max_attempts'))
        : concat(
            of(stateOf('error', failures)),
            // The server's own retry: as it said. A return the restarting server still turned away draws its wait
            // again over the whole restart window, so that those clients do not all come back in the second it is up.
            timer(Math.max(Math.round(reconnectDelay(failures - 1, random)), fresh ? hint : hint > 0 ? restartWait(random) : 0), scheduler).pipe(
              switchMap(() => attempt(session, failures, hint)),
            ),
          );

    /** Disconnected or unauthenticated; the periodic check picks up a session if one is there. */
    const idle = (status: 'disconnected' | 'unauthenticated', session: string | null): Observable<LiveOutput> =>
      concat(of(stateOf(status, 0)), session === null ? EMPTY : timer(LIVE_CHECK_INTERVAL_MS, scheduler).pipe(switchMap(() => attempt(session, 0))));

    const connection$ = combineLatest([session$.pipe(distinctUntilChanged()), command$.pipe(startWith<LiveCommand>('connect'))]).pipe(
      switchMap(([session, command]) =>
        command === 'disconnect' ? idle('disconnected', session) : session === null ? idle('unauthenticated', null) : attempt(session, 0),
      ),
    );

    return merge(trackSequence$, connection$);
  });
}
