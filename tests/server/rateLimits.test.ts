/**
 * Issue 12 §2, rate limits, written as the floods: 60 rapid asks, a sign-in flood from one address, a waitlist
 * flood, search and send floods; each answers 429 with Retry-After and a clear text, to that member or that
 * address only, and lets requests through again once the window has passed. Over real HTTP with the default
 * limits, and over `app.request` with small injected ones (there each request names its connection's address).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, FIXED_NOW, signIn, startTestServer, type TestServer } from './helpers';
import { createApp, type AppConfig } from '../../src/server/app';
import { openTestStore } from './testStore';
import { DemoSource } from '../../src/server/sources/demoSource';
import { createLocalProvider } from '../../src/server/ai/local/provider';
import { addressKey, DEFAULT_RATE_LIMITS, rateLimitsFromEnv, type RateLimitConfig } from '../../src/server/rateLimits';

const TOO_MANY = /^Too many requests\. Try again in \d+ seconds?\.$/;

/** Another member of the signed-in member's workspace (the other side of a DM). */
async function otherMember(url: string, token: string): Promise<string> {
  const list = await api(url, token)<{ data: { conversations: Array<{ type: string; dm_user?: string }> } }>('/api/conversations/data');
  return list.body.data.conversations.find((c) => c.type === 'dm')!.dm_user!;
}

describe('the default limits, over HTTP', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    ({ token } = await signIn(server.url));
  });
  afterAll(() => server.close());

  it('60 rapid asks: the first ones are answered, the rest get 429 with Retry-After; another member still asks', async () => {
    const other = await otherMember(server.url, token);
    const call = api(server.url, token);
    const answers = await Promise.all(Array.from({ length: 60 }, () => call<{ error?: string }>('/api/ask', { body: { question: 'deploy' } })));
    const ok = answers.filter((a) => a.status === 200).length;
    expect(ok).toBe(DEFAULT_RATE_LIMITS.ask.points);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(60 - ok);
    expect(refused[0]!.body.error).toMatch(TOO_MANY);

    const res = await fetch(`${server.url}/api/ask`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{"question":"deploy"}',
    });
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(DEFAULT_RATE_LIMITS.ask.seconds);
    expect(((await res.json()) as { error: string }).error).toBe(`Too many requests. Try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`);

    // The budget is this member's: another member of the same workspace is not slowed down, nor are the member's other calls.
    const { token: otherToken } = await signIn(server.url, other);
    expect((await api(server.url, otherToken)('/api/ask', { body: { question: 'deploy' } })).status).toBe(200);
    expect((await call('/api/auth/status')).status).toBe(200);
  });

  it('a sign-in flood from one address answers 429 once past the budget', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < DEFAULT_RATE_LIMITS.signIn.points + 5; i++) {
      statuses.push((await fetch(`${server.url}/auth/slack`, { redirect: 'manual' })).status);
    }
    // Two sign-ins happened above (beforeAll and the other member).
    expect(statuses.filter((s) => s === 302)).toHaveLength(DEFAULT_RATE_LIMITS.signIn.points - 2);
    const last = await fetch(`${server.url}/auth/slack`, { redirect: 'manual' });
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    // The OAuth callback shares the budget (it is the other half of a sign-in).
    expect((await fetch(`${server.url}/auth/slack/callback?code=x&state=y`, { redirect: 'manual' })).status).toBe(429);
  });
});

