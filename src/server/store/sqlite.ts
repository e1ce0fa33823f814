/**
 * The embedded store: SQLite through better-sqlite3, a file under the data dir (or
 * ':memory:' in tests). better-sqlite3 is synchronous, so each method's transaction is
 * committed before its promise resolves; WAL with synchronous=FULL makes that commit
 * survive a hard kill of the process.
 */
import Database from 'better-sqlite3';
import type { AiCategory, ConversationSummary, Message, User, UserData, Workspace } from '../../model/types';
import { compareTs, maxTs, tsAfter, tsSeconds } from '../../model/ts';
import type { BuiltinView, CustomView } from '../../model/views';
import { migrate, QUIET_SUBTYPES_SQL } from './migrations';
import { SqliteEventLog } from './sqliteEventLog';
import { sqliteHandle, type SqliteHandle } from './db';
import { ViewRecords, type EventAppender } from './viewRecords';
import { LabelRecords } from './labelRecords';
import { EventLog } from './eventLog';
import { WorkspaceRecords } from './workspaceRecords';
import { MemberRecords } from './memberRecords';
import { SessionRecords } from './sessionRecords';
import { SourceRecords } from './sourceRecords';
import { isQuietSubtype, SLACK_CONTENT_KEYS, type SlackContent } from '../../model/slack';
import type { Lesson } from '../../model/ai';
import {
  type AiLabel,
  type CatchupSessionRecord,
  type UnreadConversation,
  type BuiltinViewSetting,
  type CustomViewPatch,
  type MemberViews,
  type NewCustomView,
  type SourceBatch,
  type SourceBatchResult,
  type SourceCredential,
  type SourceNameKind,
  type OAuthAddTo,
  type EventLogBounds,
  type EventLogPruned,
  type SentMessage,
} from './types';
import type {
  ConversationRecord,
  EventBuilder,
  ImportBatch,
  InsertMessageInput,
  InsertMessageResult,
  ListOptions,
  MessageHit,
  MemberEvent,
  MemberReadState,
  Membership,
  Session,
  Store,
  StoredEvent,
  Written,
} from './types';

interface ConversationRow {
  id: string;
  name: string;
  type: ConversationSummary['type'];
  is_private: number;
  dm_user: string | null;
  member_ids: string;
  parent_id: string | null;
  thread_ts: string | null;
  parent_user: string | null;
  parent_text: string | null;
  truth: AiCategory | null;
  message_count: number;
  latest_ts: string | null;
  latest_user: string | null;
  latest_text: string | null;
}

type SummaryRow = ConversationRow & {
  last_read: string;
  unread_count: number;
  category: AiCategory | null;
  label_source: 'manual' | 'ai' | null;
  reason: string | null;
  confidence: number | null;
  triggers: string | null;
};

interface MessageRow {
  conversation_id: string;
  ts: string;
  user: string | null;
  text: string;
  subtype: Message['subtype'] | null;
  thread_ts: string | null;
  reply_count: number;
  client_msg_id: string | null;
  /** JSON of the message's SlackContent, or null. */
  content: string | null;
  resolved_text: string | null;
}

const SUMMARY_SELECT = `
  SELECT c.*, m.last_read, m.unread_count,
         l.category, l.source AS label_source, l.reason, l.confidence, l.triggers
  FROM conversation_members m
  JOIN conversations c ON c.workspace_id = m.workspace_id AND c.id = m.conversation_id
  LEFT JOIN labels l ON l.workspace_id = m.workspace_id AND l.user_id = m.user_id AND l.conversation_id = m.conversation_id`;

function toSummary(row: SummaryRow): ConversationSummary {
  const summary: ConversationSummary = {
    id: row.id,
    name: row.name,
    type: row.type,
    is_private: row.is_private === 1,
    member_ids: JSON.parse(row.member_ids) as string[],
    unread_count: row.unread_count,
    unread_count_display: row.unread_count,
    last_read: row.last_read,
    message_count: row.message_count,
    latest_activity: row.latest_ts ? tsSeconds(row.latest_ts) : 0,
  };
  if (row.dm_user) summary.dm_user = row.dm_user;
  if (row.latest_ts) {
    summary.latest_message = { ts: row.latest_ts, text: row.latest_text ?? '' };
    if (row.latest_user) summary.latest_message.user = row.latest_user;
    summary.last_message_time = summary.latest_activity;
  }
  if (row.parent_id) {
    summary.parent_conversation_id = row.parent_id;
    summary.parent_message = { ts: row.thread_ts ?? '', text: row.parent_text ?? '' };
    if (row.parent_user) summary.parent_message.user = row.parent_user;
  }
  if (row.category) {
    summary.ai_category = row.category;
    summary.ai_source = row.label_source ?? 'ai';
    if (row.reason) summary.ai_reason = row.reason;
    if (row.confidence !== null) summary.ai_confidence = row.confidence;
    if (row.triggers) summary.ai_triggers = JSON.parse(row.triggers) as ConversationSummary['ai_triggers'];
  }
  return summary;
}

type UnreadRow = Pick<SummaryRow, 'id' | 'type' | 'name' | 'is_private' | 'dm_user' | 'parent_id' | 'last_read' | 'unread_count' | 'category' | 'reason'> & {
  latest_ts: string | null;
  source: 'manual' | 'ai' | null;
  basis_ts: string | null;
};

function toUnread(row: UnreadRow): UnreadConversation {
  const unread: UnreadConversation = {
    id: row.id,
    type: row.type,
    name: row.name,
    is_private: row.is_private === 1,
    last_read: row.last_read,
    unread_count: row.unread_count,
    latest_ts: row.latest_ts ?? '',
    basisTs: row.source === 'ai' ? row.basis_ts : null,
  };
  if (row.dm_user) unread.dm_user = row.dm_user;
  if (row.parent_id) unread.parent_conversation_id = row.parent_id;
  if (row.category) {
    unread.ai_category = row.category;
    unread.ai_source = row.source ?? 'ai';
    if (row.reason) unread.ai_reason = row.reason;
  }
  return unread;
}

function toMessage(row: MessageRow): Message {
  const message: Message = { ts: row.ts, text: row.text, channel: row.conversation_id };
  if (row.content) Object.assign(message, JSON.parse(row.content) as SlackContent);
  if (row.resolved_text !== null && row.resolved_text !== undefined) message.resolved_text = row.resolved_text;
  if (row.user) message.user = row.user;
  if (row.subtype) message.subtype = row.subtype;
  if (row.thread_ts) message.thread_ts = row.thread_ts;
  if (row.reply_count) message.reply_count = row.reply_count;
  if (row.client_msg_id) message.client_msg_id = row.client_msg_id;
  return message;
}

/** A message's Slack content as stored: only the keys it has, as JSON (null: none). */
function contentJson(m: Partial<SlackContent>): string | null {
  const content: Record<string, unknown> = {};
  for (const key of SLACK_CONTENT_KEYS) if (m[key] !== undefined) content[key] = m[key];
  return Object.keys(content).length ? JSON.stringify(content) : null;
}

