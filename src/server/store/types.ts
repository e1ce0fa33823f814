/**
 * The server's storage interface. Narrow on purpose: every method is one business
 * operation, answered as a promise, so that a PostgreSQL store can implement it next to
 * the embedded SQLite one (src/server/store/sqlite.ts).
 *
 * Durability contract: when a method that writes resolves, its change and the events it
 * appended are committed. Callers fan events out only after that, so a stream never sees
 * an event the log could lose, and a sequence is never reused.
 */
import type { AiCategory, ConversationSummary, ConversationType, LiveEvent, Message, User, UserData, Workspace } from '../../model/types';
import type { AiTrigger, CatchupAction, Lesson } from '../../model/ai';
import { BUILTIN_VIEWS, type BuiltinView, type CustomView } from '../../model/views';

export interface Membership {
  workspace: Workspace;
  userId: string;
}

export interface Session {
  accountId: string;
  workspaceId: string;
  userId: string;
  createdAt: number;
  /** When the session was last used (epoch ms; at most a minute stale); absent: never since it was created. */
  lastSeenAt?: number;
}

export interface ConversationRecord {
  id: string;
  name: string;
  type: ConversationType;
  is_private: boolean;
  dm_user?: string;
  member_ids: string[];
  parent_conversation_id?: string;
  thread_ts?: string;
  /** Ground truth of the demo generator (never sent to a client). */
  truth?: AiCategory;
}

/** A fact appended to one member's event log. */
export interface MemberEvent {
  userId: string;
  type: string;
  data: unknown;
}

/** One stored event, as it is sent on the stream. */
export type StoredEvent = LiveEvent & { sequence: number; timestamp: number };

/**
 * What a member's event log can replay (issue 14 §2): every event after `replayableFrom` up to
 * `current` is held, so a stream resumes from any sequence in [replayableFrom, current]; below it
 * the events were pruned, above it the log was reset.
 */
export interface EventLogBounds {
  current: number;
  replayableFrom: number;
}

/** What one pass of the event log's retention removed. */
export interface EventLogPruned {
  /** Members whose oldest events went. */
  members: number;
  events: number;
  /** Remembered sends (client_msg_id) forgotten. */
  sends: number;
}

/** A send remembered by its client_msg_id: the message it posted. */
export interface SentMessage {
  conversationId: string;
  ts: string;
}

export interface InsertMessageInput {
  workspaceId: string;
  conversationId: string;
  user: string;
  text: string;
  subtype?: Message['subtype'];
  thread_ts?: string;
  client_msg_id?: string;
  /** Epoch ms; the store makes the ts unique and increasing within the conversation. */
  at: number;
  /**
   * The message's ts as the workspace gave it (Slack's chat.postMessage answer). When a
   * message with this ts is already stored (its live echo came first), nothing is written
   * and the stored one is answered, with no events.
   */
  ts?: string;
}

export interface MemberReadState {
  userId: string;
  last_read: string;
  unread_count: number;
}

export interface InsertMessageResult {
  message: Message;
  /** The conversation after the insert, without member-specific fields. */
  conversation: ConversationSummary;
  /** Every member of the conversation after the insert (the sender included), with their read state. */
  members: MemberReadState[];
}

/** Builds the events of a write from its result; runs inside the write's transaction. */
export type EventBuilder<R> = (result: R) => MemberEvent[];

export interface Written<R> {
  result: R;
  events: Array<StoredEvent & { userId: string }>;
}

/** A position in the activity order: the last conversation of the previous page. */
export interface ActivityCursor {
  latest_ts: string;
  id: string;
}

export interface MessageHit {
  conversation_id: string;
  ts: string;
  text: string;
  user: string | null;
  /** SQLite's bm25: lower is more relevant. */
  bm25: number;
}

/** A full-text query: the member's words (lower case, letters and digits), all required unless `any`. */
export interface TextQuery {
  words: readonly string[];
  /** Any one word matches (the AI's second pass), instead of all of them. */
  any?: boolean;
  /** The last word matches as a prefix (the member is still typing it). */
  lastIsPrefix?: boolean;
}

