/**
 * The entities of SPEC §3, shared by the server, the worker and the page.
 * Pure types: no runtime code lives here.
 */
import type { SlackContent } from './slack';

export type ConversationType = 'dm' | 'channel' | 'thread';
export const CONVERSATION_TYPES: readonly ConversationType[] = ['dm', 'channel', 'thread'];

export type AiCategory = 'urgent' | 'can_wait' | 'fyi';
export const AI_CATEGORIES: readonly AiCategory[] = ['urgent', 'can_wait', 'fyi'];

export interface User {
  id: string;
  name: string;
  real_name: string;
  display_name: string;
  title?: string;
  team?: string;
  email?: string;
  is_bot?: boolean;
  /** An avatar picture: a data: URL or a same-origin path, never a remote host. */
  avatar?: string;
  avatar_url?: string;
  image_32?: string;
  image_48?: string;
  image_72?: string;
  image_192?: string;
  image_512?: string;
}

/** The small user record carried with a message or a participant list. */
export interface UserData {
  id: string;
  name: string;
  real_name: string;
  display_name: string;
  avatar?: string;
}

export interface AiTrigger {
  why: string;
}

export interface LatestMessage {
  ts: string;
  user?: string;
  text: string;
  user_data?: UserData;
  resolved_text?: string;
  is_priority_preview?: boolean;
}

/** Slack's message subtypes that Sift reads specially; any other subtype Slack sends is kept as given. */
export type MessageSubtype =
  'channel_join' | 'channel_leave' | 'bot_message' | 'me_message' | 'thread_broadcast' | 'huddle_thread' | 'file_share' | (string & {});

export interface Message extends SlackContent {
  /** Slack timestamp "seconds.micros": unique in its conversation, compared numerically. */
  ts: string;
  user?: string;
  /** Slack's own `text` (mrkdwn), kept as given; with blocks it is only their fallback. */
  text: string;
  /**
   * Everything a member can read in the message as one text in Slack markup (blocks, attachments,
   * files, huddle notes; see model/slackText): what previews, search, notifications and the AI read.
   * Absent when it equals `text`.
   */
  resolved_text?: string;
  subtype?: MessageSubtype;
  user_data?: UserData;
  /** The conversation id this message lives in (a thread reply: the thread conversation). */
  channel: string;
  /** Set on a thread reply, and on a thread parent (equal to its own ts). */
  thread_ts?: string;
  /** Replies sorted ascending by ts (on a parent message, when loaded). */
  threads?: Message[];
  reply_count?: number;
  /** Set by the page while a send is in flight. */
  pending?: boolean;
  /** A pending copy that waits in the outbox (offline) rather than being sent now (issue 14 §3). */
  queued?: boolean;
  /** Echoed from a send, so the sender can match its pending copy. */
  client_msg_id?: string;
}

/**
 * A conversation as listed: everything a row, a filter or a sort needs, and no messages.
 * `member_ids` keeps the summary small at 100,000 conversations; names are resolved
 * from the users map (`participants` objects are filled where one conversation is fetched).
 */
export interface ConversationSummary {
  id: string;
  name: string;
  type: ConversationType;
  is_private: boolean;
  /** For a dm: the other member. */
  dm_user?: string;
  member_ids: string[];
  unread_count: number;
  unread_count_display: number;
  last_read: string;
  message_count: number;
  /** Epoch seconds of the latest message. */
  latest_activity: number;
  latest_message?: LatestMessage;
  last_message_time?: number;
  /** Thread conversations: id is `${parent_conversation_id}:${thread_ts}`. */
  parent_conversation_id?: string;
  parent_message?: { ts: string; user?: string; text: string; resolved_text?: string };
  ai_category?: AiCategory;
  ai_triggers?: Array<string | AiTrigger>;
  ai_reason?: string;
  ai_confidence?: number;
  ai_source?: 'manual' | 'ai';
}

/** One conversation in full, as /api/conversations/{id}/threads answers it. */
export interface Conversation extends ConversationSummary {
  participants: UserData[];
  members_data: Record<string, UserData>;
  /** What the messages mention beyond people: channel names, user group handles, custom emoji. */
  mentions?: MentionData;
  messages: Message[];
  last_message?: LatestMessage;
}

/** Names for a conversation's mentions beyond people (Slack: conversations.info, usergroups.list, emoji.list). */
export interface MentionData {
  /** Channel id → name (without '#'). */
  channels?: Record<string, string>;
  /** User group id → handle (without '@'). */
  usergroups?: Record<string, string>;
  /** Custom emoji name → image URL (http or https). */
  emoji?: Record<string, string>;
}

export interface Workspace {
  id: string;
  name: string;
  domain?: string;
  icon?: string;
}

export interface AuthStatus {
  authenticated: boolean;
  user: User | null;
  workspace: Workspace | null;
  organizations: Workspace[];
  team?: Workspace | null;
}

export interface FeatureFlag {
  enabled: boolean;
  config?: Record<string, unknown>;
  state?: string;
}

export type FeatureFlags = Record<string, boolean> & { aiEnabled: boolean };

export interface ConfigMode {
  centralized: boolean;
  hasCredentials: boolean;
  mode: string;
}

/** SPEC §3 filter rule. `field` may be a dotted path. */
export type FilterOperator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'in' | 'exists' | 'not_exists';

export interface FilterRule {
  field: string;
  operator: FilterOperator | (string & {});
  value?: unknown;
}

export interface FilterSpec {
  rules: FilterRule[];
  combinator?: 'and' | 'or';
}

/* ---------- live events (SPEC §3 real-time event, §7.3) ---------- */

export type MessageUpdateAction = 'new_message' | 'thread_new_message' | 'channel_marked';

export interface MessageUpdateData {
  action: MessageUpdateAction;
  conversation_id: string;
  message?: Message;
  is_thread?: boolean;
  thread_ts?: string;
  /** The receiving member's counts after the change (absolute, so applying twice is harmless). */
  unread_count?: number;
  unread_count_display?: number;
  last_read?: string;
  /** The conversation's summary after the change, for the receiving member. */
  conversation?: ConversationSummary;
  /** Users referenced by the message, merged into the users map. */
  users?: Record<string, UserData>;
}

export interface ConversationUpdateData {
  conversation_id: string;
  conversation: Partial<ConversationSummary> & { id: string };
  reason?: string;
  /** The member no longer has the conversation (they left or were removed, or it was archived or deleted in the workspace). */
  removed?: boolean;
  /** The member was added to the conversation: `conversation` is its whole summary for them. */
  added?: boolean;
}

export type LiveEventType = 'connection' | 'replay_complete' | 'fetch_complete' | 'message_update' | 'conversation_update' | 'feature_update';

/** One event as it crosses the stream: `data:` is this object as JSON, `id:` its sequence. */
export interface LiveEvent<T = unknown> {
  type: LiveEventType | (string & {});
  data: T;
  /** Strictly increasing per member; absent on connection and replay_complete. */
  sequence?: number;
  isReplay?: boolean;
  timestamp?: number;
}

export interface ConnectionEventData {
  currentSequence: number;
}

/* ---------- HTTP ---------- */

/** SPEC §8: the error object produced by the HTTP layer. */
export interface HttpError {
  isNetworkError: boolean;
  status: number;
  message: string;
}

/* ---------- live connection ---------- */

export type LiveStatus = 'disconnected' | 'connecting' | 'connected' | 'error' | 'unauthenticated' | 'failed';

export interface LiveState {
  status: LiveStatus;
  /** Consecutive failed attempts since the last successful open. */
  attempt: number;
  reason?: 'max_attempts';
}