/** The app with injected limits, asked through `app.request`, each request from a given connection address. */
async function appWith(rateLimits: RateLimitConfig) {
  const store = await openTestStore();
  const source = new DemoSource({ seed: 42, size: 'small', now: () => FIXED_NOW });
  await source.prepare(store);
  const config: AppConfig = { rateLimits };
  const { app } = createApp({ store, source, clock: { now: () => Date.now() }, config, ai: createLocalProvider({ chunkDelayMs: 0 }) });
  const from = (address: string) => ({
    incoming: { socket: { remoteAddress: address, remotePort: 50_000, remoteFamily: address.includes(':') ? 'IPv6' : 'IPv4' } },
  });
  const request = (path: string, init: { address?: string; token?: string; body?: unknown; method?: string; headers?: Record<string, string> } = {}) =>
    app.request(
      path,
      {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: {
          ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
          ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...init.headers,
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      },
      from(init.address ?? '198.51.100.7'),
    );
  const signInAt = async (address: string, as?: string) => {
    const res = await request(`/auth/slack${as ? `?as=${as}` : ''}`, { address });
    expect(res.status).toBe(302);
    const cookie = res.headers.get('set-cookie') ?? '';
    return /sift_token=([A-Za-z0-9_-]+)/.exec(cookie)![1]!;
  };
  return { app, store, request, signInAt, close: () => store.close() };
}

describe('injected limits', () => {
  it('per address: a sign-in flood from one address does not stop another address', async () => {
    const t = await appWith({ limits: { signIn: { points: 3, seconds: 60 } } });
    for (let i = 0; i < 3; i++) expect((await t.request('/auth/slack', { address: '203.0.113.5' })).status).toBe(302);
    const refused = await t.request('/auth/slack', { address: '203.0.113.5' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: string }).error).toMatch(TOO_MANY);
    expect((await t.request('/auth/slack', { address: '203.0.113.6' })).status).toBe(302);
    await t.close();
  });

  it('X-Forwarded-For is not believed unless the operator says a proxy is in front', async () => {
    const t = await appWith({ limits: { signIn: { points: 1, seconds: 60 } } });
    expect((await t.request('/auth/slack', { address: '203.0.113.5' })).status).toBe(302);
    // A client cannot step out of its budget by writing the header itself.
    expect((await t.request('/auth/slack', { address: '203.0.113.5', headers: { 'X-Forwarded-For': '192.0.2.99' } })).status).toBe(429);
    await t.close();

    const proxied = await appWith({ limits: { signIn: { points: 1, seconds: 60 } }, trustedProxies: 1 });
    const viaProxy = (client: string, forged = '') =>
      proxied.request('/auth/slack', { address: '10.0.0.2', headers: { 'X-Forwarded-For': `${forged}${client}` } });
    expect((await viaProxy('192.0.2.1')).status).toBe(302);
    expect((await viaProxy('192.0.2.1')).status).toBe(429);
    // Behind the proxy, each client has its own budget; a forged left-most entry changes nothing.
    expect((await viaProxy('192.0.2.2')).status).toBe(302);
    expect((await viaProxy('192.0.2.1', '192.0.2.77, ')).status).toBe(429);
    await proxied.close();
  });

  it('per address: the waitlist', async () => {
    const t = await appWith({ limits: { waitlist: { points: 2, seconds: 60 } } });
    const signup = (i: number) => t.request('/api/waitlist/signup', { address: '203.0.113.9', body: { email: `p${i}@example.com`, platform: 'email' } });
    expect((await signup(1)).status).toBe(200);
    expect((await signup(2)).status).toBe(200);
    expect((await signup(3)).status).toBe(429);
    expect(await t.store.countWaitlist()).toBe(2);
    await t.close();
  });

  it('per member: search and send have their own budgets, and another member is not affected', async () => {
    const t = await appWith({ limits: { search: { points: 2, seconds: 60 }, send: { points: 1, seconds: 60 } } });
    const me = await t.signInAt('198.51.100.1');
    const search = (token: string) => t.request('/api/search?q=deploy', { token });
    expect((await search(me)).status).toBe(200);
    expect((await search(me)).status).toBe(200);
    const refused = await search(me);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(55);
    // The same member from another address is the same budget; sending is a budget of its own.
    expect((await t.request('/api/search?q=deploy', { token: me, address: '198.51.100.2' })).status).toBe(429);
    const list = (await (await t.request('/api/conversations/data', { token: me })).json()) as {
      data: { conversations: Array<{ id: string; type: string; dm_user?: string }> };
    };
    const channel = list.data.conversations.find((c) => c.type === 'channel')!.id;
    expect((await t.request('/api/messages/send', { token: me, body: { channel, text: 'one' } })).status).toBe(200);
    expect((await t.request('/api/messages/send', { token: me, body: { channel, text: 'two' } })).status).toBe(429);
    // Another member is not affected.
    const other = await t.signInAt('198.51.100.3', list.data.conversations.find((c) => c.type === 'dm')!.dm_user);
    expect((await search(other)).status).toBe(200);
    await t.close();
  });

  it('once the window has passed, the member is let through again', async () => {
    const t = await appWith({ limits: { search: { points: 1, seconds: 1 } } });
    const me = await t.signInAt('198.51.100.1');
    const search = () => t.request('/api/search?q=deploy', { token: me });
    expect((await search()).status).toBe(200);
    const refused = await search();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { error: string }).error).toBe('Too many requests. Try again in 1 second.');
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await search()).status).toBe(200);
    await t.close();
  });

  it('the AI routes by cost: classify has a smaller default budget than ask, and each route counts on its own', async () => {
    expect(DEFAULT_RATE_LIMITS.classify.points / DEFAULT_RATE_LIMITS.classify.seconds).toBeLessThan(
      DEFAULT_RATE_LIMITS.ask.points / DEFAULT_RATE_LIMITS.ask.seconds,
    );
    expect(DEFAULT_RATE_LIMITS.ask.points / DEFAULT_RATE_LIMITS.ask.seconds).toBeLessThan(DEFAULT_RATE_LIMITS.api.points / DEFAULT_RATE_LIMITS.api.seconds);
    const t = await appWith({ limits: { classify: { points: 1, seconds: 60 }, refine: { points: 1, seconds: 60 }, catchup: { points: 1, seconds: 60 } } });
    const me = await t.signInAt('198.51.100.1');
    expect((await t.request('/api/features/ai-sort/classify-unread', { token: me, method: 'POST' })).status).toBe(200);
    expect((await t.request('/api/features/ai-sort/classify-unread', { token: me, method: 'POST' })).status).toBe(429);
    expect((await t.request('/api/messages/refine', { token: me, body: { text: 'hello there', mode: 'polish' } })).status).toBe(200);
    expect((await t.request('/api/messages/refine', { token: me, body: { text: 'hello there', mode: 'polish' } })).status).toBe(429);
    expect((await t.request('/api/features/voice-catchup/start', { token: me, body: {} })).status).toBe(200);
    expect((await t.request('/api/features/voice-catchup/chat', { token: me, body: { sessionId: 'x', message: 'yes' } })).status).toBe(429);
    expect((await t.request('/api/ask', { token: me, body: { question: 'deploy' } })).status).toBe(200);
    await t.close();
  });

  it('a general per-member limit covers every API call', async () => {
    const t = await appWith({ limits: { api: { points: 3, seconds: 60 } } });
    const me = await t.signInAt('198.51.100.1');
    for (let i = 0; i < 3; i++) expect((await t.request('/api/custom-views', { token: me })).status).toBe(200);
    expect((await t.request('/api/builtin-views', { token: me })).status).toBe(429);
    await t.close();
  });

  it('off: no limits (for load tests)', async () => {
    const t = await appWith({ off: true, limits: { signIn: { points: 1, seconds: 60 } } });
    for (let i = 0; i < 5; i++) expect((await t.request('/auth/slack')).status).toBe(302);
    await t.close();
  });

  it('a scale factor multiplies the default budgets', async () => {
    const t = await appWith({ scale: 0.05 });
    const allowed = Math.round(DEFAULT_RATE_LIMITS.signIn.points * 0.05);
    const statuses: number[] = [];
    for (let i = 0; i <= allowed; i++) statuses.push((await t.request('/auth/slack')).status);
    expect(statuses).toEqual([...Array<number>(allowed).fill(302), 429]);
    await t.close();
  });
});

