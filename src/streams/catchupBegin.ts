/**
 * The start of a catch-up (SPEC §4.12), in the worker: start a session, and with a question,
 * send it 100 ms after the session started (a turn: reply, then stats; or `ask` when there is no
 * session). One stream for what took the page three round trips.
 *
 *   start   --a|
 *   out     --A 99ms Q(R...)     A = started, Q = asked, R… = the turn's events
 *
 * Unsubscribed before the start answered (the member left), the start is still awaited and a
 * session it opened is ended at once; its question is never sent.
 */
import { EMPTY, Observable, asyncScheduler, concat, defer, finalize, of, shareReplay, switchMap, tap, timer, type SchedulerLike } from 'rxjs';
import type { CatchupStartResponse } from '../model/ai';
import { CATCHUP_INITIAL_QUESTION_DELAY_MS } from '../model/constants';
import { call, catchupTurn, type CatchupEvent, type CatchupIo } from './catchupTurn';

export function catchupBegin(io: CatchupIo, question: string | undefined, scheduler: SchedulerLike = asyncScheduler): Observable<CatchupEvent> {
  return defer(() => {
    let answered = false;
    // Not cancelled by an unsubscription: a late session must still be ended.
    const start$ = call(
      () => io.start(),
      (error): CatchupStartResponse => ({ success: false, error }),
    ).pipe(shareReplay({ bufferSize: 1, refCount: false }));
    const text = question?.trim() ?? '';
    return start$.pipe(
      tap(() => (answered = true)),
      switchMap((result) => {
        const started = of<CatchupEvent>({ kind: 'started', result });
        if (!text) return started;
        const turn = catchupTurn(io, { sessionId: result.sessionId || null, text });
        return concat(
          started,
          timer(CATCHUP_INITIAL_QUESTION_DELAY_MS, scheduler).pipe(switchMap(() => concat(of<CatchupEvent>({ kind: 'asked', text }), turn))),
        );
      }),
      finalize(() => {
        if (answered) return;
        start$
          .pipe(
            switchMap((result) =>
              result.sessionId
                ? call(
                    () => io.end(result.sessionId!),
                    () => undefined,
                  )
                : EMPTY,
            ),
          )
          .subscribe();
      }),
    );
  });
}
