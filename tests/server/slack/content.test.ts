/**
 * A real company's Slack, read faithfully (issue 11), against the fake Slack's workspace in Slack's
 * own shapes: messages stored as Slack sent them with their derived text; previews, unread counts
 * and search over that text; bots, Slack Connect people and mentioned channels named through one
 * lookup each; and live posts mapped as a sync maps them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { signInSlack, startSlackTestServer, until, type SlackTestServer } from '../slackHelpers';
import type { Conversation, Message } from '../../../src/model/types';
import { isQuietSubtype } from '../../../src/model/slack';
import { derivedText } from '../../../src/model/slackText';
import { APP_POSTS } from '../../fixtures/slackAppPosts';

let server: SlackTestServer;
afterEach(async () => {
  await server?.close();
});

async function signedIn(options: Parameters<typeof startSlackTestServer>[0] = {}) {
  server = await startSlackTestServer(options);
  const signIn = await signInSlack(server);
  await until(
    async () => (await server.store.getSyncState<{ lastFullSyncAt: number | null }>(server.fake.team.id, server.fake.member.id))?.lastFullSyncAt != null,
    45_000,
    'initial sync',
  );
  return api(server.url, signIn.token);
}

const extras = () => server.fake.workspace.extras!;
const callsOf = (method: string, param?: [string, string]) =>
  server.fake.calls.filter((c) => c.method === method && (!param || c.params[param[0]] === param[1])).length;

async function conversation(call: ReturnType<typeof api>, id: string): Promise<Conversation> {
  const res = await call(`/api/conversations/${encodeURIComponent(id)}/threads`);
  expect(res.status).toBe(200);
  return res.body.conversation as Conversation;
}

describe('Slack content, as Slack sends it', () => {
  it('keeps a webhook post as Slack sent it, with its derived text, named by bots.info', async () => {
    const call = await signedIn();
    const alerts = await conversation(call, extras().alerts);
    const placed = extras().appPosts.find((p) => p.id === 'statuspage_major_outage')!;
    const stored = alerts.messages.find((m) => m.ts === placed.ts)!;
    const sent = server.fake.workspace.conversations.find((c) => c.id === extras().alerts)!.messages.find((m) => m.ts === placed.ts)! as unknown as Message;
    // As Slack sent it: subtype, attachments and the posting name, byte for byte.
    expect(stored.subtype).toBe('bot_message');
    expect(stored.attachments).toEqual(sent.attachments);
    expect(stored.username).toBe(sent.username);
    expect(stored.text).toBe(sent.text);
    // The derived text reads the attachment.
    expect(stored.resolved_text).toBe(derivedText(sent));
    expect(stored.resolved_text).toContain('Major outage: elevated API errors for card payments');
    // The author is the bot, named by bots.info (the post has no bot_profile and no user).
    const botId = sent.bot_id!;
    expect(stored.user).toBe(botId);
    expect(alerts.members_data[botId]).toMatchObject({ real_name: 'Statuspage' });
  });

  it('an app bot user posts as its user, named by its bot_profile; nothing is "Unknown"', async () => {
    const call = await signedIn();
    const alerts = await conversation(call, extras().alerts);
    for (const m of alerts.messages.filter((m) => m.bot_id)) {
      expect(m.user, `author of ${m.ts}`).toBeTruthy();
      expect(alerts.members_data[m.user!]?.real_name, `name of ${m.user}`).toBeTruthy();
    }
    const placed = extras().appPosts.find((p) => p.id === 'pagerduty_triggered')!;
    const stored = alerts.messages.find((m) => m.ts === placed.ts)!;
    expect(stored.user).toBe(extras().botUserIds.pagerduty);
    expect(stored.bot_profile?.name).toBe('PagerDuty');
  });

  it('previews read the derived text, never a system line; system lines never count as unread', async () => {
    await signedIn();
    const { conversations } = await server.store.listConversations(server.fake.team.id, server.fake.member.id);
    const byId = new Map(conversations.map((c) => [c.id, c]));
    for (const c of server.fake.workspace.conversations.filter((c) => c.members.includes(server.fake.member.id) && !c.is_archived)) {
      const readable = c.messages.filter((m) => !isQuietSubtype(m.subtype));
      const newest = readable.at(-1);
      const summary = byId.get(c.id)!;
      expect(summary, c.id).toBeDefined();
      expect(summary.latest_message?.text ?? '', `preview of ${c.name || c.id}`).toBe(newest ? derivedText(newest as unknown as Message) : '');
      const lastRead = c.lastRead[server.fake.member.id] ?? '0';
      const unread = c.messages.filter((m) => m.ts > lastRead && m.user !== server.fake.member.id && !isQuietSubtype(m.subtype)).length;
      expect(summary.unread_count, `unread of ${c.name || c.id}`).toBe(unread);
    }
    // #alerts opens with system lines (topic, purpose, a pinned message, an integration added).
    const alerts = server.fake.workspace.conversations.find((c) => c.id === extras().alerts)!;
    expect(alerts.messages.some((m) => isQuietSubtype(m.subtype))).toBe(true);
    expect(byId.get(extras().alerts)!.latest_message!.text.length).toBeGreaterThan(0);
  });

  it('search finds words that exist only inside a block, an attachment field and a file title, and bot posts', async () => {
    const call = await signedIn();
    for (const { word, channel, ts } of extras().textOnlyInside) {
      const res = await call(`/api/search?q=${word}&type=messages`);
      expect(res.status).toBe(200);
      const hits = res.body.results.messages as Array<{ conversation_id: string; ts: string }>;
      expect(
        hits.map((h) => `${h.conversation_id}/${h.ts}`),
        word,
      ).toContain(`${channel}/${ts}`);
    }
    // A hit's channel mention without a label is named in the answer's mentions.
    const mentioning = await call(`/api/search?q=${encodeURIComponent('incident review')}&type=messages`);
    const x = extras();
    if ((mentioning.body.results.messages as Array<{ text: string }>).some((m) => m.text.includes(`<#${x.notJoined}`))) {
      expect(mentioning.body.mentions?.channels?.[x.notJoined]).toBe('incident-review');
    }
    // A webhook bot's post (subtype bot_message) is searchable too.
    const res = await call('/api/search?q=HighRequestLatency&type=messages');
    expect((res.body.results.messages as unknown[]).length).toBeGreaterThan(0);
  });

  it('names Slack Connect people (users.info), bots (bots.info) and channels the member is not in (conversations.info) once per id, then from the cache', async () => {
    const call = await signedIn();
    const x = extras();
    expect(callsOf('users.info', ['user', x.externalUserId])).toBe(1);
    for (const bot of x.webhookBotIds.filter((b) =>
      server.fake.workspace.conversations.some((c) => c.members.includes(server.fake.member.id) && c.messages.some((m) => m.bot_id === b)),
    )) {
      expect(callsOf('bots.info', ['bot', bot]), bot).toBe(1);
    }
    // App bots whose posts carry bot_profile are named by it: no call.
    expect(callsOf('bots.info', ['bot', x.botIds.pagerduty])).toBe(0);
    expect(callsOf('conversations.info', ['channel', x.notJoined])).toBe(1);
    expect(callsOf('usergroups.list')).toBe(1);
    expect(callsOf('emoji.list')).toBe(1);

    // The external person names their DM and their messages.
    const dm = await conversation(call, x.externalIm);
    const external = server.fake.workspace.externalUsers.find((u) => u.id === x.externalUserId)!;
    expect(dm.name).toBe(external.profile.display_name || external.real_name);
    expect(dm.members_data[x.externalUserId]?.real_name).toBe('Noor Haddad');
    // A deactivated account reads '(deactivated)'.
    const deleted = await server.store.getUser(server.fake.team.id, x.deletedUserId);
    expect(deleted?.real_name).toMatch(/ \(deactivated\)$/);

    // Mentions: the channel the member is not in, the user group's handle, custom emoji (an alias followed).
    const deploys = await conversation(call, x.deploys);
    expect(deploys.mentions?.channels?.[x.notJoined]).toBe('incident-review');
    expect(deploys.mentions?.usergroups?.[x.usergroups.oncall]).toBe('oncall-payments');
    const emoji = { ...deploys.mentions?.emoji };
    expect(Object.values(emoji).every((u) => u.startsWith('http://127.0.0.1'))).toBe(true);

    // A second full sync asks again for the workspace's lists, never for the people, bots and channels met.
    const res = await call('/api/conversations/fetch-all');
    expect(res.status).toBe(200);
    expect(callsOf('users.info', ['user', x.externalUserId])).toBe(1);
    expect(callsOf('conversations.info', ['channel', x.notJoined])).toBe(1);
    for (const bot of x.webhookBotIds) expect(callsOf('bots.info', ['bot', bot]), bot).toBeLessThanOrEqual(1);
    expect(callsOf('usergroups.list')).toBe(2);
  });

  it('never names a private channel for the workspace: a mention of one shows its id to whoever is not in it', async () => {
    server = await startSlackTestServer();
    const fake = server.fake;
    const me = fake.member.id;
    // A private channel of the member's that Slack no longer lists for them (archived): the sync may look it up.
    const secret = fake.workspace.conversations.find((c) => c.kind === 'private_channel' && c.members.includes(me))!;
    secret.is_archived = true;
    const general = fake.workspace.conversations.find((c) => c.kind === 'public_channel' && c.members.includes(me) && c.members.length > 2)!;
    const other = general.members.find((m) => m !== me && fake.workspace.users.some((u) => u.id === m && !u.is_bot))!;
    fake.post(other, general.id, `See <#${secret.id}> for the plan`);
    const signIn = await signInSlack(server);
    await until(
      async () => (await server.store.getSyncState<{ lastFullSyncAt: number | null }>(fake.team.id, me))?.lastFullSyncAt != null,
      45_000,
      'initial sync',
    );
    expect(await server.store.sourceNames(fake.team.id, 'channel', [secret.id])).toEqual({});
    const page = await conversation(api(server.url, signIn.token), general.id);
    expect(page.mentions?.channels?.[secret.id]).toBeUndefined();
  });

  it('a bot post and an external person arriving live look as they do after a full sync', async () => {
    const call = await signedIn({ socketMode: true });
    const x = extras();
    const post = APP_POSTS.find((p) => p.id === 'grafana_alerting_error_rate')!;
    const grafana = x.webhookBotIds.find((b) => server.fake.workspace.bots.find((bot) => bot.id === b)?.name === 'Grafana')!;
    const message = { ...(post.message as Record<string, unknown>), bot_id: grafana, ts: undefined };
    const { ts } = server.fake.postMessage(x.alerts, message);
    await until(async () => Boolean(await server.store.getMessage(server.fake.team.id, x.alerts, ts)), 5_000, 'the live post');
    const live = await server.store.getMessage(server.fake.team.id, x.alerts, ts);
    const { ts: externalTs } = server.fake.postMessage(x.externalIm, {
      type: 'message',
      user: x.externalUserId,
      text: 'Can you confirm the <#' + x.notJoined + '|> link?',
      user_team: x.externalTeam.id,
    });
    await until(async () => Boolean(await server.store.getMessage(server.fake.team.id, x.externalIm, externalTs)), 5_000, 'the external post');
    const liveExternal = await server.store.getMessage(server.fake.team.id, x.externalIm, externalTs);

    // A full sync maps the same messages: nothing changes.
    const before = await server.store.eventsAfter(server.fake.team.id, server.fake.member.id, 0);
    expect((await call('/api/conversations/fetch-all')).status).toBe(200);
    expect(await server.store.getMessage(server.fake.team.id, x.alerts, ts)).toEqual(live);
    expect(await server.store.getMessage(server.fake.team.id, x.externalIm, externalTs)).toEqual(liveExternal);
    const after = await server.store.eventsAfter(server.fake.team.id, server.fake.member.id, before.at(-1)?.sequence ?? 0);
    expect(after.filter((e) => e.type === 'conversation_update' && (e.data as { reason?: string }).reason === 'message_changed')).toEqual([]);
    expect(live?.user).toBe(grafana);
    expect(live?.resolved_text).toBe(derivedText(message as unknown as Message));
    expect(live?.resolved_text).toContain('[FIRING:1]');
    expect(liveExternal?.user_team).toBe(x.externalTeam.id);
  });
});
