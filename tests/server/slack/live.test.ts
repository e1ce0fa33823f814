/** Socket Mode, sending, read marks and token rotation against the fake Slack, seen on the member's live stream. */
import { afterEach, describe, expect, it } from 'vitest';
import { api, openStream, type StreamReader } from '../helpers';
import { signInSlack, startSlackTestServer, until, type SlackTestServer } from '../slackHelpers';
import type { LiveEvent, MessageUpdateData } from '../../../src/model/types';
import { selectRow } from '../testStore';

let server: SlackTestServer;
let stream: StreamReader | undefined;
afterEach(async () => {
  stream?.close();
  stream = undefined;
  await server?.close();
});

async function signedIn(options: Parameters<typeof startSlackTestServer>[0] = {}) {
  server = await startSlackTestServer({ socketMode: true, ...options });
  await until(() => server.fake.sockets() > 0, 5_000, 'a Socket Mode connection');
  const signIn = await signInSlack(server);
  await until(
    async () => (await server.store.getSyncState<{ lastFullSyncAt: number | null }>(server.fake.team.id, server.fake.member.id))?.lastFullSyncAt != null,
    45_000,
    'initial sync',
  );
  stream = await openStream(server.url, signIn.token);
  const fake = server.fake;
  const me = fake.member.id;
  const channel = fake.workspace.conversations.find((c) => c.kind === 'public_channel' && c.members.includes(me) && c.members.length > 2)!;
  const other = channel.members.find((m) => m !== me)!;
  return { call: api(server.url, signIn.token), token: signIn.token, fake, me, channel, other };
}

const updates = (events: LiveEvent[], action?: string) =>
  events.filter((e) => e.type === 'message_update' && (!action || (e.data as MessageUpdateData).action === action)).map((e) => e.data as MessageUpdateData);

