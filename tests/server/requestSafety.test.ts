/**
 * Issue 12 §2 over real HTTP, written as the attacks: a page on another port (same site) or
 * another site posting with the member's session cookie, a text/plain POST, a GET of fetch-all
 * from an image tag, a 5 MB body, a planted stream cookie; and the security headers every answer
 * carries. Bearer-token clients keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let token: string;
let cookie: string;
let channel: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ token } = await signIn(server.url));
  cookie = `sift_token=${token}`;
  const list = await api(server.url, token)<{ data: { conversations: Array<{ id: string; type: string }> } }>('/api/conversations/data');
  channel = list.body.data.conversations.find((c) => c.type === 'channel')!.id;
});
afterAll(() => server.close());

const messages = () => server.store.countMessages('T0ACMEC01');

/** A request as a browser sends it with the member's cookie, from the page named by its headers. */
async function withCookie(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const res = await fetch(`${server.url}${path}`, { method: init.method ?? 'POST', headers: { cookie, ...init.headers }, body: init.body });
  return { status: res.status, body: (await res.json().catch(() => null)) as { error?: string } | null };
}

const send = JSON.stringify({ channel: 'PLACEHOLDER', text: 'sent by a page that is not Sift' });

describe('cross-site requests with the session cookie', () => {
  it.each([
    ['a page on another port of the same host (same site)', { 'Sec-Fetch-Site': 'same-site', Origin: 'http://127.0.0.1:1' }],
    ['another site', { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' }],
    ['an old browser sending only a foreign Origin', { Origin: 'https://evil.example' }],
    ['a request that says nothing of where it comes from', {}],
  ])('from %s: refused, nothing sent', async (_name, from) => {
    const before = await messages();
    const res = await withCookie('/api/messages/send', {
      headers: { ...from, 'Content-Type': 'application/json' },
      body: send.replace('PLACEHOLDER', channel),
    });
    expect(res.status).toBe(403);
    expect(res.body?.error).toBe('This request did not come from Sift and was refused');
    expect(await messages()).toBe(before);
  });

  it('a GET of fetch-all from an image tag on another site starts nothing', async () => {
    const res = await withCookie('/api/conversations/fetch-all', { method: 'GET', headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Dest': 'image' } });
    expect(res.status).toBe(403);
  });

  it('switching workspace from another site is refused', async () => {
    const res = await withCookie('/auth/switch-workspace', {
      headers: { 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/json' },
      body: JSON.stringify({ workspaceId: 'T0GLOBX02' }),
    });
    expect(res.status).toBe(403);
  });

  it("Sift's own page, with the cookie, still sends (Sec-Fetch-Site, or an Origin equal to Sift's)", async () => {
    const before = await messages();
    const sameOrigin = await withCookie('/api/messages/send', {
      headers: { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
      body: send.replace('PLACEHOLDER', channel),
    });
    expect(sameOrigin.status).toBe(200);
    const byOrigin = await withCookie('/api/messages/send', {
      headers: { Origin: server.url, 'Content-Type': 'application/json' },
      body: send.replace('PLACEHOLDER', channel),
    });
    expect(byOrigin.status).toBe(200);
    expect(await messages()).toBe(before + 2);
    // Reading needs no proof of origin.
    expect((await withCookie('/api/conversations/data', { method: 'GET' })).status).toBe(200);
  });

  it('a Bearer-token client is not a browser: no origin needed', async () => {
    const res = await fetch(`${server.url}/api/messages/send`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: send.replace('PLACEHOLDER', channel),
    });
    expect(res.status).toBe(200);
  });

  it('a planted stream cookie authenticates nothing', async () => {
    const res = await fetch(`${server.url}/api/auth/status`, { headers: { cookie: `sift_sse_token=${token}` } });
    expect((await res.json()).authenticated).toBe(false);
    const data = await fetch(`${server.url}/api/conversations/data`, { headers: { cookie: `sift_sse_token=${token}` } });
    expect(data.status).toBe(401);
  });
});

describe('bodies', () => {
  it('a text/plain POST (what a cross-site form can send) answers 415 and changes nothing', async () => {
    const before = await messages();
    const res = await fetch(`${server.url}/api/messages/send`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' },
      body: send.replace('PLACEHOLDER', channel),
    });
    expect(res.status).toBe(415);
    expect(await messages()).toBe(before);
  });

  it('a 5 MB body answers 413 before it is read', async () => {
    const res = await fetch(`${server.url}/api/messages/send`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel, text: 'x'.repeat(5 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/larger than 512 KB/);
  });

  it('bytes that are not UTF-8 answer 400 and store nothing (no replacement characters)', async () => {
    const before = await messages();
    const json = Buffer.from(JSON.stringify({ channel, text: 'broken: XX' }));
    const broken = Buffer.concat([json.subarray(0, json.indexOf('XX')), Buffer.from([0xc3, 0x28]), json.subarray(json.indexOf('XX') + 2)]);
    const res = await fetch(`${server.url}/api/messages/send`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: broken,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('The request body is not valid UTF-8');
    expect(await messages()).toBe(before);
    const signup = await fetch(`${server.url}/api/waitlist/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.from([0x7b, 0xff, 0x7d]),
    });
    expect(signup.status).toBe(400);
  });

  it('a 40,000-character message in any script still fits', async () => {
    const res = await fetch(`${server.url}/api/messages/send`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel, text: '😀'.repeat(20_000) }),
    });
    expect(res.status).toBe(200);
  });
});

describe('security headers', () => {
  it.each([['/'], ['/api/auth/status'], ['/api/conversations/data']])('%s cannot be framed, sniffed or referred', async (path) => {
    const res = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('strict-transport-security')).toBeNull();
    if (path.startsWith('/api')) expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('a Content-Security-Policy on every answer: scripts and workers only from Sift, no inline script, no eval', async () => {
    const res = await fetch(`${server.url}/`);
    const policy = Object.fromEntries(
      (res.headers.get('content-security-policy') ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...values]) => [name, values]),
    );
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['worker-src']).toEqual(["'self'"]);
    expect(policy['connect-src']).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(JSON.stringify(policy)).not.toMatch(/unsafe-inline|unsafe-eval/);
  });
});