/** The derived text as stored: null when it is the text itself. */
function resolvedOf(m: { text: string; resolved_text?: string }): string | null {
  return m.resolved_text !== undefined && m.resolved_text !== m.text ? m.resolved_text : null;
}

/** What a preview, a thread title and search read of a stored message. */
const READABLE = `COALESCE(resolved_text, text)`;

/** A conversation record as the named parameters of its row. */
function conversationParams(ws: string, c: ConversationRecord) {
  return {
    ws,
    id: c.id,
    name: c.name,
    type: c.type,
    is_private: c.is_private ? 1 : 0,
    dm_user: c.dm_user ?? null,
    member_ids: JSON.stringify(c.member_ids),
    parent_id: c.parent_conversation_id ?? null,
    thread_ts: c.thread_ts ?? null,
  };
}

/** System lines do not count as unread. */
/*
 * Statements that pick a conversation's member rows name the conversation index: without
 * statistics, SQLite prefers a prefix of the primary key (workspace, user, conversation)
 * and scans every member row of the workspace instead.
 */
const COUNTS_AS_UNREAD = `(subtype IS NULL OR subtype NOT IN ${QUIET_SUBTYPES_SQL})`;

export class SqliteStore implements Store {
  readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly log: SqliteEventLog;
  private readonly handle: SqliteHandle;
  /* Aggregates already on the database handle (issue 15 §1): the same code runs on PostgreSQL. */
  private readonly sessionRecords: SessionRecords;
  private readonly memberRecords: MemberRecords;
  private readonly sourceRecords: SourceRecords;
  private readonly viewRecords: ViewRecords;
  private readonly workspaceRecords: WorkspaceRecords;
  private readonly labelRecords: LabelRecords;
  /** The event log's reads on the handle (store/eventLog.ts); its appends and pruning are still sqliteEventLog.ts's. */
  private readonly eventLog: EventLog;

  constructor(filename: string) {
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = ON');
    // The default 2 MB page cache thrashes on a 100,000-conversation workspace.
    this.db.pragma('cache_size = -131072');
    this.db.pragma('temp_store = MEMORY');
    migrate(this.db);
    const handle = sqliteHandle(this.db);
    this.handle = handle;
    this.log = new SqliteEventLog(
      (sql) => this.st(sql),
      (fn) => handle.exclusive(fn),
    );
    this.sessionRecords = new SessionRecords(handle);
    this.memberRecords = new MemberRecords(handle);
    this.sourceRecords = new SourceRecords(handle);
    this.workspaceRecords = new WorkspaceRecords(handle);
    this.eventLog = new EventLog(handle);
    // The events of an aggregate's change, appended by the store's own event log on the same connection, in its transaction.
    const appender: EventAppender = { append: async (_tx, workspaceId, events, at) => this.log.append(workspaceId, events, at) };
    this.viewRecords = new ViewRecords(handle, appender);
    this.labelRecords = new LabelRecords(handle, appender);
    // While the store moves onto the handle (issue 15 §1), its own methods run under the handle's lock: an
    // aggregate's transaction holds the connection across awaits, and none of these statements may land inside it.
    // The event log's pruning takes the lock a chunk at a time (it yields between chunks); closing waits for the pass.
    const unlocked = new Set(['constructor', 'pruneEventLog', 'close']);
    for (const name of Object.getOwnPropertyNames(SqliteStore.prototype)) {
      const method = (SqliteStore.prototype as unknown as Record<string, unknown>)[name];
      if (unlocked.has(name) || typeof method !== 'function' || method.constructor.name !== 'AsyncFunction') continue;
      Object.defineProperty(this, name, { value: (...args: unknown[]) => handle.exclusive(() => (method as (...a: unknown[]) => unknown).apply(this, args)) });
    }
  }

