/**
 * Issue 12 §1, written as the attack: member A plants their Sift session cookie in victim V's
 * browser; V signs in with Slack. Before, the planted cookie decided which account V's identity
 * joined, and V's membership moved to A's account: A then switched into V's workspace
 * membership, read V's DMs and could post as V. Now a sign-in signs in the identity's own
 * account; only 'Add workspace' (bound to the session that started it) joins another, and an
 * identity that belongs to an account is never moved.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { signInSlack, startSlackTestServer, until, type SlackTestServer } from '../slackHelpers';

let server: SlackTestServer;
afterEach(async () => {
  await server?.close();
});

const sameOrigin = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };

async function as(cookie: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { cookie, ...sameOrigin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function twoMembers() {
  server = await startSlackTestServer();
  const fake = server.fake;
  const team = fake.team.id;
  const victim = fake.member.id;
  const attacker = fake.workspace.users.find((u) => u.id !== victim && !u.is_bot && !u.deleted && u.id !== 'USLACKBOT')!.id;
  fake.setConsentUser(victim);
  const v = await signInSlack(server);
  fake.setConsentUser(attacker);
  const a = await signInSlack(server);
  await until(async () => (await server.store.getSyncState<{ lastFullSyncAt: number | null }>(team, victim))?.lastFullSyncAt != null, 45_000, 'the first sync');
  return { fake, team, victim, attacker, victimCookie: v.cookie, attackerCookie: a.cookie };
}

describe('a planted session cookie', () => {
  it('does not decide which account a Slack sign-in joins, and never moves a membership', async () => {
    const { fake, team, victim, attacker, attackerCookie } = await twoMembers();
    const victimAccount = await server.store.accountFor(team, victim);
    const attackerAccount = await server.store.accountFor(team, attacker);
    expect(victimAccount).not.toBe(attackerAccount);

    // The attacker's cookie, planted in the victim's browser, goes along with the victim's sign-in.
    fake.setConsentUser(victim);
    const planted = await signInSlack(server, { cookie: attackerCookie });
    expect(planted.status).toBe(302);
    expect(await server.store.accountFor(team, victim)).toBe(victimAccount);
    expect((await server.store.memberships(attackerAccount)).map((m) => m.userId)).toEqual([attacker]);

    // The planted session ended with the sign-in that replaced it in that browser.
    expect((await as(attackerCookie, '/api/auth/status')).body.authenticated).toBe(false);
    // The attacker's own (new) session cannot reach the victim's identity.
    fake.setConsentUser(attacker);
    const again = (await signInSlack(server)).cookie;
    expect((await as(again, '/auth/switch-workspace', { workspaceId: team })).status).toBe(200);
    expect((await as(again, '/api/auth/status')).body.user.id).toBe(attacker);
    const victimsDm = fake.workspace.conversations.find((c) => c.kind === 'im' && c.members.includes(victim) && !c.members.includes(attacker))!;
    expect((await as(again, `/api/conversations/${victimsDm.id}/threads`)).status).toBe(404);
    // The victim is signed in as themselves, with a fresh session.
    expect((await as(planted.cookie, '/api/auth/status')).body.user.id).toBe(victim);
    expect(planted.cookie).not.toBe(attackerCookie);
  });
});

describe("'Add workspace'", () => {
  it('joins the account of the session that started it, and only that session', async () => {
    const { fake, team, attacker, attackerCookie, victimCookie } = await twoMembers();
    fake.setConsentUser(attacker);
    // Started in the attacker's session, completed in another one: refused.
    const swapped = await signInSlack(server, {
      cookie: attackerCookie,
      add: true,
      tamper: (url, cookie) => ({ url, cookie: cookie.replace(attackerCookie, victimCookie) }),
    });
    expect(new URL(swapped.location, server.url).searchParams.get('error')).toBe('invalid_state');
    const attackerAccount = await server.store.accountFor(team, attacker);
    expect((await server.store.memberships(attackerAccount)).map((m) => m.userId)).toEqual([attacker]);
  });

  it('refuses an identity that already belongs to another account: it stays where it is', async () => {
    const { fake, team, victim, victimCookie, attacker } = await twoMembers();
    const attackerAccount = await server.store.accountFor(team, attacker);
    fake.setConsentUser(attacker);
    // The victim's session tries to add the attacker's identity (or the reverse): never moved.
    const added = await signInSlack(server, { cookie: victimCookie, add: true });
    expect(new URL(added.location, server.url).searchParams.get('error')).toBe('already_linked');
    expect(await server.store.accountFor(team, attacker)).toBe(attackerAccount);
    expect((await as(victimCookie, '/api/auth/status')).body.user.id).toBe(victim);
  });

  it('needs a session: without one it sends the browser to sign in', async () => {
    server = await startSlackTestServer();
    const res = await fetch(`${server.url}/auth/slack?add=true`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!, server.url).searchParams.get('error')).toBe('not_signed_in');
  });
});