export interface ListOptions {
  type?: ConversationType;
  /** Activity order only: start after this conversation (keyset paging, no OFFSET cost). */
  after?: ActivityCursor;
  /** Id order (the default) only. */
  offset?: number;
  limit?: number;
  /** 'activity': newest first, ties by id. 'id' (default): stable id order. */
  order?: 'id' | 'activity';
  /** Skip counting the total (it costs a pass over the member's conversations). */
  skipTotal?: boolean;
}

/**
 * An unread conversation as the AI reads it: what classification and catch-up need, and the
 * state of its label, without the member list (a covering index answers it at 25,000 rows).
 */
export interface UnreadConversation {
  id: string;
  type: ConversationType;
  name: string;
  is_private: boolean;
  dm_user?: string;
  parent_conversation_id?: string;
  last_read: string;
  unread_count: number;
  /** The newest message's ts. */
  latest_ts: string;
  ai_category?: AiCategory;
  ai_source?: 'manual' | 'ai';
  ai_reason?: string;
  /** The newest message ts the AI label was computed from (null: no AI label, or a manual one). */
  basisTs: string | null;
}

/** A label written by the classifier. */
export interface AiLabel {
  conversationId: string;
  category: AiCategory;
  reason: string;
  confidence: number;
  triggers: AiTrigger[];
  /** The newest message ts the label was computed from. */
  basisTs: string;
}

/** A catch-up session as stored: who it belongs to, and its state as the AI service keeps it. */
export interface CatchupSessionRecord {
  id: string;
  workspaceId: string;
  userId: string;
  createdAt: number;
  touchedAt: number;
  history: Array<{ role: 'user' | 'assistant'; content: string; at: number }>;
  pending: CatchupAction | null;
  cleared: number;
}

/** How many lessons a member keeps (the oldest go first). */
export const LESSON_CAP = 500;

/** Bulk import for workspace sources (the demo generator, a Slack sync). */
export interface ImportBatch {
  users?: User[];
  conversations?: ConversationRecord[];
  messages?: Array<Omit<Message, 'channel'> & { conversation_id: string }>;
  /** Read marks; members without one have read to the latest message. */
  readMarks?: Array<{ conversation_id: string; user_id: string; last_read: string }>;
}

/**
 * A sync or live batch from a workspace source (Slack), applied as upserts: a conversation
 * keeps its counts, a message is keyed by its ts (stored once however often it is fetched,
 * an edit replaces its text), and counts and read state are recomputed from what is stored.
 */
export interface SourceBatch {
  users?: User[];
  /** Upserted; member_ids is the conversation's whole member list (joins and leaves apply). */
  conversations?: ConversationRecord[];
  messages?: Array<Omit<Message, 'channel'> & { conversation_id: string }>;
  deletedMessages?: Array<{ conversation_id: string; ts: string }>;
  /** Read marks of members; a member without one keeps theirs (a new member has read to the latest message). */
  readMarks?: Array<{ conversation_id: string; user_id: string; last_read: string }>;
}

export interface SourceBatchResult {
  /** Messages stored for the first time. */
  inserted: Message[];
  /** Stored messages whose text (or thread fields) changed. */
  edited: Message[];
  /** Messages that were stored and are now deleted. */
  deleted: Array<{ conversation_id: string; ts: string }>;
  /** Members who joined or left a conversation (by its new member list). */
  joined: Array<{ conversation_id: string; user_id: string }>;
  left: Array<{ conversation_id: string; user_id: string }>;
  /** Read marks that moved, with the member's new counts. */
  marked: Array<MemberReadState & { conversation_id: string }>;
  /** Each touched conversation after the batch (no member fields) with every member's read state; filled only when events are built. */
  touched: Map<string, { conversation: ConversationSummary; members: MemberReadState[] }>;
}

/** An 'Add workspace' sign-in: the account it adds to, and the session (its token's hash) that started it. */
export interface OAuthAddTo {
  accountId: string;
  sessionHash: string;
}

/** What a source names for mentions: channels (id → name), user groups (id → handle), custom emoji (name → URL or 'alias:other'). */
export type SourceNameKind = 'channel' | 'usergroup' | 'emoji';

