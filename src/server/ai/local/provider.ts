/**
 * The local AI provider: no network, deterministic, fast. It is what a fresh machine runs.
 * Classification, refinement, answers and catch-up are Sift's own engines (./classify,
 * ./refine, ./answer, ./catchup); speech needs a model this provider does not have, so
 * transcription answers 503 with how to get one.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RefineMode } from '../../../model/ai';
import { AiError, type AiProvider, type AnswerRequest, type CatchupContext, type ClassifyInput, type Lesson } from '../types';
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

    async classify(inputs: ClassifyInput[], lessons: Lesson[]) {
      return inputs.map((input) => classifyLocally(input, lessons));
    },

    async *refine(text: string, mode: RefineMode, signal?: AbortSignal) {
      const chunks = chunkText(refineLocally(text, mode));
      const delay = chunks.length > 0 ? Math.min(chunkDelayMs, maxStreamMs / chunks.length) : 0;
      for (const chunk of chunks) {
        if (signal?.aborted) return;
        yield chunk;
        if (delay >= 1) await sleep(delay, undefined, signal ? { signal } : {}).catch(() => undefined);
      }
    },

    async answer(request: AnswerRequest) {
      return { ...composeAnswer(request), model: LOCAL_MODEL };
    },

    async catchup(context: CatchupContext, message: string) {
      return catchupReplyLocally(context, message);
    },

    async transcribe() {
      throw new AiError('Transcription needs a speech model: set SIFT_AI_BASE_URL to an OpenAI-compatible server', 503);
    },
  };
}
