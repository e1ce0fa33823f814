/**
 * Undo of the catch-up's last 'mark these read' (issue 12 §3), in the worker: every conversation
 * goes back to where it was read up to (at once, side by side), then the session's stats are read
 * again, then whether it all worked. One stream for what took the page N + 1 round trips.
 *
 *   markUnread ×2   -t|  --t|
 *   stats                  -s|
 *   out             ---S(U|)     S = stats, U = {kind: 'undone', ok}
 */
import { Observable, concat, defaultIfEmpty, forkJoin, map, of, switchMap, EMPTY } from 'rxjs';
import type { CatchupMarked } from '../model/ai';
import { call, statsOf, type CatchupEvent, type CatchupIo } from './catchupTurn';

export function catchupUndo(io: CatchupIo, sessionId: string | null, marked: readonly CatchupMarked[]): Observable<CatchupEvent> {
  const restored = marked.map((m) =>
    call(
      () => io.markUnread(m.conversation_id, m.last_read),
      () => false,
    ).pipe(defaultIfEmpty(false)),
  );
  return forkJoin(restored).pipe(
    defaultIfEmpty([] as boolean[]),
    map((done) => done.every(Boolean)),
    switchMap((ok) => concat(sessionId ? statsOf(io, sessionId) : EMPTY, of<CatchupEvent>({ kind: 'undone', ok }))),
  );
}
