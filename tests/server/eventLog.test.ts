/**
 * The event log over the database handle (issue 15 §1, §2), the same tests on SQLite and on a real PostgreSQL
 * started by the test (tests/server/postgres.ts): migrations run once even when two servers start together;
 * each member's sequences are gap-free and strictly increasing, in the batch's order, whichever of two servers
 * writes and however their writes interleave; a rolled-back batch takes no sequence; on PostgreSQL a commit
 * notifies the other servers (never before it commits, never for a rollback).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, openSqlite, type Db } from '../../src/server/store/db';
import { EVENT_LOG_MIGRATIONS, EventLog, type EventNotice } from '../../src/server/store/eventLog';
import { listenForEvents } from '../../src/server/store/eventNotifications';
import { migrate } from '../../src/server/store/migrate';
import { startPostgres, type RunningPostgres } from './postgres';
import { bridgeNotifications } from '../../src/server/live/bridge';
import { LiveHub } from '../../src/server/live/hub';
import { silentLogger } from '../../src/server/log';

let postgres: RunningPostgres;
const folder = mkdtempSync(join(tmpdir(), 'sift-eventlog-'));
let files = 0;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/**
 * Two servers' handles on one fresh database of the engine. SQLite is one server's embedded database: its two
 * writers are two concurrent flows through the one handle (a second handle in the same process would wait on
 * the file's lock with the thread that holds it).
 */
const engines: Record<string, () => Promise<{ a: Db; b: Db; url?: string }>> = {
  sqlite: async () => {
    const db = openSqlite(join(folder, `log-${++files}.db`));
    return { a: db, b: db };
  },
  postgres: async () => {
    const url = await postgres.database();
    return { a: openPostgres(url, { poolSize: 4 }), b: openPostgres(url, { poolSize: 4 }), url };
  },
};

const event = (userId: string, n: number) => ({ userId, type: 'message_update', data: { n } });

