/**
 * Session lifecycle: who is signed in (sessionKey$), and per session the live connection, its
 * events, and the snapshot loads.
 *
 * Start-up follows Zulip's register-then-load order: the stream connects first and its
 * `connection` event gives the current sequence S; only then is the snapshot loaded (it
 * reflects at least S). Events above S that arrive meanwhile are held by liveEvents and
 * applied after the snapshot, idempotently. A reconnect carries lastSequence and replays
 * what was missed; a fresh connection (or a server that lost our place) reloads.
 *
 * A session that starts from a saved state (EngineOptions.savedState, see snapshot.ts's
 * startFrom) connects with the saved sequence and loads no snapshot unless the server says it
 * cannot replay from there (the connection event's `resync`).
 */
import {
  BehaviorSubject,
  EMPTY,
  NEVER,
  Subject,
  catchError,
  concat,
  defer,
  distinctUntilChanged,
  filter,
  from,
  ignoreElements,
  map,
  merge,
  of,
  race,
  switchMap,
  take,
  tap,
  timer,
  type Observable,
} from 'rxjs';
import type { AuthStatus, LiveState } from '../../model/types';
import { liveConnection, type LiveCommand } from '../../streams/liveConnection';
import { fileBehindHead } from '../../streams/fileBehindHead';
import { liveEvents } from '../../streams/liveEvents';
import { shareLatest } from '../../streams/shareLatest';
import { openSse } from '../sse';
import type { Core } from './core';
import type { createCopy } from './copy';
import type { createEvents } from './events';
import type { createSnapshot } from './snapshot';
import { toHttpError, type SavedState } from './types';

/** How long a warm start waits for the page's first screen before it reads the rest of the copy anyway. */
const FIRST_SCREEN_MS = 500;

