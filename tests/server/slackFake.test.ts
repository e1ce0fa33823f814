/**
 * The fake Slack server (tests/fakes/slackServer.ts) driven through Slack's official clients:
 * WebClient for OAuth and the Web API, SocketModeClient for events.
 */
import { LogLevel, SocketModeClient } from '@slack/socket-mode';
import { ErrorCode, WebClient, type WebAPIPlatformError } from '@slack/web-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startFakeSlack, type FakeConversation, type FakeExtras, type FakeSlack } from '../fakes/slackServer';
import { APP_POSTS, TEXT_ONLY_INSIDE } from '../fixtures/slackAppPosts';
import type { Json } from './helpers';

const REDIRECT = 'http://localhost:5199/slack/callback?from=test';
const USER_SCOPES =
  'channels:read,groups:read,im:read,mpim:read,channels:history,groups:history,im:history,mpim:history,channels:write,groups:write,im:write,mpim:write,users:read,chat:write';
/** A page of WebClient.paginate, which types pages as WebAPICallResult. */
type Paged = { members?: unknown; channels?: unknown; messages?: unknown; has_more?: boolean };
const quickRetries = { retries: 3, minTimeout: 0, maxTimeout: 0 };

const client = (fake: FakeSlack, token?: string, extra: ConstructorParameters<typeof WebClient>[1] = {}) =>
  new WebClient(token, { slackApiUrl: fake.apiUrl, logLevel: LogLevel.ERROR, retryConfig: quickRetries, ...extra });

/** The error string of a rejected WebClient call. */
async function slackError(call: Promise<unknown>): Promise<WebAPIPlatformError['data']> {
  try {
    await call;
  } catch (error) {
    const e = error as WebAPIPlatformError;
    expect(e.code).toBe(ErrorCode.PlatformError);
    return e.data;
  }
  throw new Error('expected the call to fail');
}