describe('settings and addresses', () => {
  it('reads SIFT_RATE_LIMITS and SIFT_TRUST_PROXY', () => {
    expect(rateLimitsFromEnv({})).toEqual({ trustedProxies: 0 });
    expect(rateLimitsFromEnv({ SIFT_RATE_LIMITS: 'on' })).toEqual({ trustedProxies: 0 });
    expect(rateLimitsFromEnv({ SIFT_RATE_LIMITS: 'off' })).toEqual({ off: true, trustedProxies: 0 });
    expect(rateLimitsFromEnv({ SIFT_RATE_LIMITS: '2', SIFT_TRUST_PROXY: '1' })).toEqual({ scale: 2, trustedProxies: 1 });
    expect(rateLimitsFromEnv({ SIFT_RATE_LIMITS: '0.5, ask=10/60, signIn=100/600' })).toEqual({
      scale: 0.5,
      limits: { ask: { points: 10, seconds: 60 }, signIn: { points: 100, seconds: 600 } },
      trustedProxies: 0,
    });
    for (const bad of ['fast', '-1', '0', 'ask=10', 'nope=1/1', 'ask=0/60', 'ask=1/0'])
      expect(() => rateLimitsFromEnv({ SIFT_RATE_LIMITS: bad }), bad).toThrow(/SIFT_RATE_LIMITS/);
    for (const bad of ['yes', '-1', '1.5']) expect(() => rateLimitsFromEnv({ SIFT_TRUST_PROXY: bad }), bad).toThrow(/SIFT_TRUST_PROXY/);
  });

  it.each([
    ['203.0.113.5', '203.0.113.5'],
    ['::ffff:203.0.113.5', '203.0.113.5'],
    // An IPv6 client usually holds a whole /64: it is one address for the limits.
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:DB8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['unknown', 'unknown'],
  ])('the address %s counts as %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});