describe.each(Object.keys(engines))('the event log on %s', (engine) => {
  async function open() {
    const handles = await engines[engine]!();
    // Two servers start together: the migrations run once.
    const applied = await Promise.all([migrate(handles.a, EVENT_LOG_MIGRATIONS), migrate(handles.b, EVENT_LOG_MIGRATIONS)]);
    expect(applied.flat()).toEqual([1]);
    expect(await migrate(handles.a, EVENT_LOG_MIGRATIONS)).toEqual([]);
    const close = () => Promise.all([...new Set([handles.a, handles.b])].map((db) => db.close()));
    return { ...handles, logA: new EventLog(handles.a), logB: new EventLog(handles.b), close };
  }

  it("gives each member gap-free sequences in the batch's order, and reads them back", async () => {
    const { a, logA, close } = await open();
    const first = await a.transaction((tx) => logA.append(tx, 'T1', [event('U1', 1), event('U2', 1), event('U1', 2)], 1_000));
    expect(first.map((e) => [e.userId, e.sequence])).toEqual([
      ['U1', 1],
      ['U2', 1],
      ['U1', 2],
    ]);
    await a.transaction((tx) => logA.append(tx, 'T1', [event('U1', 3)], 2_000));
    expect(await logA.current('T1', 'U1')).toBe(3);
    expect(await logA.bounds('T1', 'U2')).toEqual({ current: 1, replayableFrom: 0 });
    expect((await logA.after('T1', 'U1', 1, 10)).map((e) => [e.sequence, (e.data as { n: number }).n, e.timestamp])).toEqual([
      [2, 2, 1_000],
      [3, 3, 2_000],
    ]);
    expect(await logA.after('T1', 'U1', 0, 1)).toHaveLength(1);
    // Another workspace's member of the same id has a log of their own.
    expect(await logA.current('T2', 'U1')).toBe(0);
    await close();
  });

  it('a batch whose transaction rolls back takes no sequence', async () => {
    const { a, logA, close } = await open();
    await a.transaction((tx) => logA.append(tx, 'T1', [event('U1', 1)], 1));
    await expect(
      a.transaction(async (tx) => {
        await logA.append(tx, 'T1', [event('U1', 2), event('U1', 3)], 2);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const next = await a.transaction((tx) => logA.append(tx, 'T1', [event('U1', 4)], 3));
    expect(next[0]!.sequence).toBe(2);
    expect((await logA.after('T1', 'U1', 0, 10)).map((e) => (e.data as { n: number }).n)).toEqual([1, 4]);
    await close();
  });

  it('two servers writing for one member at once: one run of sequences, none twice, none missing, each server in order', async () => {
    const { a, b, logA, logB, close } = await open();
    const write = (db: Db, log: EventLog, server: string) =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          db.transaction((tx) =>
            log.append(
              tx,
              'T1',
              Array.from({ length: 1 + (i % 3) }, (_, k) => ({ ...event('U1', i), data: { server, i, k } })),
              i,
            ),
          ),
        ),
      );
    const [fromA, fromB] = await Promise.all([write(a, logA, 'A'), write(b, logB, 'B')]);
    const all = [...fromA.flat(), ...fromB.flat()].map((e) => e.sequence).sort((x, y) => x - y);
    const total = 2 * Array.from({ length: 40 }, (_, i) => 1 + (i % 3)).reduce((s, n) => s + n, 0);
    expect(all).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    // Within a batch, consecutive.
    for (const batch of [...fromA, ...fromB]) expect(batch.map((e) => e.sequence)).toEqual(batch.map((_, k) => batch[0]!.sequence + k));
    // Either server reads the one log.
    expect((await logB.after('T1', 'U1', 0, 1_000)).map((e) => e.sequence)).toEqual(all);
    await close();
  });

  it('batches naming the same members in opposite orders, from two servers at once, never deadlock', async () => {
    const { a, b, logA, logB, close } = await open();
    const members = ['U1', 'U2', 'U3'];
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const order = i % 2 ? members : [...members].reverse();
        const [db, log] = i % 2 ? [a, logA] : [b, logB];
        return db.transaction((tx) =>
          log.append(
            tx,
            'T1',
            order.map((userId) => event(userId, i)),
            i,
          ),
        );
      }),
    );
    for (const userId of members) expect(await logA.current('T1', userId)).toBe(30);
    await close();
  });

  if (engine === 'postgres')
    it('a commit notifies the other servers with the member and the last sequence; nothing before the commit, nothing for a rollback', async () => {
      const { a, logA, url, close } = await open();
      const notices: EventNotice[] = [];
      const listening = await listenForEvents(url!, { onNotice: (notice) => notices.push(notice) });
      let commit!: () => void;
      const held = new Promise<void>((resolve) => (commit = resolve));
      const writing = a.transaction(async (tx) => {
        await logA.append(tx, 'T1', [event('U1', 1), event('U2', 1), event('U1', 2)], 1);
        await held;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(notices).toEqual([]);
      commit();
      await writing;
      await expect.poll(() => notices.length).toBe(2);
      expect(notices).toEqual(
        expect.arrayContaining([
          { workspaceId: 'T1', userId: 'U1', sequence: 2 },
          { workspaceId: 'T1', userId: 'U2', sequence: 1 },
        ]),
      );
      await a
        .transaction(async (tx) => {
          await logA.append(tx, 'T1', [event('U1', 3)], 2);
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(notices).toHaveLength(2);
      await listening.close();
      await close();
    });

  if (engine === 'postgres')
    it("a commit on one server reaches the member's streams on another server's hub once, read from the log (live/bridge.ts)", async () => {
      const { a, logA, url, close } = await open();
      const hub = new LiveHub();
      const pokes: number[] = [];
      const stopPokes = hub.onPoke('T1', 'U1', (sequence) => pokes.push(sequence));
      // Two streams of U1 here, both started at 0; U2 has none (its notification costs nothing).
      const first: number[] = [];
      const second: number[] = [];
      const stops = [hub.subscribe('T1', 'U1', (e) => first.push(e.sequence)), hub.subscribe('T1', 'U1', (e) => second.push(e.sequence))];
      hub.reached('T1', 'U1', 0);
      const reads: Array<[string, number]> = [];
      const bridge = await bridgeNotifications(
        url!,
        hub,
        (workspaceId, userId, after, limit) => {
          reads.push([userId, after]);
          return logA.after(workspaceId, userId, after, limit);
        },
        silentLogger,
      );
      await a.transaction((tx) => logA.append(tx, 'T1', [event('U1', 1), event('U2', 1), event('U1', 2)], 1));
      await expect.poll(() => first).toEqual([1, 2]);
      expect(second).toEqual([1, 2]);
      // One read for the member, however many streams; none for U2; no poke (the follower read for them).
      expect(reads).toEqual([['U1', 0]]);
      expect(pokes).toEqual([]);
      // This server's own publish of the next event: its notification is no news here.
      hub.publish('T1', [{ userId: 'U1', type: 'x', data: {}, sequence: 3, timestamp: 1 }]);
      await a.transaction((tx) => logA.append(tx, 'T1', [event('U1', 3)], 1));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(reads).toEqual([['U1', 0]]);
      expect(first).toEqual([1, 2, 3]);
      for (const stop of stops) stop();
      stopPokes();
      await bridge.close();
      await close();
    });
});
