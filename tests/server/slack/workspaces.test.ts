/**
 * A member in several Slack workspaces: the fake serves several teams (tokens bound to their
 * team, a workspace switcher on the authorize page, events with their team's id); Sift signs the
 * member in to each in one browser, lists them all, and moves between them without a new sign-in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openStream, type Json, type StreamReader } from '../helpers';
import { signInSlack, startSlackTestServer, until, type SlackTestServer } from '../slackHelpers';
import { startFakeSlack, type FakeSlack, type FakeTeam } from '../../fakes/slackServer';
import type { ConversationSummary, LiveEvent, MessageUpdateData } from '../../../src/model/types';

let server: SlackTestServer | undefined;
let fake: FakeSlack | undefined;
let stream: StreamReader | undefined;
afterEach(async () => {
  stream?.close();
  stream = undefined;
  await server?.close();
  server = undefined;
  await fake?.close();
  fake = undefined;
});

/** Slack's answer to a Web API call with a token, as JSON. */
async function slack(f: FakeSlack, method: string, token: string, params: Record<string, string> = {}) {
  const res = await fetch(`${f.apiUrl}${method}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  return (await res.json()) as Record<string, Json>;
}

const authorizeQuery = (f: FakeSlack, extra: Record<string, string> = {}) =>
  new URLSearchParams({ client_id: f.clientId, user_scope: 'channels:read', redirect_uri: 'http://127.0.0.1:1/cb', state: 's', ...extra });

describe('the fake Slack with several teams', () => {
  it("generates distinct teams with the same person as each one's member, and keeps the first team as before", async () => {
    const single = await startFakeSlack({ size: 'small', seed: 5, now: 1_800_000_000_000 });
    fake = await startFakeSlack({ size: 'small', seed: 5, now: 1_800_000_000_000, teams: 3 });
    try {
      const [a, b, c] = fake.teams as [FakeTeam, FakeTeam, FakeTeam];
      expect(fake.teams).toHaveLength(3);
      expect(fake.team).toBe(a.team);
      expect(fake.workspace).toBe(a.workspace);
      expect(fake.member).toBe(a.member);
      // The first team is the single-team workspace of the same seed.
      expect(JSON.stringify(a.workspace).replaceAll(fake.url, '')).toBe(JSON.stringify(single.workspace).replaceAll(single.url, ''));
      expect(new Set(fake.teams.map((t) => t.team.id)).size).toBe(3);
      expect(new Set(fake.teams.map((t) => t.team.name)).size).toBe(3);
      expect(new Set(fake.teams.map((t) => t.team.domain)).size).toBe(3);
      expect(new Set(fake.teams.map((t) => t.member.id)).size).toBe(3);
      for (const t of [b, c]) {
        expect(t.member).toMatchObject({ real_name: a.member.real_name, name: a.member.name, team_id: t.team.id, profile: { email: a.member.profile.email } });
        expect(t.workspace.users.every((u) => u.team_id === t.team.id)).toBe(true);
        expect(t.workspace.users.filter((u) => u.real_name === a.member.real_name)).toHaveLength(1);
        expect(t.workspace.appId).toBe(a.workspace.appId);
      }
      // Deterministic: the same options make the same teams.
      const again = await startFakeSlack({ size: 'small', seed: 5, now: 1_800_000_000_000, teams: 3 });
      expect(again.teams.map((t) => JSON.stringify(t.workspace).replaceAll(again.url, ''))).toEqual(
        fake.teams.map((t) => JSON.stringify(t.workspace).replaceAll(fake!.url, '')),
      );
      await again.close();
    } finally {
      await single.close();
    }
  });

  it("answers every method from the token's team: another team's channel is not found", async () => {
    fake = await startFakeSlack({ size: 'small', teams: 2 });
    const [a, b] = fake.teams as [FakeTeam, FakeTeam];
    const tokenA = fake.issueToken(a.member.id);
    const tokenB = fake.issueToken(b.member.id);
    expect(await slack(fake, 'auth.test', tokenB)).toMatchObject({ ok: true, team_id: b.team.id, user_id: b.member.id, team: b.team.name });
    const channelB = b.workspace.conversations.find((c) => c.kind === 'public_channel' && c.members.includes(b.member.id))!;
    expect(await slack(fake, 'conversations.info', tokenB, { channel: channelB.id })).toMatchObject({ ok: true, channel: { id: channelB.id } });
    expect(await slack(fake, 'conversations.info', tokenA, { channel: channelB.id })).toMatchObject({ ok: false, error: 'channel_not_found' });
    expect(await slack(fake, 'conversations.history', tokenA, { channel: channelB.id })).toMatchObject({ ok: false, error: 'channel_not_found' });
    expect(await slack(fake, 'chat.postMessage', tokenA, { channel: channelB.id, text: 'wrong team' })).toMatchObject({
      ok: false,
      error: 'channel_not_found',
    });
    const usersB = await slack(fake, 'users.list', tokenB, { limit: '200' });
    expect(usersB.members.map((u: { id: string }) => u.id)).toEqual(b.workspace.users.map((u) => u.id));
    const listA = await slack(fake, 'users.conversations', tokenA, { types: 'public_channel', limit: '200' });
    expect(listA.channels.length).toBeGreaterThan(0);
    expect(
      listA.channels.every(
        (c: { id: string; context_team_id: string }) => c.context_team_id === a.team.id && a.workspace.conversations.some((x) => x.id === c.id),
      ),
    ).toBe(true);
    // The fake records which team each call's token belongs to.
    expect(fake.calls.filter((c) => c.token === tokenA).every((c) => c.team === a.team.id)).toBe(true);
    expect(fake.calls.filter((c) => c.token === tokenB).every((c) => c.team === b.team.id)).toBe(true);
  });

  it('lets the consenting person choose the team on the authorize page; the code and its token are bound to it', async () => {
    fake = await startFakeSlack({ size: 'small', teams: 2 });
    const [a, b] = fake.teams as [FakeTeam, FakeTeam];
    const page = async (extra: Record<string, string> = {}) => (await fetch(`${fake!.authorizeUrl}?${authorizeQuery(fake!, extra)}`)).text();
    const first = await page();
    expect(first).toContain(`<span id="team">${a.team.name}</span>`);
    expect(first).toContain(`<span id="user-id">${a.member.id}</span>`);
    const links = [...first.matchAll(/<a href="([^"]+)" data-team-id="([^"]+)"/g)];
    expect(links.map((m) => m[2])).toEqual([a.team.id, b.team.id]);
    // The switcher's link to B is the same page for team B.
    const chosen = await (await fetch(links[1]![1]!.replace(/&amp;/g, '&'))).text();
    expect(chosen).toContain(`<span id="team">${b.team.name}</span>`);
    expect(chosen).toContain(`<span id="user-id">${b.member.id}</span>`);
    fake.setConsentTeam(b.team.id);
    expect(await page()).toContain(`<span id="team">${b.team.name}</span>`);
    expect(await page({ team: a.team.id })).toContain(`<span id="team">${a.team.name}</span>`);
    // The code of B's page answers B's team and a token of B's member.
    const code = /name="code" value="([^"]+)"/.exec(chosen)![1]!;
    const exchanged = await slack(fake, 'oauth.v2.access', '', {
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
      code,
      redirect_uri: 'http://127.0.0.1:1/cb',
    });
    expect(exchanged).toMatchObject({ ok: true, team: { id: b.team.id, name: b.team.name }, authed_user: { id: b.member.id } });
    expect(await slack(fake, 'auth.test', exchanged.authed_user.access_token)).toMatchObject({ team_id: b.team.id, user_id: b.member.id });
  });
});

/** The cookies of one browser. */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    take(pairs: string) {
      for (const pair of pairs.split('; ').filter(Boolean)) {
        const i = pair.indexOf('=');
        cookies.set(pair.slice(0, i), pair.slice(i + 1));
      }
    },
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
  };
}

/** What the member sees of a team: their conversations that are not archived, with their message counts. */
const visible = (t: FakeTeam) =>
  new Map(t.workspace.conversations.filter((c) => c.members.includes(t.member.id) && !c.is_archived).map((c) => [c.id, c.messages.length]));

const syncedFull = (s: SlackTestServer, t: FakeTeam) => async () =>
  (await s.store.getSyncState<{ lastFullSyncAt: number | null }>(t.team.id, t.member.id))?.lastFullSyncAt != null;

describe('Sift with several Slack workspaces', () => {
  async function signedInToTwo(options: { socketMode?: boolean } = {}) {
    server = await startSlackTestServer({ fake: { size: 'small', teams: 3 }, ...options });
    const s = server;
    if (options.socketMode) await until(() => s.fake.sockets() > 0, 5_000, 'a Socket Mode connection');
    const [a, b, c] = s.fake.teams as [FakeTeam, FakeTeam, FakeTeam];
    const jar = cookieJar();
    const first = await signInSlack(s);
    expect(new URL(first.location, s.url).searchParams.get('workspace')).toBe(a.team.id);
    jar.take(first.cookie);
    await until(syncedFull(s, a), 45_000, 'the first workspace synced');
    // The same browser adds a second workspace to its account ('Add workspace', bound to its session).
    const second = await signInSlack(s, { team: b.team.id, cookie: jar.header(), add: true });
    expect(new URL(second.location, s.url).searchParams.get('workspace')).toBe(b.team.id);
    jar.take(second.cookie);
    await until(syncedFull(s, b), 20_000, 'the second workspace synced');
    const browser = async <T = Json>(path: string, body?: unknown): Promise<{ status: number; body: T }> => {
      const res = await fetch(`${s.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        // As the page's own requests: the browser says they are same-origin.
        headers: { cookie: jar.header(), 'Sec-Fetch-Site': 'same-origin', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
    };
    const conversations = async () => {
      const res = await browser<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data?limit=1000');
      expect(res.status).toBe(200);
      return new Map(res.body.data.conversations.filter((x) => x.type !== 'thread').map((x) => [x.id, x.message_count]));
    };
    return { s, a, b, c, browser, conversations, sessionToken: second.token };
  }

  it('lists every workspace signed in to, switches between them without a new sign-in, and refuses one never signed in to', async () => {
    const { s, a, b, c, browser, conversations } = await signedInToTwo();
    const oauthCalls = () => s.fake.calls.filter((x) => x.method === 'oauth.v2.access').length;
    expect(oauthCalls()).toBe(2);

    const status = await browser('/api/auth/status');
    expect(status.body).toMatchObject({ authenticated: true, workspace: { id: b.team.id, name: b.team.name }, user: { id: b.member.id } });
    expect(status.body.organizations.map((w: { id: string }) => w.id).sort()).toEqual([a.team.id, b.team.id].sort());
    expect(await conversations()).toEqual(visible(b));

    const switched = await browser('/auth/switch-workspace', { workspaceId: a.team.id });
    expect(switched).toMatchObject({ status: 200, body: { success: true, workspace: { id: a.team.id, name: a.team.name } } });
    expect((await browser('/api/auth/status')).body).toMatchObject({ workspace: { id: a.team.id }, user: { id: a.member.id } });
    expect(await conversations()).toEqual(visible(a));
    // None of B's conversations are in A's list, and the other way round.
    expect([...visible(a).keys()].some((id) => visible(b).has(id))).toBe(false);

    // A workspace of the fake the member never signed in to, and one that does not exist: refused, nothing changes.
    for (const workspaceId of [c.team.id, 'T0NOTMINE']) {
      const refused = await browser('/auth/switch-workspace', { workspaceId });
      expect(refused.status).toBe(404);
      expect(refused.body.error).toMatch(/not a member/);
    }
    const after = (await browser('/api/auth/status')).body;
    expect(after).toMatchObject({ workspace: { id: a.team.id }, user: { id: a.member.id } });
    expect(after.organizations).toHaveLength(2);
    expect(await conversations()).toEqual(visible(a));

    // And back to B, still without Slack.
    expect((await browser('/auth/switch-workspace', { workspaceId: b.team.id })).status).toBe(200);
    expect(await conversations()).toEqual(visible(b));
    expect(oauthCalls()).toBe(2);
  });

  it("uses each workspace's token only for that workspace: sync, sending and read marks", async () => {
    const { s, a, b, browser } = await signedInToTwo();
    const tokenA = (await s.source.vault.access(a.team.id, a.member.id))!;
    const tokenB = (await s.source.vault.access(b.team.id, b.member.id))!;
    expect(tokenA).not.toBe(tokenB);

    // The session is in B: sending goes to B's Slack with B's token.
    const channelB = [...visible(b).keys()].find((id) => b.workspace.conversations.find((x) => x.id === id)!.kind === 'public_channel')!;
    expect((await browser('/api/messages/send', { channel: channelB, text: 'hello B' })).status).toBe(200);
    expect(s.fake.calls.filter((x) => x.method === 'chat.postMessage').at(-1)).toMatchObject({ token: tokenB, params: { channel: channelB } });
    expect(b.workspace.conversations.find((x) => x.id === channelB)!.messages.at(-1)!.text).toBe('hello B');

    // Switched to A: a read mark goes to A's Slack with A's token.
    expect((await browser('/auth/switch-workspace', { workspaceId: a.team.id })).status).toBe(200);
    const channelA = [...visible(a).keys()].find((id) => a.workspace.conversations.find((x) => x.id === id)!.kind === 'public_channel')!;
    expect((await browser(`/api/conversations/${channelA}/mark-read`, {})).status).toBe(200);
    expect(s.fake.calls.filter((x) => x.method === 'conversations.mark').at(-1)).toMatchObject({ token: tokenA, params: { channel: channelA } });

    // Every call that named a conversation used the token of that conversation's team, and no call used a token of a team it was not for.
    const teamOfChannel = new Map(s.fake.teams.flatMap((t) => t.workspace.conversations.map((x) => [x.id, t.team.id] as const)));
    const tokenOfTeam = new Map([
      [a.team.id, tokenA],
      [b.team.id, tokenB],
    ]);
    const named = s.fake.calls.filter((x) => x.params.channel && x.token);
    expect(named.length).toBeGreaterThan(10);
    for (const call of named) expect(call.token).toBe(tokenOfTeam.get(teamOfChannel.get(call.params.channel!)!));
    const used = s.fake.calls.filter((x) => x.token);
    expect(new Set(used.map((x) => x.token))).toEqual(new Set([tokenA, tokenB]));
    for (const call of used) expect(call.team).toBe(call.token === tokenA ? a.team.id : b.team.id);
    // Both workspaces were read in full (users.list with each token).
    expect(
      used
        .filter((x) => x.method === 'users.list')
        .map((x) => x.team)
        .sort(),
    ).toEqual([a.team.id, b.team.id].sort());
  });

  it("applies each workspace's Socket Mode events to that workspace", async () => {
    const { s, a, b, sessionToken } = await signedInToTwo({ socketMode: true });
    stream = await openStream(s.url, sessionToken);
    const channelB = b.workspace.conversations.find((x) => x.kind === 'public_channel' && x.members.includes(b.member.id) && x.members.length > 1)!;
    const otherB = channelB.members.find((m) => m !== b.member.id)!;
    const news = s.fake.post(otherB, channelB.id, 'news in B');
    const isNews = (e: LiveEvent) => e.type === 'message_update' && (e.data as MessageUpdateData).message?.ts === news.ts;
    await stream.until((events) => events.some(isNews));
    expect(stream.events.find(isNews)!.data).toMatchObject({
      action: 'new_message',
      conversation_id: channelB.id,
      message: { text: 'news in B', user: otherB },
    });
    expect(await s.store.getMessage(b.team.id, channelB.id, news.ts)).toMatchObject({ text: 'news in B' });

    // One in A: stored in A, and not on the stream of the session in B.
    const channelA = a.workspace.conversations.find((x) => x.kind === 'public_channel' && x.members.includes(a.member.id) && x.members.length > 1)!;
    const otherA = channelA.members.find((m) => m !== a.member.id)!;
    const inA = s.fake.post(otherA, channelA.id, 'news in A');
    await until(async () => (await s.store.getMessage(a.team.id, channelA.id, inA.ts)) !== null, 5_000, 'the message in A stored');
    expect(await s.store.getMessage(b.team.id, channelA.id, inA.ts)).toBeNull();
    expect(stream.events.some((e) => e.type === 'message_update' && (e.data as MessageUpdateData).message?.ts === inA.ts)).toBe(false);
  });
});
