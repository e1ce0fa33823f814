/** A full Slack sync reports its progress to the member as sync_progress events; an incremental one does not. */
import { afterEach, describe, expect, it } from 'vitest';
import { api, openStream, type StreamReader } from '../helpers';
import { signInSlack, startSlackTestServer, until, type SlackTestServer } from '../slackHelpers';

let server: SlackTestServer | undefined;
let stream: StreamReader | undefined;
afterEach(async () => {
  stream?.close();
  stream = undefined;
  await server?.close();
  server = undefined;
});

interface Progress {
  phase: 'users' | 'conversations';
  done: number;
  total: number;
}

describe('Slack sync progress', () => {
  it('reports users, then each conversation done of the total, before fetch_complete; the initial sync too', async () => {
    server = await startSlackTestServer({ pageLimit: 2 });
    const s = server;
    const { fake } = s;
    const me = fake.member.id;
    const signIn = await signInSlack(s);
    await until(async () => (await s.store.getSyncState<{ lastFullSyncAt: number | null }>(fake.team.id, me))?.lastFullSyncAt != null, 45_000, 'initial sync');
    const total = fake.workspace.conversations.filter((c) => c.members.includes(me) && !c.is_archived).length;
    const expected: Progress[] = [
      { phase: 'users', done: fake.workspace.users.length, total: fake.workspace.users.length },
      ...Array.from({ length: total + 1 }, (_, done) => ({ phase: 'conversations' as const, done, total })),
    ];

    // The initial sync's progress is in the member's log (a stream from sequence 0 replays it), then its fetch_complete.
    stream = await openStream(s.url, signIn.token, 0);
    await stream.until((events) => events.some((e) => e.type === 'fetch_complete'));
    const replayed = stream.events.filter((e) => e.type === 'sync_progress' || e.type === 'fetch_complete');
    expect(replayed.map((e) => (e.type === 'sync_progress' ? e.data : e.type))).toEqual([...expected, 'fetch_complete']);
    stream.close();

    // fetch-all: the same, live.
    stream = await openStream(s.url, signIn.token);
    const res = await api(s.url, signIn.token)('/api/conversations/fetch-all');
    expect(res.status).toBe(200);
    await stream.until((events) => events.some((e) => e.type === 'fetch_complete'));
    const live = stream.events.filter((e) => e.type === 'sync_progress' || e.type === 'fetch_complete');
    expect(live.map((e) => (e.type === 'sync_progress' ? e.data : e.type))).toEqual([...expected, 'fetch_complete']);
    expect(live.every((e) => typeof e.sequence === 'number')).toBe(true);

    // An incremental sync reports nothing.
    const before = stream.events.length;
    expect((await api(s.url, signIn.token)('/api/conversations/fetch')).status).toBe(200);
    const channel = fake.workspace.conversations.find((c) => c.kind === 'public_channel' && c.members.includes(me) && c.members.length > 1)!;
    fake.post(
      channel.members.find((m) => m !== me)!,
      channel.id,
      'news found by an incremental sync',
    );
    expect((await api(s.url, signIn.token)('/api/conversations/fetch')).status).toBe(200);
    await stream.until((events) => events.slice(before).some((e) => e.type === 'message_update'));
    expect(stream.events.slice(before).filter((e) => e.type === 'sync_progress')).toEqual([]);
  });
});