async function waitFor<T>(probe: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Follows the authorize page the way a browser would: returns the Allow and Cancel targets. */
async function authorize(fake: FakeSlack, query: Record<string, string>): Promise<{ status: number; html: string; allow?: URL; cancel?: URL }> {
  const res = await fetch(`${fake.authorizeUrl}?${new URLSearchParams(query)}`);
  const html = await res.text();
  const forms = [...html.matchAll(/<form method="get" action="([^"]*)" data-url="([^"]*)">(.*?)<\/form>/g)];
  const target = (label: string): URL | undefined => {
    const form = forms.find((f) => (f[3] as string).includes(`>${label}</button>`));
    if (!form) return undefined;
    // Submit the form: its action plus its hidden inputs.
    const action = new URL((form[1] as string).replace(/&amp;/g, '&'));
    for (const input of (form[3] as string).matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
      action.searchParams.append(input[1] as string, (input[2] as string).replace(/&amp;/g, '&'));
    }
    expect(action.toString()).toBe(new URL((form[2] as string).replace(/&amp;/g, '&')).toString());
    return action;
  };
  return { status: res.status, html, allow: target('Allow'), cancel: target('Cancel') };
}

async function install(fake: FakeSlack, scopes = USER_SCOPES) {
  const page = await authorize(fake, { client_id: fake.clientId, user_scope: scopes, redirect_uri: REDIRECT, state: 's1' });
  const code = page.allow?.searchParams.get('code') as string;
  return client(fake).oauth.v2.access({ client_id: fake.clientId, client_secret: fake.clientSecret, code, redirect_uri: REDIRECT });
}

describe('fake Slack: OAuth v2', () => {
  let fake: FakeSlack;
  beforeAll(async () => {
    fake = await startFakeSlack({ size: 'small', seed: 7 });
  });
  afterAll(() => fake.close());

  it('shows a consent page and exchanges the code of its Allow button for a user token', async () => {
    const page = await authorize(fake, { client_id: fake.clientId, scope: '', user_scope: USER_SCOPES, redirect_uri: REDIRECT, state: 'xyz' });
    expect(page.status).toBe(200);
    expect(page.html).toContain(fake.team.name);
    expect(page.html).toContain(fake.member.real_name);
    expect(page.html).toContain('channels:history');
    expect(page.allow?.origin + page.allow!.pathname).toBe('http://localhost:5199/slack/callback');
    expect(page.allow?.searchParams.get('from')).toBe('test');
    expect(page.allow?.searchParams.get('state')).toBe('xyz');
    expect(page.cancel?.searchParams.get('error')).toBe('access_denied');
    expect(page.cancel?.searchParams.get('state')).toBe('xyz');

    const code = page.allow?.searchParams.get('code') as string;
    const web = client(fake);
    const result = await web.oauth.v2.access({ client_id: fake.clientId, client_secret: fake.clientSecret, code, redirect_uri: REDIRECT });
    expect(result.ok).toBe(true);
    expect(result.team).toEqual({ id: fake.team.id, name: fake.team.name });
    expect(result.app_id).toBe(fake.workspace.appId);
    expect(result.authed_user?.id).toBe(fake.member.id);
    expect(result.authed_user?.token_type).toBe('user');
    expect(result.authed_user?.scope).toBe(USER_SCOPES);
    expect(result.authed_user?.access_token).toMatch(/^xoxp-/);
    expect(result.authed_user?.refresh_token).toBeUndefined();
    expect(result.access_token).toBeUndefined();

    const call = fake.calls.at(-1);
    expect(call).toMatchObject({ method: 'oauth.v2.access', status: 200, token: null });
    expect(call?.params.code).toBe(code);

    // Single use.
    expect((await slackError(web.oauth.v2.access({ client_id: fake.clientId, client_secret: fake.clientSecret, code, redirect_uri: REDIRECT }))).error).toBe(
      'invalid_code',
    );

    const me = await client(fake, result.authed_user?.access_token).auth.test();
    expect(me).toMatchObject({ ok: true, user_id: fake.member.id, team_id: fake.team.id, team: fake.team.name, user: fake.member.name });
  });

  it('checks the client, the code and the redirect_uri', async () => {
    const web = client(fake);
    const page = await authorize(fake, { client_id: fake.clientId, user_scope: 'users:read', redirect_uri: REDIRECT, state: 's' });
    const code = page.allow?.searchParams.get('code') as string;
    expect((await slackError(web.oauth.v2.access({ client_id: 'nope', client_secret: fake.clientSecret, code }))).error).toBe('invalid_client_id');
    expect((await slackError(web.oauth.v2.access({ client_id: fake.clientId, client_secret: 'wrong', code }))).error).toBe('bad_client_secret');
    expect((await slackError(web.oauth.v2.access({ client_id: fake.clientId, client_secret: fake.clientSecret, code: 'made-up' }))).error).toBe('invalid_code');
    expect(
      (await slackError(web.oauth.v2.access({ client_id: fake.clientId, client_secret: fake.clientSecret, code, redirect_uri: 'http://localhost:5199/other' })))
        .error,
    ).toBe('bad_redirect_uri');
    expect(
      (await slackError(web.oauth.v2.access({ client_id: fake.clientId, client_secret: fake.clientSecret, code, grant_type: 'password' } as never))).error,
    ).toBe('invalid_grant_type');
    // Still usable after those failures.
    const ok = await web.oauth.v2.access({ client_id: fake.clientId, client_secret: fake.clientSecret, code, redirect_uri: REDIRECT });
    expect(ok.authed_user?.scope).toBe('users:read');

    const unknown = await authorize(fake, { client_id: '9999.0000', user_scope: 'users:read', redirect_uri: REDIRECT });
    expect(unknown.status).toBe(400);
    expect(unknown.allow).toBeUndefined();
  });

  it('lets another user consent', async () => {
    const other = fake.workspace.users.find((u) => !u.is_bot && u.id !== fake.member.id && u.id !== 'USLACKBOT')!;
    fake.setConsentUser(other.id);
    try {
      const result = await install(fake);
      expect(result.authed_user?.id).toBe(other.id);
    } finally {
      fake.setConsentUser(fake.member.id);
    }
  });
});

describe('fake Slack: Web API', () => {
  let fake: FakeSlack;
  let token: string;
  let web: WebClient;
  const memberConversations = () => fake.workspace.conversations.filter((c) => c.members.includes(fake.member.id));
  beforeAll(async () => {
    fake = await startFakeSlack({ seed: 42, pageLimitMax: 50 });
    token = (await install(fake)).authed_user?.access_token as string;
    web = client(fake, token);
  });
  afterAll(() => fake.close());

  it('holds a workspace of the default size', () => {
    const kinds = (k: FakeConversation['kind']) => fake.workspace.conversations.filter((c) => c.kind === k).length;
    // 36 humans, a deactivated account, 2 seeded bots, Slackbot; then 10 app bot users, a guest and a deactivated poster.
    expect(fake.workspace.users).toHaveLength(52);
    expect(fake.workspace.conversations.length).toBeGreaterThan(200);
    for (const k of ['public_channel', 'private_channel', 'im', 'mpim'] as const) expect(kinds(k)).toBeGreaterThan(10);
    const threads = fake.workspace.conversations.reduce((n, c) => n + Object.keys(c.replies).length, 0);
    expect(threads).toBeGreaterThan(100);
    const unread = memberConversations().filter((c) => c.messages.length > 0 && c.lastRead[fake.member.id] !== c.messages.at(-1)?.ts);
    expect(unread.length).toBeGreaterThan(10);
  });

  it('pages users.list to the end with small limits', async () => {
    const before = fake.calls.length;
    const ids: string[] = [];
    for await (const page of web.paginate('users.list', { limit: 7 })) {
      ids.push(...(((page as Paged).members as Array<{ id: string }>) ?? []).map((m) => m.id));
    }
    expect(ids).toEqual(fake.workspace.users.map((u) => u.id));
    const listCalls = fake.calls.slice(before).filter((c) => c.method === 'users.list');
    expect(listCalls).toHaveLength(Math.ceil(52 / 7));
    expect(listCalls[0]?.params.limit).toBe('7');
    expect(listCalls[1]?.params.cursor).toBeTruthy();
    expect(listCalls.every((c) => c.token === token)).toBe(true);

    const one = await web.users.info({ user: fake.member.id });
    expect(one.user).toMatchObject({ id: fake.member.id, team_id: fake.team.id, name: fake.member.name, is_bot: false, deleted: false });
    expect(one.user?.profile?.image_48).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/avatars\//);
    expect(one.user?.profile?.email).toBeUndefined(); // no users:read.email
    expect((await fetch(one.user!.profile!.image_48!)).headers.get('content-type')).toBe('image/svg+xml');
    expect((await slackError(web.users.info({ user: 'UNOSUCHUSER' }))).error).toBe('user_not_found');
  });

  it('pages users.conversations and caps limit by pageLimitMax', async () => {
    const ids: string[] = [];
    for await (const page of web.paginate('users.conversations', { types: 'public_channel,private_channel,mpim,im', limit: 9 })) {
      ids.push(...((page as Paged).channels as Array<{ id: string }>).map((c) => c.id));
    }
    expect(ids).toEqual(memberConversations().map((c) => c.id));

    const big = await web.users.conversations({ types: 'public_channel,private_channel,mpim,im', limit: 1000 });
    expect(big.channels).toHaveLength(50);
    expect(big.response_metadata?.next_cursor).not.toBe('');

    const ims = await web.users.conversations({ types: 'im', limit: 200 });
    expect(ims.channels?.every((c) => c.is_im && c.id?.startsWith('D') && c.user !== fake.member.id)).toBe(true);
    const publics = await web.users.conversations({ limit: 200 });
    expect(publics.channels?.every((c) => c.is_channel && !c.is_private)).toBe(true);

    const all: string[] = [];
    for await (const page of web.paginate('conversations.list', { types: 'public_channel', limit: 50 })) {
      all.push(...((page as Paged).channels as Array<{ id: string }>).map((c) => c.id));
    }
    expect(all).toEqual(fake.workspace.conversations.filter((c) => c.kind === 'public_channel').map((c) => c.id));

    expect((await slackError(web.users.conversations({ cursor: 'bm90LWEtY3Vyc29y' }))).error).toBe('invalid_cursor');
    expect((await slackError(web.users.conversations({ types: 'dm' }))).error).toBe('invalid_types');
  });

  it('pages conversations.history newest first, top-level messages and thread parents only', async () => {
    const general = fake.workspace.conversations.find((c) => c.is_general)!;
    const got: Array<{ ts?: string; reply_count?: number }> = [];
    let pages = 0;
    for await (const page of web.paginate('conversations.history', { channel: general.id, limit: 7 })) {
      pages++;
      got.push(...((page as Paged).messages as typeof got));
      expect((page as Paged).has_more).toBe(page.response_metadata?.next_cursor !== '');
    }
    expect(pages).toBe(Math.ceil(general.messages.length / 7));
    expect(got.map((m) => m.ts)).toEqual([...general.messages].reverse().map((m) => m.ts));
    const parents = got.filter((m) => (m.reply_count ?? 0) > 0);
    expect(parents.length).toBeGreaterThan(0);
    const replyTs = new Set(
      Object.values(general.replies)
        .flat()
        .map((r) => r.ts),
    );
    expect(got.some((m) => replyTs.has(m.ts as string))).toBe(false);

    // oldest / latest / inclusive.
    const mid = general.messages[20]!.ts;
    const end = general.messages[30]!.ts;
    const window = await web.conversations.history({ channel: general.id, oldest: mid, latest: end, limit: 100 });
    expect(window.messages?.map((m) => m.ts)).toEqual(
      general.messages
        .slice(21, 30)
        .reverse()
        .map((m) => m.ts),
    );
    const inclusive = await web.conversations.history({ channel: general.id, oldest: mid, latest: end, inclusive: true, limit: 100 });
    expect(inclusive.messages).toHaveLength(11);

    const notMine = fake.workspace.conversations.find((c) => c.kind === 'private_channel' && !c.members.includes(fake.member.id))!;
    expect((await slackError(web.conversations.history({ channel: notMine.id }))).error).toBe('channel_not_found');
    expect((await slackError(web.conversations.history({ channel: general.id, cursor: 'garbage' }))).error).toBe('invalid_cursor');
  });

  it('answers conversations.replies parent first, then the replies in order', async () => {
    const c = memberConversations().find((x) => Object.keys(x.replies).length > 0 && Object.values(x.replies).some((r) => r.length >= 3))!;
    const [parentTs, replies] = Object.entries(c.replies).find(([, r]) => r.length >= 3)!;
    const all: Array<{ ts?: string; thread_ts?: string; parent_user_id?: string }> = [];
    for await (const page of web.paginate('conversations.replies', { channel: c.id, ts: parentTs, limit: 2 })) {
      all.push(...((page as Paged).messages as typeof all));
    }
    expect(all.map((m) => m.ts)).toEqual([parentTs, ...replies.map((r) => r.ts)]);
    expect(all.every((m) => m.thread_ts === parentTs)).toBe(true);
    expect(all[1]?.parent_user_id).toBe(c.messages.find((m) => m.ts === parentTs)?.user);
    expect((await slackError(web.conversations.replies({ channel: c.id, ts: '1.000001' }))).error).toBe('thread_not_found');
  });

  it('answers conversations.info with last_read, and unread counts for IMs', async () => {
    const im = memberConversations().find((c) => c.kind === 'im' && c.messages.length > 1 && c.lastRead[fake.member.id] !== c.messages.at(-1)?.ts)!;
    const info = await web.conversations.info({ channel: im.id });
    expect(info.channel).toMatchObject({ id: im.id, is_im: true, last_read: im.lastRead[fake.member.id] });
    expect((info.channel as { unread_count?: number } | undefined)?.unread_count).toBeGreaterThan(0);
    const channel = memberConversations().find((c) => c.kind === 'public_channel')!;
    const ci = await web.conversations.info({ channel: channel.id, include_num_members: true });
    expect(ci.channel).toMatchObject({
      id: channel.id,
      name: channel.name,
      is_member: true,
      last_read: channel.lastRead[fake.member.id],
      num_members: channel.members.length,
    });

    const members: string[] = [];
    for await (const page of web.paginate('conversations.members', { channel: channel.id, limit: 2 })) members.push(...((page as Paged).members as string[]));
    expect(members).toEqual(channel.members);
  });

  it('posts with chat.postMessage and marks with conversations.mark', async () => {
    const channel = memberConversations().find((c) => c.kind === 'public_channel' && !c.is_archived)!;
    const posted = await web.chat.postMessage({ channel: channel.id, text: 'hello <@' + fake.member.id + '> :wave:' });
    expect(posted).toMatchObject({
      ok: true,
      channel: channel.id,
      message: { type: 'message', user: fake.member.id, text: `hello <@${fake.member.id}> :wave:` },
    });
    expect(channel.messages.at(-1)?.ts).toBe(posted.ts);

    const reply = await web.chat.postMessage({ channel: channel.id, text: 'in thread', thread_ts: posted.ts as string });
    expect(reply.message?.thread_ts).toBe(posted.ts);
    const parent = channel.messages.find((m) => m.ts === posted.ts)!;
    expect(parent).toMatchObject({ reply_count: 1, latest_reply: reply.ts, thread_ts: posted.ts });
    expect(Number(reply.ts)).toBeGreaterThan(Number(posted.ts));

    await web.conversations.mark({ channel: channel.id, ts: posted.ts as string });
    expect(channel.lastRead[fake.member.id]).toBe(posted.ts);
    expect((await web.conversations.info({ channel: channel.id })).channel?.last_read).toBe(posted.ts);

    const notIn = fake.workspace.conversations.find((c) => c.kind === 'public_channel' && !c.is_archived && !c.members.includes(fake.member.id))!;
    expect((await slackError(web.chat.postMessage({ channel: notIn.id, text: 'x' }))).error).toBe('not_in_channel');
    expect((await slackError(web.chat.postMessage({ channel: 'C0NOPE', text: 'x' }))).error).toBe('channel_not_found');
    expect((await slackError(web.conversations.mark({ channel: channel.id, ts: 'yesterday' }))).error).toBe('invalid_timestamp');
  });

  it('keeps a deleted thread parent as a tombstone until its replies are gone', async () => {
    const channel = memberConversations().find((c) => c.kind === 'public_channel' && !c.is_archived)!;
    const parent = fake.post(fake.member.id, channel.id, 'parent');
    const r1 = fake.post(fake.member.id, channel.id, 'r1', { thread_ts: parent.ts });
    fake.edit(channel.id, r1.ts, 'r1 edited');
    expect(channel.replies[parent.ts]?.[0]).toMatchObject({ text: 'r1 edited', edited: { user: fake.member.id } });
    fake.remove(channel.id, parent.ts);
    const tomb = (await web.conversations.history({ channel: channel.id, limit: 1 })).messages?.[0];
    expect(tomb).toMatchObject({ ts: parent.ts, subtype: 'tombstone', reply_count: 1 });
    fake.remove(channel.id, r1.ts);
    expect(channel.messages.some((m) => m.ts === parent.ts)).toBe(false);
    expect(channel.replies[parent.ts]).toBeUndefined();
  });

  it('enforces scopes and token types', async () => {
    const narrow = client(fake, fake.issueToken(fake.member.id, ['channels:read']));
    const general = fake.workspace.conversations.find((c) => c.is_general)!;
    const data = await slackError(narrow.conversations.history({ channel: general.id }));
    expect(data).toMatchObject({ error: 'missing_scope', needed: 'channels:history', provided: 'channels:read' });
    expect((await slackError(narrow.users.conversations({ types: 'im' }))).error).toBe('missing_scope');
    expect((await slackError(web.apps.connections.open())).error).toBe('not_allowed_token_type');
    expect((await slackError(client(fake, 'xoxp-not-a-token').auth.test())).error).toBe('invalid_auth');
    expect((await slackError(client(fake).auth.test())).error).toBe('not_authed');
    // The token may also come as a param, and requests may be GETs.
    const viaGet = await (await fetch(`${fake.apiUrl}auth.test?token=${encodeURIComponent(token)}`)).json();
    expect(viaGet).toMatchObject({ ok: true, user_id: fake.member.id });
    const general2 = fake.workspace.conversations.find((c) => c.is_general)!;
    const viaJson = await fetch(`${fake.apiUrl}conversations.history`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ channel: general2.id, limit: 2 }),
    });
    expect(await viaJson.json()).toMatchObject({ ok: true, has_more: true, messages: [{ ts: general2.messages.at(-1)!.ts }, {}] });
    const badJson = await fetch(`${fake.apiUrl}auth.test`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(await badJson.json()).toMatchObject({ ok: false, error: 'invalid_json' });
  });

  it('answers 429 with Retry-After, and WebClient waits that long before retrying', async () => {
    fake.rateLimit('users.info', 1, 1);
    const started = Date.now();
    const result = await web.users.info({ user: fake.member.id });
    expect(result.ok).toBe(true);
    const attempts = fake.calls.filter((c) => c.method === 'users.info' && c.at >= started);
    expect(attempts.map((c) => c.status)).toEqual([429, 200]);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(1000);

    // rejectRateLimitedCalls surfaces the delay; no (or a non-numeric) Retry-After cannot be retried.
    fake.rateLimit('auth.test', 1, 30);
    const rejecting = client(fake, token, { rejectRateLimitedCalls: true });
    await expect(rejecting.auth.test()).rejects.toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 30 });
    fake.rateLimit('auth.test', 1, 'soon');
    await expect(web.auth.test()).rejects.toThrow(/Retry header did not contain a valid timeout/);
    fake.rateLimit('auth.test', 1, null);
    await expect(web.auth.test()).rejects.toThrow(/Retry header/);
    expect((await web.auth.test()).ok).toBe(true);
  });

  it('revokes tokens', async () => {
    const t = fake.issueToken();
    const w = client(fake, t);
    expect((await w.auth.test()).ok).toBe(true);
    fake.revoke(t);
    expect((await slackError(w.auth.test())).error).toBe('token_revoked');

    const t2 = fake.issueToken();
    expect(await client(fake, t2).auth.revoke()).toMatchObject({ ok: true, revoked: true });
    expect((await slackError(client(fake, t2).users.list({}))).error).toBe('token_revoked');
  });
});

