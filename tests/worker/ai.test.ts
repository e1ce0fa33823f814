/**
 * The engine's AI client (src/worker/ai.ts) against the real server over HTTP: the refine
 * stream's contract (chunks then done, an error mid-stream, a refused request, cancel by
 * unsubscribing), and the error texts of ask, catch-up and transcription (SPEC §8).
 */
import { firstValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFINE_MODES, type RefineEvent, type RefineMode } from '../../src/model/ai';
import { NO_TOKEN_MESSAGE } from '../../src/model/constants';
import { createLocalProvider } from '../../src/server/ai/local/provider';
import { AiError, type AiProvider } from '../../src/server/ai/types';
import { createAiClient } from '../../src/worker/ai';
import { browserFetch } from './browserFetch';
import { createHttpClient } from '../../src/worker/http';
import { signIn, startTestServer, type TestServer } from '../server/helpers';

/** The local provider, with a refine that the tests script by the draft's text. */
const aborted: string[] = [];
const local = createLocalProvider({ chunkDelayMs: 0 });
const provider: AiProvider = {
  ...local,
  async *refine(text: string, mode: RefineMode, signal?: AbortSignal) {
    if (text === 'fail halfway') {
      yield 'Half';
      throw new AiError('The AI service failed: 500 model crashed');
    }
    if (text === 'slow') {
      for (let i = 0; i < 100; i++) {
        if (signal?.aborted) {
          aborted.push(text);
          return;
        }
        yield `part${i} `;
        await new Promise((r) => setTimeout(r, 20));
      }
      return;
    }
    yield* local.refine(text, mode, signal);
  },
};

let server: TestServer;
let token: string | null = null;
const client = () => {
  const fetchFn = browserFetch(server.url, () => token);
  const http = createHttpClient({ baseUrl: server.url, fetch: fetchFn });
  return createAiClient({ http, signedIn: () => token !== null, fetch: fetchFn });
};

beforeAll(async () => {
  server = await startTestServer({ ai: provider });
  token = (await signIn(server.url)).token;
});
afterAll(() => server.close());

describe('refine$', () => {
  it.each(REFINE_MODES)('%s: chunks, then done with the whole text', async (mode) => {
    const events = await firstValueFrom(client().refine$('hey i think we should ship it tomorrow, and also fix the docs', mode).pipe(toArray()));
    const chunks = events.filter((e): e is { chunk: string } => 'chunk' in e);
    const last = events[events.length - 1] as { done: true; text: string };
    expect(chunks.length).toBeGreaterThan(1);
    expect(last).toEqual({ done: true, text: chunks.map((c) => c.chunk).join('') });
  });

  it('an error mid-stream ends it with that error', async () => {
    const events = await firstValueFrom(client().refine$('fail halfway', 'polish').pipe(toArray()));
    expect(events).toEqual([{ chunk: 'Half' }, { error: 'The AI service failed: 500 model crashed' }]);
  });

  it('a refused request is one error with the server’s text', async () => {
    const events = await firstValueFrom(client().refine$('   ', 'polish').pipe(toArray()));
    expect(events).toEqual([{ error: 'Invalid request: text: must not be blank' }]);
  });

  it('unsubscribing cancels the request, and the server stops generating', async () => {
    const seen: RefineEvent[] = [];
    const subscription = client()
      .refine$('slow', 'polish')
      .subscribe((e) => seen.push(e));
    await expect.poll(() => seen.length).toBeGreaterThanOrEqual(2);
    subscription.unsubscribe();
    await expect.poll(() => aborted.includes('slow'), { timeout: 3_000 }).toBe(true);
    const count = seen.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(seen.length).toBe(count);
    expect(seen.some((e) => 'done' in e)).toBe(false);
  });
});

describe('errors as the page shows them', () => {
  it('ask: an answer, or the server’s error text', async () => {
    const ok = await client().ask('deploy');
    expect(ok.ok).toBe(true);
    const refused = await client().ask('  ');
    expect(refused).toEqual({ ok: false, error: 'Invalid request: question: must not be blank' });
  });

  it('catch-up: the defaults of SPEC §8 when the server gives none, and nobody signed in', async () => {
    const chat = await client().catchupChat('no-such-session', 'hi');
    expect(chat).toEqual({ success: false, error: 'Catch-up session not found' });
    const saved = token;
    token = null;
    try {
      expect(await client().catchupStart()).toEqual({ success: false, error: NO_TOKEN_MESSAGE });
      expect(await client().transcribe(new Blob(['x'], { type: 'audio/webm' }))).toEqual({ ok: false, error: NO_TOKEN_MESSAGE });
    } finally {
      token = saved;
    }
  });

  it('transcribe: the server’s reason (the local provider has no speech model)', async () => {
    const result = await client().transcribe(new Blob([new Uint8Array(32)], { type: 'audio/webm' }), 'recording.webm');
    expect(result).toEqual({ ok: false, error: 'Transcription needs a speech model: set SIFT_AI_BASE_URL to an OpenAI-compatible server' });
  });

  it('classifyUnread: counts on success', async () => {
    const result = await client().classifyUnread();
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.classified).toBeGreaterThan(0);
  });
});

describe('catchupAnswer: a proposal’s button', () => {
  it('sends the proposal’s id: a stale one is refused with the server’s text, the open one marks read and says what it marked', async () => {
    const start = await client().catchupStart();
    const sessionId = start.sessionId!;
    const proposed = await client().catchupChat(sessionId, 'clear all unread FYI messages');
    expect(proposed.proposal?.id).toBeTruthy();
    expect(await client().catchupAnswer(sessionId, 'not-the-proposal', true)).toEqual({ success: false, error: 'This proposal is no longer open. Ask again.' });
    const done = await client().catchupAnswer(sessionId, proposed.proposal!.id, true);
    expect(done.success).toBe(true);
    expect(done.marked?.map((m) => m.conversation_id).sort()).toEqual([...proposed.proposal!.conversation_ids].sort());
  });
});
