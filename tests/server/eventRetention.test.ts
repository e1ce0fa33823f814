/**
 * The event log's retention (issue 14 §2), over real HTTP: events pruned by age and by count, a
 * stream resuming below what the log holds told `resync: true, reason: 'expired'` with no replay,
 * one resuming within it replayed as before, and a member's sequence that never goes down.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationSummary, LiveEvent } from '../../src/model/types';
import { eventRetentionFromDays, pruneEventLog, startEventLogPruning } from '../../src/server/live/retention';
import { silentLogger } from '../../src/server/log';
import { optionsFromEnv } from '../../src/server/main';
import { MIGRATIONS } from '../../src/server/store/migrations';
import { SqliteStore } from '../../src/server/store/sqlite';
import { DEMO_WORKSPACES } from '../../src/server/sources/demoSource';
import { FIXED_NOW, api, openStream, signIn, startTestServer, type TestServer } from './helpers';

const MAIN = DEMO_WORKSPACES[0]!;
const DAY_MS = 24 * 60 * 60 * 1000;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server on a clock the test moves, and the member's API and a channel they post in. */
async function start(options: { file?: string } = {}) {
  const clock = { now: FIXED_NOW };
  // Sessions that outlive the days the clock moves on.
  server = await startTestServer({ now: () => clock.now, ai: null, sessions: { maxAgeMs: 90 * DAY_MS, idleMs: 90 * DAY_MS }, ...options });
  const { token } = await signIn(server.url);
  const call = api(server.url, token);
  const conversations = (await call<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data')).body.data.conversations;
  const channel = conversations.find((c) => c.type === 'channel' && c.member_ids.includes(MAIN.memberUserId))!;
  /** Posts; each post is one event in the member's log. */
  const post = async (...texts: string[]) => {
    for (const text of texts) expect((await call('/api/messages/send', { body: { channel: channel.id, text } })).status).toBe(200);
  };
  const bounds = () => server!.store.eventLogBounds(MAIN.id, MAIN.memberUserId);
  const prune = (days: number, max: number) => pruneEventLog({ store: server!.store, now: () => clock.now, retention: eventRetentionFromDays(days, max) });
  return { clock, token, call, post, bounds, prune };
}

/** What a stream resuming from `lastSequence` sends until it has said whether it replays. */
async function resume(token: string, lastSequence: number): Promise<LiveEvent[]> {
  const stream = await openStream(server!.url, token, lastSequence);
  try {
    const events = await stream.until((e) =>
      e.some((x) => x.type === 'replay_complete' || (x.type === 'connection' && (x.data as { resync?: boolean }).resync)),
    );
    // Give a wrong replay the time to show itself.
    await new Promise((r) => setTimeout(r, 100));
    return [...events];
  } finally {
    stream.close();
  }
}

describe('the event log retention', () => {
  it('prunes events older than the retention days; a stream from below them is told expired, one within them replays', async () => {
    const { clock, token, post, bounds, prune } = await start();
    await post('old one', 'old two');
    const { current: oldTop } = await bounds();
    clock.now += 8 * DAY_MS;
    await post('new one', 'new two');
    const { current } = await bounds();
    expect(current).toBe(oldTop + 2);

    // Nothing is older than 10 days: nothing goes.
    expect(await prune(10, 50_000)).toMatchObject({ events: 0 });
    expect(await bounds()).toEqual({ current, replayableFrom: 0 });
    // Every member of the channel had events; only the old ones go.
    expect(await prune(7, 50_000)).toMatchObject({ events: expect.any(Number) });
    expect(await bounds()).toEqual({ current, replayableFrom: oldTop });
    expect((await server!.store.eventsAfter(MAIN.id, MAIN.memberUserId, 0)).map((e) => e.sequence)).toEqual([oldTop + 1, oldTop + 2]);

    const expired = await resume(token, oldTop - 1);
    expect(expired).toEqual([{ type: 'connection', data: { currentSequence: current, resync: true, reason: 'expired' }, timestamp: clock.now }]);

    const replayed = await resume(token, oldTop);
    expect(replayed[0]).toEqual({ type: 'connection', data: { currentSequence: current }, timestamp: clock.now });
    expect(replayed.slice(1).map((e) => [e.type, e.sequence, e.isReplay])).toEqual([
      ['message_update', oldTop + 1, true],
      ['message_update', oldTop + 2, true],
      ['replay_complete', undefined, undefined],
    ]);
  });

  it('keeps at most the newest SIFT_EVENT_RETENTION_MAX events of a member', async () => {
    const { token, post, bounds, prune } = await start();
    await post('a', 'b', 'c', 'd', 'e');
    const { current } = await bounds();
    expect((await prune(7, 3)).events).toBeGreaterThanOrEqual(current - 3);
    expect(await bounds()).toEqual({ current, replayableFrom: current - 3 });
    expect((await server!.store.eventsAfter(MAIN.id, MAIN.memberUserId, 0)).map((e) => e.sequence)).toEqual([current - 2, current - 1, current]);
    // A second pass with nothing new removes nothing.
    expect(await prune(7, 3)).toMatchObject({ members: 0, events: 0 });

    expect((await resume(token, current - 4))[0]!.data).toEqual({ currentSequence: current, resync: true, reason: 'expired' });
    const replayed = await resume(token, current - 3);
    expect(replayed.filter((e) => e.isReplay).map((e) => e.sequence)).toEqual([current - 2, current - 1, current]);
  });

  it('a member whose every event was pruned keeps their sequence, across a restart; a sequence beyond it is told ahead', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sift-retention-')), 'sift.db');
    const first = await start({ file });
    await first.post('x', 'y');
    const { current } = await first.bounds();
    first.clock.now += 8 * DAY_MS;
    await first.prune(7, 50_000);
    expect(await first.bounds()).toEqual({ current, replayableFrom: current });
    expect(await server!.store.eventsAfter(MAIN.id, MAIN.memberUserId, 0)).toEqual([]);
    await server!.close();

    const again = await start({ file });
    expect(await again.bounds()).toEqual({ current, replayableFrom: current });
    // Up to date: nothing to replay, and no resync.
    expect((await resume(again.token, current)).map((e) => e.type)).toEqual(['connection', 'replay_complete']);
    expect((await resume(again.token, current - 1))[0]!.data).toEqual({ currentSequence: current, resync: true, reason: 'expired' });
    expect((await resume(again.token, current + 5))[0]!.data).toEqual({ currentSequence: current, resync: true, reason: 'ahead' });
    // The next event continues the sequence; it never restarts at 1.
    await again.post('z');
    expect((await server!.store.eventsAfter(MAIN.id, MAIN.memberUserId, 0)).map((e) => e.sequence)).toEqual([current + 1]);
  });

  it('prunes once at start and then on a timer', async () => {
    const { clock, post, bounds } = await start();
    await post('p', 'q');
    const { current } = await bounds();
    clock.now += 8 * DAY_MS;
    const stop = startEventLogPruning({ store: server!.store, now: () => clock.now, retention: eventRetentionFromDays(), logger: silentLogger });
    stop();
    await expect.poll(async () => (await bounds()).replayableFrom).toBe(current);
  });
});

