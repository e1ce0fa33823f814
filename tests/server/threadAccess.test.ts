/**
 * Issue 12 §2, written as the attack: a member replies in a thread under a conversation they are
 * not in (another member's DM, a private channel). The reply is refused before anything is stored
 * or reaches the workspace, the thread stays unreadable to them, and the refusal reads the same
 * whether the parent message exists or not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../src/model/types';
import { api, signIn, startTestServer, type TestServer } from './helpers';
import { selectRow } from './testStore';

let server: TestServer;
let member: ReturnType<typeof api>;
const WS = 'T0ACMEC01';

beforeAll(async () => {
  server = await startTestServer();
  member = api(server.url, (await signIn(server.url)).token);
});
afterAll(() => server.close());

/** A conversation of the member's (a DM, a private channel) with a message, and another person of the workspace who is not in it, signed in. */
async function foreign(kind: 'dm' | 'private') {
  const list = (await member<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data')).body.data.conversations;
  const conversation = list.find((c) => (kind === 'dm' ? c.type === 'dm' : c.type === 'channel' && c.is_private) && c.message_count > 0)!;
  const [message] = await server.store.listMessages(WS, conversation.id, 1);
  const users = (await member<{ data: { users: Record<string, { id: string; is_bot?: boolean }> } }>('/api/users/display-data')).body.data.users;
  const outsider = Object.values(users).find((u) => !conversation.member_ids.includes(u.id) && !u.is_bot)!;
  const attacker = api(server.url, (await signIn(server.url, outsider.id)).token);
  return { conversation, ts: message!.ts, attacker, attackerId: outsider.id };
}

const refused = { status: 400, body: { error: 'Message validation failed: Unknown conversation', errors: ['Unknown conversation'] } };

describe('replying in a thread of a conversation the sender is not in', () => {
  it.each([
    ['another member’s DM', 'dm'],
    ['a private channel', 'private'],
  ] as const)('under %s: refused, nothing stored, the thread stays closed', async (_name, kind) => {
    const { conversation, ts, attacker, attackerId } = await foreign(kind);
    const before = await server.store.countMessages(WS);
    const sequence = (await member('/api/sse/stats')).body.currentSequence;
    const res = await attacker('/api/messages/send', { body: { channel: conversation.id, thread_ts: ts, text: 'let me in' } });
    expect({ status: res.status, body: { error: res.body.error, errors: res.body.errors } }).toEqual(refused);
    // The thread id form of the same target is refused too.
    const byId = await attacker('/api/messages/send', { body: { channel: `${conversation.id}:${ts}`, thread_ts: ts, text: 'let me in' } });
    expect(byId.status).toBe(400);
    expect(await server.store.countMessages(WS)).toBe(before);
    expect((await server.store.conversationRecord(WS, `${conversation.id}:${ts}`))?.member_ids ?? []).not.toContain(attackerId);
    expect((await attacker(`/api/conversations/${encodeURIComponent(`${conversation.id}:${ts}`)}/threads`)).status).toBe(404);
    // The member whose conversation it is heard nothing.
    expect((await member('/api/sse/stats')).body.currentSequence).toBe(sequence);
  });

  it('says the same whether the parent message exists or not', async () => {
    const { conversation, ts, attacker } = await foreign('dm');
    const existing = await attacker('/api/messages/send', { body: { channel: conversation.id, thread_ts: ts, text: 'probe' } });
    const missing = await attacker('/api/messages/send', { body: { channel: conversation.id, thread_ts: '1111111111.000100', text: 'probe' } });
    // In a conversation of the member's own, a missing parent reads the same as a forbidden one.
    const mine = (await member<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data')).body.data.conversations.find(
      (c) => c.type === 'dm',
    )!;
    const ownMissing = await member('/api/messages/send', { body: { channel: mine.id, thread_ts: '1111111111.000100', text: 'probe' } });
    for (const res of [existing, missing, ownMissing])
      expect({ status: res.status, body: { error: res.body.error, errors: res.body.errors } }).toEqual(refused);
  });

  it('still replies in a thread of the member’s own conversation, and of a public channel they are not in', async () => {
    const list = (await member<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data')).body.data.conversations;
    const own = list.find((c) => c.type === 'dm' && c.message_count > 0)!;
    const [message] = await server.store.listMessages(WS, own.id, 1);
    const res = await member('/api/messages/send', { body: { channel: own.id, thread_ts: message!.ts, text: 'replying in my own DM' } });
    expect(res.status).toBe(200);
    expect(res.body.channel).toBe(`${own.id}:${message!.ts}`);
    // A public channel is open to every member of the workspace, as in Slack.
    const publicChannel = (await selectRow<{ id: string }>(
      server.store,
      `SELECT id FROM conversations WHERE workspace_id = ? AND type = 'channel' AND is_private = 0 AND member_ids NOT LIKE ? AND message_count > 0 ORDER BY id LIMIT 1`,
      [WS, '%U0SIFTME1%'],
    ))!;
    const [first] = await server.store.listMessages(WS, publicChannel.id, 1);
    const open = await member('/api/messages/send', { body: { channel: publicChannel.id, thread_ts: first!.ts, text: 'a reply in a public channel' } });
    expect(open.status).toBe(200);
  });
});
