/**
 * The store's aggregates already on the database handle (issue 15 §1), the same tests on SQLite (the SQLite
 * store's own schema and connection, as the product runs them) and on a real PostgreSQL started by the test
 * (its migrations, store/schema.ts): sessions, single-use stream tickets and sign-in states, catch-up sessions,
 * the daily AI budget, the waitlist, a source's credentials, names, event ids and sync progress, and each
 * member's views with the events that tell of their changes (committed together, or not at all).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, sqliteHandle, type Db, type SqliteHandle } from '../../src/server/store/db';
import { MemberRecords } from '../../src/server/store/memberRecords';
import { migrate } from '../../src/server/store/migrate';
import { POSTGRES_MIGRATIONS } from '../../src/server/store/schema';
import { SessionRecords } from '../../src/server/store/sessionRecords';
import { SourceRecords } from '../../src/server/store/sourceRecords';
import { EventLog } from '../../src/server/store/eventLog';
import { ViewRecords } from '../../src/server/store/viewRecords';
import { WorkspaceRecords } from '../../src/server/store/workspaceRecords';
import { LabelRecords } from '../../src/server/store/labelRecords';
import { LESSON_CAP } from '../../src/server/store/types';
import { BUILTIN_VIEWS } from '../../src/model/views';
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
    const log = new EventLog(db);
    return {
      sessions: new SessionRecords(db),
      members: new MemberRecords(db),
      sources: new SourceRecords(db),
      views: new ViewRecords(db, log),
      workspaces: new WorkspaceRecords(db),
      labels: new LabelRecords(db, log),
      db,
      log,
      close,
    };
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

  it('keeps custom views with their events, in one transaction: a change whose events fail is not made', async () => {
    const { views, log, close } = await open();
    const told = (type: string) => (result: unknown) => [{ userId: 'U1', type, data: result }];
    const created = await views.createCustomView(
      'T1',
      'U1',
      { id: 'v1', label: 'Payments', filters: [], parentViewId: 'inbox', isVisible: true },
      10,
      told('custom_view_update'),
    );
    // SPEC §4.9: after the page's built-in views.
    expect(created.result).toMatchObject({ id: 'v1', label: 'Payments', position: BUILTIN_VIEWS.filter((v) => v.parentViewId === 'inbox').length + 1 });
    expect(created.events.map((e) => [e.type, e.sequence])).toEqual([['custom_view_update', 1]]);
    const updated = await views.updateCustomView('T1', 'U1', 'v1', { label: 'Payments team', isVisible: 'toggle' }, 20, told('custom_view_update'));
    expect(updated?.result).toMatchObject({ label: 'Payments team', isVisible: false, updatedAt: 20 });
    expect(await views.updateCustomView('T1', 'U2', 'v1', { label: 'not theirs' }, 21, told('custom_view_update'))).toBeNull();
    await expect(
      views.createCustomView('T1', 'U1', { id: 'v2', label: 'Lost', filters: [], parentViewId: 'inbox', isVisible: true }, 30, () => {
        throw new Error('the events could not be built');
      }),
    ).rejects.toThrow('the events could not be built');
    expect(await views.getCustomView('T1', 'U1', 'v2')).toBeNull();
    expect(
      await views.reorderCustomViews(
        'T1',
        'U1',
        [
          { id: 'v1', position: 9 },
          { id: 'nope', position: 1 },
        ],
        40,
        told('views'),
      ),
    ).toBeNull();
    const reordered = await views.reorderCustomViews('T1', 'U1', [{ id: 'v1', position: 9 }], 40, told('views'));
    expect(reordered?.result.custom.map((v) => [v.id, v.position])).toEqual([['v1', 9]]);
    const init = await views.initializeBuiltinViews('T1', 'U1', 50, told('views'));
    expect(init.result.created).toBe(BUILTIN_VIEWS.length);
    expect((await views.initializeBuiltinViews('T1', 'U1', 51, told('views'))).result.created).toBe(0);
    const hidden = await views.setBuiltinVisibility('T1', 'U1', 'dms', 'toggle', 60, told('builtin_view_update'));
    expect(hidden?.result).toMatchObject({ id: 'dms', isVisible: false });
    expect(await views.setBuiltinVisibility('T1', 'U1', 'no-such-view', false, 61, told('builtin_view_update'))).toBeNull();
    expect(await views.deleteCustomView('T1', 'U1', 'v1', 70, told('custom_view_delete'))).toMatchObject({ result: 'v1' });
    expect(await views.deleteCustomView('T1', 'U1', 'v1', 71, told('custom_view_delete'))).toBeNull();
    // Every change that was made told once, in order, with no sequence taken by the failed one.
    const events = await log.after('T1', 'U1', 0, 100);
    expect(events.map((e) => e.type)).toEqual([
      'custom_view_update',
      'custom_view_update',
      'views',
      'views',
      'views',
      'builtin_view_update',
      'custom_view_delete',
    ]);
    expect(events.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    await close();
  });

  it('keeps workspaces (an upsert keeps whether the first import finished), accounts over workspaces, and their people', async () => {
    const { workspaces, db, close } = await open();
    await workspaces.upsertWorkspace({ id: 'T1', name: 'Acme', domain: 'acme', source: 'slack' });
    expect(await workspaces.workspaceImported('T1')).toBe(false);
    await workspaces.markWorkspaceImported('T1');
    await workspaces.upsertWorkspace({ id: 'T1', name: 'Acme Corp', icon: 'https://a.example/i.png', source: 'slack' });
    expect(await workspaces.getWorkspace('T1')).toEqual({ id: 'T1', name: 'Acme Corp', icon: 'https://a.example/i.png' });
    expect(await workspaces.workspaceImported('T1')).toBe(true);
    expect(await workspaces.getWorkspace('T404')).toBeNull();
    await workspaces.upsertWorkspace({ id: 'T2', name: 'Beta', source: 'slack' });
    // One account over two workspaces; a member first seen gets an account of their own; nobody is moved.
    expect(await workspaces.addMembership('A1', 'T1', 'U1')).toBe(true);
    expect(await workspaces.addMembership('A1', 'T2', 'U7')).toBe(true);
    expect(await workspaces.addMembership('A9', 'T1', 'U1')).toBe(false);
    expect((await workspaces.memberships('A1')).map((m) => [m.workspace.name, m.userId])).toEqual([
      ['Acme Corp', 'U1'],
      ['Beta', 'U7'],
    ]);
    expect(await workspaces.accountFor('T1', 'U1')).toBe('A1');
    expect(await workspaces.accountFor('T1', 'U2')).toBe('A_T1_U2');
    // Two accounts claiming one new member at once: one wins, the other is told no.
    const claims = await Promise.all([workspaces.addMembership('A3', 'T2', 'U8'), workspaces.addMembership('A4', 'T2', 'U8')]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const dana = { id: 'U1', name: 'dana', real_name: 'Dana Reyes', display_name: 'Dana', avatar: 'https://a.example/d.png', title: 'PM' };
    await db.run(`INSERT INTO users (workspace_id, id, data) VALUES (?, ?, ?), (?, ?, ?)`, [
      'T1',
      'U1',
      JSON.stringify(dana),
      'T1',
      'U0',
      JSON.stringify({ ...dana, id: 'U0' }),
    ]);
    expect(await workspaces.getUser('T1', 'U1')).toEqual(dana);
    expect((await workspaces.listUsers('T1')).map((u) => u.id)).toEqual(['U0', 'U1']);
    expect(await workspaces.userData('T1', ['U1', 'U1', 'U404'])).toEqual({
      U1: { id: 'U1', name: 'dana', real_name: 'Dana Reyes', display_name: 'Dana', avatar: 'https://a.example/d.png' },
    });
    await close();
  });

  it("keeps each member's categories with their events: the same one again is no news, the AI never overwrites a hand-set one", async () => {
    const { labels, log, close } = await open();
    const told = () => [{ userId: 'U1', type: 'conversation_update', data: {} }];
    const manual = { category: 'urgent' as const, source: 'manual' as const, reason: 'set by hand', confidence: 0.94 };
    expect((await labels.setLabel('T1', 'U1', 'C1', manual, 1, told)).events).toHaveLength(1);
    // A retry: the same label, with its confidence read back exactly.
    expect((await labels.setLabel('T1', 'U1', 'C1', manual, 2, told)).events).toEqual([]);
    const ai = (conversationId: string, category: 'fyi' | 'can_wait') => ({
      conversationId,
      category,
      reason: 'looks like news',
      confidence: 0.61,
      triggers: [{ why: 'announcement' }],
      basisTs: '1.000100',
    });
    const written = await labels.setAiLabels('T1', 'U1', [ai('C1', 'fyi'), ai('C2', 'can_wait')], 3, (w) => [
      { userId: 'U1', type: 'labels', data: w.map((l) => l.conversationId) },
    ]);
    expect(written.result.map((l) => l.conversationId)).toEqual(['C2']);
    expect((await labels.setLabel('T1', 'U1', 'C2', null, 4, told)).events).toHaveLength(1);
    expect((await labels.setLabel('T1', 'U1', 'C2', null, 5, told)).events).toEqual([]);
    expect((await log.after('T1', 'U1', 0, 10)).map((e) => [e.type, e.sequence])).toEqual([
      ['conversation_update', 1],
      ['labels', 2],
      ['conversation_update', 3],
    ]);
    await close();
  });

  it(`keeps a member's ${LESSON_CAP} newest lessons, oldest first`, async () => {
    const { labels, close } = await open();
    const lesson = (n: number) => ({
      category: 'urgent' as const,
      conversationId: `C${n}`,
      conversationName: `c${n}`,
      type: 'channel' as const,
      senderId: null,
      senderName: null,
      words: ['deploy'],
      at: n,
    });
    for (let n = 0; n < LESSON_CAP + 3; n++) await labels.addLesson('T1', 'U1', lesson(n));
    await labels.addLesson('T1', 'U2', lesson(999));
    const kept = await labels.listLessons('T1', 'U1');
    expect(kept).toHaveLength(LESSON_CAP);
    expect([kept[0]!.at, kept.at(-1)!.at]).toEqual([3, LESSON_CAP + 2]);
    expect(await labels.listLessons('T1', 'U2')).toEqual([lesson(999)]);
    await close();
  });
});

describe('the SQLite store while it moves onto the handle', () => {
  it('runs its own statements after a transaction an aggregate holds, never inside it (the rollback keeps them)', async () => {
    const store = new SqliteStore(':memory:');
    const handle = (store as unknown as { handle: SqliteHandle }).handle;
    let inside!: () => void;
    const open = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // An aggregate's transaction, holding the connection across an await, that will roll back.
    const transaction = handle.transaction(async (tx) => {
      await tx.run(`INSERT INTO waitlist (email, platform, created_at) VALUES ('lost@example.com', 'teams', 1)`);
      inside();
      await held;
      throw new Error('rolled back');
    });
    await open;
    // Another request meanwhile: a statement of the store's own (not an aggregate's), from outside the transaction.
    const workspace = store.upsertWorkspace({ id: 'T9', name: 'Kept', source: 'demo' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    await workspace;
    expect(await store.getWorkspace('T9')).toMatchObject({ id: 'T9', name: 'Kept' });
    expect(await store.countWaitlist()).toBe(0);
    await store.close();
  });
});