/** A member's credential of a workspace source, encrypted by the source (the store never holds a usable token). */
export interface SourceCredential {
  workspaceId: string;
  userId: string;
  secret: string;
  /** Epoch ms when the access token expires (null: it does not). */
  expiresAt: number | null;
  updatedAt: number;
}

/** A member's setting of one built-in view (SPEC §3: built-in views with visibility flags). */
export interface BuiltinViewSetting {
  viewId: string;
  isVisible: boolean;
  /** Absent: the definition's position. */
  position?: number;
}

/** The built-in views (model/views) with a member's settings applied, in definition order. */
export function applyBuiltinSettings(settings: readonly BuiltinViewSetting[]): BuiltinView[] {
  const byId = new Map(settings.map((s) => [s.viewId, s]));
  return BUILTIN_VIEWS.map((view) => {
    const setting = byId.get(view.id);
    if (!setting) return { ...view, filters: [...view.filters] };
    return { ...view, filters: [...view.filters], isVisible: setting.isVisible, position: setting.position ?? view.position };
  });
}

/** A new custom view; the store stamps createdAt/updatedAt. */
export interface NewCustomView {
  id: string;
  label: string;
  filters: CustomView['filters'];
  combinator?: 'and' | 'or';
  parentViewId: string;
  /** undefined: appended to its page (SPEC §4.9); null: no position (ordered as 999). */
  position?: number | null;
  isVisible: boolean;
}

/** A change to a custom view; absent fields stay as they are. */
export interface CustomViewPatch {
  label?: string;
  filters?: CustomView['filters'];
  combinator?: 'and' | 'or';
  /** Moving to another page without a position appends the view to that page. */
  parentViewId?: string;
  /** null clears the position (ordered as 999). */
  position?: number | null;
  /** 'toggle' flips it, atomically. */
  isVisible?: boolean | 'toggle';
}

/** Every view of a member: the built-ins with their settings (definition order), and the custom views (as listCustomViews orders them). */
export interface MemberViews {
  builtin: BuiltinView[];
  custom: CustomView[];
}

/** Workspaces, the accounts that span them, and their people (workspaceRecords.ts; emptying one: conversationRecords.ts). */
export interface WorkspaceStore {
  upsertWorkspace(workspace: Workspace & { source: string }): Promise<void>;
  getWorkspace(id: string): Promise<Workspace | null>;
  workspaceHasData(id: string): Promise<boolean>;
  /** Whether a source finished importing the workspace (a crash mid-import leaves it false). */
  workspaceImported(id: string): Promise<boolean>;
  markWorkspaceImported(id: string): Promise<void>;
  /** Removes a workspace's people, conversations and messages (not its sessions or event log). */
  clearWorkspaceData(id: string): Promise<void>;
  /**
   * Links a workspace identity to an account. An identity belongs to one account for good: when it
   * is already another account's, nothing changes and the answer is false.
   */
  addMembership(accountId: string, workspaceId: string, userId: string): Promise<boolean>;
  memberships(accountId: string): Promise<Membership[]>;
  /** The account of a workspace member, created on first use. */
  accountFor(workspaceId: string, userId: string): Promise<string>;
  getUser(workspaceId: string, userId: string): Promise<User | null>;
  listUsers(workspaceId: string): Promise<User[]>;
  userData(workspaceId: string, userIds: string[]): Promise<Record<string, UserData>>;
}

/** Sessions and live stream tickets; tokens are stored as hashes (sessionRecords.ts). */
export interface SessionStore {
  createSession(tokenHash: string, session: Session): Promise<void>;
  getSession(tokenHash: string): Promise<Session | null>;
  switchSessionWorkspace(tokenHash: string, workspaceId: string, userId: string): Promise<void>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Records that a session was used. */
  touchSession(tokenHash: string, at: number): Promise<void>;
  /** Ends the sessions created before `createdBefore` or last used before `seenBefore`; answers their token hashes. */
  pruneSessions(createdBefore: number, seenBefore: number): Promise<string[]>;
  /** Keeps a live stream ticket (its hash) for a session until `expiresAt`. */
  createStreamTicket(ticketHash: string, tokenHash: string, expiresAt: number): Promise<void>;
  /** Uses up a ticket: the session's token hash if it was still valid at `now`; it can never be used again. */
  takeStreamTicket(ticketHash: string, now: number): Promise<string | null>;
}