describe('fake Slack: token rotation', () => {
  let fake: FakeSlack;
  beforeAll(async () => {
    fake = await startFakeSlack({ size: 'small', tokenRotation: true, accessTokenTtlSeconds: 600 });
  });
  afterAll(() => fake.close());

  it('issues expiring user tokens with a refresh token, and refreshes them', async () => {
    const installed = await install(fake);
    const user = installed.authed_user!;
    expect(user.access_token).toMatch(/^xoxe\.xoxp-1-/);
    expect(user.refresh_token).toMatch(/^xoxe-1-/);
    expect(user.expires_in).toBe(600);
    expect((await client(fake, user.access_token).auth.test()).user_id).toBe(fake.member.id);

    fake.expireToken(user.access_token!);
    expect((await slackError(client(fake, user.access_token).auth.test())).error).toBe('token_expired');

    const web = client(fake);
    const refreshed = await web.oauth.v2.access({
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: user.refresh_token,
    });
    expect(refreshed).toMatchObject({ ok: true, token_type: 'user', expires_in: 600, team: { id: fake.team.id } });
    expect(refreshed.access_token).toMatch(/^xoxe\.xoxp-1-/);
    expect(refreshed.refresh_token).not.toBe(user.refresh_token);
    expect((await client(fake, refreshed.access_token).auth.test()).user_id).toBe(fake.member.id);

    // The used refresh token is spent.
    expect(
      (
        await slackError(
          web.oauth.v2.access({ client_id: fake.clientId, client_secret: fake.clientSecret, grant_type: 'refresh_token', refresh_token: user.refresh_token }),
        )
      ).error,
    ).toBe('invalid_refresh_token');
  });
});