describe('Slack live events (Socket Mode)', () => {
  it("turns a new message, a thread reply, an edit and a delete into the member's events", async () => {
    const { fake, channel, other, me } = await signedIn();
    const news = fake.post(other, channel.id, 'news from Slack');
    await stream!.until((events) => updates(events, 'new_message').some((d) => d.message?.ts === news.ts));
    const created = updates(stream!.events, 'new_message').find((d) => d.message?.ts === news.ts)!;
    expect(created).toMatchObject({ conversation_id: channel.id, message: { text: 'news from Slack', user: other } });
    expect(created.unread_count).toBeGreaterThan(0);

    // A thread the member started (in Slack's own client): replies arrive as thread_new_message.
    const { ts } = fake.post(me, channel.id, 'hello from Slack');
    await stream!.until((events) => updates(events, 'new_message').some((d) => d.message?.ts === ts));

    const reply = fake.post(other, channel.id, 'a reply in the thread', { thread_ts: ts });
    await stream!.until((events) => updates(events, 'thread_new_message').some((d) => d.message?.ts === reply.ts));
    expect(updates(stream!.events, 'thread_new_message').find((d) => d.message?.ts === reply.ts)).toMatchObject({
      conversation_id: `${channel.id}:${ts}`,
      thread_ts: ts,
    });
    expect((await server.store.getMessage(fake.team.id, channel.id, ts))!.reply_count).toBe(1);

    fake.edit(channel.id, ts, 'hello from Slack (edited)');
    await stream!.until((events) => events.some((e) => e.type === 'conversation_update' && (e.data as { reason?: string }).reason === 'message_changed'));
    expect((await server.store.getMessage(fake.team.id, channel.id, ts))!.text).toBe('hello from Slack (edited)');

    fake.remove(channel.id, reply.ts);
    await stream!.until((events) => events.some((e) => e.type === 'conversation_update' && (e.data as { reason?: string }).reason === 'message_deleted'));
    expect(await server.store.getMessage(fake.team.id, `${channel.id}:${ts}`, reply.ts)).toBeNull();
    // Every envelope was acknowledged.
    await until(() => fake.envelopes.every((e) => fake.acked.includes(e.envelope_id)), 3_000, 'acks');
  });

  it('turns a read mark made on Slack into channel_marked, and members joining and leaving into conversation updates', async () => {
    const { fake, channel, me, other } = await signedIn();
    const { ts } = fake.post(other, channel.id, 'unread until marked');
    await stream!.until((events) => updates(events, 'new_message').some((d) => d.message?.ts === ts));
    // The member reads it in Slack's own client.
    const res = await fetch(`${fake.apiUrl}conversations.mark`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${fake.issueToken(me)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel: channel.id, ts }),
    });
    expect((await res.json()).ok).toBe(true);
    await stream!.until((events) => updates(events, 'channel_marked').some((d) => d.last_read === ts));
    expect(updates(stream!.events, 'channel_marked').find((d) => d.last_read === ts)).toMatchObject({ conversation_id: channel.id, unread_count: 0 });
    expect(await server.store.getConversation(fake.team.id, me, channel.id)).toMatchObject({ last_read: ts, unread_count: 0 });

    fake.leave(other, channel.id);
    await stream!.until((events) => events.some((e) => e.type === 'conversation_update' && (e.data as { reason?: string }).reason === 'member_left'));
    expect((await server.store.conversationRecord(fake.team.id, channel.id))!.member_ids).not.toContain(other);
    fake.join(other, channel.id);
    await stream!.until((events) => events.some((e) => e.type === 'conversation_update' && (e.data as { reason?: string }).reason === 'member_joined'));
    expect((await server.store.conversationRecord(fake.team.id, channel.id))!.member_ids).toContain(other);
  });

  it('applies an event Slack sends twice only once', async () => {
    const { fake, channel, other } = await signedIn();
    fake.duplicateNextEvent();
    const { ts } = fake.post(other, channel.id, 'sent twice by Slack');
    await until(
      () => fake.envelopes.filter((e) => e.event_type === 'message').length >= 2 && fake.envelopes.every((e) => fake.acked.includes(e.envelope_id)),
      5_000,
      'both envelopes acked',
    );
    const sent = fake.envelopes.filter((e) => e.event_type === 'message');
    expect(new Set(sent.map((e) => e.event_id)).size).toBe(1);
    // A later event proves the queue moved past both copies.
    const later = fake.post(other, channel.id, 'a later message');
    await stream!.until((events) => updates(events, 'new_message').some((d) => d.message?.ts === later.ts));
    expect(updates(stream!.events, 'new_message').filter((d) => d.message?.ts === ts)).toHaveLength(1);
    expect(await selectRow(server.store, `SELECT count(*) AS n FROM messages WHERE ts = ?`, [ts])).toEqual({ n: 1 });
    // The second copy was skipped by its event id (not only by the message's ts).
    expect(server.logLines.filter((l) => l.includes('Slack event already processed') && l.includes(sent[0]!.event_id))).toHaveLength(1);
  });
});

