/** The reference server over real HTTP: auth, every endpoint's shape, bad inputs, the live stream. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationSummary, LiveEvent, MessageUpdateData } from '../../src/model/types';
import { DEMO_WORKSPACES } from '../../src/server/sources/demoSource';
import { api, openStream, signIn, startTestServer, type TestServer } from './helpers';

const MAIN = DEMO_WORKSPACES[0]!;
const SECOND = DEMO_WORKSPACES[1]!;

let server: TestServer;
let token: string;
let call: ReturnType<typeof api>;
let conversations: ConversationSummary[];

beforeAll(async () => {
  server = await startTestServer({ heartbeatMs: 200 });
  ({ token } = await signIn(server.url));
  call = api(server.url, token);
  conversations = (await call<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data')).body.data.conversations;
});

afterAll(async () => {
  await server.close();
});

const channelOf = () => conversations.find((c) => c.type === 'channel' && c.member_ids.length > 2)!;
const dmOf = () => conversations.find((c) => c.type === 'dm' && c.dm_user)!;

describe('auth', () => {
  it('answers unauthenticated without a token', async () => {
    const { status, body } = await api(server.url)('/api/auth/status');
    expect(status).toBe(200);
    expect(body).toEqual({ authenticated: false, user: null, workspace: null, organizations: [] });
  });

  it('signs in at /auth/slack: redirect with auth_success and workspace (no token), and an HttpOnly Lax cookie', async () => {
    const { location, cookie, token: t } = await signIn(server.url);
    const url = new URL(location, server.url);
    expect(url.pathname).toBe('/');
    expect(url.searchParams.get('auth_success')).toBe('true');
    expect(url.searchParams.get('workspace')).toBe(MAIN.id);
    // The token travels only in the cookie: never in an address (history, logs, Referer).
    expect([...url.searchParams.keys()].sort()).toEqual(['auth_success', 'workspace']);
    expect(location).not.toContain(t);
    expect(t).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(cookie).toContain(`sift_token=${t}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('reports the member, the workspace and both organizations with a bearer token or the cookie', async () => {
    const bearer = await call('/api/auth/status');
    expect(bearer.body.authenticated).toBe(true);
    expect(bearer.body.user.id).toBe(MAIN.memberUserId);
    expect(bearer.body.workspace.id).toBe(MAIN.id);
    expect(bearer.body.organizations.map((o: { id: string }) => o.id).sort()).toEqual([MAIN.id, SECOND.id].sort());
    const viaCookie = await fetch(`${server.url}/api/auth/status`, { headers: { Cookie: `sift_token=${token}` } });
    expect((await viaCookie.json()).user.id).toBe(MAIN.memberUserId);
  });

  it.each([
    ['GET', '/api/conversations/data'],
    ['POST', '/api/conversations/filtered'],
    ['GET', '/api/conversations/fetch'],
    ['GET', '/api/conversations/fetch-all'],
    ['POST', '/api/conversations/aggregate'],
    ['POST', '/api/conversations/C1/mark-read'],
    ['GET', '/api/conversations/C1/threads'],
    ['POST', '/api/messages/send'],
    ['POST', '/api/messages/validate'],
    ['GET', '/api/users/display-data'],
    ['GET', '/api/sse/stream'],
    ['GET', '/api/sse/stats'],
    ['GET', '/api/features/flags'],
    ['GET', '/api/workspaces/installations'],
    ['POST', '/api/auth/revoke'],
  ])('%s %s answers 401 {error} without a valid token', async (method, path) => {
    for (const headers of [{}, { Authorization: 'Bearer not-a-real-token-at-all-123' }, { Authorization: 'Bearer null' }] as Array<Record<string, string>>) {
      const res = await fetch(`${server.url}${path}`, { method, headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
  });

  it('answers the public configuration calls without a token', async () => {
    const anon = api(server.url);
    expect((await anon('/api/config/mode')).body).toMatchObject({ centralized: false, hasCredentials: false, mode: 'workspace-specific' });
    expect((await anon('/api/config/features')).body).toMatchObject({ aiEnabled: expect.any(Boolean) });
    expect((await anon('/api/setup/status')).body).toMatchObject({ mode: 'demo' });
    const flags = await call('/api/features/flags');
    expect(flags.body).toMatchObject({ success: true, flags: { aiEnabled: { enabled: expect.any(Boolean) } } });
    const installs = await call('/api/workspaces/installations');
    expect(installs.body.installations).toHaveLength(2);
  });

  it('signs in as another demo member with ?as=, and refuses an unknown or malformed one', async () => {
    const other = conversations.find((c) => c.type === 'dm')!.dm_user!;
    const { token: t } = await signIn(server.url, other);
    expect((await api(server.url, t)('/api/auth/status')).body.user.id).toBe(other);
    expect((await fetch(`${server.url}/auth/slack?as=UNOBODY00`, { redirect: 'manual' })).status).toBe(400);
    expect((await fetch(`${server.url}/auth/slack?as=%3Cscript%3E`, { redirect: 'manual' })).status).toBe(400);
  });

  it("keeps one member out of another member's DMs", async () => {
    const dm = dmOf();
    const outsider = (await call<{ data: { users: Record<string, { id: string; is_bot?: boolean }> } }>('/api/users/display-data')).body.data.users;
    const outsiderId = Object.values(outsider).find((u) => !dm.member_ids.includes(u.id) && !u.is_bot)!.id;
    const { token: t } = await signIn(server.url, outsiderId);
    const theirs = api(server.url, t);
    const list = (await theirs<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data')).body.data.conversations;
    expect(list.some((c) => c.id === dm.id)).toBe(false);
    expect((await theirs(`/api/conversations/${dm.id}/threads`)).status).toBe(404);
    expect((await theirs(`/api/conversations/${dm.id}/mark-read`, { body: {} })).status).toBe(404);
    const send = await theirs('/api/messages/send', { body: { channel: dm.id, text: 'let me in' } });
    expect(send.status).toBe(400);
  });

  it('switches workspace for the same session, and refuses one the member is not in', async () => {
    const { token: t } = await signIn(server.url);
    const mine = api(server.url, t);
    const switched = await mine('/auth/switch-workspace', { body: { workspaceId: SECOND.id } });
    expect(switched.status).toBe(200);
    expect(switched.body.workspace.id).toBe(SECOND.id);
    const status = await mine('/api/auth/status');
    expect(status.body.user.id).toBe(SECOND.memberUserId);
    const list = (await mine<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data')).body.data.conversations;
    expect(list.map((c) => c.id)).not.toEqual(conversations.map((c) => c.id));
    expect((await mine('/auth/switch-workspace', { body: { workspaceId: 'T0NOTMINE' } })).status).toBe(404);
    expect((await mine('/auth/switch-workspace', { body: {} })).status).toBe(400);
  });

  it('ends the session server-side on logout and on revoke', async () => {
    for (const path of ['/auth/logout', '/api/auth/revoke']) {
      // Revoke ends every session of the member: another member's, so the suite's own session lives on.
      const { token: t } = await signIn(server.url, path === '/api/auth/revoke' ? dmOf().dm_user : undefined);
      const mine = api(server.url, t);
      expect((await mine(path, { method: 'POST' })).status).toBe(200);
      expect((await mine('/api/auth/status')).body.authenticated).toBe(false);
      expect((await mine('/api/conversations/data')).status).toBe(401);
    }
  });

  it('never writes a token to the log', async () => {
    const { token: t } = await signIn(server.url);
    const stream = await openStream(server.url, t);
    await stream.until((events) => events.length > 0);
    stream.close();
    await api(server.url, t)('/api/auth/status');
    const log = server.logLines.join('\n');
    expect(log).toContain('/api/sse/stream');
    expect(log).not.toContain(t);
    expect(log).not.toContain(token);
  });
});

describe('conversations and messages', () => {
  it("lists the member's conversations with the fields of SPEC §3, and the users", async () => {
    const { status, body } = await call('/api/conversations/data');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.total).toBe(body.data.conversations.length);
    expect(body.total).toBeGreaterThan(100);
    const c = body.data.conversations.find((x: ConversationSummary) => x.type === 'thread') as ConversationSummary;
    expect(c).toMatchObject({
      id: expect.stringMatching(/^[CG][A-Z0-9]+:\d{10}\.\d{6}$/),
      type: 'thread',
      parent_conversation_id: expect.any(String),
      parent_message: { ts: expect.any(String), text: expect.any(String) },
      unread_count: expect.any(Number),
      unread_count_display: expect.any(Number),
      last_read: expect.any(String),
      message_count: expect.any(Number),
      latest_activity: expect.any(Number),
    });
    expect(Object.keys(body.data.users).length).toBeGreaterThan(10);
    for (const conv of body.data.conversations as ConversationSummary[]) expect(conv.member_ids).toContain(MAIN.memberUserId);
  });

  it('pages with offset and limit, and filters by type', async () => {
    const first = await call('/api/conversations/data?offset=0&limit=50');
    const second = await call('/api/conversations/data?offset=50&limit=50');
    expect(first.body.data.conversations).toHaveLength(50);
    expect(second.body.data.users).toBeUndefined();
    const ids = [...first.body.data.conversations, ...second.body.data.conversations].map((c: ConversationSummary) => c.id);
    expect(new Set(ids).size).toBe(100);
    const dms = await call('/api/conversations/data?type=dm');
    expect(dms.body.data.conversations.every((c: ConversationSummary) => c.type === 'dm')).toBe(true);
    expect(dms.body.total).toBe(conversations.filter((c) => c.type === 'dm').length);
  });

  it('pages in activity order with a cursor: newest first, every conversation exactly once', async () => {
    const seen: ConversationSummary[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const res = await call(`/api/conversations/data?order=activity&limit=70${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      if (pages === 0) expect(res.body.total).toBe(conversations.length);
      else expect(res.body.total).toBeUndefined();
      seen.push(...res.body.data.conversations);
      cursor = res.body.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(Math.ceil(conversations.length / 70));
    expect(new Set(seen.map((c) => c.id)).size).toBe(conversations.length);
    const order = seen.map((c) => c.latest_message?.ts ?? '');
    expect(order).toEqual([...order].sort().reverse());
  });

  it('refuses a cursor it did not issue, and an offset with activity order', async () => {
    expect((await call('/api/conversations/data?order=activity&cursor=bm9wZQ')).status).toBe(400);
    expect((await call('/api/conversations/data?order=activity&offset=10')).status).toBe(400);
  });

  it.each([
    ['type=group', /type/],
    ['limit=-1', /limit/],
    ['limit=abc', /limit/],
    ['offset=1.5', /offset/],
  ])('answers 400 for the bad query %s', async (query, message) => {
    const { status, body } = await call(`/api/conversations/data?${query}`);
    expect(status).toBe(400);
    expect(body.error).toMatch(message);
  });

  it('filters with rules, sorts, and reports aggregates', async () => {
    const { body } = await call('/api/conversations/filtered', {
      body: { filter: { rules: [{ field: 'unread_count', operator: 'gt', value: 0 }] }, sort: { field: 'latest_activity', direction: 'desc' } },
    });
    const expected = conversations.filter((c) => c.unread_count_display > 0);
    expect(body.total).toBe(expected.length);
    expect(body.data.conversations.every((c: ConversationSummary) => c.unread_count_display > 0)).toBe(true);
    const times = body.data.conversations.map((c: ConversationSummary) => c.latest_activity);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(body.aggregates.unread).toBe(expected.length);
    const or = await call('/api/conversations/filtered', {
      body: {
        filter: {
          combinator: 'or',
          rules: [
            { field: 'type', operator: 'eq', value: 'dm' },
            { field: 'type', operator: 'eq', value: 'thread' },
          ],
        },
        includeThreads: true,
      },
    });
    expect(or.body.total).toBe(conversations.filter((c) => c.type !== 'channel').length);
  });

  it.each([
    [{ filter: [{ field: 'type', operator: 'like', value: 'dm' }] }, /operator/],
    [{ filter: [{ field: 'a..b', operator: 'eq', value: 1 }] }, /field/],
    [{ sort: { field: 'password' } }, /sort/],
    [{ limit: 0 }, /limit/],
  ])('answers 400 for a bad filter body %#', async (body, message) => {
    const res = await call('/api/conversations/filtered', { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await call('/api/conversations/filtered', { raw: '{not json' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/JSON/);
  });

  it('aggregates by group, and refuses unknown groups', async () => {
    const { body } = await call('/api/conversations/aggregate', { body: { groups: ['type'] } });
    expect(body.data.type.dm + body.data.type.channel + body.data.type.thread).toBe(conversations.length);
    expect((await call('/api/conversations/aggregate', { body: { groups: ['secret'] } })).status).toBe(400);
  });

  it('returns a conversation with its messages and threads attached to their parents', async () => {
    const thread = conversations.find((c) => c.type === 'thread')!;
    const { body } = await call(`/api/conversations/${encodeURIComponent(thread.parent_conversation_id!)}/threads`);
    expect(body.success).toBe(true);
    const parent = body.conversation.messages.find((m: { ts: string }) => m.ts === thread.parent_message!.ts);
    expect(parent.reply_count).toBeGreaterThan(0);
    expect(parent.threads.length).toBe(parent.reply_count);
    const replyTs = parent.threads.map((r: { ts: string }) => Number(r.ts));
    expect(replyTs).toEqual([...replyTs].sort((a, b) => a - b));
    expect(body.conversation.participants.length).toBeGreaterThan(0);
    const own = await call(`/api/conversations/${encodeURIComponent(thread.id)}/threads`);
    expect(own.body.conversation.messages[0].ts).toBe(thread.parent_message!.ts);
    expect((await call('/api/conversations/CNOPE/threads')).status).toBe(404);
  });

  it('names everyone a conversation mentions in members_data', async () => {
    let checked = 0;
    for (const c of conversations.filter((x) => x.type === 'channel').slice(0, 40)) {
      const { body } = await call(`/api/conversations/${encodeURIComponent(c.id)}/threads`);
      for (const m of body.conversation.messages as Array<{ text: string }>) {
        for (const [, id] of m.text.matchAll(/<@([A-Z0-9]+)>/g)) {
          expect(body.conversation.members_data[id!]).toMatchObject({ id, real_name: expect.any(String) });
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('fetch-all answers a summary and emits fetch_complete', async () => {
    const stream = await openStream(server.url, token);
    await stream.until((e) => e.some((x) => x.type === 'connection'));
    const { body } = await call('/api/conversations/fetch-all');
    expect(body).toMatchObject({ success: true, summary: { conversations: conversations.length, messages: expect.any(Number) } });
    await stream.until((e) => e.some((x) => x.type === 'fetch_complete'));
    stream.close();
    expect((await call('/api/conversations/fetch')).body.success).toBe(true);
  });
});

describe('sending and marking read', () => {
  it.each([
    ['empty text', (c: string) => ({ channel: c, text: '' }), /empty/],
    ['whitespace text', (c: string) => ({ channel: c, text: '  \n\t ' }), /empty/],
    ['40001 characters', (c: string) => ({ channel: c, text: 'x'.repeat(40_001) }), /too long/],
    ['a thread reply without thread_ts', (c: string) => ({ channel: `${c}:1700000000.000100` }), /thread_ts/],
    ['an unknown conversation', () => ({ channel: 'CDOESNOTEXIST', text: 'hello' }), /Unknown conversation/],
    ['a malformed thread_ts', (c: string) => ({ channel: c, text: 'hi', thread_ts: 'yesterday' }), /thread_ts/],
  ])('refuses %s with 400 {error, errors} and stores nothing', async (_name, make, message) => {
    const channel = channelOf();
    const before = (await call(`/api/conversations/${channel.id}/threads`)).body.conversation.message_count;
    const seqBefore = (await call('/api/sse/stats')).body.currentSequence;
    const body = { text: 'hello', ...make(channel.id) };
    const res = await call('/api/messages/send', { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Message validation failed: /);
    expect(res.body.errors.join(' ')).toMatch(message);
    expect((await call(`/api/conversations/${channel.id}/threads`)).body.conversation.message_count).toBe(before);
    expect((await call('/api/sse/stats')).body.currentSequence).toBe(seqBefore);
  });

  it('validates a message without sending it', async () => {
    const ok = await call('/api/messages/validate', { body: { message: { channel: 'C1', text: 'hi' } } });
    expect(ok.body).toEqual({ success: true, errors: [], message: { channel: 'C1', text: 'hi' } });
    const bad = await call('/api/messages/validate', { body: { message: { channel: 'C1', text: ' ' } } });
    expect(bad.body.success).toBe(false);
    expect(bad.body.errors).toEqual(['Message text cannot be empty']);
  });

  it('sends: the sender gets new_message with no unread, another member gets an unread', async () => {
    const channel = channelOf();
    const otherId = channel.member_ids.find((id) => id !== MAIN.memberUserId)!;
    const { token: otherToken } = await signIn(server.url, otherId);
    const mine = await openStream(server.url, token);
    const theirs = await openStream(server.url, otherToken);
    await mine.until((e) => e.length > 0);
    await theirs.until((e) => e.length > 0);
    const before = (await api(server.url, otherToken)(`/api/conversations/${channel.id}/threads`)).body.conversation.unread_count;

    const res = await call('/api/messages/send', { body: { channel: channel.id, text: 'Deploy is *green* :tada:', client_msg_id: 'abc-1' } });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({ channel: channel.id, text: 'Deploy is *green* :tada:', user: MAIN.memberUserId, client_msg_id: 'abc-1' });

    const isIt = (e: LiveEvent) => e.type === 'message_update' && (e.data as MessageUpdateData).message?.ts === res.body.ts;
    const [own] = (await mine.until((e) => e.some(isIt))).filter(isIt);
    const [other] = (await theirs.until((e) => e.some(isIt))).filter(isIt);
    expect(own!.data).toMatchObject({ action: 'new_message', conversation_id: channel.id, unread_count: 0, last_read: res.body.ts });
    expect((other!.data as MessageUpdateData).unread_count).toBe(before + 1);
    expect(own!.isReplay).toBe(false);
    mine.close();
    theirs.close();
  });

  it('sends a thread reply: thread_new_message to the thread, new_message with is_thread to the channel', async () => {
    const thread = conversations.find((c) => c.type === 'thread')!;
    const stream = await openStream(server.url, token);
    await stream.until((e) => e.length > 0);
    const res = await call('/api/messages/send', { body: { channel: thread.parent_conversation_id, thread_ts: thread.parent_message!.ts, text: 'On it' } });
    expect(res.status).toBe(200);
    expect(res.body.channel).toBe(thread.id);
    const events = await stream.until((e) => e.filter((x) => (x.data as MessageUpdateData).message?.ts === res.body.ts).length >= 2);
    const actions = events
      .filter((x) => (x.data as MessageUpdateData).message?.ts === res.body.ts)
      .map((x) => [(x.data as MessageUpdateData).action, (x.data as MessageUpdateData).conversation_id]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['thread_new_message', thread.id],
        ['new_message', thread.parent_conversation_id],
      ]),
    );
    stream.close();
  });

  it('marks read: unread zero, last_read set, channel_marked emitted; bad inputs answer 400/404', async () => {
    const unread = conversations.find((c) => c.unread_count > 0)!;
    const stream = await openStream(server.url, token);
    await stream.until((e) => e.length > 0);
    const res = await call(`/api/conversations/${encodeURIComponent(unread.id)}/mark-read`, { body: { timestamp: unread.latest_message!.ts } });
    expect(res.body).toEqual({ success: true, conversation_id: unread.id, last_read: unread.latest_message!.ts, unread_count: 0 });
    const marked = await stream.until((e) => e.some((x) => (x.data as MessageUpdateData).action === 'channel_marked'));
    expect(marked.find((x) => (x.data as MessageUpdateData).action === 'channel_marked')!.data).toMatchObject({
      conversation_id: unread.id,
      unread_count: 0,
      last_read: unread.latest_message!.ts,
    });
    stream.close();
    expect((await call(`/api/conversations/${unread.id}/mark-read`, { body: { timestamp: 'soon' } })).status).toBe(400);
    expect((await call('/api/conversations/CNOPE/mark-read', { body: {} })).status).toBe(404);
  });
});

describe('live stream', () => {
  it.each(['abc', '-1', '1.5', ''])('answers 400 for lastSequence=%j', async (value) => {
    const res = await fetch(`${server.url}/api/sse/stream?lastSequence=${value}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/lastSequence/);
  });

  it('starts with connection{currentSequence}, replays after lastSequence with isReplay, then replay_complete, then live', async () => {
    const { token: t } = await signIn(server.url);
    const mine = api(server.url, t);
    const start = (await mine('/api/sse/stats')).body.currentSequence as number;
    const channel = channelOf();
    for (const text of ['one', 'two', 'three']) await mine('/api/messages/send', { body: { channel: channel.id, text } });

    const stream = await openStream(server.url, t, start);
    const events = await stream.until((e) => e.some((x) => x.type === 'replay_complete'));
    expect(events[0]).toMatchObject({ type: 'connection', data: { currentSequence: start + 3 } });
    const replayed = events.slice(1, -1);
    expect(replayed.map((e) => e.sequence)).toEqual([start + 1, start + 2, start + 3]);
    expect(replayed.every((e) => e.isReplay === true)).toBe(true);
    expect(replayed.map((e) => (e.data as MessageUpdateData).message?.text)).toEqual(['one', 'two', 'three']);

    await mine('/api/messages/send', { body: { channel: channel.id, text: 'four' } });
    const live = await stream.until((e) => e.some((x) => x.sequence === start + 4));
    expect(live.find((x) => x.sequence === start + 4)!.isReplay).toBe(false);
    stream.close();
  });

  it('sends a comment heartbeat while idle, and counts open streams', async () => {
    const stream = await openStream(server.url, token);
    await new Promise((r) => setTimeout(r, 500));
    expect(stream.comments).toBeGreaterThanOrEqual(1);
    expect((await call('/api/sse/stats')).body.openStreams).toBeGreaterThanOrEqual(1);
    stream.close();
  });
});

describe('categories and mark unread', () => {
  it('sets and removes a manual category per member, as conversation_update events', async () => {
    const c = conversations.find((x) => x.type === 'channel')!;
    const stream = await openStream(server.url, token);
    await stream.until((e) => e.length > 0);
    const set = await call(`/api/features/ai-sort/label/${encodeURIComponent(c.id)}`, { body: { category: 'urgent' } });
    expect(set.body).toEqual({ success: true, conversation_id: c.id, ai_category: 'urgent', ai_source: 'manual' });
    const summary = (await call(`/api/conversations/${encodeURIComponent(c.id)}/threads`)).body.conversation;
    expect(summary).toMatchObject({ ai_category: 'urgent', ai_source: 'manual' });
    // Another member's view of the same conversation is untouched (the AI may have labelled it for them, never by hand).
    const other = c.member_ids.find((id) => id !== MAIN.memberUserId)!;
    const { token: otherToken } = await signIn(server.url, other);
    expect((await api(server.url, otherToken)(`/api/conversations/${encodeURIComponent(c.id)}/threads`)).body.conversation.ai_source).not.toBe('manual');

    const removed = await call(`/api/features/ai-sort/label/${encodeURIComponent(c.id)}`, { method: 'DELETE' });
    expect(removed.body).toEqual({ success: true, conversation_id: c.id, ai_category: null });
    const updates = (await stream.until((e) => e.filter((x) => x.type === 'conversation_update').length >= 2)).filter((x) => x.type === 'conversation_update');
    expect(updates.map((u) => (u.data as { conversation: { ai_category: unknown } }).conversation.ai_category)).toEqual(['urgent', null]);
    stream.close();
  });

  it.each([
    [{ category: 'soon' }, 400],
    [{}, 400],
  ])('refuses the label body %j', async (body, status) => {
    const c = conversations[0]!;
    expect((await call(`/api/features/ai-sort/label/${encodeURIComponent(c.id)}`, { body })).status).toBe(status);
  });

  it('refuses to label a conversation the member cannot see', async () => {
    expect((await call('/api/features/ai-sort/label/CNOPE', { body: { category: 'fyi' } })).status).toBe(404);
    expect((await call('/api/features/ai-sort/label/CNOPE', { method: 'DELETE' })).status).toBe(404);
  });

  it('marks a read conversation unread again: the newest message from someone else counts', async () => {
    const c = conversations.find((x) => x.unread_count === 0 && x.type === 'dm' && x.latest_message?.user !== MAIN.memberUserId)!;
    const res = await call(`/api/conversations/${encodeURIComponent(c.id)}/mark-unread`, { body: {} });
    expect(res.status).toBe(200);
    expect(res.body.unread_count).toBe(1);
    expect(Number(res.body.last_read)).toBeLessThan(Number(c.latest_message!.ts));
    // Undo of a mark-read: back to an earlier read mark.
    const back = await call(`/api/conversations/${encodeURIComponent(c.id)}/mark-read`, { body: { timestamp: c.latest_message!.ts } });
    expect(back.body.unread_count).toBe(0);
    expect((await call('/api/conversations/CNOPE/mark-unread', { body: {} })).status).toBe(404);
  });
});