describe('fake Slack: Socket Mode', () => {
  let fake: FakeSlack;
  let socket: SocketModeClient | undefined;
  type Received = {
    type: string;
    envelope_id: string;
    retry_num?: number;
    body: { event_id: string; event: Record<string, unknown>; authorizations: Array<{ user_id: string }> };
  };
  const received: Received[] = [];
  let autoAck = true;

  beforeAll(async () => {
    fake = await startFakeSlack({ size: 'small', seed: 3, ackTimeoutMs: 300 });
  });
  afterEach(async () => {
    await socket?.disconnect();
    socket = undefined;
    received.length = 0;
    autoAck = true;
  });
  afterAll(() => fake.close());

  async function connect(options: { clientPingTimeout?: number } = {}): Promise<SocketModeClient> {
    const client = new SocketModeClient({ appToken: fake.appToken, logLevel: LogLevel.ERROR, clientOptions: { slackApiUrl: fake.apiUrl }, ...options });
    client.on('slack_event', async (args: { ack: () => Promise<void>; envelope_id: string; type: string; body: Received['body']; retry_num?: number }) => {
      received.push({ type: args.type, envelope_id: args.envelope_id, retry_num: args.retry_num, body: args.body });
      if (autoAck) await args.ack();
    });
    await client.start();
    socket = client;
    return client;
  }
  const humans = () => fake.workspace.users.filter((u) => !u.is_bot && !u.deleted && u.id !== 'USLACKBOT');
  /** A public channel of the member's that some other human is not in. */
  const channelOfMember = () =>
    fake.workspace.conversations.find(
      (c) => c.kind === 'public_channel' && c.members.includes(fake.member.id) && humans().some((u) => !c.members.includes(u.id)),
    )!;
  const other = () => channelOfMember().members.find((id) => id !== fake.member.id)!;

  it('opens a connection with the app token, says hello, and delivers a posted message as events_api', async () => {
    let hello: unknown;
    const client = new SocketModeClient({ appToken: fake.appToken, logLevel: LogLevel.ERROR, clientOptions: { slackApiUrl: fake.apiUrl } });
    client.on('authenticated', (r: { url: string }) => void (hello = r.url));
    client.on('slack_event', async (args: { ack: () => Promise<void>; envelope_id: string; type: string; body: Received['body']; retry_num?: number }) => {
      received.push({ type: args.type, envelope_id: args.envelope_id, retry_num: args.retry_num, body: args.body });
      await args.ack();
    });
    const messages: Array<{ event: Record<string, unknown> }> = [];
    client.on('message', (args: { event: Record<string, unknown> }) => void messages.push(args));
    await client.start();
    socket = client;
    expect(hello).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=/);
    expect(fake.sockets()).toBe(1);
    expect(fake.calls.at(-1)).toMatchObject({ method: 'apps.connections.open', token: fake.appToken, status: 200 });

    const channel = channelOfMember();
    const { ts } = fake.post(other(), channel.id, `hi <@${fake.member.id}>`);
    const got = await waitFor(() => received.find((r) => r.body.event.ts === ts));
    expect(got.type).toBe('events_api');
    expect(got.retry_num).toBe(0);
    expect(got.body).toMatchObject({
      type: 'event_callback',
      team_id: fake.team.id,
      api_app_id: fake.workspace.appId,
      event: { type: 'message', channel: channel.id, user: other(), text: `hi <@${fake.member.id}>`, ts, event_ts: ts, channel_type: 'channel' },
      authorizations: [{ user_id: fake.member.id, team_id: fake.team.id, is_bot: false }],
    });
    expect(got.body.event_id).toMatch(/^Ev/);
    expect(messages.map((m) => m.event.ts)).toContain(ts);
    await waitFor(() => fake.acked.includes(got.envelope_id));
    expect(channel.messages.at(-1)?.ts).toBe(ts);

    // A user token cannot open a connection.
    await expect(new WebClient(fake.issueToken(), { slackApiUrl: fake.apiUrl }).apps.connections.open()).rejects.toMatchObject({
      data: { error: 'not_allowed_token_type' },
    });
  });

  it('speaks the raw protocol: single-use ticket, hello, envelope, {envelope_id} ack', async () => {
    const open = async () => (await new WebClient(fake.appToken, { slackApiUrl: fake.apiUrl }).apps.connections.open()).url as string;
    const url = await open();
    const ws = new WebSocket(url);
    const frames: Array<Record<string, unknown>> = [];
    ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as Record<string, unknown>));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const hello = await waitFor(() => frames[0]);
    expect(hello).toMatchObject({
      type: 'hello',
      num_connections: 1,
      connection_info: { app_id: fake.workspace.appId },
      debug_info: { host: expect.any(String) },
    });
    // The ticket is spent.
    const reuse = new WebSocket(url);
    await expect(new Promise((resolve, reject) => reuse.once('open', resolve).once('error', reject))).rejects.toThrow(/401/);
    const second = new WebSocket(await open());
    const secondFrames: Array<Record<string, unknown>> = [];
    second.on('message', (data) => secondFrames.push(JSON.parse(data.toString()) as Record<string, unknown>));
    await waitFor(() => secondFrames[0]);
    expect(secondFrames[0]).toMatchObject({ type: 'hello', num_connections: 2 });
    second.close();
    await waitFor(() => fake.sockets() === 1);

    const { ts } = fake.post(other(), channelOfMember().id, 'raw');
    const envelope = await waitFor(() => frames.find((f) => f.type === 'events_api'));
    expect(envelope).toMatchObject({
      envelope_id: expect.any(String),
      type: 'events_api',
      accepts_response_payload: false,
      retry_attempt: 0,
      retry_reason: '',
      payload: { type: 'event_callback', event: { ts } },
    });
    ws.send(JSON.stringify({ envelope_id: envelope.envelope_id }));
    await waitFor(() => fake.acked.includes(envelope.envelope_id as string));
    ws.close();
    await waitFor(() => fake.sockets() === 0);
  });

  it('sends a duplicated event twice with the same event_id', async () => {
    await connect();
    fake.duplicateNextEvent();
    const { ts } = fake.post(other(), channelOfMember().id, 'twice');
    const copies = await waitFor(() => {
      const r = received.filter((x) => x.body.event.ts === ts);
      return r.length === 2 && r;
    });
    expect(copies[0]!.body.event_id).toBe(copies[1]!.body.event_id);
    expect(copies.map((c) => c.retry_num)).toEqual([0, 1]);
    await waitFor(() => copies.every((c) => fake.acked.includes(c.envelope_id)));
  });

  it('re-sends an unacknowledged envelope once', async () => {
    await connect();
    autoAck = false;
    const { ts } = fake.post(other(), channelOfMember().id, 'are you there?');
    const copies = await waitFor(() => {
      const r = received.filter((x) => x.body.event.ts === ts);
      return r.length === 2 && r;
    });
    expect(copies[1]!.body.event_id).toBe(copies[0]!.body.event_id);
    expect(copies[1]!.retry_num).toBe(1);
    await new Promise((r) => setTimeout(r, 700));
    expect(received.filter((x) => x.body.event.ts === ts)).toHaveLength(2);
  });

  it('delivers replies, edits, deletions, read marks and membership changes', async () => {
    await connect();
    const channel = channelOfMember();
    const who = other();
    const parent = fake.post(who, channel.id, 'thread start');
    const reply = fake.post(fake.member.id, channel.id, 'a reply', { thread_ts: parent.ts });
    fake.edit(channel.id, parent.ts, 'thread start (edited)');
    fake.remove(channel.id, reply.ts);
    const web = client(fake, fake.issueToken());
    await web.conversations.mark({ channel: channel.id, ts: parent.ts });
    const outsider = humans().find((u) => !channel.members.includes(u.id))!;
    fake.join(outsider.id, channel.id);
    fake.leave(outsider.id, channel.id);
    const im = fake.workspace.conversations.find((c) => c.kind === 'im' && c.members.includes(fake.member.id) && c.user !== 'USLACKBOT')!;
    await web.conversations.mark({ channel: im.id, ts: im.messages.at(-1)!.ts });

    const events = () => received.map((r) => r.body.event);
    await waitFor(() => events().some((e) => e.type === 'im_marked'));
    const find = (pred: (e: Record<string, unknown>) => boolean) => events().find(pred);
    expect(find((e) => e.ts === reply.ts)).toMatchObject({ type: 'message', thread_ts: parent.ts, parent_user_id: who, user: fake.member.id });
    expect(find((e) => e.subtype === 'message_changed')).toMatchObject({
      channel: channel.id,
      hidden: true,
      message: { ts: parent.ts, text: 'thread start (edited)', edited: {} },
      previous_message: { text: 'thread start' },
    });
    expect(find((e) => e.subtype === 'message_deleted')).toMatchObject({ channel: channel.id, deleted_ts: reply.ts, previous_message: { text: 'a reply' } });
    expect(find((e) => e.type === 'channel_marked')).toMatchObject({ channel: channel.id, ts: parent.ts });
    expect(find((e) => e.type === 'member_joined_channel')).toMatchObject({ user: outsider.id, channel: channel.id, channel_type: 'C' });
    expect(find((e) => e.subtype === 'channel_join')).toMatchObject({ user: outsider.id, text: `<@${outsider.id}> has joined the channel` });
    expect(find((e) => e.type === 'member_left_channel')).toMatchObject({ user: outsider.id, channel: channel.id });
    expect(find((e) => e.subtype === 'channel_leave')).toMatchObject({ user: outsider.id });
    expect(find((e) => e.type === 'im_marked')).toMatchObject({ channel: im.id, unread_count: 0 });
    expect(channel.messages.find((m) => m.ts === parent.ts)?.reply_count).toBeUndefined();
    expect(channel.members).not.toContain(outsider.id);

    // Nothing for a conversation without an authorized user in it.
    const elsewhere = fake.workspace.conversations.find((c) => c.kind === 'private_channel' && !c.members.includes(fake.member.id))!;
    const before = received.length;
    fake.post(elsewhere.members[0]!, elsewhere.id, 'private');
    await new Promise((r) => setTimeout(r, 200));
    expect(received.length).toBe(before);
  });

  it('holds events while no connection is open, and reconnects after a disconnect message', async () => {
    const { ts } = fake.post(other(), channelOfMember().id, 'while away');
    expect(fake.sockets()).toBe(0);
    const client = await connect({ clientPingTimeout: 300 });
    await waitFor(() => received.find((r) => r.body.event.ts === ts));

    let reconnected = false;
    client.on('connected', () => void (reconnected = true));
    fake.sendDisconnect('refresh_requested');
    await waitFor(() => reconnected, 5000);
    expect(fake.sockets()).toBe(1);
    const again = fake.post(other(), channelOfMember().id, 'after reconnect');
    await waitFor(() => received.find((r) => r.body.event.ts === again.ts));
  });
});