  private st(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /* ---------- workspaces, accounts, users ---------- */

  async upsertWorkspace(workspace: Workspace & { source: string }): Promise<void> {
    return this.workspaceRecords.upsertWorkspace(workspace);
  }

  async getWorkspace(id: string): Promise<Workspace | null> {
    return this.workspaceRecords.getWorkspace(id);
  }

  async workspaceHasData(id: string): Promise<boolean> {
    return this.st(`SELECT 1 FROM conversations WHERE workspace_id = ? LIMIT 1`).get(id) !== undefined;
  }

  async workspaceImported(id: string): Promise<boolean> {
    return this.workspaceRecords.workspaceImported(id);
  }

  async markWorkspaceImported(id: string): Promise<void> {
    return this.workspaceRecords.markWorkspaceImported(id);
  }

  async clearWorkspaceData(id: string): Promise<void> {
    this.db.transaction(() => {
      for (const table of ['users', 'conversations', 'conversation_names', 'message_search', 'conversation_members', 'messages', 'labels', 'source_names']) {
        this.db.prepare(`DELETE FROM ${table} WHERE workspace_id = ?`).run(id);
      }
    })();
  }

  async addMembership(accountId: string, workspaceId: string, userId: string): Promise<boolean> {
    return this.workspaceRecords.addMembership(accountId, workspaceId, userId);
  }

  async memberships(accountId: string): Promise<Membership[]> {
    return this.workspaceRecords.memberships(accountId);
  }

  async accountFor(workspaceId: string, userId: string): Promise<string> {
    return this.workspaceRecords.accountFor(workspaceId, userId);
  }

  async getUser(workspaceId: string, userId: string): Promise<User | null> {
    return this.workspaceRecords.getUser(workspaceId, userId);
  }

  async listUsers(workspaceId: string): Promise<User[]> {
    return this.workspaceRecords.listUsers(workspaceId);
  }

  async userData(workspaceId: string, userIds: string[]): Promise<Record<string, UserData>> {
    return this.workspaceRecords.userData(workspaceId, userIds);
  }

  /* ---------- sessions ---------- */

  async createSession(tokenHash: string, session: Session): Promise<void> {
    return this.sessionRecords.createSession(tokenHash, session);
  }

  async getSession(tokenHash: string): Promise<Session | null> {
    return this.sessionRecords.getSession(tokenHash);
  }

  async touchSession(tokenHash: string, at: number): Promise<void> {
    return this.sessionRecords.touchSession(tokenHash, at);
  }

  async pruneSessions(createdBefore: number, seenBefore: number): Promise<string[]> {
    return this.sessionRecords.pruneSessions(createdBefore, seenBefore);
  }

  async createStreamTicket(ticketHash: string, tokenHash: string, expiresAt: number): Promise<void> {
    return this.sessionRecords.createStreamTicket(ticketHash, tokenHash, expiresAt);
  }

  async takeStreamTicket(ticketHash: string, now: number): Promise<string | null> {
    return this.sessionRecords.takeStreamTicket(ticketHash, now);
  }

  async switchSessionWorkspace(tokenHash: string, workspaceId: string, userId: string): Promise<void> {
    return this.sessionRecords.switchSessionWorkspace(tokenHash, workspaceId, userId);
  }

  async deleteSession(tokenHash: string): Promise<void> {
    return this.sessionRecords.deleteSession(tokenHash);
  }

  /* ---------- conversations and messages ---------- */

  async listConversations(workspaceId: string, userId: string, options: ListOptions = {}) {
    const typeClause = options.type ? ` AND c.type = @type` : '';
    const params = {
      ws: workspaceId,
      user: userId,
      type: options.type,
      limit: options.limit ?? -1,
      offset: options.offset ?? 0,
      after_ts: options.after?.latest_ts ?? null,
      after_id: options.after?.id ?? null,
    };
    const total = options.skipTotal
      ? -1
      : (
          this.st(
            // Without a type, the member's rows alone (every one names a stored conversation): the primary key's
            // range, ~8 ms at 100,000 where the join takes ~150 ms on every first page.
            options.type
              ? `SELECT count(*) AS n FROM conversation_members m JOIN conversations c ON c.workspace_id = m.workspace_id AND c.id = m.conversation_id
                 WHERE m.workspace_id = @ws AND m.user_id = @user${typeClause}`
              : `SELECT count(*) AS n FROM conversation_members m WHERE m.workspace_id = @ws AND m.user_id = @user`,
          ).get(params) as { n: number }
        ).n;
    let rows: SummaryRow[];
    if (options.order === 'activity') {
      // Walk the activity index and keep the member's rows: no sort, no OFFSET.
      rows = this.st(
        `SELECT c.*, m.last_read, m.unread_count, l.category, l.source AS label_source, l.reason, l.confidence, l.triggers
         FROM conversations c INDEXED BY conversations_by_activity
         JOIN conversation_members m ON m.workspace_id = c.workspace_id AND m.user_id = @user AND m.conversation_id = c.id
         LEFT JOIN labels l ON l.workspace_id = c.workspace_id AND l.user_id = @user AND l.conversation_id = c.id
         WHERE c.workspace_id = @ws${typeClause}
           AND (@after_ts IS NULL OR c.latest_ts < @after_ts OR (c.latest_ts = @after_ts AND c.id > @after_id))
         ORDER BY c.latest_ts DESC, c.id ASC LIMIT @limit`,
      ).all(params) as SummaryRow[];
    } else {
      rows = this.st(
        `${SUMMARY_SELECT} WHERE m.workspace_id = @ws AND m.user_id = @user${typeClause}
         ORDER BY m.conversation_id LIMIT @limit OFFSET @offset`,
      ).all(params) as SummaryRow[];
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

  async getConversation(workspaceId: string, userId: string, conversationId: string) {
    const row = this.st(`${SUMMARY_SELECT} WHERE m.workspace_id = ? AND m.user_id = ? AND m.conversation_id = ?`).get(workspaceId, userId, conversationId) as
      SummaryRow | undefined;
    return row ? toSummary(row) : null;
  }

  async listMessages(workspaceId: string, conversationId: string, limit: number): Promise<Message[]> {
    const rows = this.st(`SELECT * FROM (SELECT * FROM messages WHERE workspace_id = ? AND conversation_id = ? ORDER BY ts DESC LIMIT ?) ORDER BY ts ASC`).all(
      workspaceId,
      conversationId,
      limit,
    ) as MessageRow[];
    return rows.map(toMessage);
  }

  async getMessage(workspaceId: string, conversationId: string, ts: string): Promise<Message | null> {
    const row = this.st(`SELECT * FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`).get(workspaceId, conversationId, ts) as
      MessageRow | undefined;
    return row ? toMessage(row) : null;
  }

  async conversationRecord(workspaceId: string, conversationId: string): Promise<ConversationRecord | null> {
    const row = this.st(`SELECT * FROM conversations WHERE workspace_id = ? AND id = ?`).get(workspaceId, conversationId) as ConversationRow | undefined;
    if (!row) return null;
    const record: ConversationRecord = {
      id: row.id,
      name: row.name,
      type: row.type,
      is_private: row.is_private === 1,
      member_ids: JSON.parse(row.member_ids) as string[],
    };
    if (row.dm_user) record.dm_user = row.dm_user;
    if (row.parent_id) record.parent_conversation_id = row.parent_id;
    if (row.thread_ts) record.thread_ts = row.thread_ts;
    if (row.truth) record.truth = row.truth;
    return record;
  }

  private baseSummary(workspaceId: string, conversationId: string): ConversationSummary {
    const row = this.st(`SELECT * FROM conversations WHERE workspace_id = ? AND id = ?`).get(workspaceId, conversationId) as ConversationRow;
    return toSummary({ ...row, last_read: '', unread_count: 0, category: null, label_source: null, reason: null, confidence: null, triggers: null });
  }

  private readStates(workspaceId: string, conversationId: string): MemberReadState[] {
    const rows = this.st(
      `SELECT user_id, last_read, unread_count FROM conversation_members INDEXED BY conversation_members_by_conversation WHERE workspace_id = ? AND conversation_id = ?`,
    ).all(workspaceId, conversationId) as Array<{ user_id: string; last_read: string; unread_count: number }>;
    return rows.map((row) => ({ userId: row.user_id, last_read: row.last_read, unread_count: row.unread_count }));
  }

  async insertMessage(input: InsertMessageInput, build: EventBuilder<InsertMessageResult>): Promise<Written<InsertMessageResult>> {
    return this.db.transaction((): Written<InsertMessageResult> => {
      const written = this.insertMessageNow(input, build);
      const { client_msg_id: clientMsgId } = input;
      if (clientMsgId)
        this.log.recordSend(input.workspaceId, input.user, clientMsgId, { conversationId: input.conversationId, ts: written.result.message.ts }, input.at);
      return written;
    })();
  }

  private insertMessageNow(input: InsertMessageInput, build: EventBuilder<InsertMessageResult>): Written<InsertMessageResult> {
    const ws = input.workspaceId;
    const conv = this.st(`SELECT latest_ts, member_ids, parent_id, thread_ts FROM conversations WHERE workspace_id = ? AND id = ?`).get(
      ws,
      input.conversationId,
    ) as Pick<ConversationRow, 'latest_ts' | 'member_ids' | 'parent_id' | 'thread_ts'> | undefined;
    if (!conv) throw new Error(`Unknown conversation ${input.conversationId}`);
    if (input.ts !== undefined) {
      // The workspace's own ts (Slack): its live echo may have stored the message already.
      const stored = this.st(`SELECT * FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`).get(ws, input.conversationId, input.ts) as
        MessageRow | undefined;
      if (stored) {
        // The echo was stored first (with Slack's own client_msg_id, if any): the sender still
        // learns that this is their send (our client_msg_id settles the pending copy); nobody
        // else hears of it twice.
        if (!input.client_msg_id || stored.client_msg_id === input.client_msg_id) {
          const result = {
            message: toMessage(stored),
            conversation: this.baseSummary(ws, input.conversationId),
            members: this.readStates(ws, input.conversationId),
          };
          return { result, events: [] };
        }
        this.st(`UPDATE messages SET client_msg_id = ? WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`).run(
          input.client_msg_id,
          ws,
          input.conversationId,
          input.ts,
        );
        const message = toMessage({ ...stored, client_msg_id: input.client_msg_id });
        const result = { message, conversation: this.baseSummary(ws, input.conversationId), members: this.readStates(ws, input.conversationId) };
        const events = build(result).filter((e) => e.userId === input.user);
        return { result, events: this.appendEventsNow(ws, events, input.at) };
      }
    }
    const ts = input.ts ?? tsAfter(input.at, conv.latest_ts ?? undefined);
    const latestTs = maxTs(conv.latest_ts ?? undefined, ts);
    const threadTs = input.thread_ts ?? conv.thread_ts ?? null;
    this.st(
      `INSERT INTO messages (workspace_id, conversation_id, ts, user, text, subtype, thread_ts, reply_count, client_msg_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
    ).run(ws, input.conversationId, ts, input.user, input.text, input.subtype ?? null, threadTs, input.client_msg_id ?? null);
    const system = isQuietSubtype(input.subtype);

    const members = JSON.parse(conv.member_ids) as string[];
    if (!members.includes(input.user)) {
      members.push(input.user);
      this.st(`UPDATE conversations SET member_ids = ? WHERE workspace_id = ? AND id = ?`).run(JSON.stringify(members), ws, input.conversationId);
      this.st(`INSERT OR IGNORE INTO conversation_members (workspace_id, user_id, conversation_id, last_read, unread_count) VALUES (?, ?, ?, ?, 0)`).run(
        ws,
        input.user,
        input.conversationId,
        ts,
      );
    }
    this.st(
      `UPDATE conversations SET latest_ts = ?, latest_user = CASE WHEN ? THEN ? ELSE latest_user END, latest_text = CASE WHEN ? THEN ? ELSE latest_text END,
         message_count = message_count + 1
       WHERE workspace_id = ? AND id = ?`,
    ).run(latestTs, latestTs === ts && !system ? 1 : 0, input.user, latestTs === ts && !system ? 1 : 0, input.text, ws, input.conversationId);
    if (!system) {
      this.st(
        `UPDATE conversation_members INDEXED BY conversation_members_by_conversation SET unread_count = unread_count + 1 WHERE workspace_id = ? AND conversation_id = ? AND user_id != ?`,
      ).run(ws, input.conversationId, input.user);
    }
    this.st(`UPDATE conversation_members SET last_read = ?, unread_count = 0 WHERE workspace_id = ? AND conversation_id = ? AND user_id = ?`).run(
      ts,
      ws,
      input.conversationId,
      input.user,
    );
    // A reply in a thread conversation counts on its parent message in the parent channel.
    if (conv.parent_id && conv.thread_ts) {
      this.st(`UPDATE messages SET reply_count = reply_count + 1 WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`).run(
        ws,
        conv.parent_id,
        conv.thread_ts,
      );
    }
    const message = toMessage({
      conversation_id: input.conversationId,
      ts,
      user: input.user,
      text: input.text,
      subtype: input.subtype ?? null,
      thread_ts: threadTs,
      reply_count: 0,
      client_msg_id: input.client_msg_id ?? null,
      content: null,
      resolved_text: null,
    });
    const result: InsertMessageResult = {
      message,
      conversation: this.baseSummary(ws, input.conversationId),
      members: this.readStates(ws, input.conversationId),
    };
    return { result, events: this.appendEventsNow(ws, build(result), input.at) };
  }

  async markRead(
    workspaceId: string,
    userId: string,
    conversationId: string,
    lastRead: string,
    at: number,
    build: EventBuilder<MemberReadState>,
  ): Promise<Written<MemberReadState>> {
    const run = this.db.transaction((): Written<MemberReadState> => {
      const unread = (
        this.st(
          `SELECT count(*) AS n FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts > ? AND (user IS NULL OR user != ?) AND ${COUNTS_AS_UNREAD}`,
        ).get(workspaceId, conversationId, lastRead, userId) as { n: number }
      ).n;
      const before = this.st(`SELECT last_read, unread_count FROM conversation_members WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`).get(
        workspaceId,
        userId,
        conversationId,
      ) as { last_read: string; unread_count: number } | undefined;
      if (!before) throw new Error(`Not a member of ${conversationId}`);
      const result: MemberReadState = { userId, last_read: lastRead, unread_count: unread };
      // The same mark again (a retried request, an outbox replayed) is no news.
      if (before.last_read === lastRead && before.unread_count === unread) return { result, events: [] };
      this.st(`UPDATE conversation_members SET last_read = ?, unread_count = ? WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`).run(
        lastRead,
        unread,
        workspaceId,
        userId,
        conversationId,
      );
      return { result, events: this.appendEventsNow(workspaceId, build(result), at) };
    });
    return run();
  }

  async setLabel(
    workspaceId: string,
    userId: string,
    conversationId: string,
    label: { category: AiCategory; source: 'manual' | 'ai'; reason?: string; confidence?: number } | null,
    at: number,
    build: EventBuilder<null>,
  ): Promise<Written<null>> {
    return this.labelRecords.setLabel(workspaceId, userId, conversationId, label, at, build);
  }

  async unreadConversations(workspaceId: string, userId: string, limit = -1): Promise<UnreadConversation[]> {
    const rows = this.st(
      `SELECT c.id, c.type, c.name, c.is_private, c.dm_user, c.parent_id, c.latest_ts, m.last_read, m.unread_count,
              l.category, l.source, l.reason, l.basis_ts
       FROM conversation_members m INDEXED BY conversation_members_unread
       JOIN conversations c INDEXED BY conversations_ai ON c.workspace_id = m.workspace_id AND c.id = m.conversation_id
       LEFT JOIN labels l ON l.workspace_id = m.workspace_id AND l.user_id = m.user_id AND l.conversation_id = m.conversation_id
       WHERE m.workspace_id = ? AND m.user_id = ? AND m.unread_count > 0
       ORDER BY c.latest_ts DESC, c.id ASC LIMIT ?`,
    ).all(workspaceId, userId, limit) as UnreadRow[];
    return rows.map(toUnread);
  }

  async setAiLabels(workspaceId: string, userId: string, labels: readonly AiLabel[], at: number, build: EventBuilder<AiLabel[]>): Promise<Written<AiLabel[]>> {
    return this.labelRecords.setAiLabels(workspaceId, userId, labels, at, build);
  }

  async addLesson(workspaceId: string, userId: string, lesson: Lesson): Promise<void> {
    return this.labelRecords.addLesson(workspaceId, userId, lesson);
  }

  async listLessons(workspaceId: string, userId: string): Promise<Lesson[]> {
    return this.labelRecords.listLessons(workspaceId, userId);
  }

  async saveCatchupSession(record: CatchupSessionRecord): Promise<void> {
    return this.memberRecords.saveCatchupSession(record);
  }

  async getCatchupSession(workspaceId: string, userId: string, id: string): Promise<CatchupSessionRecord | null> {
    return this.memberRecords.getCatchupSession(workspaceId, userId, id);
  }

  async deleteCatchupSession(workspaceId: string, userId: string, id: string): Promise<boolean> {
    return this.memberRecords.deleteCatchupSession(workspaceId, userId, id);
  }

  async pruneCatchupSessions(workspaceId: string, userId: string, cutoff: number, keep: number): Promise<void> {
    return this.memberRecords.pruneCatchupSessions(workspaceId, userId, cutoff, keep);
  }

  async addWaitlistSignup(email: string, platform: 'teams' | 'email', at: number): Promise<{ created: boolean }> {
    return this.memberRecords.addWaitlistSignup(email, platform, at);
  }

  async countWaitlist(platform?: 'teams' | 'email'): Promise<number> {
    return this.memberRecords.countWaitlist(platform);
  }

  async latestFromOthers(workspaceId: string, conversationId: string, userId: string) {
    const latest = this.st(
      `SELECT ts FROM messages WHERE workspace_id = ? AND conversation_id = ? AND (user IS NULL OR user != ?) AND ${COUNTS_AS_UNREAD}
       ORDER BY ts DESC LIMIT 1`,
    ).get(workspaceId, conversationId, userId) as { ts: string } | undefined;
    if (!latest) return null;
    const before = this.st(`SELECT ts FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts < ? ORDER BY ts DESC LIMIT 1`).get(
      workspaceId,
      conversationId,
      latest.ts,
    ) as { ts: string } | undefined;
    return { ts: latest.ts, before: before?.ts ?? '0000000000.000000' };
  }

  async searchMessages(workspaceId: string, userId: string, ftsQuery: string, limit: number): Promise<MessageHit[]> {
    return this.st(
      `SELECT s.conversation_id, s.ts, s.text, s.user, bm25(message_search) AS bm25
       FROM message_search s
       WHERE message_search MATCH @q AND s.workspace_id = @ws
         AND EXISTS (SELECT 1 FROM conversation_members m WHERE m.workspace_id = @ws AND m.user_id = @user AND m.conversation_id = s.conversation_id)
       ORDER BY s.rowid DESC LIMIT @limit`,
    ).all({ q: ftsQuery, ws: workspaceId, user: userId, limit }) as MessageHit[];
  }

  async searchConversations(workspaceId: string, userId: string, text: string, limit: number): Promise<ConversationSummary[]> {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // The trigram index answers the name tests (3+ characters; it serves LIKE without ESCAPE, so
    // the inner tests may match a little more when the text holds % or _, and the outer one is
    // exact). Candidates are bounded: every name starting with the text, and the first names
    // containing it; exact names rank first, then prefixes, then the rest by activity.
    const raw = `%${text}%`;
    const prefix = `${text}%`;
    const escapedPrefix = `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = this.st(
      `SELECT c.*, m.last_read, m.unread_count,
              l.category, l.source AS label_source, l.reason, l.confidence, l.triggers
       FROM (SELECT id FROM (SELECT id FROM conversation_names WHERE name LIKE @prefix AND workspace_id = @ws LIMIT 2000)
             UNION SELECT id FROM (SELECT id FROM conversation_names WHERE name LIKE @raw AND workspace_id = @ws LIMIT 500)) n
       CROSS JOIN conversations c ON c.workspace_id = @ws AND c.id = n.id
       CROSS JOIN conversation_members m ON m.workspace_id = @ws AND m.user_id = @user AND m.conversation_id = n.id
       LEFT JOIN labels l ON l.workspace_id = @ws AND l.user_id = @user AND l.conversation_id = n.id
       WHERE c.name LIKE @pattern ESCAPE '\\'
       ORDER BY CASE WHEN lower(c.name) = lower(@text) THEN 0 WHEN c.name LIKE @escapedPrefix ESCAPE '\\' THEN 1 ELSE 2 END, c.latest_ts DESC
       LIMIT @limit`,
    ).all({ ws: workspaceId, user: userId, pattern, raw, prefix, escapedPrefix, text, limit }) as SummaryRow[];
    return rows.map(toSummary);
  }

  async searchUsers(workspaceId: string, text: string, limit: number): Promise<User[]> {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = this.st(
      `SELECT data FROM users WHERE workspace_id = @ws AND (
         json_extract(data, '$.real_name') LIKE @pattern ESCAPE '\\' OR json_extract(data, '$.display_name') LIKE @pattern ESCAPE '\\'
         OR json_extract(data, '$.name') LIKE @pattern ESCAPE '\\') LIMIT @limit`,
    ).all({ ws: workspaceId, pattern, limit }) as Array<{ data: string }>;
    return rows.map((row) => JSON.parse(row.data) as User);
  }

  async countMessages(workspaceId: string): Promise<number> {
    return (this.st(`SELECT count(*) AS n FROM messages WHERE workspace_id = ?`).get(workspaceId) as { n: number }).n;
  }

  async importBatch(workspaceId: string, batch: ImportBatch): Promise<void> {
    const insertUser = this.st(`INSERT OR REPLACE INTO users (workspace_id, id, data) VALUES (?, ?, ?)`);
    const insertConversation = this.st(
      `INSERT OR REPLACE INTO conversations (workspace_id, id, name, type, is_private, dm_user, member_ids, parent_id, thread_ts, parent_user, parent_text, truth, message_count, latest_ts, latest_user, latest_text)
       VALUES (@ws, @id, @name, @type, @is_private, @dm_user, @member_ids, @parent_id, @thread_ts, NULL, NULL, @truth, 0, '', NULL, NULL)`,
    );
    const insertMember = this.st(
      `INSERT OR IGNORE INTO conversation_members (workspace_id, user_id, conversation_id, last_read, unread_count) VALUES (?, ?, ?, '', 0)`,
    );
    const insertMessage = this.st(
      `INSERT OR IGNORE INTO messages (workspace_id, conversation_id, ts, user, text, subtype, thread_ts, reply_count, client_msg_id, content, resolved_text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
    );
    const setLatest = this.st(
      `UPDATE conversations SET latest_ts = ?, latest_user = ?, latest_text = ?, message_count = message_count + ? WHERE workspace_id = ? AND id = ?`,
    );
    const setParent = this.st(
      `UPDATE conversations SET parent_user = (SELECT user FROM messages WHERE workspace_id = @ws AND conversation_id = @parent AND ts = @ts),
              parent_text = (SELECT ${READABLE} FROM messages WHERE workspace_id = @ws AND conversation_id = @parent AND ts = @ts)
       WHERE workspace_id = @ws AND id = @id`,
    );
    const readToEnd = this.st(
      `UPDATE conversation_members INDEXED BY conversation_members_by_conversation
       SET last_read = COALESCE((SELECT latest_ts FROM conversations WHERE workspace_id = ? AND id = ?), '')
       WHERE workspace_id = ? AND conversation_id = ? AND last_read = ''`,
    );
    const setReadMark = this.st(
      `UPDATE conversation_members SET last_read = ?,
         unread_count = (SELECT count(*) FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts > ? AND (user IS NULL OR user != ?) AND ${COUNTS_AS_UNREAD})
       WHERE workspace_id = ? AND conversation_id = ? AND user_id = ?`,
    );

    this.db.transaction(() => {
      for (const user of batch.users ?? []) insertUser.run(workspaceId, user.id, JSON.stringify(user));
      for (const c of batch.conversations ?? []) {
        insertConversation.run({ ...conversationParams(workspaceId, c), truth: c.truth ?? null });
        for (const member of c.member_ids) insertMember.run(workspaceId, member, c.id);
      }
      // The newest message sets the activity; the newest that is not a system line, the preview.
      const latest = new Map<string, { ts: string; previewTs: string; user: string | null; text: string | null; count: number }>();
      for (const m of batch.messages ?? []) {
        const resolved = resolvedOf(m);
        insertMessage.run(
          workspaceId,
          m.conversation_id,
          m.ts,
          m.user ?? null,
          m.text,
          m.subtype ?? null,
          m.thread_ts ?? null,
          m.reply_count ?? 0,
          contentJson(m),
          resolved,
        );
        const seen = latest.get(m.conversation_id) ?? { ts: '', previewTs: '', user: null, text: null, count: 0 };
        latest.set(m.conversation_id, seen);
        seen.count += 1;
        if (compareTs(m.ts, seen.ts) > 0) seen.ts = m.ts;
        if (!isQuietSubtype(m.subtype) && compareTs(m.ts, seen.previewTs) > 0)
          Object.assign(seen, { previewTs: m.ts, user: m.user ?? null, text: resolved ?? m.text });
      }
      for (const [id, l] of latest) setLatest.run(l.ts, l.user, l.text, l.count, workspaceId, id);
      for (const c of batch.conversations ?? []) {
        if (c.parent_conversation_id && c.thread_ts) setParent.run({ ws: workspaceId, parent: c.parent_conversation_id, ts: c.thread_ts, id: c.id });
        readToEnd.run(workspaceId, c.id, workspaceId, c.id);
      }
      for (const mark of batch.readMarks ?? []) {
        setReadMark.run(mark.last_read, workspaceId, mark.conversation_id, mark.last_read, mark.user_id, workspaceId, mark.conversation_id, mark.user_id);
      }
    })();
  }

  /* ---------- workspace sources (Slack) ---------- */

  async applySourceBatch(workspaceId: string, batch: SourceBatch, at: number, build?: EventBuilder<SourceBatchResult>): Promise<Written<SourceBatchResult>> {
    const ws = workspaceId;
    return this.db.transaction((): Written<SourceBatchResult> => {
      const result: SourceBatchResult = { inserted: [], edited: [], deleted: [], joined: [], left: [], marked: [], touched: new Map() };
      const touched = new Set<string>();
      const insertUser = this.st(`INSERT OR REPLACE INTO users (workspace_id, id, data) VALUES (?, ?, ?)`);
      for (const user of batch.users ?? []) insertUser.run(ws, user.id, JSON.stringify(user));

      for (const c of batch.conversations ?? []) {
        const existing = this.st(`SELECT name, member_ids FROM conversations WHERE workspace_id = ? AND id = ?`).get(ws, c.id) as
          { name: string; member_ids: string } | undefined;
        const fields = conversationParams(ws, c);
        if (!existing) {
          this.st(
            `INSERT INTO conversations (workspace_id, id, name, type, is_private, dm_user, member_ids, parent_id, thread_ts, message_count, latest_ts)
             VALUES (@ws, @id, @name, @type, @is_private, @dm_user, @member_ids, @parent_id, @thread_ts, 0, '')`,
          ).run(fields);
        } else {
          this.st(
            `UPDATE conversations SET name = @name, type = @type, is_private = @is_private, dm_user = @dm_user, member_ids = @member_ids,
               parent_id = @parent_id, thread_ts = @thread_ts WHERE workspace_id = @ws AND id = @id`,
          ).run(fields);
          if (existing.name !== c.name) this.st(`UPDATE conversation_names SET name = ? WHERE workspace_id = ? AND id = ?`).run(c.name, ws, c.id);
        }
        const before = new Set(existing ? (JSON.parse(existing.member_ids) as string[]) : []);
        const after = new Set(c.member_ids);
        for (const userId of after) {
          const added = this.st(
            `INSERT OR IGNORE INTO conversation_members (workspace_id, user_id, conversation_id, last_read, unread_count) VALUES (?, ?, ?, '', 0)`,
          ).run(ws, userId, c.id).changes;
          if (added && existing && !before.has(userId)) result.joined.push({ conversation_id: c.id, user_id: userId });
        }
        for (const userId of before) {
          if (after.has(userId)) continue;
          this.st(`DELETE FROM conversation_members WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`).run(ws, userId, c.id);
          result.left.push({ conversation_id: c.id, user_id: userId });
        }
        touched.add(c.id);
      }

      const selectMessage = this.st(`SELECT * FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`);
      const dropSearch = this.st(
        `DELETE FROM message_search WHERE rowid IN (SELECT rowid FROM message_search WHERE workspace_id = ? AND conversation_id = ? AND ts = ?)`,
      );
      for (const m of batch.messages ?? []) {
        const row: MessageRow = {
          conversation_id: m.conversation_id,
          ts: m.ts,
          user: m.user ?? null,
          text: m.text,
          subtype: m.subtype ?? null,
          thread_ts: m.thread_ts ?? null,
          reply_count: m.reply_count ?? 0,
          client_msg_id: m.client_msg_id ?? null,
          content: contentJson(m),
          resolved_text: resolvedOf(m),
        };
        const stored = selectMessage.get(ws, m.conversation_id, m.ts) as MessageRow | undefined;
        if (!stored) {
          this.st(
            `INSERT INTO messages (workspace_id, conversation_id, ts, user, text, subtype, thread_ts, reply_count, client_msg_id, content, resolved_text)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          ).run(
            ws,
            row.conversation_id,
            row.ts,
            row.user,
            row.text,
            row.subtype,
            row.thread_ts,
            row.reply_count,
            row.client_msg_id,
            row.content,
            row.resolved_text,
          );
          result.inserted.push(toMessage(row));
          // Its author has read it (as Slack moves the sender's read mark).
          if (row.user) {
            this.st(
              `UPDATE conversation_members SET last_read = ? WHERE workspace_id = ? AND conversation_id = ? AND user_id = ? AND last_read != '' AND last_read < ?`,
            ).run(row.ts, ws, row.conversation_id, row.user, row.ts);
          }
        } else if (
          stored.text !== row.text ||
          stored.reply_count !== row.reply_count ||
          (stored.subtype ?? null) !== row.subtype ||
          (stored.thread_ts ?? null) !== row.thread_ts ||
          stored.content !== row.content ||
          stored.resolved_text !== row.resolved_text ||
          stored.user !== row.user
        ) {
          this.st(
            `UPDATE messages SET user = ?, text = ?, subtype = ?, thread_ts = ?, reply_count = ?, content = ?, resolved_text = ? WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`,
          ).run(row.user, row.text, row.subtype, row.thread_ts, row.reply_count, row.content, row.resolved_text, ws, row.conversation_id, row.ts);
          if (
            stored.text !== row.text ||
            stored.resolved_text !== row.resolved_text ||
            (stored.subtype ?? null) !== row.subtype ||
            stored.content !== row.content ||
            stored.user !== row.user
          ) {
            dropSearch.run(ws, row.conversation_id, row.ts);
            if (!isQuietSubtype(row.subtype)) {
              this.st(`INSERT INTO message_search (text, workspace_id, conversation_id, ts, user) VALUES (?, ?, ?, ?, ?)`).run(
                row.resolved_text ?? row.text,
                ws,
                row.conversation_id,
                row.ts,
                row.user,
              );
            }
            result.edited.push(toMessage({ ...row, client_msg_id: stored.client_msg_id }));
          }
        } else continue;
        touched.add(m.conversation_id);
      }
      for (const d of batch.deletedMessages ?? []) {
        const gone = this.st(`DELETE FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`).run(ws, d.conversation_id, d.ts).changes;
        if (!gone) continue;
        dropSearch.run(ws, d.conversation_id, d.ts);
        result.deleted.push({ conversation_id: d.conversation_id, ts: d.ts });
        touched.add(d.conversation_id);
      }

      for (const mark of batch.readMarks ?? []) touched.add(mark.conversation_id);
      // Counts, the newest message and the thread parent come from what is stored, so a batch fetched twice changes nothing.
      for (const id of touched) {
        const conv = this.st(`SELECT parent_id, thread_ts FROM conversations WHERE workspace_id = ? AND id = ?`).get(ws, id) as
          { parent_id: string | null; thread_ts: string | null } | undefined;
        if (!conv) continue;
        const latest = this.st(`SELECT ts FROM messages WHERE workspace_id = ? AND conversation_id = ? ORDER BY ts DESC LIMIT 1`).get(ws, id) as
          { ts: string } | undefined;
        // The preview is the newest message that is not a system line.
        const preview = this.st(
          `SELECT user, ${READABLE} AS text FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ${COUNTS_AS_UNREAD} ORDER BY ts DESC LIMIT 1`,
        ).get(ws, id) as { user: string | null; text: string } | undefined;
        const count = (this.st(`SELECT count(*) AS n FROM messages WHERE workspace_id = ? AND conversation_id = ?`).get(ws, id) as { n: number }).n;
        this.st(`UPDATE conversations SET message_count = ?, latest_ts = ?, latest_user = ?, latest_text = ? WHERE workspace_id = ? AND id = ?`).run(
          count,
          latest?.ts ?? '',
          preview?.user ?? null,
          preview?.text ?? null,
          ws,
          id,
        );
        if (conv.parent_id && conv.thread_ts) {
          const parent = selectMessage.get(ws, conv.parent_id, conv.thread_ts) as MessageRow | undefined;
          if (parent) {
            this.st(`UPDATE conversations SET parent_user = ?, parent_text = ? WHERE workspace_id = ? AND id = ?`).run(
              parent.user,
              parent.resolved_text ?? parent.text,
              ws,
              id,
            );
          }
        }
        // A member without a read mark yet has read to the latest message.
        if (latest) {
          this.st(`UPDATE conversation_members SET last_read = ? WHERE workspace_id = ? AND conversation_id = ? AND last_read = ''`).run(latest.ts, ws, id);
        }
      }
      const before = new Map<string, string>();
      for (const mark of batch.readMarks ?? []) {
        const row = this.st(`SELECT last_read FROM conversation_members WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`).get(
          ws,
          mark.user_id,
          mark.conversation_id,
        ) as { last_read: string } | undefined;
        if (!row) continue;
        before.set(`${mark.conversation_id}\u0000${mark.user_id}`, row.last_read);
        this.st(`UPDATE conversation_members SET last_read = ? WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`).run(
          mark.last_read,
          ws,
          mark.user_id,
          mark.conversation_id,
        );
      }
      const recount = this.st(
        `UPDATE conversation_members INDEXED BY conversation_members_by_conversation
         SET unread_count = (SELECT count(*) FROM messages WHERE workspace_id = conversation_members.workspace_id AND conversation_id = conversation_members.conversation_id
           AND ts > conversation_members.last_read AND (user IS NULL OR user != conversation_members.user_id) AND ${COUNTS_AS_UNREAD})
         WHERE workspace_id = ? AND conversation_id = ?`,
      );
      for (const id of touched) recount.run(ws, id);
      for (const mark of batch.readMarks ?? []) {
        const previous = before.get(`${mark.conversation_id}\u0000${mark.user_id}`);
        if (previous === undefined || previous === mark.last_read) continue;
        const state = this.readStates(ws, mark.conversation_id).find((m) => m.userId === mark.user_id);
        if (state) result.marked.push({ ...state, conversation_id: mark.conversation_id });
      }
      if (!build) return { result, events: [] };
      for (const id of touched) {
        if (!this.st(`SELECT 1 FROM conversations WHERE workspace_id = ? AND id = ?`).get(ws, id)) continue;
        result.touched.set(id, { conversation: this.baseSummary(ws, id), members: this.readStates(ws, id) });
      }
      return { result, events: this.appendEventsNow(ws, build(result), at) };
    })();
  }

