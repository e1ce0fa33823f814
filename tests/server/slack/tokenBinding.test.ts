/**
 * Issue 12 §2, written as the attack: a database writer copies member V's encrypted Slack token
 * into member A's row. Before, A's requests then went to Slack with V's token (A posted as V).
 * Now a stored token is bound to its (workspace, user) row by AES-GCM additional data and names
 * the key it was written under, so it opens only in its own row; one that does not open is
 * logged (without the token) and treated as missing: A signs in again, V's token is never used.
 * SIFT_SECRET can be rotated (SIFT_SECRET_PREVIOUS reads the old values, which the startup pass
 * re-encrypts), and rows in the previous, unbound format are upgraded without signing anyone out.
 */
import { createCipheriv, randomBytes, scryptSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonLogger } from '../../../src/server/log';
import { slackConfigFromEnv } from '../../../src/server/sources/slack/config';
import { SlackSource } from '../../../src/server/sources/slack/source';
import { TokenCipher } from '../../../src/server/sources/slack/tokens';
import { startFakeSlack, type FakeSlack } from '../../fakes/slackServer';
import { signInSlack, startSlackTestServer, until, type SlackTestServer } from '../slackHelpers';

let server: SlackTestServer | undefined;
let fakeSlack: FakeSlack | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await fakeSlack?.close();
  fakeSlack = undefined;
});

const sameOrigin = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };

