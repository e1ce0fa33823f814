/**
 * Issue 12 §1, written as the attacks: the session token travelled in the post-sign-in address
 * (history, proxy logs, Referer), a token in an address was trusted (an attacker's link signs a
 * victim into the attacker's account), and the live stream's URL carried the 30-day session
 * token. Now the token travels only in the HttpOnly cookie (`__Host-` and Secure over https), a
 * sign-in ends the session the browser held before, and a stream URL carries at most a
 * single-use ticket good for a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, FIXED_NOW, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let now = FIXED_NOW;

beforeAll(async () => {
  server = await startTestServer({ now: () => now });
});
afterAll(() => server.close());

const stream = (query: string, headers: Record<string, string> = {}) => fetch(`${server.url}/api/sse/stream?${query}`, { headers });

/** Reads the stream's first frame and closes it. */
async function firstFrame(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

describe('the session token never travels in an address', () => {
  it('a sign-in lands on an address without the token; the token is only in the HttpOnly cookie', async () => {
    const { location, cookie, token } = await signIn(server.url);
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(location).not.toContain(token);
    expect(new URL(location, server.url).searchParams.has('token')).toBe(false);
    expect(cookie).toMatch(/^sift_token=[^;]+;.*HttpOnly/i);
  });

  it('the live stream refuses a session token in its address, even a valid one', async () => {
    const { token } = await signIn(server.url);
    const res = await stream(`token=${token}`);
    expect(res.status).toBe(401);
    // With the cookie (a browser) or a Bearer header (any other client) it opens.
    const byCookie = await stream('', { cookie: `sift_token=${token}` });
    expect(byCookie.status).toBe(200);
    expect(await firstFrame(byCookie)).toContain('"type":"connection"');
  });

  it('a stream ticket opens one stream, once, within a minute, and never authenticates anything else', async () => {
    now = FIXED_NOW;
    const { token } = await signIn(server.url);
    const issue = async () => (await api(server.url, token)('/api/sse/ticket', { method: 'POST' })).body as { ticket: string; expiresIn: number };
    const { ticket, expiresIn } = await issue();
    expect(expiresIn).toBe(60);
    expect(ticket).not.toBe(token);
    // Not a session: other routes refuse it.
    expect((await api(server.url, ticket)('/api/auth/status')).body.authenticated).toBe(false);
    const first = await stream(`token=${ticket}`);
    expect(first.status).toBe(200);
    expect(await firstFrame(first)).toContain('"type":"connection"');
    expect((await stream(`token=${ticket}`)).status).toBe(401);
    // One left unused for over a minute is worth nothing.
    const late = (await issue()).ticket;
    now = FIXED_NOW + 61_000;
    expect((await stream(`token=${late}`)).status).toBe(401);
    now = FIXED_NOW;
  });

  it('a ticket asked for with the cookie from another site is refused (CSRF)', async () => {
    const { token } = await signIn(server.url);
    const res = await fetch(`${server.url}/api/sse/ticket`, { method: 'POST', headers: { cookie: `sift_token=${token}`, 'sec-fetch-site': 'same-site' } });
    expect(res.status).toBe(403);
  });

  it('a sign-in ends the session the browser held before (a planted token is worth nothing afterwards)', async () => {
    const { token: planted } = await signIn(server.url, 'U0SIFTME1');
    const res = await fetch(`${server.url}/auth/slack`, { redirect: 'manual', headers: { cookie: `sift_token=${planted}` } });
    expect(res.status).toBe(302);
    expect((await api(server.url, planted)('/api/auth/status')).body.authenticated).toBe(false);
    const fresh = /sift_token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
    expect(fresh).not.toBe(planted);
    expect((await api(server.url, fresh)('/api/auth/status')).body.authenticated).toBe(true);
  });
});

describe('over https', () => {
  it('the cookie is `__Host-sift_token`, Secure, and a plain `sift_token` cookie does not authenticate', async () => {
    const https = await startTestServer({ publicUrl: 'https://sift.example.com' });
    try {
      const { cookie, token } = await signIn(https.url);
      expect(cookie).toMatch(/^__Host-sift_token=[^;]+;/);
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/;\s*Path=\//i);
      expect(cookie).not.toMatch(/Domain=/i);
      const status = async (name: string) =>
        (await (await fetch(`${https.url}/api/auth/status`, { headers: { cookie: `${name}=${token}` } })).json()).authenticated;
      expect(await status('__Host-sift_token')).toBe(true);
      expect(await status('sift_token')).toBe(false);
    } finally {
      await https.close();
    }
  });
});