  async revokeAccess(
    workspaceId: string,
    userId: string,
    conversationIds: readonly string[],
    at: number,
    build: EventBuilder<string[]>,
  ): Promise<Written<string[]>> {
    const ws = workspaceId;
    return this.db.transaction((): Written<string[]> => {
      const lost: string[] = [];
      const threadsOf = this.st(`SELECT id FROM conversations WHERE workspace_id = ? AND parent_id = ?`);
      const dropMember = this.st(`DELETE FROM conversation_members WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`);
      const dropLabel = this.st(`DELETE FROM labels WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`);
      const membersOf = this.st(`SELECT member_ids FROM conversations WHERE workspace_id = ? AND id = ?`);
      const setMembers = this.st(`UPDATE conversations SET member_ids = ? WHERE workspace_id = ? AND id = ?`);
      const revoke = (id: string) => {
        if (!dropMember.run(ws, userId, id).changes) return;
        dropLabel.run(ws, userId, id);
        const row = membersOf.get(ws, id) as { member_ids: string } | undefined;
        if (row) setMembers.run(JSON.stringify((JSON.parse(row.member_ids) as string[]).filter((m) => m !== userId)), ws, id);
        lost.push(id);
      };
      for (const id of new Set(conversationIds)) {
        revoke(id);
        // A thread is read in its channel: losing the channel loses its threads.
        for (const thread of threadsOf.all(ws, id) as Array<{ id: string }>) revoke(thread.id);
      }
      return { result: lost, events: lost.length ? this.appendEventsNow(ws, build(lost), at) : [] };
    })();
  }

