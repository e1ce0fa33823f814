/**
 * Access follows Slack (issue 11 §4): a member who leaves or is removed from a channel, or whose
 * channel is archived or deleted, stops seeing it and its messages at once — in the list, its
 * threads, search and AI answers — whether Sift learns it from a sync, a Socket Mode event, or
 * the reconciliation after a reconnection; a channel they are added to appears with its history;
 * a rename shows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { signInSlack, startSlackTestServer, until, type SlackTestServer } from '../slackHelpers';

let server: SlackTestServer;
afterEach(async () => {
  await server?.close();
});

const WORD = 'velociraptorite';

/** Signs in after a colleague wrote WORD in a channel where the member also follows a thread. */
async function setUp(options: Parameters<typeof startSlackTestServer>[0] = {}) {
  server = await startSlackTestServer({ ai: true, ...options });
  const fake = server.fake;
  const me = fake.member.id;
  // A channel of the member's with a thread they take part in.
  const channel = fake.workspace.conversations.find(
    (c) =>
      c.kind !== 'im' &&
      c.kind !== 'mpim' &&
      c.members.includes(me) &&
      c.messages.some((p) => c.replies[p.ts]?.length && (p.user === me || (p.reply_users ?? []).includes(me))),
  )!;
  const colleague = channel.members.find((m) => m !== me && fake.workspace.users.some((u) => u.id === m && !u.is_bot))!;
  fake.post(colleague, channel.id, `The ${WORD} migration plan is in the doc`);
  const signIn = await signInSlack(server);
  await until(
    async () => (await server.store.getSyncState<{ lastFullSyncAt: number | null }>(fake.team.id, me))?.lastFullSyncAt != null,
    45_000,
    'initial sync',
  );
  const call = api(server.url, signIn.token);
  const held = async () => (await server.store.listConversations(fake.team.id, me)).conversations;
  const threads = (await held()).filter((c) => c.parent_conversation_id === channel.id).map((c) => c.id);
  expect(threads.length).toBeGreaterThan(0);
  expect((await call(`/api/search?q=${WORD}&type=messages`)).body.results.messages.length).toBe(1);
  return { fake, me, channel, call, held, threads };
}

/** What the member can still reach of the channel: list rows, its page, its threads, search hits, AI sources. */
async function reach(s: Awaited<ReturnType<typeof setUp>>) {
  const ids = new Set((await s.held()).map((c) => c.id));
  const page = (await s.call(`/api/conversations/${s.channel.id}/threads`)).status;
  const threadPages = await Promise.all(s.threads.map(async (t) => (await s.call(`/api/conversations/${encodeURIComponent(t)}/threads`)).status));
  const hits = (await s.call(`/api/search?q=${WORD}&type=messages`)).body.results.messages.length as number;
  const ask = await s.call('/api/ask', { method: 'POST', body: { question: `What is the ${WORD} migration plan?` } });
  const sources = ((ask.body.sources ?? []) as Array<{ conversation_id?: string; channel_id?: string }>).filter((src) =>
    (src.conversation_id ?? src.channel_id ?? '').startsWith(s.channel.id),
  ).length;
  return {
    listed: ids.has(s.channel.id),
    threadsListed: s.threads.filter((t) => ids.has(t)).length,
    page,
    threadPages,
    hits,
    sources,
    answer: String(ask.body.answer ?? ''),
  };
}