async function as(s: SlackTestServer, cookie: string, path: string, body?: unknown) {
  const res = await fetch(`${s.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { cookie, ...sameOrigin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A Slack mode server (on a database file when `file`) with member `userId` signed in and synced. */
async function signedIn(s: SlackTestServer, userId: string) {
  s.fake.setConsentUser(userId);
  const { cookie } = await signInSlack(s);
  const team = s.fake.team.id;
  await until(async () => (await s.store.getSyncState<{ lastFullSyncAt: number | null }>(team, userId))?.lastFullSyncAt != null, 45_000, 'the first sync');
  return cookie;
}

/** A public channel both members are in. */
function sharedChannel(fake: FakeSlack, a: string, b: string) {
  return fake.workspace.conversations.find((c) => c.kind === 'public_channel' && !c.is_archived && c.members.includes(a) && c.members.includes(b))!;
}

/** A stored value as the previous version of Sift wrote it: `v1.<iv>.<tag>.<data>`, unbound, no key id. */
function legacySeal(secret: string, sealed: { access: string; refresh?: string }): string {
  const key = scryptSync(secret, 'sift-slack-token-key-v1', 32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(sealed), 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The secret slackHelpers configures. */
const TEST_SECRET = 'sift-test-secret';

describe("a token copied into another member's row", () => {
  it('is refused there: the member must sign in again, and Slack never sees the other token', async () => {
    server = await startSlackTestServer();
    const { fake } = server;
    const team = fake.team.id;
    const victim = fake.member.id;
    const attacker = fake.workspace.users.find(
      (u) => u.id !== victim && !u.is_bot && !u.deleted && u.id !== 'USLACKBOT' && sharedChannel(fake, u.id, victim),
    )!.id;
    await signedIn(server, victim);
    const attackerCookie = await signedIn(server, attacker);
    const victimToken = (await server.source.vault.access(team, victim))!;
    const victimRow = (await server.store.getCredential(team, victim))!;

    // The database writer copies V's row's value into A's row.
    await server.store.saveCredential({ ...victimRow, userId: attacker });
    const before = fake.calls.length;
    const channel = sharedChannel(fake, attacker, victim);
    const sent = await as(server, attackerCookie, '/api/messages/send', { channel: channel.id, text: 'who am I?' });

    expect(fake.calls.slice(before).filter((c) => c.token === victimToken)).toEqual([]);
    expect(channel.messages.filter((m) => m.text === 'who am I?')).toEqual([]);
    expect(sent.status).toBe(401);
    expect(sent.body).toMatchObject({ reauth: true });
    expect(await server.store.getCredential(team, attacker)).toBeNull();
    expect((await as(server, attackerCookie, '/api/auth/status')).body.authenticated).toBe(false);
    // Logged with the reason, never the token or the stored value.
    const refused = server.logLines.filter((l) => l.includes('Stored Slack token unreadable'));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.join('\n')).toContain('not_this_row');
    const all = server.logLines.join('\n');
    expect(all).not.toContain(victimToken);
    expect(all).not.toContain(victimRow.secret.split(':').at(-1));
    // V's own row still works.
    expect(await server.source.vault.access(team, victim)).toBe(victimToken);
  });
});

describe('the stored format', () => {
  it('is v2:<key id>:<iv>:<tag>:<data>, the key id a short hash that is not the key, and opens only in its row', () => {
    const cipher = TokenCipher.fromSecret('a long enough secret');
    const row = { workspaceId: 'T1', userId: 'UA' };
    const stored = cipher.encrypt('xoxp-1-secret', row);
    const [version, keyId, iv, tag, data, ...rest] = stored.split(':');
    expect(version).toBe('v2');
    expect(keyId).toMatch(/^[0-9a-f]{12}$/);
    expect(keyId).toBe(cipher.keyId);
    expect(TokenCipher.fromSecret('a long enough secret').keyId).toBe(keyId);
    expect(TokenCipher.fromSecret('another long secret').keyId).not.toBe(keyId);
    expect([iv, tag, data].every((p) => p && /^[A-Za-z0-9_-]+$/.test(p))).toBe(true);
    expect(rest).toEqual([]);
    expect(cipher.decrypt(stored, row)).toBe('xoxp-1-secret');
    expect(() => cipher.decrypt(stored, { workspaceId: 'T1', userId: 'UV' })).toThrow(/not_this_row/);
    expect(() => cipher.decrypt(stored, { workspaceId: 'T2', userId: 'UA' })).toThrow(/not_this_row/);
    // The pair is unambiguous: a user id cannot borrow the workspace id's end.
    const split = cipher.encrypt('x', { workspaceId: 'T1U', userId: 'A' });
    expect(() => cipher.decrypt(split, { workspaceId: 'T1', userId: 'UA' })).toThrow(/not_this_row/);
  });
});

describe('rotating SIFT_SECRET', () => {
  it('reads the environment: SIFT_SECRET_PREVIOUS is a comma-separated list', () => {
    const base = { SLACK_CLIENT_ID: 'id', SLACK_CLIENT_SECRET: 'secret', SIFT_SECRET: 'the current secret' };
    expect(slackConfigFromEnv(base)!.previousSecrets).toBeUndefined();
    expect(slackConfigFromEnv({ ...base, SIFT_SECRET_PREVIOUS: ' older secret 1 , ,older secret 2' })!.previousSecrets).toEqual([
      'older secret 1',
      'older secret 2',
    ]);
    expect(() => slackConfigFromEnv({ ...base, SIFT_SECRET_PREVIOUS: 'older secret 1,short' })).toThrow(/SIFT_SECRET_PREVIOUS/);
  });

  it('re-encrypts every token under the current key at startup; nobody is signed out, and the old secret can then go', async () => {
    server = await startSlackTestServer();
    const { fake } = server;
    const team = fake.team.id;
    const me = fake.member.id;
    const cookie = await signedIn(server, me);
    const token = (await server.source.vault.access(team, me))!;
    const oldRow = (await server.store.getCredential(team, me))!;
    const lines: string[] = [];
    const logger = jsonLogger((l) => lines.push(l), 'debug');
    const rotated = { ...server.source.config, secret: 'the new secret', previousSecrets: ['unrelated old one', TEST_SECRET] };

    // A server started with the new secret and the old one in SIFT_SECRET_PREVIOUS.
    const next = new SlackSource({ config: rotated, now: () => Date.now(), logger });
    await next.prepare(server.store);
    const newRow = (await server.store.getCredential(team, me))!;
    const newKey = TokenCipher.fromSecret('the new secret').keyId;
    expect(newRow.secret.startsWith(`v2:${newKey}:`)).toBe(true);
    expect(newRow).toMatchObject({ expiresAt: oldRow.expiresAt, updatedAt: oldRow.updatedAt });
    expect(await next.vault.access(team, me)).toBe(token);
    expect(lines.join('\n')).toContain('Slack tokens re-encrypted under the current key');
    expect(lines.join('\n')).not.toContain(token);

    // Later, without the old secret at all: still the member's token.
    const later = new SlackSource({ config: { ...rotated, previousSecrets: undefined }, now: () => Date.now(), logger });
    await later.prepare(server.store);
    expect(await later.vault.access(team, me)).toBe(token);
    // The running server (old secret, not told the new one) cannot read it: treated as missing, no crash.
    const reply = await as(server, cookie, '/api/conversations/fetch');
    expect(reply.status).toBe(401);
    expect(server.logLines.join('\n')).toContain('unknown_key');
  });

  it('treats a token under an unknown key as missing, logged without it, never a crash', async () => {
    server = await startSlackTestServer();
    const team = server.fake.team.id;
    const me = server.fake.member.id;
    const cookie = await signedIn(server, me);
    const token = (await server.source.vault.access(team, me))!;
    const row = (await server.store.getCredential(team, me))!;
    const foreign = TokenCipher.fromSecret('a secret this server was never told');
    await server.store.saveCredential({ ...row, secret: foreign.encrypt(JSON.stringify({ access: token }), { workspaceId: team, userId: me }) });

    expect(await server.source.vault.access(team, me)).toBeNull();
    const res = await as(server, cookie, '/api/conversations/fetch');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/sign in again/i);
    const line = server.logLines.find((l) => l.includes('Stored Slack token unreadable'))!;
    expect(JSON.parse(line)).toMatchObject({ level: 'warn', workspace: team, user: me, reason: 'unknown_key', keyId: foreign.keyId });
    expect(server.logLines.join('\n')).not.toContain(token);
    // Signing in again stores a fresh, readable token.
    await signInSlack(server);
    expect(await server.source.vault.access(team, me)).toBeTruthy();
  });

  it("upgrades rows in the previous (unbound) format at startup: the member's session goes on, under the token they had", async () => {
    fakeSlack = await startFakeSlack({ size: 'small' });
    const file = join(mkdtempSync(join(tmpdir(), 'sift-tokens-')), 'sift.db');
    server = await startSlackTestServer({ fakeSlack, file });
    const team = fakeSlack.team.id;
    const me = fakeSlack.member.id;
    const cookie = await signedIn(server, me);
    const token = (await server.source.vault.access(team, me))!;
    const row = (await server.store.getCredential(team, me))!;
    // As the previous version of Sift left it (the same SIFT_SECRET).
    await server.store.saveCredential({ ...row, secret: legacySeal(TEST_SECRET, { access: token }) });
    await server.close();

    server = await startSlackTestServer({ fakeSlack, file });
    const upgraded = (await server.store.getCredential(team, me))!;
    expect(upgraded.secret.startsWith(`v2:${TokenCipher.fromSecret(TEST_SECRET).keyId}:`)).toBe(true);
    const before = fakeSlack.calls.length;
    const channel = fakeSlack.workspace.conversations.find((c) => c.kind === 'public_channel' && !c.is_archived && c.members.includes(me))!;
    const sent = await as(server, cookie, '/api/messages/send', { channel: channel.id, text: 'still me' });
    expect(sent.status).toBe(200);
    expect(
      fakeSlack.calls
        .slice(before)
        .filter((c) => c.method === 'chat.postMessage')
        .map((c) => c.token),
    ).toEqual([token]);
    expect(server.logLines.join('\n')).toContain('Slack tokens re-encrypted under the current key');
  });

  it('reads an unbound value under a previous secret at startup too, and never on the request path', async () => {
    server = await startSlackTestServer();
    const team = server.fake.team.id;
    const me = server.fake.member.id;
    await signedIn(server, me);
    const token = (await server.source.vault.access(team, me))!;
    const row = (await server.store.getCredential(team, me))!;

    // Written after this server's startup pass: the unbound format says nothing of its row, so it is refused.
    await server.store.saveCredential({ ...row, secret: legacySeal(TEST_SECRET, { access: token }) });
    expect(await server.source.vault.access(team, me)).toBeNull();
    expect(server.logLines.join('\n')).toContain('legacy_format');

    // A server started with a new secret and this one as previous upgrades it.
    await server.store.saveCredential({ ...row, secret: legacySeal(TEST_SECRET, { access: token, refresh: 'xoxe-1-r' }) });
    const next = new SlackSource({
      config: { ...server.source.config, secret: 'the new secret', previousSecrets: [TEST_SECRET] },
      now: () => Date.now(),
      logger: jsonLogger(() => {}, 'error'),
    });
    await next.prepare(server.store);
    expect(await next.vault.access(team, me)).toBe(token);
    expect(await next.vault.sealed(team, me)).toEqual({ access: token, refresh: 'xoxe-1-r' });
  });
});