  async renameConversation(
    workspaceId: string,
    conversationId: string,
    name: string,
    at: number,
    build: EventBuilder<string[]>,
  ): Promise<Written<string[]> | null> {
    const ws = workspaceId;
    return this.db.transaction((): Written<string[]> | null => {
      const row = this.st(`SELECT name FROM conversations WHERE workspace_id = ? AND id = ?`).get(ws, conversationId) as { name: string } | undefined;
      if (!row) return null;
      const members = this.readStates(ws, conversationId).map((m) => m.userId);
      if (row.name === name) return { result: members, events: [] };
      this.st(`UPDATE conversations SET name = ? WHERE workspace_id = ? AND id = ?`).run(name, ws, conversationId);
      this.st(`UPDATE conversation_names SET name = ? WHERE workspace_id = ? AND id = ?`).run(name, ws, conversationId);
      return { result: members, events: this.appendEventsNow(ws, build(members), at) };
    })();
  }

  async saveSourceNames(workspaceId: string, kind: SourceNameKind, names: Readonly<Record<string, string>>): Promise<void> {
    return this.sourceRecords.saveSourceNames(workspaceId, kind, names);
  }

  async sourceNames(workspaceId: string, kind: SourceNameKind, ids?: readonly string[]): Promise<Record<string, string>> {
    return this.sourceRecords.sourceNames(workspaceId, kind, ids);
  }

