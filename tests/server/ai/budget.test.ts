/**
 * Issue 12 §2: the AI routes keep a per-member daily token budget. Counted from the usage the
 * OpenAI-compatible service reports (the local OpenAI server reports it in the API's shape), and
 * estimated (characters / 4) for the local provider; over budget, every AI call answers 429 with
 * Retry-After until the next 00:00 UTC; another member is not held back; the count survives a
 * restart; 0 means unlimited. Over the app's `app.request` with a settable clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type AppConfig } from '../../../src/server/app';
import type { SiftStore } from '../../../src/server/store/store';
import { openTestStore } from '../testStore';
import { DemoSource } from '../../../src/server/sources/demoSource';
import { createOpenAiProvider } from '../../../src/server/ai/openai';
import { createLocalProvider } from '../../../src/server/ai/local/provider';
import { BUDGET_EXCEEDED_MESSAGE, estimateTokens, secondsToMidnight, utcDay } from '../../../src/server/ai/budget';
import type { AiProvider } from '../../../src/server/ai/types';
import { optionsFromEnv } from '../../../src/server/main';
import { startFakeOpenAi, type FakeOpenAi } from '../../fakes/openaiServer';
import { FIXED_NOW } from '../helpers';

const WS = 'T0ACMEC01';
const ME = 'U0SIFTME1';
/** 22:30 UTC: the budget resets in 90 minutes. */
const LATE = Date.UTC(2026, 10, 20, 22, 30, 0);

let fake: FakeOpenAi;
let dir: string;
let now: number;
let stores: SiftStore[];

