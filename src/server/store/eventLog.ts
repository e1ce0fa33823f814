/**
 * The event log as an aggregate over the database handle (issue 15 §1, §2), on SQLite and PostgreSQL alike:
 * each member's events under their own sequence, committed in the same transaction as the change they tell of.
 *
 * - A sequence is taken from the database, never from memory: the member's `event_sequences` row is raised by
 *   the batch's size and read back in one statement (`… DO UPDATE … RETURNING`), which holds the row's lock
 *   until the transaction ends. Two servers writing for one member therefore queue on that row: the sequences
 *   stay gap-free and strictly increasing whichever server writes, and a rolled-back batch takes none.
 * - On PostgreSQL, the batch also says `NOTIFY sift_events` with the member and the last sequence, delivered only
 *   when the transaction commits; every server LISTENs (EventNotifications) and then reads the log, so a missed
 *   notification never loses an event: the next read catches up.
 *
 * The schema matches the SQLite store's (store/migrations.ts 1 and 16), so the store's port keeps its data.
 */
import type { Db } from './db';
import type { Migration } from './migrate';
import { greatest, indexedBy, insertMany } from './sql';
import type { EventLogBounds, EventLogPruned, MemberEvent, StoredEvent } from './types';

/** Rows deleted per transaction when pruning (a few milliseconds each). */
const PRUNE_CHUNK = 2_000;

export const NOTIFY_CHANNEL = 'sift_events';

export const EVENT_LOG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'event log',
    sqlite: `
      CREATE TABLE events (
        workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, sequence INTEGER NOT NULL,
        type TEXT NOT NULL, data TEXT NOT NULL, created_at INTEGER NOT NULL,
        PRIMARY KEY (workspace_id, user_id, sequence)
      ) WITHOUT ROWID;
      CREATE INDEX events_by_time ON events (created_at);
      CREATE TABLE event_sequences (
        workspace_id TEXT NOT NULL, user_id TEXT NOT NULL,
        last_sequence INTEGER NOT NULL, pruned_through INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (workspace_id, user_id)
      ) WITHOUT ROWID;`,
    postgres: `
      CREATE TABLE events (
        workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, sequence BIGINT NOT NULL,
        type TEXT NOT NULL, data TEXT NOT NULL, created_at BIGINT NOT NULL,
        PRIMARY KEY (workspace_id, user_id, sequence)
      );
      CREATE INDEX events_by_time ON events (created_at);
      CREATE TABLE event_sequences (
        workspace_id TEXT NOT NULL, user_id TEXT NOT NULL,
        last_sequence BIGINT NOT NULL, pruned_through BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (workspace_id, user_id)
      );`,
  },
];

/** A notification's payload: the member and the last sequence the commit gave them. */
export interface EventNotice {
  workspaceId: string;
  userId: string;
  sequence: number;
}

/** A notification's payload (JSON: PostgreSQL text holds no NUL) read back; null when it is not one of ours. */
export function noticeOf(payload: string): EventNotice | null {
  try {
    const [workspaceId, userId, sequence] = JSON.parse(payload) as unknown[];
    return typeof workspaceId === 'string' && typeof userId === 'string' && Number.isSafeInteger(sequence) && (sequence as number) > 0
      ? { workspaceId, userId, sequence: sequence as number }
      : null;
  } catch {
    return null;
  }
}

export class EventLog {
  constructor(private readonly db: Db) {}

  /**
   * Appends a batch in the caller's transaction `tx` (the change it tells of is written there too); answers the
   * events with their sequences, in the batch's order, for the hub once the transaction has committed.
   */
  async append(tx: Db, workspaceId: string, events: readonly MemberEvent[], at: number): Promise<Array<StoredEvent & { userId: string }>> {
    if (events.length === 0) return [];
    const counts = new Map<string, number>();
    for (const event of events) counts.set(event.userId, (counts.get(event.userId) ?? 0) + 1);
    // In one order on every server (the rows' locks are taken in it): two batches naming the same members never
    // deadlock. One statement raises every member's sequence and reads it back (a round trip per batch, not per member).
    const members = [...counts].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    const raised = await tx.all<{ user_id: string; last_sequence: number }>(
      `INSERT INTO event_sequences (workspace_id, user_id, last_sequence) VALUES ${members.map(() => '(?, ?, ?)').join(', ')}
       ON CONFLICT (workspace_id, user_id) DO UPDATE SET last_sequence = event_sequences.last_sequence + excluded.last_sequence
       RETURNING user_id, last_sequence`,
      members.flatMap(([userId, n]) => [workspaceId, userId, n]),
    );
    /** The next sequence to give each member in this batch. */
    const next = new Map<string, number>();
    for (const row of raised) next.set(row.user_id, row.last_sequence - counts.get(row.user_id)! + 1);
    const out: Array<StoredEvent & { userId: string }> = [];
    for (const event of events) {
      const sequence = next.get(event.userId)!;
      next.set(event.userId, sequence + 1);
      out.push({ userId: event.userId, type: event.type, data: event.data, sequence, timestamp: at });
    }
    await insertMany(
      tx,
      'events',
      ['workspace_id', 'user_id', 'sequence', 'type', 'data', 'created_at'],
      out.map((e) => [workspaceId, e.userId, e.sequence, e.type, JSON.stringify(e.data), at]),
    );
    if (tx.dialect === 'postgres') {
      // One statement for the batch's notifications (delivered on commit, one per member).
      const notices = members.map(([userId]) => JSON.stringify([workspaceId, userId, next.get(userId)! - 1]));
      for (let i = 0; i < notices.length; i += 500) {
        const chunk = notices.slice(i, i + 500);
        await tx.all(
          `SELECT ${chunk.map(() => 'pg_notify(?, ?)').join(', ')}`,
          chunk.flatMap((notice) => [NOTIFY_CHANNEL, notice]),
        );
      }
    }
    return out;
  }

