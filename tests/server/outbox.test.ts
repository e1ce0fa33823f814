/**
 * Writes that wait (issue 14 §3), over real HTTP: an offline client retries its outbox, so a send
 * is idempotent by its client_msg_id (per member, while the event log keeps it), and mark read,
 * mark unread and a category repeated give the same state and no second event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../src/model/types';
import { eventRetentionFromDays, pruneEventLog } from '../../src/server/live/retention';
import { DEMO_WORKSPACES } from '../../src/server/sources/demoSource';
import { FIXED_NOW, api, signIn, startTestServer, type TestServer } from './helpers';
import { selectRow } from './testStore';

const MAIN = DEMO_WORKSPACES[0]!;
const DAY_MS = 24 * 60 * 60 * 1000;
const clock = { now: FIXED_NOW };

let server: TestServer;
let call: ReturnType<typeof api>;
let conversations: ConversationSummary[];

beforeAll(async () => {
  server = await startTestServer({ now: () => clock.now, sessions: { maxAgeMs: 90 * DAY_MS, idleMs: 90 * DAY_MS } });
  const { token } = await signIn(server.url);
  call = api(server.url, token);
  conversations = (await call<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data')).body.data.conversations;
});

afterAll(async () => {
  await server.close();
});

const channel = () => conversations.find((c) => c.type === 'channel' && c.member_ids.length > 2 && c.member_ids.includes(MAIN.memberUserId))!;
const sequenceOf = (userId: string) => server.store.currentSequence(MAIN.id, userId);
const countText = async (text: string) => (await selectRow<{ n: number }>(server.store, `SELECT count(*) AS n FROM messages WHERE text = ?`, [text]))!.n;
const path = (id: string, action: string) => `/api/conversations/${encodeURIComponent(id)}/${action}`;

describe('POST /api/messages/send with a client_msg_id', () => {
  it('posts once: a retry answers the first message (its ts) and writes no message and no event', async () => {
    const c = channel();
    const other = c.member_ids.find((id) => id !== MAIN.memberUserId)!;
    const [mine, theirs] = [await sequenceOf(MAIN.memberUserId), await sequenceOf(other)];
    const body = { channel: c.id, text: 'sent from the outbox', client_msg_id: crypto.randomUUID() };
    const first = await call('/api/messages/send', { body });
    expect(first.status).toBe(200);
    clock.now += 60_000;
    const again = await call('/api/messages/send', { body });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.body).toMatchObject({ success: true, ts: first.body.ts, message: { client_msg_id: body.client_msg_id, text: body.text } });
    expect(await countText(body.text)).toBe(1);
    expect(await sequenceOf(MAIN.memberUserId)).toBe(mine + 1);
    expect(await sequenceOf(other)).toBe(theirs + 1);
  });

  it('posts once when the retry arrives while the first send is still in flight', async () => {
    const body = { channel: channel().id, text: 'sent twice at once', client_msg_id: crypto.randomUUID() };
    const answers = await Promise.all([call('/api/messages/send', { body }), call('/api/messages/send', { body })]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[1]!.body.ts).toBe(answers[0]!.body.ts);
    expect(await countText(body.text)).toBe(1);
  });

  it('is per member: another member may use the same id', async () => {
    const c = channel();
    const id = crypto.randomUUID();
    await call('/api/messages/send', { body: { channel: c.id, text: 'mine, with an id', client_msg_id: id } });
    const other = c.member_ids.find((m) => m !== MAIN.memberUserId)!;
    const { token } = await signIn(server.url, other);
    const theirs = await api(server.url, token)('/api/messages/send', { body: { channel: c.id, text: 'theirs, with the same id', client_msg_id: id } });
    expect(theirs.status).toBe(200);
    expect(theirs.body.message).toMatchObject({ user: other, text: 'theirs, with the same id' });
    expect(await countText('theirs, with the same id')).toBe(1);
  });

  it('forgets a send once the event log retention has passed', async () => {
    const body = { channel: channel().id, text: 'an old send', client_msg_id: crypto.randomUUID() };
    await call('/api/messages/send', { body });
    clock.now += 8 * DAY_MS;
    const pruned = await pruneEventLog({ store: server.store, now: () => clock.now, retention: eventRetentionFromDays(7, 50_000) });
    expect(pruned.sends).toBeGreaterThanOrEqual(1);
    expect((await call('/api/messages/send', { body })).status).toBe(200);
    expect(await countText(body.text)).toBe(2);
  });

  it.each([
    ['with a space', 'a b'],
    ['empty', ''],
    ['longer than 64 characters', 'x'.repeat(65)],
    ['not a string', 42],
  ])('answers 400 for a client_msg_id %s, and posts nothing', async (_, id) => {
    const text = `refused ${JSON.stringify(id).slice(0, 10)}`;
    const res = await call('/api/messages/send', { body: { channel: channel().id, text, client_msg_id: id } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/client_msg_id/);
    expect(await countText(text)).toBe(0);
  });

  it('accepts a 64-character id', async () => {
    expect((await call('/api/messages/send', { body: { channel: channel().id, text: 'long id', client_msg_id: 'a'.repeat(64) } })).status).toBe(200);
  });
});

describe('marks and categories repeated', () => {
  /** Runs a request twice; answers both answers and how many events the member's log gained. */
  async function twice(path: string, init: { body?: unknown; method?: string }) {
    const before = await sequenceOf(MAIN.memberUserId);
    const first = await call(path, init);
    const afterFirst = await sequenceOf(MAIN.memberUserId);
    const second = await call(path, init);
    return { first, second, events: afterFirst - before, more: (await sequenceOf(MAIN.memberUserId)) - afterFirst };
  }
  const stateOf = async (id: string) => (await call(`/api/conversations/${encodeURIComponent(id)}/threads`)).body.conversation;

  it('mark unread, then mark read: each the same state and one event however often it is sent', async () => {
    const c = channel();
    const unread = await twice(path(c.id, 'mark-unread'), { body: {} });
    expect([unread.first.status, unread.second.status]).toEqual([200, 200]);
    expect(unread.second.body).toEqual(unread.first.body);
    expect(unread.first.body.unread_count).toBeGreaterThan(0);
    expect([unread.events, unread.more]).toEqual([1, 0]);
    expect(await stateOf(c.id)).toMatchObject({ last_read: unread.first.body.last_read, unread_count: unread.first.body.unread_count });

    const read = await twice(path(c.id, 'mark-read'), { body: {} });
    expect(read.second.body).toEqual(read.first.body);
    expect(read.first.body.unread_count).toBe(0);
    expect([read.events, read.more]).toEqual([1, 0]);
  });

  it('a category set twice and removed twice: one event each, one lesson', async () => {
    const c = conversations.find((x) => x.type === 'dm')!;
    const lessons = (await server.store.listLessons(MAIN.id, MAIN.memberUserId)).length;
    const set = await twice(`/api/features/ai-sort/label/${encodeURIComponent(c.id)}`, { body: { category: 'fyi' } });
    expect(set.second.body).toEqual(set.first.body);
    expect([set.events, set.more]).toEqual([1, 0]);
    expect(await stateOf(c.id)).toMatchObject({ ai_category: 'fyi', ai_source: 'manual' });

    const removed = await twice(`/api/features/ai-sort/label/${encodeURIComponent(c.id)}`, { method: 'DELETE' });
    expect(removed.second.body).toEqual(removed.first.body);
    expect([removed.events, removed.more]).toEqual([1, 0]);
    expect((await stateOf(c.id)).ai_source).not.toBe('manual');
    // The classifier learns from the category once: the repeat teaches nothing new.
    expect((await server.store.listLessons(MAIN.id, MAIN.memberUserId)).length).toBe(lessons + 1);
  });
});