  async saveCredential(credential: SourceCredential): Promise<void> {
    return this.sourceRecords.saveCredential(credential);
  }

  async getCredential(workspaceId: string, userId: string): Promise<SourceCredential | null> {
    return this.sourceRecords.getCredential(workspaceId, userId);
  }

  async replaceCredentialSecret(workspaceId: string, userId: string, expected: string, secret: string): Promise<boolean> {
    return this.sourceRecords.replaceCredentialSecret(workspaceId, userId, expected, secret);
  }

  async listCredentials(): Promise<SourceCredential[]> {
    return this.sourceRecords.listCredentials();
  }

  async deleteCredential(workspaceId: string, userId: string): Promise<void> {
    return this.sourceRecords.deleteCredential(workspaceId, userId);
  }

  async deleteSessionsOf(workspaceId: string, userId: string): Promise<string[]> {
    return this.sessionRecords.deleteSessionsOf(workspaceId, userId);
  }

  async saveOAuthState(stateHash: string, browserHash: string, expiresAt: number, addTo?: OAuthAddTo): Promise<void> {
    return this.sessionRecords.saveOAuthState(stateHash, browserHash, expiresAt, addTo);
  }

  async takeOAuthState(stateHash: string): Promise<{ browserHash: string; expiresAt: number; addTo?: OAuthAddTo } | null> {
    return this.sessionRecords.takeOAuthState(stateHash);
  }

