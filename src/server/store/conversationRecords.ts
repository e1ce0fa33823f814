/**
 * Conversations, their messages and each member's read state, as an aggregate over the database handle (issue 15
 * §1), on SQLite and PostgreSQL alike: the pages of a member's list, a conversation and its messages, a send (with
 * its client_msg_id remembered, so a retried send posts once), read marks, what the AI reads of the unread ones,
 * and the workspace-level changes (a member losing access, a rename, a workspace emptied). Every change commits
 * with the events that tell of it, in one transaction.
 */
import type { ConversationSummary, Message } from '../../model/types';
import { maxTs, tsAfter } from '../../model/ts';
import { isQuietSubtype } from '../../model/slack';
import type { Db } from './db';
import type { Migration } from './migrate';
import { COUNTS_AS_UNREAD, indexedBy, limitOf } from './sql';
import {
  baseSummary,
  CONVERSATION_COLUMNS,
  MESSAGE_COLUMNS,
  readStates,
  SUMMARY_COLUMNS,
  SUMMARY_SELECT,
  toMessage,
  toRecord,
  toSummary,
  toUnread,
  type ConversationRow,
  type MessageRow,
  type SummaryRow,
  type UnreadRow,
} from './conversationRows';
import type {
  ConversationRecord,
  EventBuilder,
  InsertMessageInput,
  InsertMessageResult,
  ListOptions,
  MemberReadState,
  SentMessage,
  UnreadConversation,
  Written,
} from './types';
import type { EventAppender } from './viewRecords';

/**
 * PostgreSQL's tables (SQLite's come with the SQLite store's migrations 1, 2, 6, 7, 11 and 16). Ids and ts are
 * compared and ordered as bytes (COLLATE "C"), as SQLite does, whatever the database's own collation.
 */
export const CONVERSATION_RECORDS_MIGRATION: Migration = {
  version: 8,
  name: 'conversations, members, messages, sends',
  sqlite: '',
  postgres: `
    CREATE TABLE conversations (
      workspace_id TEXT NOT NULL, id TEXT COLLATE "C" NOT NULL,
      name TEXT NOT NULL, type TEXT NOT NULL CHECK (type IN ('dm', 'channel', 'thread')),
      is_private INTEGER NOT NULL DEFAULT 0, dm_user TEXT, member_ids TEXT NOT NULL DEFAULT '[]',
      parent_id TEXT COLLATE "C", thread_ts TEXT COLLATE "C", parent_user TEXT, parent_text TEXT, truth TEXT,
      message_count INTEGER NOT NULL DEFAULT 0, latest_ts TEXT COLLATE "C", latest_user TEXT, latest_text TEXT,
      PRIMARY KEY (workspace_id, id)
    );
    CREATE INDEX conversations_by_activity ON conversations (workspace_id, latest_ts DESC, id ASC);
    CREATE INDEX conversations_by_parent ON conversations (workspace_id, parent_id) WHERE parent_id IS NOT NULL;
    CREATE TABLE conversation_members (
      workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, conversation_id TEXT COLLATE "C" NOT NULL,
      last_read TEXT COLLATE "C" NOT NULL DEFAULT '', unread_count INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (workspace_id, user_id, conversation_id)
    );
    CREATE INDEX conversation_members_by_conversation ON conversation_members (workspace_id, conversation_id);
    CREATE INDEX conversation_members_unread ON conversation_members (workspace_id, user_id) WHERE unread_count > 0;
    CREATE TABLE messages (
      workspace_id TEXT NOT NULL, conversation_id TEXT COLLATE "C" NOT NULL, ts TEXT COLLATE "C" NOT NULL,
      "user" TEXT, text TEXT NOT NULL, subtype TEXT, thread_ts TEXT, reply_count INTEGER NOT NULL DEFAULT 0, client_msg_id TEXT,
      content TEXT, resolved_text TEXT,
      PRIMARY KEY (workspace_id, conversation_id, ts)
    );
    CREATE TABLE message_sends (
      workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, client_msg_id TEXT NOT NULL,
      conversation_id TEXT NOT NULL, ts TEXT NOT NULL, created_at BIGINT NOT NULL,
      PRIMARY KEY (workspace_id, user_id, client_msg_id)
    );
    CREATE INDEX message_sends_by_time ON message_sends (created_at);`,
};

