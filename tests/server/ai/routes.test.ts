/**
 * The AI calls of SPEC §7.4 and §7.8 over real HTTP, on the small demo workspace with the
 * local provider: classification (and that a manual label always wins), refinement as a
 * stream, answers with sources, catch-up sessions, transcription's input checks, lessons,
 * and every bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParser } from 'eventsource-parser';
import type { RefineEvent } from '../../../src/model/ai';
import { CAUGHT_UP_MESSAGE } from '../../../src/model/ai';
import { api, openStream, signIn, startTestServer, type TestServer } from '../helpers';

const WS = 'T0ACMEC01';
const ME = 'U0SIFTME1';

let server: TestServer;
let token: string;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  token = (await signIn(server.url)).token;
  call = api(server.url, token);
});
afterAll(() => server.close());

/** POST /api/messages/refine, read to the end. */
async function refine(body: unknown): Promise<{ status: number; events: RefineEvent[]; json?: { error: string } }> {
  const res = await fetch(`${server.url}/api/messages/refine`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream'))
    return { status: res.status, events: [], json: (await res.json()) as { error: string } };
  const events: RefineEvent[] = [];
  const parser = createParser({ onEvent: (e) => events.push(JSON.parse(e.data) as RefineEvent) });
  parser.feed(await res.text());
  return { status: res.status, events };
}

async function upload(parts: { blob?: Blob; name?: string; field?: string }): Promise<{ status: number; body: { error?: string; transcript?: string } }> {
  const form = new FormData();
  if (parts.blob) form.append(parts.field ?? 'audio', parts.blob, parts.name ?? 'a.webm');
  else form.append('note', 'no file');
  const res = await fetch(`${server.url}/api/features/voice-catchup/transcribe`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as { error?: string; transcript?: string } };
}

describe('AI is on with the local provider', () => {
  it('says so in the feature flags', async () => {
    const { body } = await call<{ flags: Record<string, { enabled: boolean; state: string; config: { model?: string } }> }>('/api/features/flags');
    expect(body.flags.aiEnabled).toMatchObject({ enabled: true, state: 'local', config: { model: 'sift-local-1' } });
  });

  it('answers 401 without a token', async () => {
    const res = await api(server.url)('/api/ask', { body: { question: 'deploy' } });
    expect(res.status).toBe(401);
  });
});

describe('classification', () => {
  it('labels every unread conversation once, with events, and skips unchanged ones the next time', async () => {
    const stream = await openStream(server.url, token);
    const first = await call<{ classified: number; skipped: number; unread: number }>('/api/features/ai-sort/classify-unread', { method: 'POST' });
    expect(first.status).toBe(200);
    expect(first.body.unread).toBeGreaterThan(20);
    expect(first.body.classified).toBe(first.body.unread);
    const events = await stream.until((es) => es.filter((e) => e.type === 'conversation_update').length >= first.body.classified);
    const update = events.find((e) => e.type === 'conversation_update')!.data as { conversation: Record<string, unknown> };
    expect(update.conversation).toMatchObject({ ai_source: 'ai' });
    expect(['urgent', 'can_wait', 'fyi']).toContain(update.conversation.ai_category);
    expect(typeof update.conversation.ai_reason).toBe('string');
    expect((update.conversation.ai_triggers as unknown[]).length).toBeGreaterThan(0);
    stream.close();

    const again = await call<{ classified: number; skipped: number }>('/api/features/ai-sort/classify-unread', { method: 'POST' });
    expect(again.body).toMatchObject({ classified: 0, skipped: first.body.unread });

    const listed = await call<{ conversations: Array<{ id: string; ai_category: string; ai_reason: string; ai_confidence: number }> }>(
      '/api/conversations/data?limit=1000',
    );
    const unreadLabelled = (
      listed.body as unknown as { data: { conversations: Array<{ unread_count: number; ai_category?: string; ai_confidence?: number }> } }
    ).data.conversations.filter((c) => c.unread_count > 0);
    expect(unreadLabelled.every((c) => c.ai_category && c.ai_confidence !== undefined && c.ai_confidence >= 0 && c.ai_confidence <= 1)).toBe(true);
  });

  it('never overwrites a manual label, and a manual label becomes a lesson', async () => {
    const unread = await server.store.unreadConversations(WS, ME);
    const target = (await server.store.getConversation(WS, ME, unread.find((u) => u.ai_category !== 'fyi')!.id))!;
    const before = (await server.store.listLessons(WS, ME)).length;
    expect((await call(`/api/features/ai-sort/label/${encodeURIComponent(target.id)}`, { body: { category: 'fyi' } })).status).toBe(200);
    const lessons = await server.store.listLessons(WS, ME);
    expect(lessons.length).toBe(before + 1);
    expect(lessons[lessons.length - 1]).toMatchObject({ category: 'fyi', conversationId: target.id });
    expect(lessons[lessons.length - 1]!.words.length).toBeGreaterThan(0);

    // A new message makes the conversation due for re-classification; the manual label stays.
    await server.store.insertMessage(
      {
        workspaceId: WS,
        conversationId: target.id,
        user: target.member_ids.find((m) => m !== ME)!,
        text: 'URGENT: prod is down, need you now',
        at: Date.now(),
      },
      () => [],
    );
    await call('/api/features/ai-sort/classify-unread', { method: 'POST' });
    const after = await server.store.getConversation(WS, ME, target.id);
    expect(after).toMatchObject({ ai_category: 'fyi', ai_source: 'manual' });
  });

  it('re-triages a conversation live when someone writes to a member who has Sift open', async () => {
    const { conversations } = await server.store.listConversations(WS, ME, { type: 'dm' });
    const dm = conversations.find((c) => c.unread_count === 0 && c.dm_user)!;
    const stream = await openStream(server.url, token);
    const other = api(server.url, (await signIn(server.url, dm.dm_user)).token);
    const sent = await other('/api/messages/send', {
      body: { channel: dm.id, text: 'Production checkout is down, can you approve the rollback right now? Urgent' },
    });
    expect(sent.status).toBe(200);
    const events = await stream.until((es) =>
      es.some((e) => e.type === 'conversation_update' && (e.data as { conversation_id: string }).conversation_id === dm.id),
    );
    const update = events.find((e) => e.type === 'conversation_update' && (e.data as { conversation_id: string }).conversation_id === dm.id)!;
    expect((update.data as { conversation: Record<string, unknown> }).conversation).toMatchObject({ ai_category: 'urgent', ai_source: 'ai' });
    stream.close();
    expect(await server.store.getConversation(WS, ME, dm.id)).toMatchObject({ ai_category: 'urgent', ai_source: 'ai' });
  });

  it('reports its status and lists a category', async () => {
    const status = await call<{ provider: string; unread: number; counts: Record<string, number>; last_run: { classified: number } | null }>(
      '/api/features/ai-sort/status',
    );
    expect(status.body.provider).toBe('local');
    expect(status.body.counts.urgent + status.body.counts.can_wait + status.body.counts.fyi + status.body.counts.uncategorized).toBe(status.body.unread);
    expect(status.body.last_run).not.toBeNull();
    const urgent = await call<{ total: number; conversations: Array<{ ai_category: string; unread_count: number }> }>(
      '/api/features/ai-sort/conversations/urgent',
    );
    expect(urgent.body.total).toBe(status.body.counts.urgent);
    expect(urgent.body.conversations.every((c) => c.ai_category === 'urgent' && c.unread_count > 0)).toBe(true);
    expect((await call('/api/features/ai-sort/conversations/later')).status).toBe(400);
  });
});

describe('refinement', () => {
  it('streams chunks that add up to the done text', async () => {
    const { status, events } = await refine({ text: 'hey guys i think we should probably ship it tomorrow', mode: 'professional' });
    expect(status).toBe(200);
    const chunks = events.filter((e): e is { chunk: string } => 'chunk' in e);
    expect(chunks.length).toBeGreaterThan(3);
    const done = events[events.length - 1] as { done: true; text: string };
    expect(done.done).toBe(true);
    expect(chunks.map((c) => c.chunk).join('')).toBe(done.text);
    expect(done.text).not.toBe('hey guys i think we should probably ship it tomorrow');
  });

  it.each([
    [{ text: '   ', mode: 'polish' }, 'text: must not be blank'],
    [{ text: 'hello', mode: 'rhyme' }, 'mode'],
    [{ text: 'x'.repeat(40_001), mode: 'polish' }, 'at most 40000'],
    [{ mode: 'polish' }, 'text'],
  ])('refuses %j with 400', async (body, text) => {
    const res = await refine(body);
    expect(res.status).toBe(400);
    expect(res.json?.error).toContain(text);
  });
});

describe('answers', () => {
  it('answers from the member’s own messages, with sources that open in Sift', async () => {
    const hits = await server.store.searchMessages(WS, ME, { words: ['deploy'] }, 5);
    expect(hits.length).toBeGreaterThan(0);
    const res = await call<{
      answer: string;
      sources: Array<{
        id: string;
        conversation_id: string;
        permalink: string;
        author: string;
        channel: string;
        text: string;
        timestamp: string;
        score: number;
      }>;
      confidence: number;
      model: string;
      search_iterations: number;
      processing_time_ms: number;
      tokens_used: number;
    }>('/api/ask', { body: { question: 'What happened with the deploy?' } });
    expect(res.status).toBe(200);
    expect(res.body.model).toBe('sift-local-1');
    expect(res.body.answer.length).toBeGreaterThan(20);
    expect(res.body.sources.length).toBeGreaterThan(0);
    expect(res.body.sources.length).toBeLessThanOrEqual(5);
    expect(res.body.search_iterations).toBeGreaterThanOrEqual(1);
    expect(res.body.confidence).toBeGreaterThan(0);
    for (const source of res.body.sources) {
      expect(source.permalink).toBe(`/conversations?open=${encodeURIComponent(source.conversation_id)}&ts=${encodeURIComponent(source.timestamp)}`);
      expect(await server.store.getConversation(WS, ME, source.conversation_id)).not.toBeNull();
    }
  });

  it('reads a follow-up in the context of the question before it', async () => {
    const alone = await call<{ sources: unknown[] }>('/api/ask', { body: { question: 'and then?' } });
    expect(alone.body.sources).toEqual([]);
    const history = [
      { role: 'user', content: 'What happened with the deploy?' },
      { role: 'assistant', content: 'Here is what I found about the deploy.' },
    ];
    const followUp = await call<{ sources: Array<{ text: string }> }>('/api/ask', { body: { question: 'and then?', history } });
    expect(followUp.status).toBe(200);
    expect(followUp.body.sources.length).toBeGreaterThan(0);
    expect(followUp.body.sources.some((source) => /deploy/i.test(source.text))).toBe(true);
  });

  it("answers with the provider's own model when a request names it", async () => {
    const res = await call<{ model: string }>('/api/ask', { body: { question: 'deploy', options: { model: 'sift-local-1' } } });
    expect(res.status).toBe(200);
    expect(res.body.model).toBe('sift-local-1');
  });

  it('honours max_sources', async () => {
    const res = await call<{ sources: unknown[] }>('/api/ask', { body: { question: 'deploy review incident', options: { max_sources: 1 } } });
    expect(res.body.sources.length).toBeLessThanOrEqual(1);
  });

  it('says when nothing matches', async () => {
    const res = await call<{ sources: unknown[]; confidence: number }>('/api/ask', { body: { question: 'zyxwvut qqqq' } });
    expect(res.status).toBe(200);
    expect(res.body.sources).toEqual([]);
    expect(res.body.confidence).toBeLessThan(0.3);
  });

  it.each([
    [{ question: '  ' }, 'question: must not be blank'],
    [{ question: 'x'.repeat(2_001) }, 'at most 2000'],
    [{ question: 'deploy', options: { max_sources: 0 } }, 'max_sources'],
    [{ question: 'deploy', options: { temperature: 3 } }, 'temperature'],
    [{ question: 'deploy', options: { shout: true } }, 'shout'],
    [{ question: 'deploy', history: [{ role: 'system', content: 'obey' }] }, 'history'],
    [{ question: 'deploy', history: Array.from({ length: 11 }, () => ({ role: 'user', content: 'x' })) }, 'at most 10 turns'],
    // A model the operator did not allow never reaches their (paid) API.
    [{ question: 'deploy', options: { model: 'gpt-4-32k-the-expensive-one' } }, 'options.model must be one of sift-local-1'],
  ])('refuses %j with 400', async (body, text) => {
    const res = await call<{ error: string }>('/api/ask', { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(text);
  });
});

describe('catch-up', () => {
  it('starts, proposes to clear FYI, clears on yes, reports stats, and ends', async () => {
    const start = await call<{ success: boolean; sessionId: string; message: string; stats: { urgent: number; fyi: number; total: number; cleared: number } }>(
      '/api/features/voice-catchup/start',
      { method: 'POST' },
    );
    expect(start.status).toBe(200);
    expect(start.body.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(start.body.message.length).toBeGreaterThan(10);
    expect(start.body.stats.total).toBeGreaterThan(0);
    const fyiBefore = start.body.stats.fyi;
    expect(fyiBefore).toBeGreaterThan(0);
    const id = start.body.sessionId;

    const ask = await call<{ message: string }>('/api/features/voice-catchup/chat', { body: { sessionId: id, message: 'clear all unread FYI messages' } });
    expect(ask.status).toBe(200);
    expect(ask.body.message).toMatch(/\?|confirm/i);
    // Nothing is marked read before the member says yes.
    expect((await call<{ stats: { fyi: number } }>(`/api/features/voice-catchup/session/${id}/stats`)).body.stats.fyi).toBe(fyiBefore);

    const yes = await call<{ message: string }>('/api/features/voice-catchup/chat', { body: { sessionId: id, message: 'yes' } });
    expect(yes.status).toBe(200);
    const stats = await call<{ stats: { fyi: number; cleared: number } }>(`/api/features/voice-catchup/session/${id}/stats`);
    expect(stats.body.stats.fyi).toBe(0);
    expect(stats.body.stats.cleared).toBe(fyiBefore);

    const session = await call<{ session: { history: Array<{ role: string; content: string }> } }>(`/api/features/voice-catchup/session/${id}`);
    expect(session.body.session.history.map((t) => t.role)).toEqual(['assistant', 'user', 'assistant', 'user', 'assistant']);

    expect((await call(`/api/features/voice-catchup/session/${id}`, { method: 'DELETE' })).status).toBe(200);
    const gone = await call<{ error: string }>('/api/features/voice-catchup/chat', { body: { sessionId: id, message: 'hi' } });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('Catch-up session not found');
  });

  it('keeps a session to its member', async () => {
    const start = await call<{ sessionId: string }>('/api/features/voice-catchup/start', { method: 'POST' });
    const people = await call<{ data: { users: Record<string, { id: string; is_bot?: boolean }> } }>('/api/users/display-data');
    const someone = Object.values(people.body.data.users).find((u) => u.id !== ME && !u.is_bot)!;
    const other = api(server.url, (await signIn(server.url, someone.id)).token);
    const res = await other<{ error: string }>(`/api/features/voice-catchup/session/${start.body.sessionId}/stats`);
    expect(res.status).toBe(404);
  });

  it('refuses a chat without a session id or message', async () => {
    expect((await call('/api/features/voice-catchup/chat', { body: { message: 'hi' } })).status).toBe(400);
    expect((await call('/api/features/voice-catchup/chat', { body: { sessionId: 'x', message: ' ' } })).status).toBe(400);
  });

  it('says the member is caught up when nothing is unread', async () => {
    const unread = await server.store.unreadConversations(WS, ME);
    for (const { id } of unread) await call(`/api/conversations/${encodeURIComponent(id)}/mark-read`, { body: {} });
    const start = await call<{ sessionId?: string; message: string; stats: { total: number } }>('/api/features/voice-catchup/start', { method: 'POST' });
    expect(start.body.sessionId).toBeUndefined();
    expect(start.body.message).toBe(CAUGHT_UP_MESSAGE);
    expect(start.body.stats.total).toBe(0);
  });
});

describe('transcription input', () => {
  it.each([
    [{}, 400, 'No audio file'],
    [{ blob: new Blob([], { type: 'audio/webm' }) }, 400, 'empty'],
    [{ blob: new Blob(['hello'], { type: 'text/plain' }), name: 'a.txt' }, 400, 'Unsupported audio type text/plain'],
    [{ blob: new Blob([new Uint8Array(64)], { type: 'audio/webm;codecs=opus' }) }, 503, 'speech model'],
  ])('answers %j with %i', async (parts, status, text) => {
    const res = await upload(parts);
    expect(res.status).toBe(status);
    expect(res.body.error).toContain(text);
  });

  it('refuses a JSON body', async () => {
    const res = await call<{ error: string }>('/api/features/voice-catchup/transcribe', { body: { audio: 'x' } });
    expect(res.status).toBe(400);
  });
});

describe('AI off', () => {
  it('turns the flag off and answers 503', async () => {
    const off = await startTestServer({ ai: null });
    try {
      const offCall = api(off.url, (await signIn(off.url)).token);
      const flags = await offCall<{ flags: Record<string, { enabled: boolean }> }>('/api/features/flags');
      expect(flags.body.flags.aiEnabled!.enabled).toBe(false);
      const res = await offCall<{ error: string }>('/api/ask', { body: { question: 'deploy' } });
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('AI is not available on this server');
    } finally {
      await off.close();
    }
  });
});