/** Conversations and messages as one member sees them, their labels and lessons, search and imports (conversationRecords.ts, labelRecords.ts, searchRecords.ts, sourceBatches.ts). */
export interface ConversationStore {
  listConversations(
    workspaceId: string,
    userId: string,
    options?: ListOptions,
  ): Promise<{ conversations: ConversationSummary[]; total: number; next?: ActivityCursor }>;
  getConversation(workspaceId: string, userId: string, conversationId: string): Promise<ConversationSummary | null>;
  /** The conversation's messages, oldest first, at most `limit` of the newest. */
  listMessages(workspaceId: string, conversationId: string, limit: number): Promise<Message[]>;
  getMessage(workspaceId: string, conversationId: string, ts: string): Promise<Message | null>;
  conversationRecord(workspaceId: string, conversationId: string): Promise<ConversationRecord | null>;
  /**
   * Inserts a message (the sender's read mark moves to it; every other member gains an
   * unread), and appends the events `build` makes of the result, in one transaction. A
   * client_msg_id is remembered as the sender's send (sentMessage), in the same transaction.
   */
  insertMessage(input: InsertMessageInput, build: EventBuilder<InsertMessageResult>): Promise<Written<InsertMessageResult>>;
  /** Sets the member's read mark and appends the events of it, in one transaction; a mark that changes nothing appends none. */
  markRead(
    workspaceId: string,
    userId: string,
    conversationId: string,
    lastRead: string,
    at: number,
    build: EventBuilder<MemberReadState>,
  ): Promise<Written<MemberReadState>>;
  /**
   * Sets (category) or removes (null) the member's label of a conversation, with its events, in one
   * transaction; the label it already has (or removing none) appends no events.
   */
  setLabel(
    workspaceId: string,
    userId: string,
    conversationId: string,
    label: { category: AiCategory; source: 'manual' | 'ai'; reason?: string; confidence?: number } | null,
    at: number,
    build: EventBuilder<null>,
  ): Promise<Written<null>>;
  /** The member's unread conversations, newest first, each with what its label was computed from. */
  unreadConversations(workspaceId: string, userId: string, limit?: number): Promise<UnreadConversation[]>;
  /**
   * Writes AI labels, skipping any conversation the member labelled by hand (a manual label
   * always wins), with the events of the written ones, in one transaction.
   */
  setAiLabels(workspaceId: string, userId: string, labels: readonly AiLabel[], at: number, build: EventBuilder<AiLabel[]>): Promise<Written<AiLabel[]>>;
  /** Appends a lesson of the member (a manual category), keeping the newest LESSON_CAP. */
  addLesson(workspaceId: string, userId: string, lesson: Lesson): Promise<void>;
  /** The member's lessons, oldest first. */
  listLessons(workspaceId: string, userId: string): Promise<Lesson[]>;
  /** The ts of the newest message by someone else than `userId` (what 'mark unread' steps back before). */
  latestFromOthers(workspaceId: string, conversationId: string, userId: string): Promise<{ ts: string; before: string } | null>;
  /**
   * The newest messages matching a full-text query in conversations the member belongs to, with
   * their relevance (as bm25), for the caller to re-rank (taking the newest lets the engine stop
   * early instead of scoring every hit of a common word).
   */
  searchMessages(workspaceId: string, userId: string, query: TextQuery, limit: number): Promise<MessageHit[]>;
  /** The member's conversations whose name (or dm person) contains the text, case-insensitively. */
  searchConversations(workspaceId: string, userId: string, text: string, limit: number): Promise<ConversationSummary[]>;
  /** People of the workspace whose names contain the text, case-insensitively. */
  searchUsers(workspaceId: string, text: string, limit: number): Promise<User[]>;
  countMessages(workspaceId: string): Promise<number>;
  importBatch(workspaceId: string, batch: ImportBatch): Promise<void>;
}

