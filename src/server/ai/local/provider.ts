/**
 * The local AI provider: no network, deterministic, fast. It is what a fresh machine runs.
 * Classification, refinement, answers and catch-up are Sift's own engines (./classify,
 * ./refine, ./answer, ./catchup); speech needs a model this provider does not have, so
 * transcription answers 503 with how to get one. The tokens it reports to the daily budget are
 * an estimate: the characters read and written, divided by four.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RefineMode } from '../../../model/ai';
import { estimateTokens } from '../budget';
import { AiError, type AiProvider, type AnswerRequest, type CatchupContext, type ClassifyInput, type Lesson, type UsageMeter } from '../types';
import { composeAnswer } from './answer';
import { catchupReplyLocally } from './catchup';
import { classifyLocally } from './classify';
import { chunkText, refineLocally } from './refine';

export const LOCAL_MODEL = 'sift-local-1';

export interface LocalProviderOptions {
  /** Pause between streamed chunks, so a suggestion arrives as a stream (0 in tests). */
  chunkDelayMs?: number;
  /** The longest a whole suggestion takes to stream, whatever its length. */
  maxStreamMs?: number;
}

export function createLocalProvider(options: LocalProviderOptions = {}): AiProvider {
  const chunkDelayMs = options.chunkDelayMs ?? 12;
  const maxStreamMs = options.maxStreamMs ?? 1_200;
  return {
    kind: 'local',
    model: LOCAL_MODEL,
    canTranscribe: false,

    async classify(inputs: ClassifyInput[], lessons: Lesson[], _signal?: AbortSignal, meter?: UsageMeter) {
      const results = inputs.map((input) => classifyLocally(input, lessons));
      meter?.(estimateTokens(...inputs.flatMap((input) => input.messages.map((m) => m.text)), ...results.map((r) => r.reason)));
      return results;
    },

    async *refine(text: string, mode: RefineMode, signal?: AbortSignal, meter?: UsageMeter) {
      const refined = refineLocally(text, mode);
      meter?.(estimateTokens(text, refined));
      const chunks = chunkText(refined);
      const delay = chunks.length > 0 ? Math.min(chunkDelayMs, maxStreamMs / chunks.length) : 0;
      for (const chunk of chunks) {
        if (signal?.aborted) return;
        yield chunk;
        if (delay >= 1) await sleep(delay, undefined, signal ? { signal } : {}).catch(() => undefined);
      }
    },

    async answer(request: AnswerRequest, _signal?: AbortSignal, meter?: UsageMeter) {
      const result = composeAnswer(request);
      meter?.(result.tokensUsed);
      return { ...result, model: LOCAL_MODEL };
    },

    async catchup(context: CatchupContext, message: string, _signal?: AbortSignal, meter?: UsageMeter) {
      const reply = catchupReplyLocally(context, message);
      meter?.(reply.tokensUsed);
      return reply;
    },

    async transcribe() {
      throw new AiError('Transcription needs a speech model: set SIFT_AI_BASE_URL to an OpenAI-compatible server', 503);
    },
  };
}