beforeEach(async () => {
  fake = await startFakeOpenAi();
  dir = mkdtempSync(join(tmpdir(), 'sift-budget-'));
  now = LATE;
  stores = [];
});
afterEach(async () => {
  for (const store of stores) await store.close();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const remote = () => createOpenAiProvider({ baseURL: fake.url, model: 'test-model', maxRetries: 0, timeoutMs: 5_000 });

/** The app over a database file (the same file twice is a restart). */
async function boot(ai: AiProvider, aiDailyTokens?: number) {
  const store = await openTestStore(join(dir, 'sift.db'));
  stores.push(store);
  const source = new DemoSource({ seed: 42, size: 'small', now: () => FIXED_NOW });
  await source.prepare(store);
  const config: AppConfig = aiDailyTokens !== undefined ? { aiDailyTokens } : {};
  const { app } = createApp({ store, source, clock: { now: () => now }, ai, config });
  const signIn = async (as?: string) => {
    const res = await app.request(`/auth/slack${as ? `?as=${as}` : ''}`);
    const token =
      /(?:^|[\s,;])(?:__Host-)?sift_token=([A-Za-z0-9_-]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ??
      new URL(res.headers.get('location') ?? '', 'http://x').searchParams.get('token');
    expect(token).toBeTruthy();
    return (path: string, body?: unknown) =>
      app.request(path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
  };
  return { store, signIn };
}

const ask = (call: Awaited<ReturnType<Awaited<ReturnType<typeof boot>>['signIn']>>, question = 'deploy') => call('/api/ask', { question });

async function expectOverBudget(res: Response) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBe(90 * 60);
  expect(((await res.json()) as { error: string }).error).toBe(BUDGET_EXCEEDED_MESSAGE);
}

describe('the daily AI budget, counted from the usage the service reports', () => {
  it('counts the reported usage; once spent, every AI call answers 429 with Retry-After until midnight UTC, and nothing reaches the model', async () => {
    fake.respond(() => ({ content: 'Here is what I found [1]', usage: { prompt_tokens: 900, completion_tokens: 100, total_tokens: 1_000 } }));
    const { store, signIn } = await boot(remote(), 2_500);
    const call = await signIn();
    expect((await ask(call)).status).toBe(200);
    expect(await store.aiTokensUsed(WS, ME, utcDay(now))).toBe(1_000);
    expect((await ask(call)).status).toBe(200);
    expect((await ask(call)).status).toBe(200);
    expect(await store.aiTokensUsed(WS, ME, utcDay(now))).toBe(3_000);
    const sent = fake.requests.length;
    await expectOverBudget(await ask(call));
    await expectOverBudget(await call('/api/features/ai-sort/classify-unread', {}));
    await expectOverBudget(await call('/api/messages/refine', { text: 'hello there', mode: 'polish' }));
    const start = await call('/api/features/voice-catchup/start', {});
    const sessionId = ((await start.json()) as { sessionId: string }).sessionId;
    await expectOverBudget(await call('/api/features/voice-catchup/chat', { sessionId, message: 'what is urgent?' }));
    expect(fake.requests.length).toBe(sent);
  });

  it('is per member: another member still asks', async () => {
    fake.respond(() => ({ content: 'An answer', usage: { total_tokens: 5_000 } }));
    const { store, signIn } = await boot(remote(), 1_000);
    const me = await signIn();
    expect((await ask(me)).status).toBe(200);
    await expectOverBudget(await ask(me));
    const [unread] = await store.unreadConversations(WS, ME);
    const other = await signIn((await store.conversationRecord(WS, unread!.id))!.member_ids.find((m) => m !== ME));
    expect((await ask(other)).status).toBe(200);
  });

  it('survives a restart, and resets at 00:00 UTC', async () => {
    fake.respond(() => ({ content: 'An answer', usage: { total_tokens: 5_000 } }));
    const first = await boot(remote(), 1_000);
    expect((await ask(await first.signIn())).status).toBe(200);
    const again = await boot(remote(), 1_000);
    const call = await again.signIn();
    await expectOverBudget(await ask(call));
    now = Date.UTC(2026, 10, 21, 0, 0, 1);
    expect((await ask(call)).status).toBe(200);
  });

  it('counts a streamed refinement by the usage its last chunk reports', async () => {
    fake.respond(() => ({ content: 'Hello there, friend.', usage: { total_tokens: 321 } }));
    const { store, signIn } = await boot(remote(), 10_000);
    const res = await (await signIn())('/api/messages/refine', { text: 'hello there friend', mode: 'polish' });
    expect(res.status).toBe(200);
    await res.text();
    expect(await store.aiTokensUsed(WS, ME, utcDay(now))).toBe(321);
    expect(fake.requests.at(-1)?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('0 is unlimited', async () => {
    fake.respond(() => ({ content: 'An answer', usage: { total_tokens: 1_000_000 } }));
    const { signIn } = await boot(remote(), 0);
    const call = await signIn();
    for (let i = 0; i < 3; i++) expect((await ask(call)).status).toBe(200);
  });
});

describe('the local provider: an estimate, characters / 4', () => {
  it('counts its calls and stops at the budget too', async () => {
    const { store, signIn } = await boot(createLocalProvider({ chunkDelayMs: 0 }), 50);
    const call = await signIn();
    const res = await call('/api/messages/refine', { text: 'hello  there,  could you look at this today', mode: 'polish' });
    expect(res.status).toBe(200);
    const body = await res.text();
    const refined = /"done":true,"text":"([^"]*)"/.exec(body)?.[1] ?? '';
    expect(await store.aiTokensUsed(WS, ME, utcDay(now))).toBe(estimateTokens('hello  there,  could you look at this today', refined));
    expect((await call('/api/ask', { question: 'deploy' })).status).toBe(200);
    expect(await store.aiTokensUsed(WS, ME, utcDay(now))).toBeGreaterThan(50);
    await expectOverBudget(await ask(call));
  });
});

describe('settings', () => {
  it('SIFT_AI_DAILY_TOKENS: 200,000 by default, any whole number, 0 for unlimited; anything else refuses to start', () => {
    expect(optionsFromEnv({}).aiDailyTokens).toBe(200_000);
    expect(optionsFromEnv({ SIFT_AI_DAILY_TOKENS: '5000' }).aiDailyTokens).toBe(5_000);
    expect(optionsFromEnv({ SIFT_AI_DAILY_TOKENS: '0' }).aiDailyTokens).toBe(0);
    expect(() => optionsFromEnv({ SIFT_AI_DAILY_TOKENS: '-1' })).toThrow(/SIFT_AI_DAILY_TOKENS/);
    expect(() => optionsFromEnv({ SIFT_AI_DAILY_TOKENS: 'lots' })).toThrow(/SIFT_AI_DAILY_TOKENS/);
  });

  it('Retry-After counts to the next 00:00 UTC', () => {
    expect(secondsToMidnight(LATE)).toBe(5_400);
    expect(secondsToMidnight(Date.UTC(2026, 10, 20, 0, 0, 0))).toBe(86_400);
    expect(secondsToMidnight(Date.UTC(2026, 10, 20, 23, 59, 59, 500))).toBe(1);
  });
});
