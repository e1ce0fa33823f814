/**
 * The store's aggregates already on the database handle (issue 15 §1), the same tests on SQLite (the SQLite
 * store's own schema and connection, as the product runs them) and on a real PostgreSQL started by the test
 * (its migrations, store/schema.ts): sessions, single-use stream tickets and sign-in states, catch-up sessions,
 * the daily AI budget, the waitlist, and a source's credentials, names, event ids and sync progress.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, sqliteHandle, type Db } from '../../src/server/store/db';
import { MemberRecords } from '../../src/server/store/memberRecords';
import { migrate } from '../../src/server/store/migrate';
import { POSTGRES_MIGRATIONS } from '../../src/server/store/schema';
import { SessionRecords } from '../../src/server/store/sessionRecords';
import { SourceRecords } from '../../src/server/store/sourceRecords';
import { SqliteStore } from '../../src/server/store/sqlite';
import type { CatchupSessionRecord } from '../../src/server/store/types';
import { startPostgres, type RunningPostgres } from './postgres';

let postgres: RunningPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

const engines: Record<string, () => Promise<{ db: Db; close: () => Promise<unknown> }>> = {
  sqlite: async () => {
    const store = new SqliteStore(':memory:');
    // The accounts a session refers to (SQLite keeps the foreign key).
    store.db.prepare(`INSERT INTO accounts (id, created_at) VALUES ('A1', 0), ('A2', 0)`).run();
    return { db: sqliteHandle(store.db), close: () => store.close() };
  },
  postgres: async () => {
    const db = openPostgres(await postgres.database(), { poolSize: 4 });
    await migrate(db, POSTGRES_MIGRATIONS);
    return { db, close: () => db.close() };
  },
};

describe.each(Object.keys(engines))('the store records on %s', (engine) => {
  async function open() {
    const { db, close } = await engines[engine]!();
    return { sessions: new SessionRecords(db), members: new MemberRecords(db), sources: new SourceRecords(db), close };
  }

  it('keeps sessions by their hash: touch, switch, prune by age or idleness, end one or all of a member', async () => {
    const { sessions, close } = await open();
    await sessions.createSession('h1', { accountId: 'A1', workspaceId: 'T1', userId: 'U1', createdAt: 1_000 });
    await sessions.createSession('h2', { accountId: 'A1', workspaceId: 'T1', userId: 'U1', createdAt: 5_000 });
    await sessions.createSession('h3', { accountId: 'A2', workspaceId: 'T1', userId: 'U2', createdAt: 9_000 });
    expect(await sessions.getSession('h1')).toEqual({ accountId: 'A1', workspaceId: 'T1', userId: 'U1', createdAt: 1_000 });
    expect(await sessions.getSession('nope')).toBeNull();
    await sessions.touchSession('h2', 8_000);
    await sessions.switchSessionWorkspace('h2', 'T2', 'U9');
    expect(await sessions.getSession('h2')).toEqual({ accountId: 'A1', workspaceId: 'T2', userId: 'U9', createdAt: 5_000, lastSeenAt: 8_000 });
    // Created before 2,000, or unused since before 6,000: h1 goes; h2 was seen at 8,000; h3 is recent.
    expect(await sessions.pruneSessions(2_000, 6_000)).toEqual(['h1']);
    expect((await sessions.deleteSessionsOf('T1', 'U2')).sort()).toEqual(['h3']);
    await sessions.deleteSession('h2');
    expect(await sessions.getSession('h2')).toBeNull();
    await close();
  });

  it('a stream ticket opens one stream, once, before it expires', async () => {
    const { sessions, close } = await open();
    await sessions.createStreamTicket('t1', 'h1', 2_000);
    await sessions.createStreamTicket('t2', 'h1', 2_000);
    expect(await sessions.takeStreamTicket('t1', 1_000)).toBe('h1');
    expect(await sessions.takeStreamTicket('t1', 1_000)).toBeNull();
    expect(await sessions.takeStreamTicket('t2', 2_000)).toBeNull();
    await close();
  });

  it('a sign-in state is taken once, with the account an added workspace joins', async () => {
    const { sessions, close } = await open();
    const expires = Date.now() + 60_000;
    await sessions.saveOAuthState('s1', 'b1', expires, { accountId: 'A1', sessionHash: 'h1' });
    await sessions.saveOAuthState('s2', 'b2', expires);
    expect(await sessions.takeOAuthState('s1')).toEqual({ browserHash: 'b1', expiresAt: expires, addTo: { accountId: 'A1', sessionHash: 'h1' } });
    expect(await sessions.takeOAuthState('s1')).toBeNull();
    expect(await sessions.takeOAuthState('s2')).toEqual({ browserHash: 'b2', expiresAt: expires });
    await close();
  });

  it('keeps catch-up sessions per member, pruned by age and to the most recent few', async () => {
    const { members, close } = await open();
    const record = (id: string, touchedAt: number, userId = 'U1'): CatchupSessionRecord => ({
      id,
      workspaceId: 'T1',
      userId,
      createdAt: 1,
      touchedAt,
      history: [{ role: 'user', content: `hello ${id}`, at: touchedAt }],
      pending: null,
      cleared: 0,
    });
    for (const [id, at] of [
      ['c1', 100],
      ['c2', 200],
      ['c3', 300],
      ['c4', 400],
    ] as const)
      await members.saveCatchupSession(record(id, at));
    await members.saveCatchupSession(record('other', 50, 'U2'));
    await members.saveCatchupSession({ ...record('c1', 150), cleared: 1 });
    expect(await members.getCatchupSession('T1', 'U1', 'c1')).toEqual({ ...record('c1', 150), cleared: 1 });
    // Another member's session is as unknown as a missing one.
    expect(await members.getCatchupSession('T1', 'U1', 'other')).toBeNull();
    expect(await members.deleteCatchupSession('T1', 'U1', 'other')).toBe(false);
    // Untouched since 120 (everyone's) goes; of U1's, the 2 most recent stay.
    await members.pruneCatchupSessions('T1', 'U1', 120, 2);
    const kept = await Promise.all(['c1', 'c2', 'c3', 'c4'].map((id) => members.getCatchupSession('T1', 'U1', id)));
    expect(kept.map((r) => r?.id ?? null)).toEqual([null, null, 'c3', 'c4']);
    expect(await members.getCatchupSession('T1', 'U2', 'other')).toBeNull();
    expect(await members.deleteCatchupSession('T1', 'U1', 'c3')).toBe(true);
    await close();
  });

  it("counts a member's AI tokens per day, concurrent additions all counted, earlier days dropped", async () => {
    const { members, close } = await open();
    await members.addAiTokens('T1', 'U1', '2026-11-22', 500);
    await Promise.all(Array.from({ length: 20 }, () => members.addAiTokens('T1', 'U1', '2026-11-23', 10.4)));
    expect(await members.aiTokensUsed('T1', 'U1', '2026-11-23')).toBe(200);
    expect(await members.aiTokensUsed('T1', 'U1', '2026-11-22')).toBe(0);
    expect(await members.addAiTokens('T1', 'U1', '2026-11-23', -5)).toBe(200);
    expect(await members.aiTokensUsed('T1', 'U2', '2026-11-23')).toBe(0);
    await close();
  });

  it('keeps one waitlist signup per email (any case) and platform', async () => {
    const { members, close } = await open();
    expect(await members.addWaitlistSignup(' Dana@Example.com ', 'teams', 1)).toEqual({ created: true });
    expect(await members.addWaitlistSignup('dana@example.com', 'teams', 2)).toEqual({ created: false });
    expect(await members.addWaitlistSignup('dana@example.com', 'email', 3)).toEqual({ created: true });
    expect(await members.countWaitlist()).toBe(2);
    expect(await members.countWaitlist('teams')).toBe(1);
    await close();
  });

  it("keeps each member's credential; a secret is replaced only while it is still the one expected", async () => {
    const { sources, close } = await open();
    await sources.saveCredential({ workspaceId: 'T1', userId: 'U1', secret: 'v2:k1:a', expiresAt: null, updatedAt: 1 });
    await sources.saveCredential({ workspaceId: 'T1', userId: 'U2', secret: 'v2:k1:b', expiresAt: 99, updatedAt: 2 });
    await sources.saveCredential({ workspaceId: 'T1', userId: 'U1', secret: 'v2:k1:c', expiresAt: 5, updatedAt: 3 });
    expect(await sources.getCredential('T1', 'U1')).toEqual({ workspaceId: 'T1', userId: 'U1', secret: 'v2:k1:c', expiresAt: 5, updatedAt: 3 });
    expect(await sources.replaceCredentialSecret('T1', 'U1', 'v2:k1:a', 'v2:k2:x')).toBe(false);
    expect(await sources.replaceCredentialSecret('T1', 'U1', 'v2:k1:c', 'v2:k2:c')).toBe(true);
    expect((await sources.listCredentials()).map((c) => [c.userId, c.secret])).toEqual([
      ['U1', 'v2:k2:c'],
      ['U2', 'v2:k1:b'],
    ]);
    await sources.deleteCredential('T1', 'U2');
    expect(await sources.getCredential('T1', 'U2')).toBeNull();
    await close();
  });

  it('saves names in statements of a few hundred (thousands of custom emoji), the latest name winning', async () => {
    const { sources, close } = await open();
    const emoji = Object.fromEntries(Array.from({ length: 1_234 }, (_, i) => [`e${i}`, `https://emoji.example/${i}.png`]));
    await sources.saveSourceNames('T1', 'emoji', emoji);
    await sources.saveSourceNames('T1', 'channel', { C1: 'general', C2: 'random' });
    await sources.saveSourceNames('T1', 'channel', { C2: 'watercooler' });
    expect(Object.keys(await sources.sourceNames('T1', 'emoji'))).toHaveLength(1_234);
    expect(await sources.sourceNames('T1', 'channel')).toEqual({ C1: 'general', C2: 'watercooler' });
    expect(await sources.sourceNames('T1', 'channel', ['C2', 'C9', 'C2'])).toEqual({ C2: 'watercooler' });
    expect(await sources.sourceNames('T2', 'channel')).toEqual({});
    await close();
  });

  it('records an event id once, whoever records it, and prunes the old ones; keeps sync progress', async () => {
    const { sources, close } = await open();
    const firsts = await Promise.all([sources.recordSourceEvent('T1', 'Ev1', 100), sources.recordSourceEvent('T1', 'Ev1', 101)]);
    expect(firsts.sort()).toEqual([false, true]);
    expect(await sources.sourceEventSeen('T1', 'Ev1')).toBe(true);
    expect(await sources.sourceEventSeen('T2', 'Ev1')).toBe(false);
    await sources.recordSourceEvent('T1', 'Ev2', 300);
    expect(await sources.pruneSourceEvents(200)).toBe(1);
    expect(await sources.sourceEventSeen('T1', 'Ev1')).toBe(false);
    expect(await sources.getSyncState('T1', 'U1')).toBeNull();
    await sources.setSyncState('T1', 'U1', { cursor: 'abc', done: ['C1'] }, 1);
    await sources.setSyncState('T1', 'U1', { cursor: 'def', done: ['C1', 'C2'] }, 2);
    expect(await sources.getSyncState('T1', 'U1')).toEqual({ cursor: 'def', done: ['C1', 'C2'] });
    await close();
  });
});
