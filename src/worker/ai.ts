/**
 * The engine's AI calls (SPEC §7.4, §7.8): ask, refine (a stream), classify, catch-up and
 * transcription. Thin on purpose: the server does the work; this turns its answers into the
 * shapes and error texts the page shows (SPEC §8).
 */
import { Observable, map, takeWhile } from 'rxjs';
import {
  AI_CHAT_ERROR_DEFAULT,
  ASK_HISTORY_LIMIT,
  CATCHUP_ERRORS,
  REFINE_ERROR_DEFAULT,
  type AskAnswer,
  type AskOptions,
  type AskTurn,
  type CatchupChatResponse,
  type CatchupSessionResponse,
  type CatchupStartResponse,
  type CatchupStats,
  type RefineEvent,
  type RefineMode,
} from '../model/ai';
import { AI_CLASSIFY_TIMEOUT_MS, NO_TOKEN_MESSAGE } from '../model/constants';
import { HttpFailure, errorMessageOf, type HttpClient } from './http';
import { openSse } from './sse';
import type { CatchupMarked } from '../model/ai';
import { catchupBegin } from '../streams/catchupBegin';
import { catchupTurn, type AskResult, type TurnInput } from '../streams/catchupTurn';
import { catchupUndo } from '../streams/catchupUndo';

export type { AskResult } from '../streams/catchupTurn';

export interface AiClientOptions {
  http: HttpClient;
  /** Whether a member is signed in (the session itself travels in the HttpOnly cookie). */
  signedIn: () => boolean;
  fetch?: typeof fetch;
}

/** What a failed call answers: the server's error text, else the call's default. */
function failure(error: unknown, fallback: string): string {
  if (error instanceof HttpFailure) return error.message && error.message !== 'An unexpected error occurred' ? error.message : fallback;
  return (error as Error)?.message || fallback;
}

export type ClassifyResult = { ok: true; classified: number; skipped: number } | { ok: false; error: string };
export type TranscribeResult = { ok: true; transcript: string } | { ok: false; error: string };