describe('access follows Slack', () => {
  it('before anything changes, the member reaches the channel everywhere (the test can see a loss)', async () => {
    const s = await setUp();
    const r = await reach(s);
    expect(r).toMatchObject({ listed: true, threadsListed: s.threads.length, page: 200, hits: 1 });
    expect(r.threadPages.every((status) => status === 200)).toBe(true);
    expect(r.sources).toBeGreaterThan(0);
    expect(r.answer).toContain('migration plan is in the doc');
  });

  it('removed from a channel, an incremental sync (polling) takes it away with its threads, from search and from ask', async () => {
    const s = await setUp();
    s.fake.kick(s.me, s.channel.id);
    const sequence = await server.store.currentSequence(s.fake.team.id, s.me);
    expect((await s.call('/api/conversations/fetch')).status).toBe(200);
    const r = await reach(s);
    expect(r).toMatchObject({ listed: false, threadsListed: 0, page: 404, hits: 0, sources: 0 });
    expect(r.threadPages.every((status) => status === 404)).toBe(true);
    // The answer may repeat the question's words; it never quotes the message.
    expect(r.answer).not.toContain('migration plan is in the doc');
    // The member's open tabs hear it: one removal per conversation lost.
    const events = await server.store.eventsAfter(s.fake.team.id, s.me, sequence);
    const removed = events
      .filter((e) => e.type === 'conversation_update' && (e.data as { removed?: boolean }).removed)
      .map((e) => (e.data as { conversation_id: string }).conversation_id);
    expect(removed.sort()).toEqual([s.channel.id, ...s.threads].sort());
  });

  it('with Socket Mode, channel_left takes it away at once, with no sync', async () => {
    const s = await setUp({ socketMode: true });
    await server.source.idle();
    const syncs = server.fake.calls.filter((c) => c.method === 'users.conversations').length;
    s.fake.kick(s.me, s.channel.id);
    await until(async () => !(await reach(s)).listed, 5_000, 'the channel to go');
    expect(server.fake.calls.filter((c) => c.method === 'users.conversations').length).toBe(syncs);
    expect(await reach(s)).toMatchObject({ threadsListed: 0, page: 404, hits: 0, sources: 0 });
  });

  it.each([['archive'], ['deleteChannel']] as const)('with Socket Mode, a channel %s takes it away', async (action) => {
    const s = await setUp({ socketMode: true });
    await server.source.idle();
    s.fake[action](s.channel.id);
    await until(async () => !(await reach(s)).listed, 5_000, 'the channel to go');
    expect(await reach(s)).toMatchObject({ threadsListed: 0, page: 404, hits: 0 });
  });

  it('a rename shows in the list at once', async () => {
    const s = await setUp({ socketMode: true });
    await server.source.idle();
    s.fake.rename(s.channel.id, 'renamed-by-slack');
    await until(async () => (await s.held()).find((c) => c.id === s.channel.id)?.name === 'renamed-by-slack', 5_000, 'the new name');
    const { body } = await s.call(`/api/search?q=renamed-by&type=conversations`);
    expect(body.results.conversations.map((c: { id: string }) => c.id)).toContain(s.channel.id);
  });

  it('added to a channel Sift never held, the member gets it with its history', async () => {
    const s = await setUp({ socketMode: true });
    await server.source.idle();
    const target = s.fake.workspace.extras!.notJoined;
    expect((await s.held()).some((c) => c.id === target)).toBe(false);
    s.fake.addMember(s.me, target);
    await until(async () => (await s.held()).some((c) => c.id === target), 10_000, 'the new channel');
    const page = await s.call(`/api/conversations/${target}/threads`);
    expect(page.status).toBe(200);
    const history = s.fake.workspace.conversations.find((c) => c.id === target)!.messages;
    expect(page.body.conversation.messages.length).toBe(history.length);
  });

  it('after a reconnection, Sift reconciles with Slack: a removal whose event was missed still takes effect', async () => {
    const s = await setUp({ socketMode: true });
    await server.source.idle();
    // Removed while Sift heard nothing: Slack's state changes, no event is sent.
    s.channel.members = s.channel.members.filter((m) => m !== s.me);
    expect((await reach(s)).listed).toBe(true);
    s.fake.sendDisconnect('refresh_requested');
    // Watched in the store: polling every route would soon meet the rate limits.
    await until(async () => !(await s.held()).some((c) => c.id === s.channel.id), 10_000, 'the reconciliation');
    expect(await reach(s)).toMatchObject({ threadsListed: 0, hits: 0 });
  });
});