export function createSession(
  core: Core,
  snapshot: ReturnType<typeof createSnapshot>,
  events: ReturnType<typeof createEvents>,
  copy: ReturnType<typeof createCopy> | null = null,
) {
  const { log, http, store, sessionKey$, load$, reload$, changed, scheduler } = core;
  const command$ = new Subject<LiveCommand>();
  const liveState$ = new BehaviorSubject<LiveState>({ status: 'unauthenticated', attempt: 0 });
  const replaying$ = new BehaviorSubject<boolean>(false);

  /** One session: from a saved state when there is one, else cold. */
  function session(key: string): Observable<never> {
    const savedState = core.options.savedState;
    if (!savedState) return live(key, null);
    return defer(() => from(Promise.resolve(savedState(key)))).pipe(
      catchError((error: unknown) => {
        log.warn('The saved state could not be read; starting cold', { message: (error as Error)?.message });
        return of(null);
      }),
      switchMap((saved) => live(key, saved)),
    );
  }

  /** The live connection, its events and the snapshot loads of one session. */
  function live(key: string, saved: SavedState | null): Observable<never> {
    return defer(() => {
      const initialSequence = saved ? snapshot.startFrom(saved) : undefined;
      const lastSequence$ = new BehaviorSubject<number | undefined>(initialSequence);
      const loading$ = new BehaviorSubject<boolean>(false);
      let loadedOnce = saved !== null;
      let reloadRequested = false;
      const requestLoad = () => {
        loadedOnce = true;
        reload$.next();
      };

      const live$ = liveConnection(
        {
          session$: concat(of(key), NEVER),
          command$,
          lastSequence$,
          open: (_key, last) => openSse(http.url('/api/sse/stream', { lastSequence: last }), core.fetchFn),
          random: core.options.random,
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
          ...(initialSequence === undefined ? {} : { initialSequence }),
        },
        scheduler,
      ).pipe(
        tap((out) => {
          if (out.kind === 'sequence') {
            lastSequence$.next(out.lastSequence);
            core.sequence$.next(out.lastSequence);
          } else if (out.kind === 'replaying') replaying$.next(out.replaying);
          else
            events.applyEvent(out.event.type, out.event.data, out.isReplay, () => {
              if (!loadedOnce) requestLoad();
              const data = out.event.data as { resync?: boolean; currentSequence?: number };
              if (data?.resync) {
                // The server's log is behind our place (a reset database): start over from its.
                lastSequence$.next(data.currentSequence);
                core.sequence$.next(data.currentSequence);
                requestLoad();
              }
            });
        }),
      );

      // Started from a head: the whole saved state is filed behind the first rows; live events wait meanwhile.
      // It is read once the page has its first screen (or after FIRST_SCREEN_MS): its chunks would compete
      // with the page's first window requests for the worker's one thread.
      const whole = saved?.whole;
      const firstScreen$ = race(core.windowServed$.pipe(take(1)), timer(FIRST_SCREEN_MS, scheduler));
      const whole$ = whole
        ? fileBehindHead<SavedState>(
            () => firstScreen$.pipe(switchMap(whole)),
            () => reloadRequested,
          ).pipe(
            tap((step) => {
              if (step.kind === 'hold') loading$.next(true);
              else if (step.kind === 'file') snapshot.fileWhole(step.state);
              else if (step.kind === 'release') loading$.next(false);
              else {
                if (step.reason === 'unreadable')
                  log.warn('The saved state could not be read whole; loading the snapshot', { message: (step.error as Error)?.message });
                requestLoad();
              }
            }),
          )
        : EMPTY;

      // Any reload (a resync, a refused write, a finished fetch, the refresh button) owns the list from then on.
      const reloads$ = reload$.pipe(tap(() => (reloadRequested = true)));

      return merge(states$, events$, whole$, reloads$, snapshot.loader$(loading$)).pipe(ignoreElements());
    });
  }

  const sessions = sessionKey$
    .pipe(
      distinctUntilChanged(),
      switchMap((key) => {
        store.clear();
        core.opened.clear();
        core.forgetFlags();
        core.sequence$.next(undefined);
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

  async function authStatus(): Promise<AuthStatus> {
    let status: AuthStatus;
    let offline = false;
    try {
      status = await http.request<AuthStatus>('/api/auth/status');
    } catch (error) {
      // The server cannot be reached (issue 14 §3): open as the member who was signed in, from their copy.
      const last = toHttpError(error).isNetworkError ? await copy?.lastSession() : null;
      if (!last) throw error;
      log.warn('The server cannot be reached; opening from the local copy', toHttpError(error));
      status = last.status;
      offline = true;
    }
    answered = true;
    const key = follow(status);
    if (key && !offline) copy?.rememberSession(key, status);
    else if (!key) await copy?.forgetLastSession();
    return status;
  }

  /** The engine follows whom the status signs in: another member or workspace is a new session. Answers its key. */
  function follow(status: AuthStatus): string | null {
    const key = status.authenticated && status.user ? `${status.workspace?.id ?? ''}:${status.user.id}` : null;
    sessionKey$.next(key);
    if (status.authenticated && status.user) {
      store.me = status.user.id;
      store.workspaceId = status.workspace?.id ?? '';
      store.users.set(status.user.id, status.user);
    }
    return key;
  }

  let answered = false;
  /**
   * The member signed in last in this browser, their session started at once from their local copy while the
   * server is asked (issue 14 §4: a warm start paints before the status answers). `authStatus` then confirms
   * it (nothing restarts), or switches, or signs out and wipes the copy. Null: nobody, or the status answered.
   */
  async function resumeLastSession(): Promise<AuthStatus | null> {
    const last = await copy?.lastSession();
    if (!last || answered || !last.status.authenticated) return null;
    follow(last.status);
    return last.status;
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
    commands: {
      authStatus,
      resumeLastSession,
      logout,
      switchWorkspace,
      liveCommand: (command: LiveCommand) => command$.next(command),
    },
    streams: {
      liveState: () => liveState$.asObservable(),
      replaying: () => replaying$.pipe(distinctUntilChanged()),
    },
    dispose: () => sessions.unsubscribe(),
  };
}
