/** GET /api/search over real HTTP (SPEC §7.5, issue 5 §1). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationSummary, User } from '../../src/model/types';
import { messageScore, textQuery } from '../../src/server/search';
import { fts5Query, tsQuery } from '../../src/server/store/searchRecords';
import { api, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let call: ReturnType<typeof api>;
let conversations: ConversationSummary[];
let users: Record<string, User>;

beforeAll(async () => {
  server = await startTestServer();
  const { token } = await signIn(server.url);
  call = api(server.url, token);
  const data = (await call('/api/conversations/data')).body.data;
  conversations = data.conversations;
  users = data.users;
});

afterAll(() => server.close());

const search = (query: string) => call(`/api/search?${query}`);

describe('search: inputs', () => {
  it.each([
    ['', /q/],
    ['q=a', /at least 2/],
    ['q=%20a%20', /at least 2/],
    ['q=deploy&type=files', /type/],
    ['q=deploy&limit=0', /limit/],
    ['q=deploy&limit=101', /limit/],
    ['q=deploy&limit=ten', /limit/],
  ])('refuses %j with 400 {error}', async (query, message) => {
    const res = await search(query);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('needs a session', async () => {
    expect((await api(server.url)('/api/search?q=deploy')).status).toBe(401);
  });

  it('builds full-text queries from words only, the last one a prefix, for FTS5 and for PostgreSQL', () => {
    expect(textQuery('Deploy the API')).toEqual({ words: ['deploy', 'the', 'api'], lastIsPrefix: true });
    expect(fts5Query(textQuery('Deploy the API')!)).toBe('"deploy" "the" "api"*');
    expect(fts5Query(textQuery('"quoted" OR NEAR(x)')!)).toBe('"quoted" "or" "near" "x"*');
    expect(tsQuery(textQuery("Deploy the API's & !(x | y:*)")!)).toBe("'deploy' & 'the' & 'api' & 's' & 'x' & 'y':*");
    expect(tsQuery({ words: ["it's", 'fine'], any: true })).toBe("('it' & 's') | 'fine'");
    expect(fts5Query({ words: ['say "hi"'], any: true })).toBe('"say ""hi"""');
    expect(tsQuery({ words: ['—'] })).toBeNull();
    expect(textQuery('— ?!')).toBeNull();
  });

  it('weighs relevance against age', () => {
    const now = Date.UTC(2026, 10, 20);
    const ts = (daysAgo: number) => `${Math.floor((now - daysAgo * 86_400_000) / 1000)}.000000`;
    expect(messageScore(-2, ts(0), now)).toBeCloseTo(2);
    expect(messageScore(-2, ts(14), now)).toBeCloseTo(1);
    expect(messageScore(-2, ts(1), now)).toBeGreaterThan(messageScore(-2, ts(2), now));
  });
});

describe('search: results', () => {
  it('answers results {conversations, messages, users} and sorting_metrics, with the message fields of SPEC §3', async () => {
    const channel = conversations.find((c) => c.type === 'channel')!;
    await call('/api/messages/send', { body: { channel: channel.id, text: 'Zephyrine rollout checklist is ready' } });
    const { status, body } = await search('q=zephyrine');
    expect(status).toBe(200);
    expect(Object.keys(body.results).sort()).toEqual(['conversations', 'messages', 'users']);
    expect(body.sorting_metrics).toMatchObject({ query: 'zephyrine', type: 'all', limit: 20, took_ms: expect.any(Number) });
    expect(body.results.messages[0]).toMatchObject({
      id: expect.any(String),
      conversation_id: channel.id,
      conversation_name: channel.name,
      conversation_type: 'channel',
      conversation_is_private: channel.is_private,
      text: 'Zephyrine rollout checklist is ready',
      user: { name: 'Alex Morgan' },
    });
  });

  it('finds a message sent a moment ago by another word form (stemming) and by a prefix of its last word', async () => {
    const dm = conversations.find((c) => c.type === 'dm')!;
    await call('/api/messages/send', { body: { channel: dm.id, text: 'We deployed the quokkafix canary' } });
    for (const q of ['deploying quokkafix', 'quokkafix deploys', 'quokkaf', 'canary quok']) {
      const texts = (await search(`q=${encodeURIComponent(q)}&type=messages`)).body.results.messages.map((m: { text: string }) => m.text);
      expect(texts, q).toContain('We deployed the quokkafix canary');
    }
  });

  it('ranks the newer of two equal matches first', async () => {
    const channel = conversations.find((c) => c.type === 'channel' && c.member_ids.length > 2)!;
    const first = await call('/api/messages/send', { body: { channel: channel.id, text: 'blorptastic migration plan' } });
    await new Promise((r) => setTimeout(r, 20));
    const second = await call('/api/messages/send', { body: { channel: channel.id, text: 'blorptastic migration plan' } });
    const ids = (await search('q=blorptastic&type=messages')).body.results.messages.map((m: { ts: string }) => m.ts);
    expect(ids).toEqual([second.body.ts, first.body.ts]);
  });

  it('puts an exact conversation name before names that merely contain it', async () => {
    const channel = conversations.find((c) => c.type === 'channel' && conversations.some((o) => o.id !== c.id && o.name.includes(c.name)));
    const target = channel ?? conversations.find((c) => c.type === 'channel')!;
    const found = (await search(`q=${encodeURIComponent(target.name.toUpperCase())}&type=conversations`)).body.results.conversations as ConversationSummary[];
    expect(found[0]!.id).toBe(target.id);
    expect(found.every((c) => c.name.toLowerCase().includes(target.name.toLowerCase()))).toBe(true);
  });

  it('finds people by name, an exact name first; type=users answers only people', async () => {
    const person = Object.values(users).find((u) => !u.is_bot && u.id !== 'U0SIFTME1')!;
    const { body } = await search(`q=${encodeURIComponent(person.real_name)}&type=users`);
    expect(body.results.users[0].id).toBe(person.id);
    expect(body.results.messages).toEqual([]);
    expect(body.results.conversations).toEqual([]);
    const first = person.real_name.split(' ')[0]!;
    const some = (await search(`q=${encodeURIComponent(first.toLowerCase())}&type=users`)).body.results.users as User[];
    expect(some.every((u) => `${u.real_name} ${u.display_name} ${u.name}`.toLowerCase().includes(first.toLowerCase()))).toBe(true);
  });

  it('never shows another member a DM or private channel they are not in', async () => {
    const dm = conversations.find((c) => c.type === 'dm' && c.dm_user)!;
    await call('/api/messages/send', { body: { channel: dm.id, text: 'secret pelicanword for us only' } });
    const outsider = Object.values(users).find((u) => !dm.member_ids.includes(u.id) && !u.is_bot)!;
    const { token } = await signIn(server.url, outsider.id);
    const theirs = (await api(server.url, token)('/api/search?q=pelicanword')).body.results;
    expect(theirs.messages).toEqual([]);
    expect(theirs.conversations.some((c: ConversationSummary) => c.id === dm.id)).toBe(false);
    expect((await search('q=pelicanword')).body.results.messages).toHaveLength(1);
  });

  it('respects the limit', async () => {
    const { body } = await search('q=the&limit=3');
    expect(body.results.messages.length).toBeLessThanOrEqual(3);
    expect(body.results.conversations.length).toBeLessThanOrEqual(3);
    expect(body.results.users.length).toBeLessThanOrEqual(3);
  });
});
