/**
 * Without SLACK_APP_TOKEN, live events come from polling: an incremental sync every
 * SIFT_SLACK_POLL_SECONDS (here a tenth of a second), whose new messages reach the member's
 * live stream as Socket Mode's events would, with no Socket Mode connection at all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openStream, type StreamReader } from '../helpers';
import { signInSlack, startSlackTestServer, until, type SlackTestServer } from '../slackHelpers';
import type { LiveEvent, MessageUpdateData } from '../../../src/model/types';
import { selectRow } from '../testStore';

let server: SlackTestServer | undefined;
let stream: StreamReader | undefined;
afterEach(async () => {
  stream?.close();
  stream = undefined;
  await server?.close();
  server = undefined;
});

const update = (events: LiveEvent[], ts: string, action: string) =>
  events.find((e) => e.type === 'message_update' && (e.data as MessageUpdateData).action === action && (e.data as MessageUpdateData).message?.ts === ts)
    ?.data as MessageUpdateData | undefined;

describe('Slack without Socket Mode: polling', () => {
  it("brings a message posted on Slack to the member's stream through incremental syncs alone", async () => {
    server = await startSlackTestServer({ pollSeconds: 0.1 });
    const s = server;
    const { fake } = s;
    const me = fake.member.id;
    const signIn = await signInSlack(s);
    await until(async () => (await s.store.getSyncState<{ lastFullSyncAt: number | null }>(fake.team.id, me))?.lastFullSyncAt != null, 45_000, 'initial sync');
    stream = await openStream(s.url, signIn.token);
    const channel = fake.workspace.conversations.find((c) => c.kind === 'public_channel' && c.members.includes(me) && c.members.length > 2)!;
    const other = channel.members.find((m) => m !== me)!;

    const since = fake.calls.length;
    const news = fake.post(other, channel.id, 'news by polling');
    await stream.until((events) => update(events, news.ts, 'new_message') !== undefined, 5_000);
    expect(update(stream.events, news.ts, 'new_message')).toMatchObject({
      conversation_id: channel.id,
      message: { text: 'news by polling', user: other },
      conversation: { id: channel.id, latest_message: { ts: news.ts } },
    });
    expect(update(stream.events, news.ts, 'new_message')!.unread_count).toBeGreaterThan(0);
    // It came by an incremental conversations.history (with `oldest`), announced once.
    const history = fake.calls.slice(since).filter((c) => c.method === 'conversations.history' && c.params.channel === channel.id);
    expect(history.length).toBeGreaterThan(0);
    expect(history.every((c) => c.params.oldest !== undefined && c.params.oldest < news.ts)).toBe(true);

    // A reply in a thread the member takes part in comes the same way (conversations.replies with `oldest`).
    const { conversations: threads } = await s.store.listConversations(fake.team.id, me, { type: 'thread' });
    const thread = threads[0]!;
    const parentChannel = fake.workspace.conversations.find((c) => c.id === thread.parent_conversation_id)!;
    const replier = parentChannel.members.find((m) => m !== me)!;
    const reply = fake.post(replier, parentChannel.id, 'a reply by polling', { thread_ts: thread.parent_message!.ts });
    await stream.until((events) => update(events, reply.ts, 'thread_new_message') !== undefined, 5_000);
    expect(update(stream.events, reply.ts, 'thread_new_message')).toMatchObject({ conversation_id: thread.id, thread_ts: thread.parent_message!.ts });
    expect(
      fake.calls.filter((c) => c.method === 'conversations.replies' && c.params.ts === thread.parent_message!.ts && c.params.oldest).length,
    ).toBeGreaterThan(0);

    // A first reply to an older message of the member's (no thread yet): the next poll re-reads
    // the channel's newest messages, finds the new thread and brings its reply.
    const mine = fake.post(me, channel.id, 'my plan for the polling rollout');
    await stream.until((events) => update(events, mine.ts, 'new_message') !== undefined, 5_000);
    const firstReply = fake.post(other, channel.id, 'first reply, by polling', { thread_ts: mine.ts });
    await until(async () => (await s.store.getMessage(fake.team.id, `${channel.id}:${mine.ts}`, firstReply.ts)) !== null, 5_000, 'the first reply stored');
    expect((await s.store.getConversation(fake.team.id, me, `${channel.id}:${mine.ts}`))!.unread_count).toBe(1);
    await stream.until((events) => events.some((e) => e.type === 'message_update' && (e.data as MessageUpdateData).message?.ts === firstReply.ts), 5_000);

    // A channel the member joins on Slack: found by the next poll, announced by its newest message only (which brings the conversation).
    const joined = fake.workspace.conversations.find((c) => c.kind === 'public_channel' && !c.members.includes(me) && !c.is_archived)!;
    fake.join(me, joined.id);
    const joinMessage = joined.messages.at(-1)!;
    await stream.until((events) => update(events, joinMessage.ts, 'new_message') !== undefined, 5_000);
    expect(update(stream.events, joinMessage.ts, 'new_message')).toMatchObject({
      conversation_id: joined.id,
      conversation: { id: joined.id, name: joined.name },
    });
    expect((await s.store.conversationRecord(fake.team.id, joined.id))!.member_ids).toContain(me);
    expect((await s.store.listMessages(fake.team.id, joined.id, 1000)).length).toBe(joined.messages.length);
    expect(joined.messages.length).toBeGreaterThan(1);
    expect(stream.events.filter((e) => e.type === 'message_update' && (e.data as MessageUpdateData).conversation_id === joined.id)).toHaveLength(1);

    // Several polls later, each message was announced once and stored once.
    const polls = fake.calls.filter((c) => c.method === 'users.conversations').length;
    await until(() => fake.calls.filter((c) => c.method === 'users.conversations').length >= polls + 2, 5_000, 'two more polls');
    expect(stream.events.filter((e) => e.type === 'message_update' && (e.data as MessageUpdateData).message?.ts === news.ts)).toHaveLength(1);
    expect(await selectRow(s.store, `SELECT count(*) AS n FROM messages WHERE ts = ?`, [news.ts])).toEqual({ n: 1 });
    // No Socket Mode at all.
    expect(fake.sockets()).toBe(0);
    expect(fake.calls.filter((c) => c.method === 'apps.connections.open')).toHaveLength(0);
  });

  it('does not poll when the period is 0', async () => {
    server = await startSlackTestServer({ pollSeconds: 0 });
    const s = server;
    await signInSlack(s);
    await until(
      async () => (await s.store.getSyncState<{ lastFullSyncAt: number | null }>(s.fake.team.id, s.fake.member.id))?.lastFullSyncAt != null,
      45_000,
      'initial sync',
    );
    const after = s.fake.calls.length;
    await new Promise((r) => setTimeout(r, 400));
    expect(s.fake.calls.slice(after)).toEqual([]);
  });
});
