/**
 * The snapshot's first page (issue 14 §4): `includeUsers=referenced` answers only the people its
 * rows name (a DM's person, the faces shown, the last message's author), so the first rows come at
 * once; `includeUsers=true` still answers everyone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_AVATARS_SHOWN } from '../../src/model/constants';
import type { ConversationSummary } from '../../src/model/types';
import { api, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  ({ token } = await signIn(server.url));
});
afterAll(() => server.close());

type Page = { data: { conversations: ConversationSummary[]; users?: Record<string, unknown> }; total?: number };

describe('GET /api/conversations/data?includeUsers=referenced', () => {
  it('answers exactly the people the rows name, fewer than everyone', async () => {
    const page = (await api(server.url, token)<Page>('/api/conversations/data?order=activity&limit=5&includeUsers=referenced')).body;
    const everyone = (await api(server.url, token)<Page>('/api/conversations/data?order=activity&limit=5&includeUsers=true')).body;
    const named = new Set<string>();
    for (const c of page.data.conversations) {
      if (c.dm_user) named.add(c.dm_user);
      for (const id of c.member_ids.slice(0, MEMBER_AVATARS_SHOWN + 1)) named.add(id);
      if (c.latest_message?.user) named.add(c.latest_message.user);
      if (c.parent_message?.user) named.add(c.parent_message.user);
    }
    const known = Object.keys(everyone.data.users!);
    expect(new Set(Object.keys(page.data.users!))).toEqual(new Set([...named].filter((id) => known.includes(id))));
    expect(Object.keys(page.data.users!).length).toBeLessThan(known.length);
    expect(page.total).toBe(everyone.total);
  });

  it('refuses any other value with a clear 400', async () => {
    const res = await api(server.url, token)<{ error: string }>('/api/conversations/data?includeUsers=some');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/includeUsers/);
  });
});