  async sourceEventSeen(workspaceId: string, eventId: string): Promise<boolean> {
    return this.sourceRecords.sourceEventSeen(workspaceId, eventId);
  }

  async recordSourceEvent(workspaceId: string, eventId: string, at: number): Promise<boolean> {
    return this.sourceRecords.recordSourceEvent(workspaceId, eventId, at);
  }

  async pruneSourceEvents(before: number): Promise<number> {
    return this.sourceRecords.pruneSourceEvents(before);
  }

  async getSyncState<T>(workspaceId: string, userId: string): Promise<T | null> {
    return this.sourceRecords.getSyncState<T>(workspaceId, userId);
  }

  async setSyncState(workspaceId: string, userId: string, state: unknown, at: number): Promise<void> {
    return this.sourceRecords.setSyncState(workspaceId, userId, state, at);
  }

  /* ---------- views (viewRecords.ts, on the handle) ---------- */

  async listCustomViews(workspaceId: string, userId: string, parentViewId?: string): Promise<CustomView[]> {
    return this.viewRecords.listCustomViews(workspaceId, userId, parentViewId);
  }

  async getCustomView(workspaceId: string, userId: string, id: string): Promise<CustomView | null> {
    return this.viewRecords.getCustomView(workspaceId, userId, id);
  }

