/**
 * The server with the OpenAI-compatible provider, pointed at a local server that speaks the
 * OpenAI API (tests/fakes/openaiServer.ts), over real HTTP end to end: the flag, triage,
 * answers, the refine stream, transcription of an uploaded file, and an upstream failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParser } from 'eventsource-parser';
import type { RefineEvent } from '../../../src/model/ai';
import { createOpenAiProvider } from '../../../src/server/ai/openai';
import { SCRIPTED_TRANSCRIPT, startFakeOpenAi, type FakeFile, type FakeOpenAi } from '../../fakes/openaiServer';
import { api, signIn, startTestServer, type TestServer } from '../helpers';

const KEY = 'sk-test-remote';
let fake: FakeOpenAi;
let server: TestServer;
let token: string;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: KEY });
  server = await startTestServer({ ai: createOpenAiProvider({ baseURL: fake.url, apiKey: KEY, model: 'test-model', maxRetries: 0, timeoutMs: 5_000 }) });
  token = (await signIn(server.url)).token;
  call = api(server.url, token);
});
afterAll(async () => {
  await server.close();
  await fake.close();
});

describe('the OpenAI-compatible provider behind the routes', () => {
  it('turns AI on with its model', async () => {
    const { body } = await call<{ flags: Record<string, { enabled: boolean; state: string; config: Record<string, unknown> }> }>('/api/features/flags');
    expect(body.flags.aiEnabled).toMatchObject({ enabled: true, state: 'openai-compatible', config: { model: 'test-model', transcription: true } });
  });

  it('classifies the unread conversations through chat completions with the key', async () => {
    const before = fake.requests.length;
    const res = await call<{ classified: number; unread: number; provider: string }>('/api/features/ai-sort/classify-unread', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: 'openai-compatible' });
    expect(res.body.classified).toBe(res.body.unread);
    const sent = fake.requests.slice(before).filter((r) => r.path === '/v1/chat/completions');
    expect(sent.length).toBe(Math.ceil(res.body.unread / 20));
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect((sent[0]!.body as { model: string }).model).toBe('test-model');
  });

  it('answers with the model’s cited sources', async () => {
    const res = await call<{ answer: string; sources: Array<{ conversation_id: string }>; model: string }>('/api/ask', {
      body: { question: 'What happened with the deploy?' },
    });
    expect(res.status).toBe(200);
    expect(res.body.model).toBe('test-model');
    expect(res.body.answer).toContain('[1]');
    expect(res.body.sources.length).toBeGreaterThan(0);
  });

  it('gives the model the earlier turns of a follow-up', async () => {
    const history = [
      { role: 'user', content: 'What happened with the deploy?' },
      { role: 'assistant', content: 'The deploy was rolled back [1].' },
    ];
    const res = await call('/api/ask', { body: { question: 'and who did it?', history } });
    expect(res.status).toBe(200);
    const sent = fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!;
    const messages = (sent.body as { messages: Array<{ role: string; content: string }> }).messages;
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[1]!.content).toBe('What happened with the deploy?');
    expect(messages[3]!.content).toMatch(/Question: and who did it\?$/);
  });

  it('streams a refinement', async () => {
    const response = await fetch(`${server.url}/api/messages/refine`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'ship it tomorrow <@U0SIFTME1>', mode: 'polish' }),
    });
    const events: RefineEvent[] = [];
    createParser({ onEvent: (e) => events.push(JSON.parse(e.data) as RefineEvent) }).feed(await response.text());
    expect(events.filter((e) => 'chunk' in e).length).toBeGreaterThan(1);
    expect(events[events.length - 1]).toEqual({ done: true, text: 'SHIP IT TOMORROW <@U0SIFTME1>' });
  });

  it('transcribes an uploaded recording', async () => {
    const audio = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4]);
    const form = new FormData();
    form.append('audio', new Blob([audio], { type: 'audio/webm;codecs=opus' }), 'recording.webm');
    const res = await fetch(`${server.url}/api/features/voice-catchup/transcribe`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ transcript: SCRIPTED_TRANSCRIPT });
    const upload = fake.requests.filter((r) => r.path === '/v1/audio/transcriptions').at(-1)!;
    const file = (upload.body as Record<string, FakeFile>).file!;
    expect([...file.data]).toEqual([...audio]);
  });

  it('answers 502 with the service’s failure when the model fails, and names no key', async () => {
    fake.respond(() => ({ status: 500, message: 'model crashed' }));
    try {
      const res = await call<{ error: string }>('/api/ask', { body: { question: 'deploy' } });
      expect(res.status).toBe(502);
      expect(res.body.error).toMatch(/^The AI service failed/);
      expect(res.body.error).not.toContain(KEY);
    } finally {
      fake.respond(null);
    }
  });
});