export class ConversationRecords {
  constructor(
    private readonly db: Db,
    private readonly events: EventAppender,
  ) {}

  async list(workspaceId: string, userId: string, options: ListOptions = {}) {
    const db = this.db;
    const typeClause = options.type ? ` AND c.type = ?` : '';
    const typeParam = options.type ? [options.type] : [];
    const limit = limitOf(db, options.limit);
    const total = options.skipTotal
      ? -1
      : (options.type
          ? await db.get<{ n: number }>(
              `SELECT count(*) AS n FROM conversation_members m JOIN conversations c ON c.workspace_id = m.workspace_id AND c.id = m.conversation_id
                 WHERE m.workspace_id = ? AND m.user_id = ?${typeClause}`,
              [workspaceId, userId, ...typeParam],
            )
          : // Without a type, the member's rows alone (every one names a stored conversation): the primary key's
            // range, ~8 ms at 100,000 where the join takes ~150 ms on every first page.
            await db.get<{ n: number }>(`SELECT count(*) AS n FROM conversation_members m WHERE m.workspace_id = ? AND m.user_id = ?`, [workspaceId, userId]))!
          .n;
    let rows: SummaryRow[];
    if (options.order === 'activity') {
      // Walk the activity index and keep the member's rows: no sort, no OFFSET.
      const afterTs = options.after?.latest_ts ?? null;
      const afterId = options.after?.id ?? null;
      rows = await db.all<SummaryRow>(
        `SELECT ${SUMMARY_COLUMNS}
         FROM conversations c${indexedBy(db, 'conversations_by_activity')}
         JOIN conversation_members m ON m.workspace_id = c.workspace_id AND m.user_id = ? AND m.conversation_id = c.id
         LEFT JOIN labels l ON l.workspace_id = c.workspace_id AND l.user_id = ? AND l.conversation_id = c.id
         WHERE c.workspace_id = ?${typeClause}
           AND (CAST(? AS TEXT) IS NULL OR c.latest_ts < ? OR (c.latest_ts = ? AND c.id > ?))
         ORDER BY c.latest_ts DESC, c.id ASC LIMIT ?`,
        [userId, userId, workspaceId, ...typeParam, afterTs, afterTs, afterTs, afterId, limit],
      );
    } else {
      rows = await db.all<SummaryRow>(
        `${SUMMARY_SELECT} WHERE m.workspace_id = ? AND m.user_id = ?${typeClause}
         ORDER BY m.conversation_id LIMIT ? OFFSET ?`,
        [workspaceId, userId, ...typeParam, limit, options.offset ?? 0],
      );
    }
    const conversations = rows.map(toSummary);
    const last = rows[rows.length - 1];
    const full = options.limit !== undefined && rows.length === options.limit;
    return {
      conversations,
      total,
      ...(options.order === 'activity' && last && full ? { next: { latest_ts: last.latest_ts ?? '', id: last.id } } : {}),
    };
  }

  async get(workspaceId: string, userId: string, conversationId: string): Promise<ConversationSummary | null> {
    const row = await this.db.get<SummaryRow>(`${SUMMARY_SELECT} WHERE m.workspace_id = ? AND m.user_id = ? AND m.conversation_id = ?`, [
      workspaceId,
      userId,
      conversationId,
    ]);
    return row ? toSummary(row) : null;
  }

  async messages(workspaceId: string, conversationId: string, limit: number): Promise<Message[]> {
    const rows = await this.db.all<MessageRow>(
      `SELECT * FROM (SELECT ${MESSAGE_COLUMNS} FROM messages WHERE workspace_id = ? AND conversation_id = ? ORDER BY ts DESC LIMIT ?) newest ORDER BY ts ASC`,
      [workspaceId, conversationId, limit],
    );
    return rows.map(toMessage);
  }

