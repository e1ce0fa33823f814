/**
 * Issue 12 §1, written as the attacks: a session that never expires, logout and revoke that leave
 * open streams delivering, revoke that ends only the session it was sent with. Now: 30 days from
 * sign-in and 7 days unused (on the server's clock), revoke ends every session of the member, and
 * their open streams close within a second.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, FIXED_NOW, openStream, signIn, startTestServer, type TestServer } from './helpers';

const DAY = 24 * 60 * 60 * 1000;
let server: TestServer;
let now = FIXED_NOW;

beforeAll(async () => {
  server = await startTestServer({ now: () => now });
});
afterAll(() => server.close());

const status = async (token: string) => (await api(server.url, token)('/api/auth/status')).body.authenticated as boolean;
const within = (ms: number) => new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), ms));

describe('session lifetimes', () => {
  it('ends 30 days after sign-in however busy, and 7 days unused; the expired row is gone', async () => {
    now = FIXED_NOW;
    const { token: busy } = await signIn(server.url);
    const { token: idle } = await signIn(server.url);
    for (let day = 1; day <= 29; day += 2) {
      now = FIXED_NOW + day * DAY;
      expect(await status(busy), `day ${day}`).toBe(true);
    }
    // The idle one was last used on day 0.
    expect(await status(idle)).toBe(false);
    now = FIXED_NOW + 30 * DAY + 1;
    expect(await status(busy)).toBe(false);
    expect((await api(server.url, busy)('/api/conversations/data')).status).toBe(401);
  });

  it('an open stream closes when its session expires', async () => {
    // A server whose sessions last a second and a half.
    const short = await startTestServer({ sessions: { maxAgeMs: 1_500, idleMs: 60_000 } });
    try {
      const { token } = await signIn(short.url);
      const stream = await openStream(short.url, token);
      await stream.until((events) => events.some((e) => e.type === 'connection'));
      expect(await Promise.race([stream.ended.then(() => 'closed' as const), within(3_000)])).toBe('closed');
      expect((await api(short.url, token)('/api/auth/status')).body.authenticated).toBe(false);
    } finally {
      await short.close();
    }
  });
});

describe('logout and revoke', () => {
  it('logout closes the open stream of that session within a second', async () => {
    now = Date.now();
    const { token } = await signIn(server.url);
    const stream = await openStream(server.url, token);
    await stream.until((events) => events.some((e) => e.type === 'connection'));
    expect((await api(server.url, token)('/auth/logout', { body: {} })).status).toBe(200);
    expect(await Promise.race([stream.ended.then(() => 'closed' as const), within(1_000)])).toBe('closed');
    expect(await status(token)).toBe(false);
  });

  it("revoke ends every session of the member, the other device's stream included", async () => {
    now = Date.now();
    const { token: laptop } = await signIn(server.url);
    const { token: phone } = await signIn(server.url);
    const users = (await api(server.url, laptop)<{ data: { users: Record<string, { id: string; is_bot?: boolean }> } }>('/api/users/display-data')).body.data
      .users;
    const other = Object.values(users).find((u) => u.id !== 'U0SIFTME1' && !u.is_bot)!.id;
    const { token: someoneElse } = await signIn(server.url, other);
    const stream = await openStream(server.url, phone);
    await stream.until((events) => events.some((e) => e.type === 'connection'));
    expect((await api(server.url, laptop)('/api/auth/revoke', { body: {} })).status).toBe(200);
    expect(await Promise.race([stream.ended.then(() => 'closed' as const), within(1_000)])).toBe('closed');
    expect(await status(phone)).toBe(false);
    expect(await status(laptop)).toBe(false);
    expect(await status(someoneElse)).toBe(true);
  });
});
