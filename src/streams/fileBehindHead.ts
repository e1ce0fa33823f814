/**
 * A warm start's order (issue 14 §4): the session painted the head of the member's local copy (the first
 * rows of every view) and now files the whole copy behind it. In order:
 *
 *   hold     live events wait (the replay from the copy's sequence must apply on the whole, not the head)
 *   file     the whole copy replaces the head: the list goes from its first rows to all of them, never empty
 *   release  the held events apply, in order
 *
 * A whole copy that is gone (another tab wiped it) or cannot be read releases the events and asks for a
 * snapshot instead (`reload`). Once the session asked for a reload itself (the server cannot replay from the
 * copy's sequence), the reload owns the list and the events: the whole copy is dropped, nothing else is said.
 * Unsubscribing (the session ended) cancels the read's outcome.
 */
import { EMPTY, Observable, catchError, concat, defer, from, map, mergeMap, of, take, type ObservableInput } from 'rxjs';

export type FilingStep<S> =
  { kind: 'hold' } | { kind: 'file'; state: S } | { kind: 'release' } | { kind: 'reload'; reason: 'gone' | 'unreadable'; error?: unknown };

export function fileBehindHead<S>(whole: () => ObservableInput<S | null>, reloading: () => boolean): Observable<FilingStep<S>> {
  const outcome$ = defer(whole).pipe(
    take(1),
    map((state) => ({ state })),
    catchError((error: unknown) => of({ state: null, error })),
    mergeMap(({ state, error }: { state: S | null; error?: unknown }): Observable<FilingStep<S>> => {
      if (reloading()) return EMPTY;
      if (state !== null) return from<FilingStep<S>[]>([{ kind: 'file', state }, { kind: 'release' }]);
      const reload: FilingStep<S> = error === undefined ? { kind: 'reload', reason: 'gone' } : { kind: 'reload', reason: 'unreadable', error };
      return from<FilingStep<S>[]>([{ kind: 'release' }, reload]);
    }),
  );
  const hold: FilingStep<S> = { kind: 'hold' };
  return concat(of(hold), outcome$);
}
