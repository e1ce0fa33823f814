/**
 * The SQLite store's event log (DESIGN §7): each member's events under their own sequence, the
 * retention that prunes them (issue 14 §2), and the sends members made by client_msg_id (issue 14
 * §3), kept as long as the events. Sequences have no holes, and pruning only ever removes a member's
 * oldest run, so every event after `pruned_through` is held; `event_sequences` keeps each member's
 * last sequence apart from the rows, so it never goes down when they are pruned.
 */
import type Database from 'better-sqlite3';
import type { EventLogPruned, MemberEvent, SentMessage, StoredEvent } from './types';

type Statements = (sql: string) => Database.Statement;

/** Rows deleted per transaction when pruning (a few milliseconds each). */
const PRUNE_CHUNK = 2_000;

const key = (workspaceId: string, userId: string) => `${workspaceId}\u0000${userId}`;

export class SqliteEventLog {
  constructor(
    private readonly st: Statements,
    /** Runs `fn` while nothing else uses the connection (the pruning's chunks, between which it yields). */
    private readonly exclusive: <T>(fn: () => T) => Promise<T> = async (fn) => fn(),
  ) {}

  /**
   * The member's last sequence, from the database: a transaction that rolled back leaves no trace (an in-memory
   * counter kept the rolled-back numbers), and another writer's appends on the connection are seen.
   */
  private current(workspaceId: string, userId: string): number {
    const row = this.st(`SELECT last_sequence FROM event_sequences WHERE workspace_id = ? AND user_id = ?`).get(workspaceId, userId) as
      { last_sequence: number } | undefined;
    return row?.last_sequence ?? 0;
  }

  /** Must run inside a transaction (the change the events tell of commits with them, or neither does). */
  append(workspaceId: string, events: MemberEvent[], at: number): Array<StoredEvent & { userId: string }> {
    const insert = this.st(`INSERT INTO events (workspace_id, user_id, sequence, type, data, created_at) VALUES (?, ?, ?, ?, ?, ?)`);
    const out: Array<StoredEvent & { userId: string }> = [];
    /** Each touched member's last sequence in this batch. */
    const last = new Map<string, { userId: string; sequence: number }>();
    for (const event of events) {
      const k = key(workspaceId, event.userId);
      const sequence = (last.get(k)?.sequence ?? this.current(workspaceId, event.userId)) + 1;
      last.set(k, { userId: event.userId, sequence });
      insert.run(workspaceId, event.userId, sequence, event.type, JSON.stringify(event.data), at);
      out.push({ userId: event.userId, type: event.type, data: event.data, sequence, timestamp: at });
    }
    const upsert = this.st(
      `INSERT INTO event_sequences (workspace_id, user_id, last_sequence) VALUES (?, ?, ?)
       ON CONFLICT (workspace_id, user_id) DO UPDATE SET last_sequence = excluded.last_sequence`,
    );
    for (const { userId, sequence } of last.values()) upsert.run(workspaceId, userId, sequence);
    return out;
  }

  /**
   * Per member, the newest sequence to drop is the larger of the newest written before `before` (a
   * clock that stepped back leaves no hole: everything up to it goes) and `last - maxPerMember`. The
   * member's replayableFrom rises first, then the rows go in short transactions, yielding to the
   * event loop between them, so a large first pass never blocks the server for long.
   */
  async prune(before: number, maxPerMember: number): Promise<EventLogPruned> {
    const through = new Map<string, { workspaceId: string; userId: string; sequence: number }>();
    const raise = (workspaceId: string, userId: string, sequence: number) => {
      const k = key(workspaceId, userId);
      if ((through.get(k)?.sequence ?? 0) < sequence) through.set(k, { workspaceId, userId, sequence });
    };
    const [old, long] = await this.exclusive(() => [
      this.st(`SELECT workspace_id, user_id, max(sequence) AS s FROM events INDEXED BY events_by_time WHERE created_at < ? GROUP BY workspace_id, user_id`).all(
        before,
      ) as Array<{ workspace_id: string; user_id: string; s: number }>,
      this.st(`SELECT workspace_id, user_id, last_sequence - ? AS s FROM event_sequences WHERE last_sequence - pruned_through > ?`).all(
        maxPerMember,
        maxPerMember,
      ) as Array<{ workspace_id: string; user_id: string; s: number }>,
    ]);
    for (const row of old) raise(row.workspace_id, row.user_id, row.s);
    for (const row of long) raise(row.workspace_id, row.user_id, row.s);

    const mark = this.st(`UPDATE event_sequences SET pruned_through = max(pruned_through, ?) WHERE workspace_id = ? AND user_id = ?`);
    const drop = this.st(
      `DELETE FROM events WHERE workspace_id = ? AND user_id = ? AND sequence IN (SELECT sequence FROM events WHERE workspace_id = ? AND user_id = ? AND sequence <= ? ORDER BY sequence LIMIT ?)`,
    );
    let events = 0;
    for (const { workspaceId, userId, sequence } of through.values()) {
      await this.exclusive(() => mark.run(sequence, workspaceId, userId));
      for (;;) {
        const dropped = await this.exclusive(() => drop.run(workspaceId, userId, workspaceId, userId, sequence, PRUNE_CHUNK).changes);
        events += dropped;
        await new Promise((resolve) => setImmediate(resolve));
        if (dropped < PRUNE_CHUNK) break;
      }
    }
    const sends = await this.exclusive(() => this.st(`DELETE FROM message_sends WHERE created_at < ?`).run(before).changes);
    return { members: through.size, events, sends };
  }

  /** Remembers a member's send (inside the message's transaction); the first message of a client_msg_id stays the answer. */
  recordSend(workspaceId: string, userId: string, clientMsgId: string, sent: SentMessage, at: number): void {
    this.st(`INSERT OR IGNORE INTO message_sends (workspace_id, user_id, client_msg_id, conversation_id, ts, created_at) VALUES (?, ?, ?, ?, ?, ?)`).run(
      workspaceId,
      userId,
      clientMsgId,
      sent.conversationId,
      sent.ts,
      at,
    );
  }

  sent(workspaceId: string, userId: string, clientMsgId: string): SentMessage | null {
    const row = this.st(`SELECT conversation_id, ts FROM message_sends WHERE workspace_id = ? AND user_id = ? AND client_msg_id = ?`).get(
      workspaceId,
      userId,
      clientMsgId,
    ) as { conversation_id: string; ts: string } | undefined;
    return row ? { conversationId: row.conversation_id, ts: row.ts } : null;
  }
}