  async message(workspaceId: string, conversationId: string, ts: string): Promise<Message | null> {
    const row = await this.db.get<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`, [
      workspaceId,
      conversationId,
      ts,
    ]);
    return row ? toMessage(row) : null;
  }

  async record(workspaceId: string, conversationId: string): Promise<ConversationRecord | null> {
    const row = await this.db.get<ConversationRow>(`SELECT ${CONVERSATION_COLUMNS} FROM conversations c WHERE c.workspace_id = ? AND c.id = ?`, [
      workspaceId,
      conversationId,
    ]);
    return row ? toRecord(row) : null;
  }

  async hasData(workspaceId: string): Promise<boolean> {
    return (await this.db.get(`SELECT 1 AS found FROM conversations WHERE workspace_id = ? LIMIT 1`, [workspaceId])) !== undefined;
  }

  async countMessages(workspaceId: string): Promise<number> {
    return (await this.db.get<{ n: number }>(`SELECT count(*) AS n FROM messages WHERE workspace_id = ?`, [workspaceId]))!.n;
  }

  /** Empties a workspace's people, conversations, messages, labels and looked-up names (its sessions and views stay). */
  async clearWorkspace(workspaceId: string): Promise<void> {
    const tables = ['users', 'conversations', 'conversation_members', 'messages', 'labels', 'source_names'];
    // SQLite's search tables are kept by hand (FTS5 has no foreign keys); PostgreSQL's search lives in the rows.
    if (this.db.dialect === 'sqlite') tables.push('conversation_names', 'message_search');
    await this.db.transaction(async (tx) => {
      for (const table of tables) await tx.run(`DELETE FROM ${table} WHERE workspace_id = ?`, [workspaceId]);
    });
  }

  /** A send, with its events; a client_msg_id is remembered with the message, so a retried send answers it again. */
  insertMessage(input: InsertMessageInput, build: EventBuilder<InsertMessageResult>): Promise<Written<InsertMessageResult>> {
    return this.db.transaction(async (tx) => {
      const written = await this.insertMessageIn(tx, input, build);
      if (input.client_msg_id)
        await tx.run(
          `INSERT INTO message_sends (workspace_id, user_id, client_msg_id, conversation_id, ts, created_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT DO NOTHING`,
          [input.workspaceId, input.user, input.client_msg_id, input.conversationId, written.result.message.ts, input.at],
        );
      return written;
    });
  }

  private async insertMessageIn(tx: Db, input: InsertMessageInput, build: EventBuilder<InsertMessageResult>): Promise<Written<InsertMessageResult>> {
    const ws = input.workspaceId;
    const conversationId = input.conversationId;
    // FOR UPDATE on PostgreSQL: two servers sending into one conversation take its ts one after the other.
    const conv = await tx.get<Pick<ConversationRow, 'latest_ts' | 'member_ids' | 'parent_id' | 'thread_ts'>>(
      `SELECT latest_ts, member_ids, parent_id, thread_ts FROM conversations WHERE workspace_id = ? AND id = ?${tx.dialect === 'postgres' ? ' FOR UPDATE' : ''}`,
      [ws, conversationId],
    );
    if (!conv) throw new Error(`Unknown conversation ${conversationId}`);
    const answer = async (message: Message): Promise<InsertMessageResult> => ({
      message,
      conversation: await baseSummary(tx, ws, conversationId),
      members: await readStates(tx, ws, conversationId),
    });
    if (input.ts !== undefined) {
      // The workspace's own ts (Slack): its live echo may have stored the message already.
      const stored = await tx.get<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`, [
        ws,
        conversationId,
        input.ts,
      ]);
      if (stored) {
        // The echo was stored first (with Slack's own client_msg_id, if any): the sender still learns that this is
        // their send (our client_msg_id settles the pending copy); nobody else hears of it twice.
        if (!input.client_msg_id || stored.client_msg_id === input.client_msg_id) return { result: await answer(toMessage(stored)), events: [] };
        await tx.run(`UPDATE messages SET client_msg_id = ? WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`, [
          input.client_msg_id,
          ws,
          conversationId,
          input.ts,
        ]);
        const result = await answer(toMessage({ ...stored, client_msg_id: input.client_msg_id }));
        const events = build(result).filter((e) => e.userId === input.user);
        return { result, events: await this.events.append(tx, ws, events, input.at) };
      }
    }
    const ts = input.ts ?? tsAfter(input.at, conv.latest_ts ?? undefined);
    const latestTs = maxTs(conv.latest_ts ?? undefined, ts);
    const threadTs = input.thread_ts ?? conv.thread_ts ?? null;
    await tx.run(
      `INSERT INTO messages (workspace_id, conversation_id, ts, "user", text, subtype, thread_ts, reply_count, client_msg_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
      [ws, conversationId, ts, input.user, input.text, input.subtype ?? null, threadTs, input.client_msg_id ?? null],
    );
    const system = isQuietSubtype(input.subtype);

    const members = JSON.parse(conv.member_ids) as string[];
    if (!members.includes(input.user)) {
      members.push(input.user);
      await tx.run(`UPDATE conversations SET member_ids = ? WHERE workspace_id = ? AND id = ?`, [JSON.stringify(members), ws, conversationId]);
      await tx.run(
        `INSERT INTO conversation_members (workspace_id, user_id, conversation_id, last_read, unread_count) VALUES (?, ?, ?, ?, 0) ON CONFLICT DO NOTHING`,
        [ws, input.user, conversationId, ts],
      );
    }
    if (latestTs === ts && !system)
      await tx.run(
        `UPDATE conversations SET latest_ts = ?, latest_user = ?, latest_text = ?, message_count = message_count + 1 WHERE workspace_id = ? AND id = ?`,
        [latestTs, input.user, input.text, ws, conversationId],
      );
    else
      await tx.run(`UPDATE conversations SET latest_ts = ?, message_count = message_count + 1 WHERE workspace_id = ? AND id = ?`, [
        latestTs,
        ws,
        conversationId,
      ]);
    if (!system)
      await tx.run(
        `UPDATE conversation_members${indexedBy(tx, 'conversation_members_by_conversation')} SET unread_count = unread_count + 1
         WHERE workspace_id = ? AND conversation_id = ? AND user_id != ?`,
        [ws, conversationId, input.user],
      );
    await tx.run(`UPDATE conversation_members SET last_read = ?, unread_count = 0 WHERE workspace_id = ? AND conversation_id = ? AND user_id = ?`, [
      ts,
      ws,
      conversationId,
      input.user,
    ]);
    // A reply in a thread conversation counts on its parent message in the parent channel.
    if (conv.parent_id && conv.thread_ts)
      await tx.run(`UPDATE messages SET reply_count = reply_count + 1 WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`, [
        ws,
        conv.parent_id,
        conv.thread_ts,
      ]);
    const result = await answer(
      toMessage({
        conversation_id: conversationId,
        ts,
        user: input.user,
        text: input.text,
        subtype: input.subtype ?? null,
        thread_ts: threadTs,
        reply_count: 0,
        client_msg_id: input.client_msg_id ?? null,
        content: null,
        resolved_text: null,
      }),
    );
    return { result, events: await this.events.append(tx, ws, build(result), input.at) };
  }

  /** The message a member's send with this client_msg_id posted, while it is remembered (null: none). */
  async sent(workspaceId: string, userId: string, clientMsgId: string): Promise<SentMessage | null> {
    const row = await this.db.get<{ conversation_id: string; ts: string }>(
      `SELECT conversation_id, ts FROM message_sends WHERE workspace_id = ? AND user_id = ? AND client_msg_id = ?`,
      [workspaceId, userId, clientMsgId],
    );
    return row ? { conversationId: row.conversation_id, ts: row.ts } : null;
  }

  markRead(workspaceId: string, userId: string, conversationId: string, lastRead: string, at: number, build: EventBuilder<MemberReadState>) {
    return this.db.transaction(async (tx): Promise<Written<MemberReadState>> => {
      const before = await tx.get<{ last_read: string; unread_count: number }>(
        `SELECT last_read, unread_count FROM conversation_members WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?${tx.dialect === 'postgres' ? ' FOR UPDATE' : ''}`,
        [workspaceId, userId, conversationId],
      );
      if (!before) throw new Error(`Not a member of ${conversationId}`);
      const unread = (await tx.get<{ n: number }>(
        `SELECT count(*) AS n FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts > ? AND ("user" IS NULL OR "user" != ?) AND ${COUNTS_AS_UNREAD}`,
        [workspaceId, conversationId, lastRead, userId],
      ))!.n;
      const result: MemberReadState = { userId, last_read: lastRead, unread_count: unread };
      // The same mark again (a retried request, an outbox replayed) is no news.
      if (before.last_read === lastRead && before.unread_count === unread) return { result, events: [] };
      await tx.run(`UPDATE conversation_members SET last_read = ?, unread_count = ? WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`, [
        lastRead,
        unread,
        workspaceId,
        userId,
        conversationId,
      ]);
      return { result, events: await this.events.append(tx, workspaceId, build(result), at) };
    });
  }

  async unread(workspaceId: string, userId: string, limit?: number): Promise<UnreadConversation[]> {
    const rows = await this.db.all<UnreadRow>(
      `SELECT c.id, c.type, c.name, c.is_private, c.dm_user, c.parent_id, c.latest_ts, m.last_read, m.unread_count,
              l.category, l.source, l.reason, l.basis_ts
       FROM conversation_members m${indexedBy(this.db, 'conversation_members_unread')}
       JOIN conversations c${indexedBy(this.db, 'conversations_ai')} ON c.workspace_id = m.workspace_id AND c.id = m.conversation_id
       LEFT JOIN labels l ON l.workspace_id = m.workspace_id AND l.user_id = m.user_id AND l.conversation_id = m.conversation_id
       WHERE m.workspace_id = ? AND m.user_id = ? AND m.unread_count > 0
       ORDER BY c.latest_ts DESC, c.id ASC LIMIT ?`,
      [workspaceId, userId, limitOf(this.db, limit)],
    );
    return rows.map(toUnread);
  }

  async latestFromOthers(workspaceId: string, conversationId: string, userId: string): Promise<{ ts: string; before: string } | null> {
    const latest = await this.db.get<{ ts: string }>(
      `SELECT ts FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ("user" IS NULL OR "user" != ?) AND ${COUNTS_AS_UNREAD}
       ORDER BY ts DESC LIMIT 1`,
      [workspaceId, conversationId, userId],
    );
    if (!latest) return null;
    const before = await this.db.get<{ ts: string }>(
      `SELECT ts FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts < ? ORDER BY ts DESC LIMIT 1`,
      [workspaceId, conversationId, latest.ts],
    );
    return { ts: latest.ts, before: before?.ts ?? '0000000000.000000' };
  }

  /** A member loses conversations (and their threads): their membership and labels go, and the others' member lists lose them. */
  revokeAccess(workspaceId: string, userId: string, conversationIds: readonly string[], at: number, build: EventBuilder<string[]>) {
    const ws = workspaceId;
    return this.db.transaction(async (tx): Promise<Written<string[]>> => {
      const lost: string[] = [];
      const revoke = async (id: string) => {
        if (!(await tx.run(`DELETE FROM conversation_members WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`, [ws, userId, id]))) return;
        await tx.run(`DELETE FROM labels WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`, [ws, userId, id]);
        const row = await tx.get<{ member_ids: string }>(`SELECT member_ids FROM conversations WHERE workspace_id = ? AND id = ?`, [ws, id]);
        if (row)
          await tx.run(`UPDATE conversations SET member_ids = ? WHERE workspace_id = ? AND id = ?`, [
            JSON.stringify((JSON.parse(row.member_ids) as string[]).filter((m) => m !== userId)),
            ws,
            id,
          ]);
        lost.push(id);
      };
      for (const id of new Set(conversationIds)) {
        await revoke(id);
        // A thread is read in its channel: losing the channel loses its threads.
        for (const thread of await tx.all<{ id: string }>(`SELECT id FROM conversations WHERE workspace_id = ? AND parent_id = ?`, [ws, id]))
          await revoke(thread.id);
      }
      return { result: lost, events: lost.length ? await this.events.append(tx, ws, build(lost), at) : [] };
    });
  }

  /** A conversation renamed in the workspace; answers its members (null: unknown). */
  rename(workspaceId: string, conversationId: string, name: string, at: number, build: EventBuilder<string[]>) {
    const ws = workspaceId;
    return this.db.transaction(async (tx): Promise<Written<string[]> | null> => {
      const row = await tx.get<{ name: string }>(`SELECT name FROM conversations WHERE workspace_id = ? AND id = ?`, [ws, conversationId]);
      if (!row) return null;
      const members = (await readStates(tx, ws, conversationId)).map((m) => m.userId);
      if (row.name === name) return { result: members, events: [] };
      await tx.run(`UPDATE conversations SET name = ? WHERE workspace_id = ? AND id = ?`, [name, ws, conversationId]);
      if (tx.dialect === 'sqlite') await tx.run(`UPDATE conversation_names SET name = ? WHERE workspace_id = ? AND id = ?`, [name, ws, conversationId]);
      return { result: members, events: await this.events.append(tx, ws, build(members), at) };
    });
  }
}
