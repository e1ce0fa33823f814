/**
 * Issue 12 §3, over real HTTP with the local provider: a catch-up proposal carries an id; the
 * confirm button sends that id, and the server carries out the proposal only when the id is the
 * session's pending proposal (a stale id answers 409, another member's session 404, and nothing
 * is marked read). The answer to a yes says what it marked and where each conversation was read
 * up to before, so the page can undo it (Cmd/Ctrl+Z) through mark-unread.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, signIn, startTestServer, type TestServer } from '../helpers';

const WS = 'T0ACMEC01';
const ME = 'U0SIFTME1';

interface Proposal {
  id: string;
  description: string;
  conversation_ids: string[];
}
interface ChatReply {
  message: string;
  error?: string;
  proposal?: Proposal;
  marked?: Array<{ conversation_id: string; last_read: string }>;
}

let server: TestServer;
let call: ReturnType<typeof api>;

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, (await signIn(server.url)).token);
  expect((await call('/api/features/ai-sort/classify-unread', { method: 'POST' })).status).toBe(200);
});
afterEach(() => server.close());

const fyiUnread = async () => (await server.store.unreadConversations(WS, ME)).filter((c) => c.ai_category === 'fyi');

async function startSession(): Promise<string> {
  const start = await call<{ sessionId: string }>('/api/features/voice-catchup/start', { method: 'POST' });
  expect(start.status).toBe(200);
  return start.body.sessionId;
}

async function propose(sessionId: string): Promise<Proposal> {
  const res = await call<ChatReply>('/api/features/voice-catchup/chat', { body: { sessionId, message: 'clear all unread FYI messages' } });
  expect(res.status).toBe(200);
  expect(res.body.proposal).toBeDefined();
  return res.body.proposal!;
}

const press = (sessionId: string, proposalId: string, confirm: boolean) =>
  call<ChatReply>('/api/features/voice-catchup/chat', { body: { sessionId, proposalId, confirm } });

describe('a catch-up proposal has an id, and the confirm button names it', () => {
  it('the proposal comes with a random id, what it does, and the conversations it covers', async () => {
    const sessionId = await startSession();
    const fyi = await fyiUnread();
    const proposal = await propose(sessionId);
    expect(proposal.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(proposal.description).toBe(`Mark ${fyi.length} FYI conversations as read`);
    expect([...proposal.conversation_ids].sort()).toEqual(fyi.map((c) => c.id).sort());
    // It stays open while the member talks about something else; a second proposal is a new one.
    const meanwhile = await call<ChatReply>('/api/features/voice-catchup/chat', { body: { sessionId, message: 'what is urgent?' } });
    expect(meanwhile.body.proposal).toEqual(proposal);
    expect((await propose(sessionId)).id).not.toBe(proposal.id);
    // A reload of the session shows the pending proposal, so its buttons come back.
    const restored = await call<{ session: { pending: Proposal | null } }>(`/api/features/voice-catchup/session/${sessionId}`);
    expect(restored.body.session.pending?.conversation_ids).toEqual(proposal.conversation_ids);
  });

  it('the button with the pending proposal’s id marks them read, and the answer says where each was read up to before', async () => {
    const sessionId = await startSession();
    const before = new Map((await server.store.unreadConversations(WS, ME)).map((c) => [c.id, c]));
    const proposal = await propose(sessionId);
    const res = await press(sessionId, proposal.id, true);
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/^Done\. I marked \d+ conversations as read\./);
    expect(await fyiUnread()).toEqual([]);
    expect(res.body.marked?.map((m) => m.conversation_id).sort()).toEqual([...proposal.conversation_ids].sort());
    for (const m of res.body.marked!) expect(m.last_read).toBe(before.get(m.conversation_id)!.last_read || '0000000000.000000');
    // The same id again: it is no longer pending.
    const again = await press(sessionId, proposal.id, true);
    expect(again.status).toBe(409);
    const history = await call<{ session: { history: Array<{ role: string; content: string }> } }>(`/api/features/voice-catchup/session/${sessionId}`);
    expect(history.body.session.history.filter((t) => t.role === 'user').map((t) => t.content)).toContain('Mark these read');
  });

  it('undo: mark-unread back to each previous read position restores every conversation’s unread count', async () => {
    const sessionId = await startSession();
    const before = await fyiUnread();
    const res = await press(sessionId, (await propose(sessionId)).id, true);
    for (const m of res.body.marked!) {
      expect((await call(`/api/conversations/${encodeURIComponent(m.conversation_id)}/mark-unread`, { body: { timestamp: m.last_read } })).status).toBe(200);
    }
    const after = await fyiUnread();
    expect(after.map((c) => [c.id, c.unread_count]).sort()).toEqual(before.map((c) => [c.id, c.unread_count]).sort());
  });

  it('a typed yes says what it marked too', async () => {
    const sessionId = await startSession();
    const proposal = await propose(sessionId);
    const res = await call<ChatReply>('/api/features/voice-catchup/chat', { body: { sessionId, message: 'yes' } });
    expect(res.body.marked?.map((m) => m.conversation_id).sort()).toEqual([...proposal.conversation_ids].sort());
  });

  it("'Not now' leaves them unread and ends the proposal", async () => {
    const sessionId = await startSession();
    const before = (await fyiUnread()).length;
    const proposal = await propose(sessionId);
    const res = await press(sessionId, proposal.id, false);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('OK, I left them unread.');
    expect(res.body.marked).toBeUndefined();
    expect(res.body.proposal).toBeUndefined();
    expect((await fyiUnread()).length).toBe(before);
    expect((await press(sessionId, proposal.id, true)).status).toBe(409);
    expect((await fyiUnread()).length).toBe(before);
  });
});

describe('a stale or foreign proposal id marks nothing', () => {
  it('a replaced proposal’s id answers 409', async () => {
    const sessionId = await startSession();
    const before = (await fyiUnread()).length;
    const old = await propose(sessionId);
    await propose(sessionId);
    const res = await press(sessionId, old.id, true);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('This proposal is no longer open. Ask again.');
    expect((await fyiUnread()).length).toBe(before);
  });

  it('an id made up, or of another session of the member, answers 409', async () => {
    const first = await startSession();
    const second = await startSession();
    const before = (await fyiUnread()).length;
    const proposal = await propose(first);
    expect((await press(second, proposal.id, true)).status).toBe(409);
    expect((await press(first, '00000000-0000-4000-8000-000000000000', true)).status).toBe(409);
    expect((await fyiUnread()).length).toBe(before);
  });

  it("another member's session answers 404, whatever the id", async () => {
    const sessionId = await startSession();
    const proposal = await propose(sessionId);
    const before = (await fyiUnread()).length;
    const record = await server.store.conversationRecord(WS, proposal.conversation_ids[0]!);
    const other = api(
      server.url,
      (
        await signIn(
          server.url,
          record!.member_ids.find((m) => m !== ME),
        )
      ).token,
    );
    const res = await other<ChatReply>('/api/features/voice-catchup/chat', { body: { sessionId, proposalId: proposal.id, confirm: true } });
    expect(res.status).toBe(404);
    expect((await fyiUnread()).length).toBe(before);
  });

  it('a body with neither a message nor a proposal id answers 400', async () => {
    const sessionId = await startSession();
    expect((await call('/api/features/voice-catchup/chat', { body: { sessionId } })).status).toBe(400);
    expect((await call('/api/features/voice-catchup/chat', { body: { sessionId, proposalId: 'x' } })).status).toBe(400);
  });
});