/** A member's views (SPEC §7.6); every write appends its events in the same transaction (viewRecords.ts). */
export interface ViewStore {
  /** The member's custom views, of one page or all, ordered by position (missing as 999), ties by label. */
  listCustomViews(workspaceId: string, userId: string, parentViewId?: string): Promise<CustomView[]>;
  getCustomView(workspaceId: string, userId: string, id: string): Promise<CustomView | null>;
  createCustomView(workspaceId: string, userId: string, view: NewCustomView, at: number, build: EventBuilder<CustomView>): Promise<Written<CustomView>>;
  /** null (and nothing written) when the member has no such view. */
  updateCustomView(
    workspaceId: string,
    userId: string,
    id: string,
    patch: CustomViewPatch,
    at: number,
    build: EventBuilder<CustomView>,
  ): Promise<Written<CustomView> | null>;
  /** null (and nothing written) when the member has no such view; else the id. */
  deleteCustomView(workspaceId: string, userId: string, id: string, at: number, build: EventBuilder<string>): Promise<Written<string> | null>;
  /** Sets several positions at once; null (and nothing written) when any id is not one of the member's views. */
  reorderCustomViews(
    workspaceId: string,
    userId: string,
    positions: ReadonlyArray<{ id: string; position: number }>,
    at: number,
    build: EventBuilder<MemberViews>,
  ): Promise<Written<MemberViews> | null>;
  listBuiltinViewSettings(workspaceId: string, userId: string): Promise<BuiltinViewSetting[]>;
  /** Sets (or with 'toggle' flips) a built-in view's visibility; null (and nothing written) for an unknown built-in id. */
  setBuiltinVisibility(
    workspaceId: string,
    userId: string,
    viewId: string,
    isVisible: boolean | 'toggle',
    at: number,
    build: EventBuilder<BuiltinView>,
  ): Promise<Written<BuiltinView> | null>;
  /** Creates the member's missing settings rows with the definitions' defaults; `created` counts them (0: nothing changed). */
  initializeBuiltinViews(
    workspaceId: string,
    userId: string,
    at: number,
    build: EventBuilder<MemberViews & { created: number }>,
  ): Promise<Written<MemberViews & { created: number }>>;
}

/** Catch-up sessions (SPEC §7.8; memberRecords.ts). */
export interface CatchupStore {
  /** Creates or replaces a session. */
  saveCatchupSession(record: CatchupSessionRecord): Promise<void>;
  /** A session of the member, or null (another member's session is as unknown as a missing one). */
  getCatchupSession(workspaceId: string, userId: string, id: string): Promise<CatchupSessionRecord | null>;
  deleteCatchupSession(workspaceId: string, userId: string, id: string): Promise<boolean>;
  /** Ends sessions idle since before `cutoff`, and the member's oldest beyond `keep`. */
  pruneCatchupSessions(workspaceId: string, userId: string, cutoff: number, keep: number): Promise<void>;
}

/** The waitlist (SPEC §7.7; memberRecords.ts). */
export interface WaitlistStore {
  /** Records a signup; the same email (normalised to lower case) and platform twice is one signup (created: false). */
  addWaitlistSignup(email: string, platform: 'teams' | 'email', at: number): Promise<{ created: boolean }>;
  countWaitlist(platform?: 'teams' | 'email'): Promise<number>;
}