describe('the event log of a database from before the retention', () => {
  it('takes each member’s sequence from the events it holds', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sift-retention-')), 'old.db');
    const db = new Database(file);
    for (const [version, sql] of MIGRATIONS.slice(0, 15).entries()) {
      db.exec(sql);
      db.pragma(`user_version = ${version + 1}`);
    }
    const insert = db.prepare(`INSERT INTO events (workspace_id, user_id, sequence, type, data, created_at) VALUES ('W1', ?, ?, 'x', '{}', 0)`);
    for (let s = 1; s <= 4; s++) insert.run('U1', s);
    insert.run('U2', 1);
    db.close();
    const store = new SqliteStore(file);
    try {
      expect(await store.eventLogBounds('W1', 'U1')).toEqual({ current: 4, replayableFrom: 0 });
      expect(await store.currentSequence('W1', 'U2')).toBe(1);
      expect(await store.currentSequence('W1', 'U3')).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('SIFT_EVENT_RETENTION_DAYS and SIFT_EVENT_RETENTION_MAX', () => {
  it('default to 7 days and 50,000 events per member', () => {
    expect(optionsFromEnv({}).eventRetention).toEqual({ maxAgeMs: 7 * DAY_MS, maxPerMember: 50_000 });
    expect(optionsFromEnv({ SIFT_EVENT_RETENTION_DAYS: '0.5', SIFT_EVENT_RETENTION_MAX: '1000' }).eventRetention).toEqual({
      maxAgeMs: DAY_MS / 2,
      maxPerMember: 1000,
    });
  });

  it.each([
    ['SIFT_EVENT_RETENTION_DAYS', '0', /SIFT_EVENT_RETENTION_DAYS must be a positive number of days, not 0/],
    ['SIFT_EVENT_RETENTION_DAYS', 'week', /SIFT_EVENT_RETENTION_DAYS must be a non-negative number, not week/],
    ['SIFT_EVENT_RETENTION_MAX', '0', /SIFT_EVENT_RETENTION_MAX must be a whole number of at least 1, not 0/],
    ['SIFT_EVENT_RETENTION_MAX', '2.5', /SIFT_EVENT_RETENTION_MAX must be a whole number, not 2.5/],
    ['SIFT_EVENT_RETENTION_MAX', '-3', /SIFT_EVENT_RETENTION_MAX must be a non-negative number, not -3/],
  ])('refuses %s=%s with a clear error', (name, value, message) => {
    expect(() => optionsFromEnv({ [name]: value })).toThrow(message);
  });
});
