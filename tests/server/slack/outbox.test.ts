/** A retried send in Slack mode (issue 14 §3): one client_msg_id, one chat.postMessage, one stored message. */
import { afterEach, describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { signInSlack, startSlackTestServer, until, type SlackTestServer } from '../slackHelpers';
import { selectRow } from '../testStore';

let server: SlackTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a send retried from the outbox in Slack mode', () => {
  it('reaches Slack once and answers the first message to every retry, at once or later', async () => {
    server = await startSlackTestServer();
    const signIn = await signInSlack(server);
    const { fake, store } = server;
    await until(
      async () => (await store.getSyncState<{ lastFullSyncAt: number | null }>(fake.team.id, fake.member.id))?.lastFullSyncAt != null,
      45_000,
      'initial sync',
    );
    const call = api(server.url, signIn.token);
    const me = fake.member.id;
    const channel = fake.workspace.conversations.find((c) => c.kind === 'public_channel' && c.members.includes(me))!;
    const posts = () => fake.calls.filter((c) => c.method === 'chat.postMessage').length;
    const sequence = () => store.currentSequence(fake.team.id, me);
    const [postsBefore, sequenceBefore] = [posts(), await sequence()];

    const body = { channel: channel.id, text: 'queued while offline', client_msg_id: crypto.randomUUID() };
    const [first, racing] = await Promise.all([call('/api/messages/send', { body }), call('/api/messages/send', { body })]);
    const later = await call('/api/messages/send', { body });
    expect([first.status, racing.status, later.status]).toEqual([200, 200, 200]);
    expect(racing.body.ts).toBe(first.body.ts);
    expect(later.body).toEqual(first.body);
    expect(posts()).toBe(postsBefore + 1);
    expect(await selectRow(store, `SELECT count(*) AS n FROM messages WHERE text = ?`, [body.text])).toEqual({ n: 1 });
    // The send's event settles the member's pending copy once. Slack's live echo may land before the send's answer
    // (then it tells of the message first, without our client_msg_id): at most one more event, never one per retry.
    const events = await store.eventsAfter(fake.team.id, me, sequenceBefore);
    const ours = events.filter((e) => (e.data as { message?: { ts?: string; client_msg_id?: string } }).message?.client_msg_id === body.client_msg_id);
    expect(ours).toHaveLength(1);
    // Other news may land meanwhile (the member's read state, a sync): only the events of this message count.
    expect(events.filter((e) => (e.data as { message?: { ts?: string } }).message?.ts === first.body.ts).length).toBeLessThanOrEqual(2);
  });
});
