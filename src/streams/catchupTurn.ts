/**
 * One turn of the catch-up conversation (SPEC §4.12), in the worker: the member's words (or a
 * proposal's button) go to the session, and after a reply the session's stats are read again;
 * with no session, the question goes to `ask`. One stream for what took the page two round trips.
 *
 *   chat/answer  --r|
 *   stats          --s|
 *   out          --R--(S|)     R = {kind: 'replied'}, S = {kind: 'stats'}
 *
 * A failed reply ends the turn without stats. Every call answers a result, never an error: a
 * call that throws becomes a failure with its message. Unsubscribing drops what is still awaited.
 */
import { Observable, catchError, concat, defer, from, map, of, switchMap, take } from 'rxjs';
import type { AskAnswer, CatchupChatResponse, CatchupStartResponse, CatchupStats } from '../model/ai';

export type AskResult = { ok: true; answer: AskAnswer } | { ok: false; error: string };
export interface CatchupStatsResult {
  success: boolean;
  stats?: CatchupStats;
  error?: string;
}

/** What the catch-up streams tell the page, in order. */
export type CatchupEvent =
  | { kind: 'started'; result: CatchupStartResponse }
  /** The begin's question goes out now (the page shows it as the member's). */
  | { kind: 'asked'; text: string }
  | { kind: 'replied'; result: CatchupChatResponse }
  | { kind: 'answered'; result: AskResult }
  | { kind: 'stats'; result: CatchupStatsResult }
  /** Undo: whether every conversation went back to where it was read up to. */
  | { kind: 'undone'; ok: boolean };

type Answer<T> = Observable<T> | PromiseLike<T>;

/** The calls the catch-up makes (the engine's AI client; each answers once). */
export interface CatchupIo {
  start(): Answer<CatchupStartResponse>;
  chat(sessionId: string, message: string): Answer<CatchupChatResponse>;
  answer(sessionId: string, proposalId: string, confirm: boolean): Answer<CatchupChatResponse>;
  ask(question: string): Answer<AskResult>;
  stats(sessionId: string): Answer<CatchupStatsResult>;
  end(sessionId: string): Answer<unknown>;
  markUnread(conversationId: string, lastRead: string): Answer<boolean>;
}

const messageOf = (error: unknown) => (error as Error)?.message ?? '';

/** One answer of a call, as a cold observable; a throw becomes `failed(message)`. */
export function call<T>(run: () => Answer<T>, failed: (message: string) => T): Observable<T> {
  return defer(() => from(run())).pipe(
    take(1),
    catchError((error: unknown) => of(failed(messageOf(error)))),
  );
}

export interface TurnInput {
  /** The session; null when there is none (nothing unread, or the start failed): the question goes to `ask`. */
  sessionId: string | null;
  text: string;
  /** A proposal's button instead of words. */
  answer?: { proposalId: string; confirm: boolean };
}

/** The session's stats, read once. */
export function statsOf(io: CatchupIo, sessionId: string): Observable<CatchupEvent> {
  return call(
    () => io.stats(sessionId),
    (error) => ({ success: false, error }),
  ).pipe(map((result): CatchupEvent => ({ kind: 'stats', result })));
}

export function catchupTurn(io: CatchupIo, { sessionId, text, answer }: TurnInput): Observable<CatchupEvent> {
  if (!sessionId)
    return call(
      () => io.ask(text),
      (error): AskResult => ({ ok: false, error }),
    ).pipe(map((result): CatchupEvent => ({ kind: 'answered', result })));
  const reply = answer ? () => io.answer(sessionId, answer.proposalId, answer.confirm) : () => io.chat(sessionId, text);
  return call(reply, (error): CatchupChatResponse => ({ success: false, error })).pipe(
    switchMap((result) => {
      const replied = of<CatchupEvent>({ kind: 'replied', result });
      return result.success ? concat(replied, statsOf(io, sessionId)) : replied;
    }),
  );
}