/** A message as the Web API answers it (the fields these tests read). */
type Msg = Record<string, Json>;
const BOT_PROFILE_REQUIRED = ['id', 'deleted', 'name', 'updated', 'app_id', 'icons', 'team_id'];
const SUBTEAM_REQUIRED = [
  'id',
  'team_id',
  'is_usergroup',
  'is_subteam',
  'name',
  'description',
  'handle',
  'is_external',
  'date_create',
  'date_update',
  'date_delete',
  'auto_type',
  'auto_provision',
  'enterprise_subteam_id',
  'created_by',
  'updated_by',
  'deleted_by',
  'prefs',
];
const PROFILE_SHORT_REQUIRED = ['avatar_hash', 'image_72', 'first_name', 'real_name', 'display_name', 'team', 'name', 'is_restricted', 'is_ultra_restricted'];

describe('fake Slack: a real workspace (app posts, bots, Slack Connect, user groups, emoji)', () => {
  let fake: FakeSlack;
  let web: WebClient;
  let extras: FakeExtras;
  beforeAll(async () => {
    fake = await startFakeSlack({ size: 'small', seed: 11 });
    web = client(fake, fake.issueToken());
    extras = fake.workspace.extras!;
  });
  afterAll(() => fake.close());

  const history = async (channel: string): Promise<Msg[]> => {
    const out: Msg[] = [];
    for await (const page of web.paginate('conversations.history', { channel, limit: 200 })) out.push(...((page as Paged).messages as Msg[]));
    return out;
  };
  const allUsers = async () => {
    const ids: string[] = [];
    for await (const page of web.paginate('users.list', { limit: 200 })) ids.push(...((page as Paged).members as Array<{ id: string }>).map((u) => u.id));
    return ids;
  };

  it('places every labelled app post, as Slack stores it, in its channel; some are unread', async () => {
    expect(APP_POSTS.length).toBeGreaterThanOrEqual(40);
    expect(extras.appPosts.map((p) => p.id).sort()).toEqual(APP_POSTS.map((p) => p.id).sort());
    expect(extras.appPosts.some((p) => p.unread)).toBe(true);
    expect(extras.appPosts.some((p) => !p.unread)).toBe(true);
    const alerts = await history(extras.alerts);
    const deploys = await history(extras.deploys);
    const stored = [...alerts, ...deploys, ...(await history(extras.teamUpdates))];
    for (const key of Object.keys(extras.appIms)) stored.push(...(await history(extras.appIms[key]!)));
    stored.push(...(await history(extras.slackbotIm)));
    for (const p of extras.appPosts) {
      const m = stored.find((x) => x.ts === p.ts);
      expect(m, p.id).toBeDefined();
      const fixture = APP_POSTS.find((x) => x.id === p.id)!.message as Msg;
      // The same shape, with the placeholders swapped for this team's ids.
      expect(
        Object.keys(m!)
          .filter((k) => !['thread_ts', 'reply_count', 'reply_users_count', 'reply_users', 'latest_reply', 'is_locked', 'subscribed', 'reactions'].includes(k))
          .sort(),
      ).toEqual(Object.keys(fixture).sort());
      expect(JSON.stringify(m)).not.toMatch(/FIX|fixture-host/);
      // The member's read mark agrees with `unread`.
      const c = fake.workspace.conversations.find((x) => x.id === p.channel)!;
      expect(m!.ts > c.lastRead[fake.member.id]!, p.id).toBe(p.unread);
    }
    // App bot users: no subtype, user + bot_id + app_id + a full bot_profile. Webhooks: bot_message, bot_id + username, no user, no bot_profile.
    const appUserPosts = stored.filter((m) => m.bot_profile);
    const webhookPosts = stored.filter((m) => m.subtype === 'bot_message');
    expect(appUserPosts.length).toBeGreaterThan(15);
    expect(webhookPosts.length).toBeGreaterThan(10);
    for (const m of appUserPosts) {
      expect(m.subtype).toBeUndefined();
      expect(m).toMatchObject({
        type: 'message',
        user: expect.stringMatching(/^U/),
        bot_id: m.bot_profile.id,
        app_id: m.bot_profile.app_id,
        team: fake.team.id,
      });
      for (const k of BOT_PROFILE_REQUIRED) expect(m.bot_profile, k).toHaveProperty(k);
      expect(m.bot_profile.team_id).toBe(fake.team.id);
      expect(Object.keys(m.bot_profile.icons).sort()).toEqual(['image_36', 'image_48', 'image_72']);
    }
    for (const m of webhookPosts) {
      expect(m.user).toBeUndefined();
      expect(m.bot_profile).toBeUndefined();
      expect(m.bot_id).toMatch(/^B/);
      expect(typeof m.username).toBe('string');
    }
    // The layouts are mixed: blocks only, attachments only with empty text, attachments holding blocks, both.
    expect(stored.some((m) => m.blocks && !m.attachments)).toBe(true);
    expect(stored.some((m) => m.attachments && !m.blocks && m.text === '')).toBe(true);
    expect(stored.some((m) => m.attachments?.some((a: Msg) => a.blocks))).toBe(true);
    expect(stored.some((m) => m.attachments && m.blocks)).toBe(true);
    for (const type of ['header', 'section', 'context', 'actions', 'rich_text', 'divider'])
      expect(
        stored.some((m) => JSON.stringify(m.blocks ?? []).includes(`"type":"${type}"`)),
        type,
      ).toBe(true);
    const legacy = stored.flatMap((m) => (m.attachments ?? []) as Msg[]).filter((a) => !a.blocks);
    for (const k of ['color', 'pretext', 'author_name', 'title', 'title_link', 'text', 'fields', 'footer', 'ts', 'fallback'])
      expect(
        legacy.some((a) => a[k] !== undefined),
        k,
      ).toBe(true);
  });

  it('answers bots.info for app bots (with their user) and webhook bots (bots.info only), and bot_not_found', async () => {
    const inList = new Set(await allUsers());
    const botIdsInMessages = new Set(
      fake.workspace.conversations
        .flatMap((c) => [...c.messages, ...Object.values(c.replies).flat()])
        .map((m) => m.bot_id)
        .filter((b): b is string => typeof b === 'string'),
    );
    expect(botIdsInMessages.size).toBeGreaterThan(10);
    for (const id of botIdsInMessages) {
      const { bot } = (await web.bots.info({ bot: id })) as unknown as { bot: Msg };
      for (const k of ['id', 'deleted', 'name', 'updated', 'app_id', 'icons']) expect(bot, k).toHaveProperty(k);
      expect(Object.keys(bot.icons).sort()).toEqual(['image_36', 'image_48', 'image_72']);
      if (extras.webhookBotIds.includes(id)) expect(bot.user_id).toBeUndefined();
      if (bot.user_id) {
        expect(inList.has(bot.user_id)).toBe(true);
        const { user } = (await web.users.info({ user: bot.user_id })) as unknown as { user: Msg };
        expect(user).toMatchObject({ is_bot: true, profile: { bot_id: id } });
      }
    }
    expect(extras.webhookBotIds.length).toBeGreaterThan(3);
    for (const id of extras.webhookBotIds) expect(botIdsInMessages.has(id) || fake.workspace.bots.some((b) => b.id === id)).toBe(true);
    const { bot } = (await web.bots.info({ bot: extras.botIds.pagerduty! })) as unknown as { bot: Msg };
    expect(bot).toMatchObject({ name: 'PagerDuty', user_id: extras.botUserIds.pagerduty, deleted: false });
    expect(fake.workspace.bots.some((b) => b.deleted)).toBe(true);
    const icon = await fetch(bot.icons.image_48);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
    expect((await slackError(web.bots.info({ bot: 'BNOPE000000' }))).error).toBe('bot_not_found');
    expect((await slackError(web.bots.info({}))).error).toBe('bot_not_found');
    const noUsers = client(fake, fake.issueToken(fake.member.id, ['channels:read']));
    expect(await slackError(noUsers.bots.info({ bot: extras.botIds.pagerduty! }))).toMatchObject({ error: 'missing_scope', needed: 'users:read' });
  });

  it('knows the Slack Connect person only through users.info, with their own team; their messages carry user_team and user_profile', async () => {
    const ext = extras.externalUserId;
    expect(await allUsers()).not.toContain(ext);
    const { user } = (await web.users.info({ user: ext })) as unknown as { user: Msg };
    expect(user).toMatchObject({ id: ext, team_id: extras.externalTeam.id, profile: { team: extras.externalTeam.id }, deleted: false, is_bot: false });
    expect(extras.externalTeam.id).not.toBe(fake.team.id);
    expect((await fetch(user.profile.image_72)).status).toBe(200);
    const im = (await web.conversations.info({ channel: extras.externalIm })).channel as Msg;
    expect(im).toMatchObject({ is_im: true, user: ext });
    const shared = (await web.conversations.info({ channel: extras.shared })).channel as Msg;
    expect(shared).toMatchObject({ is_shared: true, is_ext_shared: true, conversation_host_id: fake.team.id });
    expect(shared.shared_team_ids).toEqual([fake.team.id, extras.externalTeam.id]);
    const members = (await web.conversations.members({ channel: extras.shared })).members as string[];
    expect(members).toContain(ext);
    for (const channel of [extras.shared, extras.externalIm]) {
      const fromThem = (await history(channel)).filter((m) => m.user === ext);
      expect(fromThem.length).toBeGreaterThan(0);
      for (const m of fromThem) {
        expect(m).toMatchObject({ user_team: extras.externalTeam.id, source_team: extras.externalTeam.id, team: extras.externalTeam.id });
        for (const k of PROFILE_SHORT_REQUIRED) expect(m.user_profile, k).toHaveProperty(k);
      }
    }
    // The guest and the deactivated poster are in users.list; the deactivated one posted before.
    const guest = (await web.users.info({ user: extras.guestId })).user as Msg;
    const gone = (await web.users.info({ user: extras.deletedUserId })).user as Msg;
    expect(guest.is_restricted).toBe(true);
    expect(gone.deleted).toBe(true);
    const deploys = await history(extras.deploys);
    expect(deploys.find((m) => m.ts === extras.ts.deletedUserPost)?.user).toBe(extras.deletedUserId);
    expect(deploys.find((m) => m.ts === extras.ts.guestPost)?.user).toBe(extras.guestId);
    expect((await slackError(web.users.info({ user: 'UNOPE000000' }))).error).toBe('user_not_found');
    // Another team's Slack Connect person is not this one's.
  });

  it('answers usergroups.list in objs_subteam shape, with include_users, include_count and include_disabled; messages mention groups with and without a label', async () => {
    const base = (await web.usergroups.list()) as unknown as { usergroups: Msg[] };
    expect(base.usergroups.map((g) => g.id).sort()).toEqual([extras.usergroups.oncall, extras.usergroups.sre].sort());
    for (const g of base.usergroups) {
      for (const k of SUBTEAM_REQUIRED) expect(g, k).toHaveProperty(k);
      expect(g.id).toMatch(/^S/);
      expect(g.users).toBeUndefined();
      expect(g.user_count).toBeUndefined();
    }
    const full = (await web.usergroups.list({ include_users: true, include_count: true, include_disabled: true })) as unknown as { usergroups: Msg[] };
    expect(full.usergroups).toHaveLength(3);
    const oncall = full.usergroups.find((g) => g.id === extras.usergroups.oncall)!;
    expect(oncall).toMatchObject({ handle: 'oncall-payments', user_count: 2, date_delete: 0 });
    expect(oncall.users).toContain(fake.member.id);
    expect(full.usergroups.find((g) => g.id === extras.usergroups.disabled)!.date_delete).toBeGreaterThan(0);
    const noScope = client(fake, fake.issueToken(fake.member.id, ['users:read']));
    expect(await slackError(noScope.usergroups.list())).toMatchObject({ error: 'missing_scope', needed: 'usergroups:read' });

    const deploys = await history(extras.deploys);
    expect(deploys.find((m) => m.ts === extras.ts.subteamLabelled)?.text).toContain(`<!subteam^${extras.usergroups.oncall}|@oncall-payments>`);
    expect(deploys.find((m) => m.ts === extras.ts.subteamBare)?.text).toContain(`<!subteam^${extras.usergroups.sre}>`);
    expect(deploys.find((m) => m.ts === extras.ts.subteamLabelled)?.text).toContain(`<!date^${extras.dateEpoch}^{date_short} at {time}|`);
  });

  it('answers emoji.list (images on its own host, an alias) and serves the images; custom emoji appear in text and reactions', async () => {
    const res = (await web.emoji.list()) as unknown as { emoji: Record<string, string>; cache_ts: string };
    expect(res.cache_ts).toMatch(/^\d+\.\d+$/);
    expect(res.emoji.squirrel_ship).toBe('alias:shipit');
    expect(res.emoji.partyparrot).toBe(`${fake.url}/emoji/partyparrot.png`);
    const img = await fetch(res.emoji.partyparrot!);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toContain('image/svg+xml');
    expect((await fetch(`${fake.url}/emoji/nope.png`)).status).toBe(404);
    const noScope = client(fake, fake.issueToken(fake.member.id, ['users:read']));
    expect(await slackError(noScope.emoji.list())).toMatchObject({ error: 'missing_scope', needed: 'emoji:read' });

    const deploys = await history(extras.deploys);
    expect(deploys.find((m) => m.ts === extras.ts.subteamLabelled)?.text).toMatch(/:squirrel_ship: :partyparrot:/);
    const reacted = deploys.find((m) => m.ts === extras.ts.reactions)!;
    const names = (reacted.reactions as Msg[]).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['+1::skin-tone-3', 'partyparrot', 'shipit']));
    for (const r of reacted.reactions as Msg[]) expect(r.count).toBe(r.users.length);
    expect((reacted.reactions as Msg[]).find((r) => r.name === '+1::skin-tone-3')!.users).toContain(fake.member.id);
  });

  it('answers conversations.info for a public channel the member is not in, which messages mention as <#C…> and <#C…|>', async () => {
    const info = (await web.conversations.info({ channel: extras.notJoined })).channel as Msg;
    expect(info).toMatchObject({ id: extras.notJoined, name: 'incident-review', is_channel: true, is_private: false, is_member: false });
    expect(info.last_read).toBeUndefined();
    const deploys = await history(extras.deploys);
    const text = deploys.find((m) => m.ts === extras.ts.channelMentions)!.text as string;
    expect(text).toContain(`<#${extras.notJoined}>`);
    expect(text).toContain(`<#${extras.notJoined}|>`);
    const archived = (await web.conversations.info({ channel: extras.archived })).channel as Msg;
    expect(archived.is_archived).toBe(true);
    const last = (await history(extras.archived))[0]!;
    expect(last).toMatchObject({ subtype: 'channel_archive', text: `<@${extras.colleagueId}> archived the channel` });
  });

  it('holds system subtypes with Slack texts, a tombstoned thread parent, a broadcast reply, a huddle, a /me message and an edit', async () => {
    const alerts = await history(extras.alerts);
    const deploys = await history(extras.deploys);
    const bySub = (list: Msg[], s: string) => list.find((m) => m.subtype === s)!;
    const c = extras.colleagueId;
    expect(bySub(alerts, 'channel_topic')).toMatchObject({
      user: c,
      text: `<@${c}> set the channel topic: Production alerts. Ack within 5 minutes.`,
      topic: 'Production alerts. Ack within 5 minutes.',
    });
    expect(bySub(alerts, 'channel_purpose')).toMatchObject({ user: c, text: expect.stringMatching(new RegExp(`^<@${c}> set the channel purpose: `)) });
    expect(bySub(alerts, 'pinned_item')).toMatchObject({ user: c, item_type: 'C', text: `<@${c}> pinned a message to this channel.` });
    expect(bySub(alerts, 'bot_add')).toMatchObject({
      user: c,
      bot_id: extras.botIds.pagerduty,
      text: expect.stringMatching(/^added an integration to this channel: <https:\/\/.+\|PagerDuty>$/),
    });
    expect(bySub(deploys, 'bot_remove')).toMatchObject({
      bot_id: extras.botIds.jenkins,
      text: expect.stringMatching(/^removed an integration from this channel: /),
    });
    expect(bySub(deploys, 'channel_name')).toMatchObject({
      old_name: 'deploy',
      name: 'deploys',
      text: `<@${c}> has renamed the channel from "deploy" to "deploys"`,
    });
    expect(bySub(deploys, 'channel_unarchive')).toMatchObject({ text: `<@${c}> un-archived the channel` });
    // System messages are read: the member's mark is past them.
    const lastRead = fake.workspace.conversations.find((x) => x.id === extras.alerts)!.lastRead[fake.member.id]!;
    for (const m of alerts.filter((x) => ['channel_topic', 'channel_purpose', 'pinned_item', 'bot_add'].includes(x.subtype)))
      expect(m.ts <= lastRead).toBe(true);

    const tomb = deploys.find((m) => m.ts === extras.ts.tombstone)!;
    expect(tomb).toMatchObject({ subtype: 'tombstone', text: 'This message was deleted.', user: 'USLACKBOT', hidden: true, reply_count: 2 });
    const thread = (await web.conversations.replies({ channel: extras.deploys, ts: extras.ts.tombstone })).messages as Msg[];
    expect(thread.map((m) => m.ts)[0]).toBe(extras.ts.tombstone);
    expect(thread.slice(1).map((m) => m.user)).toContain(fake.member.id);

    const broadcast = deploys.find((m) => m.ts === extras.ts.broadcast)!;
    expect(broadcast).toMatchObject({ subtype: 'thread_broadcast', root: { ts: broadcast.thread_ts, bot_id: extras.botIds.github } });
    const viaBroadcast = (await web.conversations.replies({ channel: extras.deploys, ts: extras.ts.broadcast })).messages as Msg[];
    expect(viaBroadcast[0]!.ts).toBe(broadcast.thread_ts);
    expect(viaBroadcast.map((m) => m.ts)).toContain(extras.ts.broadcast);

    const huddle = deploys.find((m) => m.ts === extras.ts.huddle)!;
    expect(huddle).toMatchObject({ subtype: 'huddle_thread', user: 'USLACKBOT', room: { created_by: c, has_ended: true, channels: [extras.deploys] } });
    expect(huddle.room.participant_history).toContain(fake.member.id);
    expect(deploys.find((m) => m.ts === extras.ts.me)).toMatchObject({ subtype: 'me_message', user: c });
    expect(deploys.find((m) => m.ts === extras.ts.edited)!.edited.ts > extras.ts.edited).toBe(true);
  });

  it('hides each distinctive search word in exactly one place: a block, an attachment field, a file title', async () => {
    expect(TEXT_ONLY_INSIDE.map((t) => t.where).sort()).toEqual(['attachment_field', 'block', 'file_title']);
    const everything = fake.workspace.conversations.flatMap((c) => [...c.messages, ...Object.values(c.replies).flat()]);
    for (const t of extras.textOnlyInside) {
      const holders = everything.filter((m) => JSON.stringify(m).toLowerCase().includes(t.word));
      expect(
        holders.map((m) => m.ts),
        t.word,
      ).toEqual([t.ts]);
      const m = (await history(t.channel)).find((x) => x.ts === t.ts)!;
      expect(m.text.toLowerCase()).not.toContain(t.word);
      if (t.where === 'block') expect(JSON.stringify(m.blocks).toLowerCase()).toContain(t.word);
      if (t.where === 'attachment_field') expect(JSON.stringify(m.attachments.flatMap((a: Msg) => a.fields ?? [])).toLowerCase()).toContain(t.word);
      if (t.where === 'file_title') {
        expect(m).toMatchObject({ subtype: 'file_share', upload: true });
        const file = m.files[0] as Msg;
        expect(file.title.toLowerCase()).toContain(t.word);
        expect(file.name.toLowerCase()).not.toContain(t.word);
        expect(file).toMatchObject({
          id: expect.stringMatching(/^F/),
          mimetype: 'application/pdf',
          filetype: 'pdf',
          pretty_type: 'PDF',
          mode: 'hosted',
          size: expect.any(Number),
        });
        expect(file.permalink).toMatch(/^http/);
      }
    }
  });

  it('keeps the workspace of before with appPosts: false, and the same seed makes the same content', async () => {
    const plain = await startFakeSlack({ size: 'small', seed: 11, now: 1_800_000_000_000, appPosts: false });
    const a = await startFakeSlack({ size: 'small', seed: 11, now: 1_800_000_000_000 });
    const b = await startFakeSlack({ size: 'small', seed: 11, now: 1_800_000_000_000 });
    try {
      expect(plain.workspace.extras).toBeNull();
      expect(plain.workspace.usergroups).toEqual([]);
      expect(plain.workspace.externalUsers).toEqual([]);
      expect(plain.workspace.users.every((u) => a.workspace.users.some((x) => x.id === u.id))).toBe(true);
      // Every conversation of before is unchanged but the Slackbot IM (which gains the reminder).
      const changed = plain.workspace.conversations.filter((c) => JSON.stringify(c) !== JSON.stringify(a.workspace.conversations.find((x) => x.id === c.id)));
      expect(changed.map((c) => c.user)).toEqual(['USLACKBOT']);
      expect(JSON.stringify(a.workspace).replaceAll(a.url, '')).toBe(JSON.stringify(b.workspace).replaceAll(b.url, ''));
    } finally {
      await Promise.all([plain.close(), a.close(), b.close()]);
    }
  });
});