/** Workspace sources (Slack): sync batches, credentials, sign-in states, event ids, sync progress (sourceRecords.ts, sourceBatches.ts). */
export interface SourceStore {
  /** Applies a sync or live batch (upserts keyed by id and ts), with the events `build` makes of it, in one transaction. */
  applySourceBatch(workspaceId: string, batch: SourceBatch, at: number, build?: EventBuilder<SourceBatchResult>): Promise<Written<SourceBatchResult>>;
  saveCredential(credential: SourceCredential): Promise<void>;
  getCredential(workspaceId: string, userId: string): Promise<SourceCredential | null>;
  /** Replaces a credential's secret only while it is still `expected` (re-encryption under a new key); answers whether it did. */
  replaceCredentialSecret(workspaceId: string, userId: string, expected: string, secret: string): Promise<boolean>;
  listCredentials(): Promise<SourceCredential[]>;
  deleteCredential(workspaceId: string, userId: string): Promise<void>;
  /** Ends every session of a member (a revoked workspace token sends them back to sign in). */
  /** Ends every session of a member; answers their token hashes (so their open streams can be closed). */
  deleteSessionsOf(workspaceId: string, userId: string): Promise<string[]>;
  /** Saves a sign-in's state (hashes only), dropping expired ones. */
  saveOAuthState(stateHash: string, browserHash: string, expiresAt: number, addTo?: OAuthAddTo): Promise<void>;
  /** Takes a state: answers it and deletes it, so it is used once (null: unknown or already used). */
  takeOAuthState(stateHash: string): Promise<{ browserHash: string; expiresAt: number; addTo?: OAuthAddTo } | null>;
  /** Whether a workspace event id was already processed. */
  sourceEventSeen(workspaceId: string, eventId: string): Promise<boolean>;
  /** Records a processed event id; false when it was already recorded. */
  recordSourceEvent(workspaceId: string, eventId: string, at: number): Promise<boolean>;
  /** Forgets event ids received before `before` (epoch ms); answers how many. */
  pruneSourceEvents(before: number): Promise<number>;
  /**
   * Ends a member's access to conversations (they left or were removed, or the conversation was
   * archived or deleted): their membership of each, and of each one's threads, goes, with their
   * labels; the others' member lists lose them. Answers the conversation ids the member lost
   * (threads included), with the events `build` makes of them, in one transaction.
   */
  revokeAccess(workspaceId: string, userId: string, conversationIds: readonly string[], at: number, build: EventBuilder<string[]>): Promise<Written<string[]>>;
  /** Renames a conversation (a channel renamed in the workspace); answers its members, or null when unknown. */
  renameConversation(workspaceId: string, conversationId: string, name: string, at: number, build: EventBuilder<string[]>): Promise<Written<string[]> | null>;
  /** Names a source looked up for mentions, replacing those of the same ids. */
  saveSourceNames(workspaceId: string, kind: SourceNameKind, names: Readonly<Record<string, string>>): Promise<void>;
  /** The stored names of `kind` (of these ids only, when given). */
  sourceNames(workspaceId: string, kind: SourceNameKind, ids?: readonly string[]): Promise<Record<string, string>>;
  getSyncState<T>(workspaceId: string, userId: string): Promise<T | null>;
  setSyncState(workspaceId: string, userId: string, state: unknown, at: number): Promise<void>;
}

/** The event log (eventLog.ts). */
export interface EventLogStore {
  /** Appends events, each with its member's next sequence, in one transaction. */
  appendEvents(workspaceId: string, events: MemberEvent[], at: number): Promise<Array<StoredEvent & { userId: string }>>;
  /** The member's last sequence; it never goes down, even when every event was pruned. */
  currentSequence(workspaceId: string, userId: string): Promise<number>;
  /** The member's current sequence and the lowest one a replay can start from, read together. */
  eventLogBounds(workspaceId: string, userId: string): Promise<EventLogBounds>;
  eventsAfter(workspaceId: string, userId: string, after: number, limit?: number): Promise<StoredEvent[]>;
  /**
   * The retention (issue 14 §2): drops each member's events written before `before` and all but
   * their newest `maxPerMember`, always an oldest run of the log (what remains replays whole),
   * raising their replayableFrom; and forgets the sends remembered before `before`.
   */
  pruneEventLog(before: number, maxPerMember: number): Promise<EventLogPruned>;
  /** The message a member's send with this client_msg_id posted, while it is remembered (null: none). */
  sentMessage(workspaceId: string, userId: string, clientMsgId: string): Promise<SentMessage | null>;
}

/** The daily AI budget (memberRecords.ts). */
export interface AiBudgetStore {
  /** The AI tokens a member used on a UTC day ('2026-11-20'). */
  aiTokensUsed(workspaceId: string, userId: string, day: string): Promise<number>;
  /** Adds tokens to the member's day and forgets their earlier days; answers the day's total. */
  addAiTokens(workspaceId: string, userId: string, day: string, tokens: number): Promise<number>;
}

/** The store: the sum of its aggregates' interfaces (issue 15 §1), on SQLite or PostgreSQL (store/store.ts). */
export interface Store
  extends WorkspaceStore, SessionStore, ConversationStore, ViewStore, CatchupStore, WaitlistStore, SourceStore, EventLogStore, AiBudgetStore {
  close(): Promise<void>;
}