export function createAiClient(options: AiClientOptions) {
  const { http } = options;

  /** POST /api/ask (with the earlier turns a follow-up needs); the error text follows SPEC §8 'AI chat' (error, then message, then the exception, else the default). */
  async function ask(question: string, askOptions: AskOptions = {}, history: AskTurn[] = []): Promise<AskResult> {
    try {
      const body = history.length ? { question, options: askOptions, history: history.slice(-ASK_HISTORY_LIMIT) } : { question, options: askOptions };
      const answer = await http.request<AskAnswer>('/api/ask', { body, timeoutMs: AI_CLASSIFY_TIMEOUT_MS });
      return { ok: true, answer };
    } catch (error) {
      return { ok: false, error: failure(error, AI_CHAT_ERROR_DEFAULT) };
    }
  }

  /**
   * POST /api/messages/refine as a stream of the server's events: {chunk}… then {done, text},
   * or one {error}. Unsubscribing cancels the request (SPEC §4.7: Cancel or Esc).
   */
  function refine$(text: string, mode: RefineMode): Observable<RefineEvent> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    return new Observable<RefineEvent>((subscriber) => {
      let text_ = '';
      const subscription = openSse(http.url('/api/messages/refine'), options.fetch, { method: 'POST', headers, body: JSON.stringify({ text, mode }) })
        .pipe(
          map((signal): RefineEvent | null => {
            if (signal.type !== 'message') return null;
            try {
              return JSON.parse(signal.data) as RefineEvent;
            } catch {
              return { error: REFINE_ERROR_DEFAULT };
            }
          }),
          takeWhile((event) => event === null || !('done' in event || 'error' in event), true),
        )
        .subscribe({
          next: (event) => {
            if (!event) return;
            if ('chunk' in event) text_ += event.chunk;
            if ('done' in event) subscriber.next({ done: true, text: typeof event.text === 'string' ? event.text : text_ });
            else subscriber.next(event);
          },
          error: (error: unknown) => {
            subscriber.next({ error: failure(error, REFINE_ERROR_DEFAULT) });
            subscriber.complete();
          },
          complete: () => {
            // A stream that ends without done or error was cut off.
            subscriber.complete();
          },
        });
      return () => subscription.unsubscribe();
    });
  }

  /** POST /api/features/ai-sort/classify-unread, waiting up to 120 s (SPEC §9). */
  async function classifyUnread(): Promise<ClassifyResult> {
    try {
      const body = await http.request<{ classified: number; skipped: number }>('/api/features/ai-sort/classify-unread', {
        method: 'POST',
        timeoutMs: AI_CLASSIFY_TIMEOUT_MS,
      });
      return { ok: true, classified: body.classified ?? 0, skipped: body.skipped ?? 0 };
    } catch (error) {
      return { ok: false, error: failure(error, 'Classification failed') };
    }
  }

  function needToken(): string | null {
    return options.signedIn() ? null : NO_TOKEN_MESSAGE;
  }

  async function catchupStart(): Promise<CatchupStartResponse> {
    const missing = needToken();
    if (missing) return { success: false, error: missing };
    try {
      return await http.request<CatchupStartResponse>('/api/features/voice-catchup/start', { method: 'POST', body: {}, timeoutMs: AI_CLASSIFY_TIMEOUT_MS });
    } catch (error) {
      return { success: false, error: failure(error, CATCHUP_ERRORS.start) };
    }
  }

  async function catchupChat(sessionId: string, message: string): Promise<CatchupChatResponse> {
    return catchupTurn({ sessionId, message });
  }

  /** A proposal's button (Sift's addition to SPEC §7.8): the proposal's id, and 'Mark these read' (true) or 'Not now'. */
  async function catchupAnswer(sessionId: string, proposalId: string, confirm: boolean): Promise<CatchupChatResponse> {
    return catchupTurn({ sessionId, proposalId, confirm });
  }

  async function catchupTurn(body: Record<string, unknown>): Promise<CatchupChatResponse> {
    const missing = needToken();
    if (missing) return { success: false, error: missing };
    try {
      return await http.request<CatchupChatResponse>('/api/features/voice-catchup/chat', { body, timeoutMs: AI_CLASSIFY_TIMEOUT_MS });
    } catch (error) {
      return { success: false, error: failure(error, CATCHUP_ERRORS.chat) };
    }
  }

  async function catchupSession(sessionId: string): Promise<CatchupSessionResponse> {
    try {
      return await http.request<CatchupSessionResponse>(`/api/features/voice-catchup/session/${encodeURIComponent(sessionId)}`);
    } catch (error) {
      return { success: false, error: failure(error, CATCHUP_ERRORS.session) };
    }
  }

  async function catchupStats(sessionId: string): Promise<{ success: boolean; stats?: CatchupStats; error?: string }> {
    try {
      return await http.request(`/api/features/voice-catchup/session/${encodeURIComponent(sessionId)}/stats`);
    } catch (error) {
      return { success: false, error: failure(error, CATCHUP_ERRORS.stats) };
    }
  }

  async function catchupEnd(sessionId: string): Promise<{ success: boolean; error?: string }> {
    try {
      return await http.request(`/api/features/voice-catchup/session/${encodeURIComponent(sessionId)}`, { method: 'DELETE' });
    } catch (error) {
      return { success: false, error: failure(error, CATCHUP_ERRORS.end) };
    }
  }

  /** POST /api/features/voice-catchup/transcribe, multipart with the audio file, the session cookie. */
  async function transcribe(audio: Blob, filename = 'recording.webm'): Promise<TranscribeResult> {
    const missing = needToken();
    if (missing) return { ok: false, error: missing };
    const form = new FormData();
    form.append('audio', audio, filename);
    try {
      const response = await (options.fetch ?? fetch)(http.url('/api/features/voice-catchup/transcribe'), {
        method: 'POST',
        body: form,
        credentials: 'same-origin',
        signal: AbortSignal.timeout(AI_CLASSIFY_TIMEOUT_MS),
      });
      const body = (await response.json().catch(() => undefined)) as { transcript?: string } | undefined;
      if (!response.ok) return { ok: false, error: errorMessageOf(body) };
      return { ok: true, transcript: body?.transcript ?? '' };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  }

  return { ask, refine$, classifyUnread, catchupStart, catchupChat, catchupAnswer, catchupSession, catchupStats, catchupEnd, transcribe };
}

export type AiClient = ReturnType<typeof createAiClient>;

/**
 * The catch-up's steps as streams (src/streams/catchupBegin, catchupTurn, catchupUndo), over the
 * AI client's calls and the engine's mark unread: a flow of several calls is one stream in the
 * worker, so the page makes one request per step.
 */
export function catchupStreams(
  calls: Pick<AiClient, 'catchupStart' | 'catchupChat' | 'catchupAnswer' | 'ask' | 'catchupStats' | 'catchupEnd'> & {
    markUnread(conversationId: string, lastRead?: string): Promise<boolean>;
  },
) {
  const io = {
    start: () => calls.catchupStart(),
    chat: (sessionId: string, message: string) => calls.catchupChat(sessionId, message),
    answer: (sessionId: string, proposalId: string, confirm: boolean) => calls.catchupAnswer(sessionId, proposalId, confirm),
    ask: (question: string) => calls.ask(question),
    stats: (sessionId: string) => calls.catchupStats(sessionId),
    end: (sessionId: string) => calls.catchupEnd(sessionId),
    markUnread: (conversationId: string, lastRead: string) => calls.markUnread(conversationId, lastRead),
  };
  return {
    /** A catch-up's start, and its question 100 ms after (SPEC §4.12); leaving before it started ends that session. */
    catchupBegin: (question?: string) => catchupBegin(io, question),
    /** One turn: the reply (or ask's answer, with no session), then the session's stats. */
    catchupTurn: (input: TurnInput) => catchupTurn(io, input),
    /** Undo of the last yes: every conversation back where it was read up to, the stats, then whether all worked. */
    catchupUndo: (sessionId: string | null, marked: CatchupMarked[]) => catchupUndo(io, sessionId, marked),
  };
}
