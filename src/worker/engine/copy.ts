/**
 * The local copy's part of the engine (issue 14 §2, §3): per member and workspace, what the engine
 * holds is kept in the browser (src/worker/localCopy), so the next start paints at once and asks the
 * server only for what changed since.
 *
 * - `savedState(key)` opens the member's copy and answers what it holds; the session (session.ts)
 *   paints from it and connects the live stream with its sequence (the replay is the delta; the
 *   server's `resync` makes a fresh snapshot that is swapped in without emptying the list).
 * - While the session lives, the store's changes are saved (copySync.ts's persistCopy): deltas, at
 *   most once a second, only while the store is whole, by the one writer tab of the member.
 * - The last session's status is kept too, so Sift opens offline as the member who was signed in.
 * - Logout, a revoked or expired session (the server answers the status unauthenticated) and a switch
 *   to another member or workspace wipe the previous member's copy and the last session: nothing of a
 *   member stays in a browser they signed out of.
 */
import { BehaviorSubject, EMPTY, distinctUntilChanged, first, merge, pairwise, startWith, switchMap, type Observable } from 'rxjs';
import type { AuthStatus } from '../../model/types';
import { openedOf, persistCopy, SavedState as CopyState } from '../copySync';
import { readLastSession, saveLastSession, saveOutbox, wipeLastSession } from '../localCopy/lastSession';
import { openLocalCopy, wipeAllCopies, wipeCopy, type LocalCopy, type SavedCopy, type SavedHead } from '../localCopy/localCopy';
import type { Core } from './core';
import type { SavedState } from './types';

export function createCopy(core: Core) {
  const { log, store } = core;
  /** The open copy of the current session's member, and what it held at start. */
  let opened: { key: string; copy: Promise<LocalCopy | null>; head: Promise<SavedHead | null>; readWhole: () => Promise<SavedCopy | null> } | null = null;

  /** Opens the member's copy and reads it, once per session. */
  function open(key: string) {
    if (opened?.key !== key) {
      const stale = opened;
      if (stale) void stale.copy.then((copy) => copy?.close());
      const copy = openLocalCopy(key).catch((error: unknown) => {
        log.warn('The local copy is not available; starting from the server', { message: (error as Error)?.message });
        return null;
      });
      const unreadable = (error: unknown) => {
        log.warn('The local copy could not be read; starting from the server', { message: (error as Error)?.message });
        return null;
      };
      // The head at once (the first screen paints from it); the whole copy when the session asks, read once.
      const head = copy.then((c) => c?.loadHead() ?? null).catch(unreadable);
      let whole: Promise<SavedCopy | null> | null = null;
      const readWhole = () => (whole ??= head.then(() => copy.then((c) => c?.load() ?? null)).catch(unreadable));
      opened = { key, copy, head, readWhole };
    }
    return opened;
  }

  /** When the copy a session started from was saved (null: no copy). */
  const savedAt$ = new BehaviorSubject<number | null>(null);

  /**
   * What a session starts from: the head of the member's copy (the whole follows), or the whole copy when it
   * has no head, or null (none, another schema, no storage).
   */
  async function savedState(key: string): Promise<SavedState | null> {
    const entry = open(key);
    const head = await entry.head;
    if (!head) return whole(entry, true);
    savedAt$.next(head.savedAt);
    return { ...head, whole: () => whole(entry, false) };
  }

  /** The whole copy; `announce`: its save time is the session's (a head already said it otherwise). */
  async function whole(entry: NonNullable<typeof opened>, announce: boolean): Promise<SavedState | null> {
    const saved = await entry.readWhole();
    // The session ended meanwhile (a sign-out, another member): nothing of this copy goes into the engine.
    if (opened !== entry) return null;
    if (announce) savedAt$.next(saved?.savedAt ?? null);
    // The conversations read before, for reading offline (the very lists the copy holds: only later changes are saved).
    core.opened.clear();
    for (const [id, messages] of openedOf(saved?.messages ?? {})) core.opened.set(id, messages);
    return saved;
  }

  /** Saves the store into the member's copy while their session lives. */
  function persist(key: string): Observable<never> {
    const entry = open(key);
    // Once the store is whole (filed from the copy, or loaded from the server): what the copy held, to save only what changed since.
    return core.load$.pipe(
      first((state) => state.status === 'loaded'),
      switchMap(() => Promise.all([entry.copy, entry.readWhole()])),
      switchMap(([copy, saved]) => {
        if (!copy) return EMPTY;
        return persistCopy(
          {
            store,
            copy,
            version$: merge(core.storeVersion$, core.openedChanged$),
            sequence: () => core.sequence$.value,
            ready: () => core.load$.value.status === 'loaded',
            messages: core.opened,
            // The store was painted from the copy with the same records: only what changes later is saved.
            saved: saved ? CopyState.fromCopy(saved) : null,
            log,
          },
          core.scheduler,
        );
      }),
    );
  }

  /** The previous member's copy goes when another (or nobody) is signed in. */
  async function forget(previous: string, next: string | null): Promise<void> {
    if (opened?.key === previous) {
      void opened.copy.then((copy) => copy?.close());
      opened = null;
    }
    try {
      await wipeCopy(previous);
      // The last session (and every outbox with it) at sign-out; at a switch, the previous member's outbox.
      // Signed out: every copy in this browser goes, a leftover of a wipe that failed before too.
      if (next === null) await Promise.all([wipeLastSession(), wipeAllCopies()]);
      else await saveOutbox(previous, []);
    } catch (error) {
      log.warn('The local copy could not be wiped', { message: (error as Error)?.message });
    }
  }

  // The last member's copy starts loading as the engine starts, while the page asks who is signed in: when
  // the answer is that member (nearly always), the list paints as soon as it is read.
  // Not once the status has answered: a session that ended must not open (and so create) the copy it wipes.
  let answered = false;
  void readLastSession().then((last) => {
    if (last && !answered && opened === null) open(last.memberKey);
  });

  const running = core.sessionKey$
    .pipe(
      distinctUntilChanged(),
      startWith(null),
      pairwise(),
      switchMap(([previous, key]) => {
        if (previous && previous !== key) void forget(previous, key);
        return key ? persist(key) : EMPTY;
      }),
    )
    .subscribe({ error: (error: unknown) => log.warn('The local copy stopped', { message: (error as Error)?.message }) });

  return {
    savedState,
    /** Remembers who is signed in, for an offline start. */
    rememberSession: (key: string, status: AuthStatus) => {
      answered = true;
      void saveLastSession({ memberKey: key, status, savedAt: Date.now() }).catch((error: unknown) =>
        log.warn('The last session could not be saved', { message: (error as Error)?.message }),
      );
    },
    /** Who was signed in last, when the server cannot be reached. */
    lastSession: readLastSession,
    /** The server says nobody is signed in (the session ended while Sift was closed): the last member's copy goes. */
    forgetLastSession: async () => {
      answered = true;
      const last = await readLastSession();
      if (last) await forget(last.memberKey, null);
    },
    savedAt$: savedAt$.asObservable(),
    dispose: () => running.unsubscribe(),
  };
}
