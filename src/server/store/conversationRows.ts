/**
 * How conversations, members' read states and messages are stored as rows, and read back (issue 15 §1): shared by
 * the conversation aggregate (conversationRecords.ts) and the source batches (sourceBatches.ts), on both engines.
 */
import type { AiCategory, ConversationSummary, Message } from '../../model/types';
import { tsSeconds } from '../../model/ts';
import { SLACK_CONTENT_KEYS, type SlackContent } from '../../model/slack';
import type { Db } from './db';
import { indexedBy } from './sql';
import type { ConversationRecord, MemberReadState, UnreadConversation } from './types';

export interface ConversationRow {
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

export type SummaryRow = ConversationRow & {
  last_read: string;
  unread_count: number;
  category: AiCategory | null;
  label_source: 'manual' | 'ai' | null;
  reason: string | null;
  confidence: number | null;
  triggers: string | null;
};

export interface MessageRow {
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

/** A conversation's stored columns (not `SELECT *`: PostgreSQL's rows may carry more, such as search columns). */
export const CONVERSATION_COLUMNS = `c.id, c.name, c.type, c.is_private, c.dm_user, c.member_ids, c.parent_id, c.thread_ts, c.parent_user, c.parent_text,
  c.truth, c.message_count, c.latest_ts, c.latest_user, c.latest_text`;

/** A message's stored columns, as a MessageRow. */
export const MESSAGE_COLUMNS = `conversation_id, ts, "user", text, subtype, thread_ts, reply_count, client_msg_id, content, resolved_text`;

/** A member's summary of a conversation: the conversation, their read state and their label. */
export const SUMMARY_COLUMNS = `${CONVERSATION_COLUMNS}, m.last_read, m.unread_count,
  l.category, l.source AS label_source, l.reason, l.confidence, l.triggers`;

export const SUMMARY_SELECT = `
  SELECT ${SUMMARY_COLUMNS}
  FROM conversation_members m
  JOIN conversations c ON c.workspace_id = m.workspace_id AND c.id = m.conversation_id
  LEFT JOIN labels l ON l.workspace_id = m.workspace_id AND l.user_id = m.user_id AND l.conversation_id = m.conversation_id`;

/** What a preview, a thread title and search read of a stored message. */
export const READABLE = `COALESCE(resolved_text, text)`;

export function toSummary(row: SummaryRow): ConversationSummary {
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

export type UnreadRow = Pick<
  SummaryRow,
  'id' | 'type' | 'name' | 'is_private' | 'dm_user' | 'parent_id' | 'last_read' | 'unread_count' | 'category' | 'reason'
> & {
  latest_ts: string | null;
  source: 'manual' | 'ai' | null;
  basis_ts: string | null;
};

export function toUnread(row: UnreadRow): UnreadConversation {
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

export function toMessage(row: MessageRow): Message {
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

export function toRecord(row: ConversationRow): ConversationRecord {
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

/** A message's Slack content as stored: only the keys it has, as JSON (null: none). */
export function contentJson(m: Partial<SlackContent>): string | null {
  const content: Record<string, unknown> = {};
  for (const key of SLACK_CONTENT_KEYS) if (m[key] !== undefined) content[key] = m[key];
  return Object.keys(content).length ? JSON.stringify(content) : null;
}

/** The derived text as stored: null when it is the text itself. */
export function resolvedOf(m: { text: string; resolved_text?: string }): string | null {
  return m.resolved_text !== undefined && m.resolved_text !== m.text ? m.resolved_text : null;
}

/** A conversation record's columns, in CONVERSATION_RECORD_COLUMNS' order. */
export function conversationValues(ws: string, c: ConversationRecord): unknown[] {
  return [
    ws,
    c.id,
    c.name,
    c.type,
    c.is_private ? 1 : 0,
    c.dm_user ?? null,
    JSON.stringify(c.member_ids),
    c.parent_conversation_id ?? null,
    c.thread_ts ?? null,
  ];
}
export const CONVERSATION_RECORD_COLUMNS = `workspace_id, id, name, type, is_private, dm_user, member_ids, parent_id, thread_ts`;

/** A conversation as nobody in particular sees it (no read state, no label): what events carry. */
export async function baseSummary(q: Db, workspaceId: string, conversationId: string): Promise<ConversationSummary> {
  const row = await q.get<ConversationRow>(`SELECT ${CONVERSATION_COLUMNS} FROM conversations c WHERE c.workspace_id = ? AND c.id = ?`, [
    workspaceId,
    conversationId,
  ]);
  if (!row) throw new Error(`Unknown conversation ${conversationId}`);
  return toSummary({ ...row, last_read: '', unread_count: 0, category: null, label_source: null, reason: null, confidence: null, triggers: null });
}

/** Every member's read state of a conversation. */
export async function readStates(q: Db, workspaceId: string, conversationId: string): Promise<MemberReadState[]> {
  const rows = await q.all<{ user_id: string; last_read: string; unread_count: number }>(
    `SELECT user_id, last_read, unread_count FROM conversation_members${indexedBy(q, 'conversation_members_by_conversation')} WHERE workspace_id = ? AND conversation_id = ?`,
    [workspaceId, conversationId],
  );
  return rows.map((row) => ({ userId: row.user_id, last_read: row.last_read, unread_count: row.unread_count }));
}