describe('sending and marking read through Slack', () => {
  it("sends with chat.postMessage and the member's token, keeps Slack's ts, and the echo is not a second message", async () => {
    const { call, fake, channel, me } = await signedIn();
    const memberToken = (await server.source.vault.access(fake.team.id, me))!;
    const sent = await call('/api/messages/send', { body: { channel: channel.id, text: 'from Sift' } });
    expect(sent.status).toBe(200);
    const post = fake.calls.filter((c) => c.method === 'chat.postMessage');
    expect(post).toHaveLength(1);
    expect(post[0]).toMatchObject({ token: memberToken, params: { channel: channel.id, text: 'from Sift' } });
    const ts = sent.body.ts as string;
    expect(fake.workspace.conversations.find((c) => c.id === channel.id)!.messages.at(-1)!.ts).toBe(ts);
    // The Socket Mode echo arrives and is acknowledged; the message is stored and announced once.
    await until(() => fake.envelopes.length > 0 && fake.envelopes.every((e) => fake.acked.includes(e.envelope_id)), 5_000, 'echo acked');
    await server.source.idle();
    expect(await selectRow(server.store, `SELECT count(*) AS n FROM messages WHERE ts = ?`, [ts])).toEqual({ n: 1 });
    await stream!.until((events) => updates(events, 'new_message').some((d) => d.message?.ts === ts));
    expect(updates(stream!.events, 'new_message').filter((d) => d.message?.ts === ts)).toHaveLength(1);

    // A reply: chat.postMessage with thread_ts.
    const reply = await call('/api/messages/send', { body: { channel: channel.id, text: 'a reply from Sift', thread_ts: ts } });
    expect(reply.status).toBe(200);
    expect(fake.calls.filter((c) => c.method === 'chat.postMessage')[1]!.params).toMatchObject({ channel: channel.id, thread_ts: ts });
    expect(reply.body.message.channel).toBe(`${channel.id}:${ts}`);
  });

  it('tells the sender which send a message answers (client_msg_id), whether the echo came first or not', async () => {
    const { call, fake, channel } = await signedIn();
    const sent = await call('/api/messages/send', { body: { channel: channel.id, text: 'settle my pending copy', client_msg_id: 'pending-1' } });
    expect(sent.status).toBe(200);
    const ts = sent.body.ts as string;
    await until(() => fake.envelopes.length > 0 && fake.envelopes.every((e) => fake.acked.includes(e.envelope_id)), 5_000, 'echo acked');
    await server.source.idle();
    await stream!.until((events) => updates(events, 'new_message').some((d) => d.message?.ts === ts && d.message?.client_msg_id === 'pending-1'));
    expect(await selectRow(server.store, `SELECT count(*) AS n FROM messages WHERE ts = ?`, [ts])).toEqual({ n: 1 });
  });

  it('a Slack error on send answers its text and stores nothing', async () => {
    const { call, fake, channel, me } = await signedIn();
    // The member left the channel on Slack (no event reached Sift).
    const c = fake.workspace.conversations.find((x) => x.id === channel.id)!;
    c.members.splice(c.members.indexOf(me), 1);
    const before = await server.store.countMessages(fake.team.id);
    const sent = await call('/api/messages/send', { body: { channel: channel.id, text: 'will fail' } });
    expect(sent.status).toBe(502);
    expect(sent.body.error).toMatch(/not_in_channel/);
    expect(await server.store.countMessages(fake.team.id)).toBe(before);
  });

  it('marks read with conversations.mark; a Slack error changes nothing locally', async () => {
    const { call, fake, channel, me, other } = await signedIn();
    const { ts } = fake.post(other, channel.id, 'to be read');
    await stream!.until((events) => updates(events, 'new_message').some((d) => d.message?.ts === ts));
    const res = await call(`/api/conversations/${channel.id}/mark-read`, { body: {} });
    expect(res.status).toBe(200);
    expect(fake.calls.filter((c) => c.method === 'conversations.mark').at(-1)!.params).toMatchObject({ channel: channel.id, ts });
    expect(fake.workspace.conversations.find((x) => x.id === channel.id)!.lastRead[me]).toBe(ts);

    const next = fake.post(other, channel.id, 'another one');
    await stream!.until((events) => updates(events, 'new_message').some((d) => d.message?.ts === next.ts));
    const c = fake.workspace.conversations.find((x) => x.id === channel.id)!;
    c.members.splice(c.members.indexOf(me), 1);
    const failed = await call(`/api/conversations/${channel.id}/mark-read`, { body: {} });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatch(/not_in_channel/);
    expect(await server.store.getConversation(fake.team.id, me, channel.id)).toMatchObject({ last_read: ts, unread_count: 1 });
  });
});

describe('token rotation', () => {
  it('refreshes an expired token exactly once when several requests race', async () => {
    const { call, fake, me } = await signedIn({ fake: { size: 'small', tokenRotation: true } });
    const token = (await server.source.vault.access(fake.team.id, me))!;
    expect(token).toMatch(/^xoxe\.xoxp-/);
    fake.expireToken(token);
    const { conversations } = await server.store.listConversations(fake.team.id, me, { type: 'channel' });
    const results = await Promise.all(conversations.slice(0, 4).map((c) => call(`/api/conversations/${c.id}/mark-read`, { body: {} })));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const refreshes = fake.calls.filter((c) => c.method === 'oauth.v2.access' && c.params.grant_type === 'refresh_token');
    expect(refreshes).toHaveLength(1);
    const fresh = (await server.source.vault.access(fake.team.id, me))!;
    expect(fresh).not.toBe(token);
    // Each request was repeated once with the new token.
    expect(fake.calls.filter((c) => c.method === 'conversations.mark' && c.token === fresh)).toHaveLength(4);
    expect(server.logLines.join('\n')).not.toMatch(/xox[a-z][.-]|xapp-/);
  });
});