  /** Appends a batch in a transaction of its own (events that tell of no stored change). */
  appendAlone(workspaceId: string, events: readonly MemberEvent[], at: number): Promise<Array<StoredEvent & { userId: string }>> {
    return this.db.transaction((tx) => this.append(tx, workspaceId, events, at));
  }

  /**
   * The retention (issue 14 §2). Per member, the newest sequence to drop is the larger of the newest written
   * before `before` (a clock that stepped back leaves no hole: everything up to it goes) and `last - maxPerMember`.
   * The member's replayableFrom rises first, then the rows go in short transactions, yielding to the event loop
   * between them, so a large first pass never blocks the server for long; the sends remembered before `before`
   * go too. Sequences have no holes and pruning only removes a member's oldest run, so what remains replays whole.
   */
  async prune(before: number, maxPerMember: number): Promise<EventLogPruned> {
    const db = this.db;
    const through = new Map<string, { workspaceId: string; userId: string; sequence: number }>();
    const raise = (workspaceId: string, userId: string, sequence: number) => {
      const key = `${workspaceId}\u0000${userId}`;
      if ((through.get(key)?.sequence ?? 0) < sequence) through.set(key, { workspaceId, userId, sequence });
    };
    type Row = { workspace_id: string; user_id: string; s: number };
    const old = await db.all<Row>(
      `SELECT workspace_id, user_id, max(sequence) AS s FROM events${indexedBy(db, 'events_by_time')} WHERE created_at < ? GROUP BY workspace_id, user_id`,
      [before],
    );
    const long = await db.all<Row>(`SELECT workspace_id, user_id, last_sequence - ? AS s FROM event_sequences WHERE last_sequence - pruned_through > ?`, [
      maxPerMember,
      maxPerMember,
    ]);
    for (const row of [...old, ...long]) raise(row.workspace_id, row.user_id, row.s);
    let events = 0;
    for (const { workspaceId, userId, sequence } of through.values()) {
      await db.run(`UPDATE event_sequences SET pruned_through = ${greatest(db, 'pruned_through', '?')} WHERE workspace_id = ? AND user_id = ?`, [
        sequence,
        workspaceId,
        userId,
      ]);
      for (;;) {
        const dropped = await db.run(
          `DELETE FROM events WHERE workspace_id = ? AND user_id = ? AND sequence IN
             (SELECT sequence FROM events WHERE workspace_id = ? AND user_id = ? AND sequence <= ? ORDER BY sequence LIMIT ?)`,
          [workspaceId, userId, workspaceId, userId, sequence, PRUNE_CHUNK],
        );
        events += dropped;
        await new Promise((resolve) => setImmediate(resolve));
        if (dropped < PRUNE_CHUNK) break;
      }
    }
    const sends = await db.run(`DELETE FROM message_sends WHERE created_at < ?`, [before]);
    return { members: through.size, events, sends };
  }

  async current(workspaceId: string, userId: string): Promise<number> {
    const row = await this.db.get<{ last_sequence: number }>(`SELECT last_sequence FROM event_sequences WHERE workspace_id = ? AND user_id = ?`, [
      workspaceId,
      userId,
    ]);
    return row?.last_sequence ?? 0;
  }

  async bounds(workspaceId: string, userId: string): Promise<EventLogBounds> {
    const row = await this.db.get<{ last_sequence: number; pruned_through: number }>(
      `SELECT last_sequence, pruned_through FROM event_sequences WHERE workspace_id = ? AND user_id = ?`,
      [workspaceId, userId],
    );
    return { current: row?.last_sequence ?? 0, replayableFrom: row?.pruned_through ?? 0 };
  }

  async after(workspaceId: string, userId: string, after: number, limit: number): Promise<StoredEvent[]> {
    const rows = await this.db.all<{ sequence: number; type: string; data: string; created_at: number }>(
      `SELECT sequence, type, data, created_at FROM events WHERE workspace_id = ? AND user_id = ? AND sequence > ? ORDER BY sequence LIMIT ?`,
      [workspaceId, userId, after, limit],
    );
    return rows.map((row) => ({ type: row.type, data: JSON.parse(row.data) as unknown, sequence: row.sequence, timestamp: row.created_at }));
  }
}
