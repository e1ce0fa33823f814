/** Slack sign-in over real HTTP against the fake Slack: the redirect, the callback and every way it fails, revoke, tokens at rest and in logs. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { signInSlack, startSlackTestServer, until, type SlackTestServer } from '../slackHelpers';
import { SLACK_USER_SCOPES } from '../../../src/server/sources/slack/config';
import { selectRow, selectRows } from '../testStore';

let server: SlackTestServer;

beforeEach(async () => {
  server = await startSlackTestServer();
});
afterEach(async () => {
  await server.close();
});

const errorOf = (location: string) => {
  const u = new URL(location, 'http://x');
  return { path: u.pathname, error: u.searchParams.get('error'), message: u.searchParams.get('message') ?? '' };
};

describe('Slack sign-in', () => {
  it('says it is in Slack mode', async () => {
    const call = api(server.url);
    expect((await call('/api/config/mode')).body).toMatchObject({ centralized: false, hasCredentials: true, source: 'slack' });
    expect((await call('/api/setup/status')).body).toMatchObject({ mode: 'slack', slack: { configured: true, liveEvents: 'polling' }, demo: null });
  });

  it('redirects to the authorize page with the client id, the user scopes, the redirect URI and a state bound by a cookie', async () => {
    const res = await fetch(`${server.url}/auth/slack`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const target = new URL(res.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe(server.fake.authorizeUrl);
    expect(target.searchParams.get('client_id')).toBe(server.fake.clientId);
    expect(target.searchParams.get('user_scope')!.split(',')).toEqual([...SLACK_USER_SCOPES]);
    expect(target.searchParams.get('redirect_uri')).toBe(`${server.url}/auth/slack/callback`);
    expect(target.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{24,}$/);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sift_oauth_state='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Max-Age=600/);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('signs in: the callback exchanges the code, stores the token encrypted and opens a session', async () => {
    const signIn = await signInSlack(server);
    expect(signIn.status).toBe(302);
    const landing = new URL(signIn.location, server.url);
    expect(landing.pathname).toBe('/');
    expect(landing.searchParams.get('auth_success')).toBe('true');
    expect(landing.searchParams.get('workspace')).toBe(server.fake.team.id);
    expect(signIn.token).not.toBe('');
    expect(server.fake.calls.filter((c) => c.method === 'oauth.v2.access')).toHaveLength(1);
    expect(server.fake.calls.find((c) => c.method === 'oauth.v2.access')!.params).toMatchObject({ redirect_uri: `${server.url}/auth/slack/callback` });

    const status = await api(server.url, signIn.token)('/api/auth/status');
    expect(status.body).toMatchObject({ authenticated: true, workspace: { id: server.fake.team.id, name: server.fake.team.name } });
    expect(status.body.organizations.map((w: { id: string }) => w.id)).toEqual([server.fake.team.id]);

    // The stored row holds no usable token; the token works against Slack.
    const row = await selectRows<{ secret: string; user_id: string }>(server.store, `SELECT * FROM source_credentials`);
    expect(row).toHaveLength(1);
    expect(row[0]!.user_id).toBe(server.fake.member.id);
    expect(JSON.stringify(row)).not.toMatch(/xox/);
    const token = await server.source.vault.access(server.fake.team.id, server.fake.member.id);
    expect(token).toMatch(/^xoxp-/);
    expect(JSON.stringify(await selectRows(server.store, `SELECT * FROM oauth_states`))).not.toContain('xox');

    // The first sign-in syncs in the background; no log line holds a token, and no response does.
    await until(
      async () => (await server.store.getSyncState<{ lastFullSyncAt: number | null }>(server.fake.team.id, server.fake.member.id))?.lastFullSyncAt != null,
      10_000,
      'initial sync',
    );
    expect(server.logLines.join('\n')).not.toMatch(/xox[a-z]-|xapp-/);
    expect(signIn.location).not.toMatch(/xox/);
  });

  it.each([
    ['a wrong state', (u: URL, c: string) => (u.searchParams.set('state', 'not-the-state-we-issued-at-all'), { url: u, cookie: c }), 'invalid_state'],
    ['a missing cookie', (u: URL) => ({ url: u, cookie: '' }), 'invalid_state'],
    ['a cookie of another browser', (u: URL) => ({ url: u, cookie: 'sift_oauth_state=someone-elses-nonce-value' }), 'invalid_state'],
    ['an invalid code', (u: URL, c: string) => (u.searchParams.set('code', 'forged-code'), { url: u, cookie: c }), 'exchange_failed'],
  ])('lands on /auth with a clear message on %s', async (_name, tamper, code) => {
    const signIn = await signInSlack(server, { tamper });
    expect(signIn.status).toBe(302);
    const failure = errorOf(signIn.location);
    expect(failure).toMatchObject({ path: '/auth', error: code });
    expect(failure.message).toMatch(/try again/i);
    expect(signIn.token).toBe('');
    expect(await selectRow(server.store, `SELECT count(*) AS n FROM sessions`)).toEqual({ n: 0 });
    expect(await selectRow(server.store, `SELECT count(*) AS n FROM source_credentials`)).toEqual({ n: 0 });
  });

  it('refuses a state used twice', async () => {
    const first = await signInSlack(server);
    expect(new URL(first.location, server.url).searchParams.get('auth_success')).toBe('true');
    const replay = await fetch(first.callback, { redirect: 'manual', headers: { cookie: first.stateCookie } });
    expect(errorOf(replay.headers.get('location')!)).toMatchObject({ path: '/auth', error: 'invalid_state' });
  });

  it('lands on /auth when the member cancels on Slack', async () => {
    const signIn = await signInSlack(server, { button: 'Cancel' });
    const failure = errorOf(signIn.location);
    expect(failure).toMatchObject({ path: '/auth', error: 'access_denied' });
    expect(failure.message).toMatch(/cancelled/);
    expect(server.fake.calls.filter((c) => c.method === 'oauth.v2.access')).toHaveLength(0);
  });

  it('revoke ends the session and revokes the Slack token with auth.revoke', async () => {
    const signIn = await signInSlack(server);
    const token = await server.source.vault.access(server.fake.team.id, server.fake.member.id);
    const call = api(server.url, signIn.token);
    expect((await call('/api/auth/revoke', { method: 'POST' })).status).toBe(200);
    const revoke = server.fake.calls.filter((c) => c.method === 'auth.revoke');
    expect(revoke).toHaveLength(1);
    expect(revoke[0]!.token).toBe(token);
    expect((await call('/api/auth/status')).body.authenticated).toBe(false);
    expect(await selectRow(server.store, `SELECT count(*) AS n FROM source_credentials`)).toEqual({ n: 0 });
  });

  it('logout ends the Sift session only', async () => {
    const signIn = await signInSlack(server);
    const res = await fetch(`${server.url}/auth/logout`, { method: 'POST', headers: { Authorization: `Bearer ${signIn.token}` } });
    expect(res.status).toBe(200);
    expect((await api(server.url, signIn.token)('/api/auth/status')).body.authenticated).toBe(false);
    expect(server.fake.calls.filter((c) => c.method === 'auth.revoke')).toHaveLength(0);
  });
});
