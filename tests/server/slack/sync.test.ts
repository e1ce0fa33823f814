/** Sync against the fake Slack: the full sync equals the workspace as the member sees it; incremental fetches only what is newer; 429s wait; a revoked token signs the member out. */
import { afterEach, describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { signInSlack, startSlackTestServer, until, type SlackTestServer } from '../slackHelpers';
import { RECHECKED_MESSAGES } from '../../../src/server/sources/slack/sync';
import { isQuietSubtype } from '../../../src/model/slack';
import type { FakeConversation, FakeMessage, FakeSlack } from '../../fakes/slackServer';

let server: SlackTestServer;
afterEach(async () => {
  await server?.close();
});

/** What the member should see: their conversations and the threads they take part in, with unread counts from their read marks. */
function expected(fake: FakeSlack) {
  const me = fake.member.id;
  const seen = (c: FakeConversation) => c.members.includes(me) && !c.is_archived;
  const countsAsUnread = (m: FakeMessage, lastRead: string) => m.ts > lastRead && m.user !== me && !isQuietSubtype(m.subtype);
  const out = new Map<string, { type: string; messages: number; unread: number; name?: string }>();
  for (const c of fake.workspace.conversations.filter(seen)) {
    const lastRead = c.lastRead[me] ?? '0000000000.000000';
    const type = c.kind === 'im' || c.kind === 'mpim' ? 'dm' : 'channel';
    out.set(c.id, {
      type,
      messages: c.messages.length,
      unread: c.messages.filter((m) => countsAsUnread(m, lastRead)).length,
      ...(type === 'channel' ? { name: c.name } : {}),
    });
    for (const parent of c.messages) {
      const replies = c.replies[parent.ts];
      if (!replies?.length) continue;
      if (parent.user !== me && !(parent.reply_users ?? []).includes(me)) continue;
      out.set(`${c.id}:${parent.ts}`, { type: 'thread', messages: replies.length, unread: replies.filter((m) => countsAsUnread(m, lastRead)).length });
    }
  }
  return out;
}

/** Authors and mentioned people of the member's conversations whom users.list does not answer, and bots without a user. */
function metOutsideUsersList(fake: FakeSlack): string[] {
  const me = fake.member.id;
  const listed = new Set(fake.workspace.users.map((u) => u.id));
  const botUsers = new Map(fake.workspace.users.flatMap((u) => (u.profile.bot_id ? [[u.profile.bot_id, u.id] as const] : [])));
  const met = new Set<string>();
  for (const c of fake.workspace.conversations.filter((c) => c.members.includes(me) && !c.is_archived)) {
    if (c.kind === 'im' && c.user && !listed.has(c.user)) met.add(c.user);
    const threads = c.messages.filter((p) => c.replies[p.ts]?.length && (p.user === me || (p.reply_users ?? []).includes(me)));
    for (const m of [...c.messages, ...threads.flatMap((p) => c.replies[p.ts]!)]) {
      if (m.user && !listed.has(m.user)) met.add(m.user);
      if (!m.user && m.bot_id && !botUsers.has(m.bot_id)) met.add(m.bot_id);
    }
  }
  return [...met];
}

async function stored(s: SlackTestServer) {
  const { conversations } = await s.store.listConversations(s.fake.team.id, s.fake.member.id);
  return new Map(
    conversations.map((c) => [c.id, { type: c.type, messages: c.message_count, unread: c.unread_count, ...(c.type === 'channel' ? { name: c.name } : {}) }]),
  );
}

async function signedIn(options: Parameters<typeof startSlackTestServer>[0] = {}) {
  server = await startSlackTestServer(options);
  const signIn = await signInSlack(server);
  const call = api(server.url, signIn.token);
  // The first sign-in starts a full sync in the background; wait for its end (its fetch_complete event is appended
  // once the sync is over, so a request after it starts a sync of its own rather than joining that one).
  await until(
    async () => (await server.store.eventsAfter(server.fake.team.id, server.fake.member.id, 0)).some((e) => e.type === 'fetch_complete'),
    45_000,
    'initial sync',
  );
  return { call, token: signIn.token };
}

describe('Slack sync', () => {
  it('a full sync (paged 2 at a time) equals the fake workspace as the member sees it', async () => {
    const { call } = await signedIn({ fake: { size: 'small' }, pageLimit: 2 });
    const want = expected(server.fake);
    expect(await stored(server)).toEqual(want);
    expect([...want.values()].some((c) => c.type === 'thread')).toBe(true);
    expect([...want.values()].some((c) => c.unread > 0)).toBe(true);
    // Pagination went to the end: several users.list pages with a cursor.
    expect(server.fake.calls.filter((c) => c.method === 'users.list' && c.params.cursor).length).toBeGreaterThan(1);
    // users.list, plus whoever the member's messages name that it does not: Slack Connect people
    // (users.info) and webhook bots (bots.info, under their bot id).
    const users = await server.store.listUsers(server.fake.team.id);
    expect(users.map((u) => u.id).sort()).toEqual([...server.fake.workspace.users.map((u) => u.id), ...metOutsideUsersList(server.fake)].sort());

    // fetch-all again: the same content, nothing stored twice, and a fetch_complete event.
    const messagesBefore = await server.store.countMessages(server.fake.team.id);
    const res = await call('/api/conversations/fetch-all');
    expect(res.status).toBe(200);
    expect(res.body.summary).toMatchObject({ conversations: want.size, new_messages: 0 });
    expect(await server.store.countMessages(server.fake.team.id)).toBe(messagesBefore);
    expect(await stored(server)).toEqual(want);
    const events = await server.store.eventsAfter(server.fake.team.id, server.fake.member.id, 0);
    expect(events.filter((e) => e.type === 'fetch_complete').length).toBe(2);
  });

  it('an incremental sync asks only for what is newer and stores nothing twice', async () => {
    const { call } = await signedIn();
    const fake = server.fake;
    const channel = fake.workspace.conversations.find((c) => c.kind === 'public_channel' && c.members.includes(fake.member.id) && c.members.length > 1)!;
    const other = channel.members.find((m) => m !== fake.member.id)!;
    // Incremental history starts after the oldest of the newest RECHECKED_MESSAGES stored (a first reply to one of them is found).
    const recheckFrom = (channel.messages.at(-RECHECKED_MESSAGES) ?? channel.messages[0]!).ts;
    fake.post(other, channel.id, 'a new message for the incremental sync');
    const callsBefore = fake.calls.length;
    const res = await call('/api/conversations/fetch');
    expect(res.status).toBe(200);
    expect(res.body.summary.new_messages).toBe(1);
    const history = fake.calls.slice(callsBefore).filter((c) => c.method === 'conversations.history');
    expect(history.length).toBeGreaterThan(0);
    expect(history.every((c) => c.params.oldest)).toBe(true);
    expect(history.find((c) => c.params.channel === channel.id)!.params.oldest).toBe(recheckFrom);
    expect(await stored(server)).toEqual(expected(fake));
    // Again: nothing new.
    expect((await call('/api/conversations/fetch')).body.summary.new_messages).toBe(0);
    expect(await stored(server)).toEqual(expected(fake));
  });

  it('waits for Retry-After on a 429 before calling again, and resumes the sync', async () => {
    const { call } = await signedIn();
    server.fake.rateLimit('conversations.history', 1, 1);
    const res = await call('/api/conversations/fetch-all');
    expect(res.status).toBe(200);
    const history = server.fake.calls.filter((c) => c.method === 'conversations.history');
    const limited = history.findIndex((c) => c.status === 429);
    expect(limited).toBeGreaterThanOrEqual(0);
    const retry = history[limited + 1]!;
    expect(retry.params.channel).toBe(history[limited]!.params.channel);
    expect(retry.at - history[limited]!.at).toBeGreaterThanOrEqual(1000);
    expect(await stored(server)).toEqual(expected(server.fake));
  });

  it.each([
    ['an absurd', 86_400],
    ['a missing', null],
  ])('bounds the wait on %s Retry-After', async (_name, retryAfter) => {
    const { call } = await signedIn({ rate: { maxWaitSeconds: 1, defaultWaitSeconds: 1 } });
    server.fake.rateLimit('users.list', 2, retryAfter);
    const started = Date.now();
    const res = await call('/api/conversations/fetch-all');
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
    const calls = server.fake.calls.filter((c) => c.method === 'users.list');
    const limited = calls.map((c, i) => [c, i] as const).filter(([c]) => c.status === 429);
    expect(limited).toHaveLength(2);
    for (const [c, i] of limited) expect(calls[i + 1]!.at - c.at).toBeGreaterThanOrEqual(1000);
  });

  it('a revoked token stops the sync with a clear error and refuses the session', async () => {
    const { call } = await signedIn();
    const token = (await server.source.vault.access(server.fake.team.id, server.fake.member.id))!;
    server.fake.revoke(token);
    const res = await call('/api/conversations/fetch-all');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/sign in again/i);
    expect((await call('/api/conversations/data')).status).toBe(401);
    expect((await call('/api/auth/status')).body.authenticated).toBe(false);
    expect(await server.store.getCredential(server.fake.team.id, server.fake.member.id)).toBeNull();
  });
});