describe('fake Slack: posting app messages and channel lifecycle over Socket Mode', () => {
  let fake: FakeSlack;
  let socket: SocketModeClient | undefined;
  const events: Array<{ event: Msg; user: string }> = [];
  beforeAll(async () => {
    fake = await startFakeSlack({ size: 'small', seed: 13 });
    socket = new SocketModeClient({ appToken: fake.appToken, logLevel: LogLevel.ERROR, clientOptions: { slackApiUrl: fake.apiUrl } });
    socket.on('slack_event', async (args: { ack: () => Promise<void>; body: { event: Msg; authorizations: Array<{ user_id: string }> } }) => {
      events.push({ event: args.body.event, user: args.body.authorizations[0]!.user_id });
      await args.ack();
    });
    await socket.start();
  });
  afterEach(() => {
    events.length = 0;
  });
  afterAll(async () => {
    await socket?.disconnect();
    await fake.close();
  });
  const extras = () => fake.workspace.extras!;
  const humans = () => fake.workspace.users.filter((u) => !u.is_bot && !u.deleted && u.id !== 'USLACKBOT' && !u.is_restricted);
  const eventOf = (pred: (e: Msg) => boolean) => waitFor(() => events.find((x) => pred(x.event)));

  it('postMessage stores any message object and delivers its message event (bot_message, app post, broadcast reply)', async () => {
    const post = APP_POSTS.find((p) => p.id === 'alertmanager_firing_latency')!;
    const webhook: Msg = { ...(post.message as Msg), bot_id: extras().botIds.alertmanager };
    delete webhook.ts;
    const { ts } = fake.postMessage(extras().alerts, webhook);
    const got = await eventOf((e) => e.ts === ts);
    expect(got.event).toMatchObject({
      type: 'message',
      subtype: 'bot_message',
      channel: extras().alerts,
      channel_type: 'channel',
      bot_id: extras().botIds.alertmanager,
      username: 'Alertmanager',
      event_ts: ts,
    });
    expect(got.event.attachments[0].title).toBe('[FIRING:1] HighRequestLatency api (critical)');
    expect(got.event.user).toBeUndefined();
    const web = client(fake, fake.issueToken());
    const stored = ((await web.conversations.history({ channel: extras().alerts, limit: 1 })).messages as Msg[])[0]!;
    expect(stored).toMatchObject({ ts, subtype: 'bot_message', attachments: webhook.attachments });

    const broadcastTs = fake.postMessage(extras().alerts, { subtype: 'thread_broadcast', user: fake.member.id, text: 'acking', thread_ts: ts }).ts;
    const b = await eventOf((e) => e.ts === broadcastTs);
    expect(b.event).toMatchObject({ subtype: 'thread_broadcast', thread_ts: ts, root: { ts } });
    const replies = (await web.conversations.replies({ channel: extras().alerts, ts })).messages as Msg[];
    expect(replies.map((m) => m.ts)).toEqual([ts, broadcastTs]);
    expect(replies[0]).toMatchObject({ reply_count: 1 });
    expect(((await web.conversations.history({ channel: extras().alerts, limit: 1 })).messages as Msg[])[0]!.ts).toBe(broadcastTs);
    expect(() => fake.postMessage(extras().alerts, { user: fake.member.id, text: 'x', thread_ts: '1.000001' })).toThrow();
  });

  it('kick: member_left_channel to the remaining authorized members, channel_left to the removed one', async () => {
    const channel = fake.workspace.conversations.find((c) => c.id === extras().deploys)!;
    const colleague = extras().colleagueId;
    fake.issueToken(colleague);
    fake.kick(fake.member.id, channel.id, colleague);
    const left = await eventOf((e) => e.type === 'member_left_channel');
    expect(left).toMatchObject({ user: colleague, event: { user: fake.member.id, channel: channel.id, channel_type: 'C', team: fake.team.id } });
    const mine = await eventOf((e) => e.type === 'channel_left');
    expect(mine).toMatchObject({ user: fake.member.id, event: { channel: channel.id, actor_id: colleague } });
    expect(channel.members).not.toContain(fake.member.id);
    const web = client(fake, fake.issueToken());
    const mineNow = (await web.users.conversations({ types: 'public_channel', limit: 200 })).channels as Msg[];
    expect(mineNow.map((c) => c.id)).not.toContain(channel.id);

    // addMember brings them back: member_joined_channel, and users.conversations lists it again.
    fake.addMember(fake.member.id, channel.id, colleague);
    const joined = await eventOf((e) => e.type === 'member_joined_channel');
    expect(joined.event).toMatchObject({ user: fake.member.id, channel: channel.id, channel_type: 'C', inviter: colleague });
    const again = (await web.users.conversations({ types: 'public_channel', limit: 200 })).channels as Msg[];
    expect(again.map((c) => c.id)).toContain(channel.id);

    // A private channel: group_left.
    const priv = fake.workspace.conversations.find((c) => c.kind === 'private_channel' && c.members.includes(fake.member.id))!;
    fake.kick(fake.member.id, priv.id);
    expect((await eventOf((e) => e.type === 'group_left')).event).toMatchObject({ channel: priv.id, actor_id: priv.creator });
  });

  it('archive, rename and deleteChannel send Slack events and change the lists', async () => {
    const web = client(fake, fake.issueToken());
    const channel = fake.workspace.conversations.find((c) => c.id === extras().teamUpdates)!;
    fake.rename(channel.id, 'team-news');
    const renamed = await eventOf((e) => e.type === 'channel_rename');
    expect(renamed.event).toMatchObject({
      channel: { id: channel.id, name: 'team-news', name_normalized: 'team-news', created: channel.created, is_channel: true, is_mpim: false },
    });
    const nameMsg = await eventOf((e) => e.subtype === 'channel_name');
    expect(nameMsg.event).toMatchObject({
      old_name: 'team-updates',
      name: 'team-news',
      text: `<@${channel.creator}> has renamed the channel from "team-updates" to "team-news"`,
    });
    expect(nameMsg.event.client_msg_id).toBeUndefined();
    expect(((await web.conversations.info({ channel: channel.id })).channel as Msg).name).toBe('team-news');

    fake.archive(channel.id, fake.member.id);
    const archiveMsg = await eventOf((e) => e.subtype === 'channel_archive');
    expect(archiveMsg.event).toMatchObject({ user: fake.member.id, text: `<@${fake.member.id}> archived the channel` });
    expect((await eventOf((e) => e.type === 'channel_archive')).event).toMatchObject({ channel: channel.id, user: fake.member.id });
    expect(((await web.conversations.info({ channel: channel.id })).channel as Msg).is_archived).toBe(true);
    expect((await slackError(web.chat.postMessage({ channel: channel.id, text: 'x' }))).error).toBe('is_archived');

    const priv =
      fake.workspace.conversations.find((c) => c.kind === 'private_channel' && c.members.includes(fake.member.id)) ??
      fake.workspace.conversations.find((c) => c.kind === 'private_channel')!;
    if (!priv.members.includes(fake.member.id)) fake.addMember(fake.member.id, priv.id);
    fake.rename(priv.id, 'secret-plans');
    expect((await eventOf((e) => e.type === 'group_rename')).event.channel).toMatchObject({ id: priv.id, name: 'secret-plans', is_channel: false });
    fake.archive(priv.id);
    expect((await eventOf((e) => e.type === 'group_archive')).event).toMatchObject({ channel: priv.id, is_moved: 0 });

    fake.deleteChannel(extras().alerts);
    expect((await eventOf((e) => e.type === 'channel_deleted')).event).toMatchObject({ channel: extras().alerts });
    fake.deleteChannel(priv.id, fake.member.id);
    expect((await eventOf((e) => e.type === 'group_deleted')).event).toMatchObject({
      channel: priv.id,
      actor_id: fake.member.id,
      date_deleted: expect.any(Number),
    });
    const listed = [] as string[];
    for await (const page of web.paginate('conversations.list', { types: 'public_channel,private_channel,mpim,im', limit: 200 }))
      listed.push(...((page as Paged).channels as Msg[]).map((c) => c.id));
    expect(listed).not.toContain(extras().alerts);
    expect(listed).not.toContain(priv.id);
    expect((await slackError(web.conversations.info({ channel: extras().alerts }))).error).toBe('channel_not_found');
    expect(humans().length).toBeGreaterThan(2);
  });
});