  async createCustomView(workspaceId: string, userId: string, view: NewCustomView, at: number, build: EventBuilder<CustomView>): Promise<Written<CustomView>> {
    return this.viewRecords.createCustomView(workspaceId, userId, view, at, build);
  }

  async updateCustomView(
    workspaceId: string,
    userId: string,
    id: string,
    patch: CustomViewPatch,
    at: number,
    build: EventBuilder<CustomView>,
  ): Promise<Written<CustomView> | null> {
    return this.viewRecords.updateCustomView(workspaceId, userId, id, patch, at, build);
  }

  async deleteCustomView(workspaceId: string, userId: string, id: string, at: number, build: EventBuilder<string>): Promise<Written<string> | null> {
    return this.viewRecords.deleteCustomView(workspaceId, userId, id, at, build);
  }

  async reorderCustomViews(
    workspaceId: string,
    userId: string,
    positions: ReadonlyArray<{ id: string; position: number }>,
    at: number,
    build: EventBuilder<MemberViews>,
  ): Promise<Written<MemberViews> | null> {
    return this.viewRecords.reorderCustomViews(workspaceId, userId, positions, at, build);
  }

  async listBuiltinViewSettings(workspaceId: string, userId: string): Promise<BuiltinViewSetting[]> {
    return this.viewRecords.listBuiltinViewSettings(workspaceId, userId);
  }

  async setBuiltinVisibility(
    workspaceId: string,
    userId: string,
    viewId: string,
    isVisible: boolean | 'toggle',
    at: number,
    build: EventBuilder<BuiltinView>,
  ): Promise<Written<BuiltinView> | null> {
    return this.viewRecords.setBuiltinVisibility(workspaceId, userId, viewId, isVisible, at, build);
  }

  async initializeBuiltinViews(
    workspaceId: string,
    userId: string,
    at: number,
    build: EventBuilder<MemberViews & { created: number }>,
  ): Promise<Written<MemberViews & { created: number }>> {
    return this.viewRecords.initializeBuiltinViews(workspaceId, userId, at, build);
  }

  /* ---------- the event log (sqliteEventLog.ts) ---------- */

  /** Must run inside a transaction. */
  private appendEventsNow(workspaceId: string, events: MemberEvent[], at: number): Array<StoredEvent & { userId: string }> {
    return this.log.append(workspaceId, events, at);
  }

  async appendEvents(workspaceId: string, events: MemberEvent[], at: number) {
    return this.db.transaction(() => this.appendEventsNow(workspaceId, events, at))();
  }

  async currentSequence(workspaceId: string, userId: string): Promise<number> {
    return this.eventLog.current(workspaceId, userId);
  }

  async eventLogBounds(workspaceId: string, userId: string): Promise<EventLogBounds> {
    return this.eventLog.bounds(workspaceId, userId);
  }

  async eventsAfter(workspaceId: string, userId: string, after: number, limit = 10_000): Promise<StoredEvent[]> {
    return this.eventLog.after(workspaceId, userId, after, limit);
  }

  async pruneEventLog(before: number, maxPerMember: number): Promise<EventLogPruned> {
    const pruning = this.log.prune(before, maxPerMember);
    this.pruning = pruning.catch(() => undefined);
    return pruning;
  }

  async sentMessage(workspaceId: string, userId: string, clientMsgId: string): Promise<SentMessage | null> {
    return this.log.sent(workspaceId, userId, clientMsgId);
  }

  /** A pruning pass in progress (it yields between chunks): closing waits for it. */
  private pruning: Promise<unknown> = Promise.resolve();

  async close(): Promise<void> {
    await this.pruning;
    await this.handle.exclusive(() => this.db.close());
  }

  async aiTokensUsed(workspaceId: string, userId: string, day: string): Promise<number> {
    return this.memberRecords.aiTokensUsed(workspaceId, userId, day);
  }

  async addAiTokens(workspaceId: string, userId: string, day: string, tokens: number): Promise<number> {
    return this.memberRecords.addAiTokens(workspaceId, userId, day, tokens);
  }
}
