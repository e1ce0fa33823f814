/**
 * The server's storage interface. Narrow on purpose: every method is one business
 * operation, answered as a promise, so that a PostgreSQL store can implement it next to
 * the embedded SQLite one (src/server/store/sqlite.ts).
 *
 * Durability contract: when a method that writes resolves, its change and the events it
 * appended are committed. Callers fan events out only after that, so a stream never sees
 * an event the log could lose, and a sequence is never reused.
 */
import type {
  AiCategory,
  ConversationSummary,
  ConversationType,
  LiveEvent,
  Message,
  User,
  UserData,
  Workspace,
} from '../../model/types';

export interface Membership {
  workspace: Workspace;
  userId: string;
}

export interface Session {
  accountId: string;
  workspaceId: string;
  userId: string;
  createdAt: number;
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

/** Bulk import for workspace sources (the demo generator, a Slack sync). */
export interface ImportBatch {
  users?: User[];
  conversations?: ConversationRecord[];
  messages?: Array<Omit<Message, 'channel'> & { conversation_id: string }>;
  /** Read marks; members without one have read to the latest message. */
  readMarks?: Array<{ conversation_id: string; user_id: string; last_read: string }>;
}

export interface Store {
  /* workspaces, accounts, users */
  upsertWorkspace(workspace: Workspace & { source: string }): Promise<void>;
  getWorkspace(id: string): Promise<Workspace | null>;
  workspaceHasData(id: string): Promise<boolean>;
  /** Whether a source finished importing the workspace (a crash mid-import leaves it false). */
  workspaceImported(id: string): Promise<boolean>;
  markWorkspaceImported(id: string): Promise<void>;
  /** Removes a workspace's people, conversations and messages (not its sessions or event log). */
  clearWorkspaceData(id: string): Promise<void>;
  addMembership(accountId: string, workspaceId: string, userId: string): Promise<void>;
  memberships(accountId: string): Promise<Membership[]>;
  /** The account of a workspace member, created on first use. */
  accountFor(workspaceId: string, userId: string): Promise<string>;
  getUser(workspaceId: string, userId: string): Promise<User | null>;
  listUsers(workspaceId: string): Promise<User[]>;
  userData(workspaceId: string, userIds: string[]): Promise<Record<string, UserData>>;

  /* sessions: tokens are stored as hashes */
  createSession(tokenHash: string, session: Session): Promise<void>;
  getSession(tokenHash: string): Promise<Session | null>;
  switchSessionWorkspace(tokenHash: string, workspaceId: string, userId: string): Promise<void>;
  deleteSession(tokenHash: string): Promise<void>;

  /* conversations and messages, as one member sees them */
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
   * unread), and appends the events `build` makes of the result, in one transaction.
   */
  insertMessage(input: InsertMessageInput, build: EventBuilder<InsertMessageResult>): Promise<Written<InsertMessageResult>>;
  /** Sets the member's read mark and appends the events of it, in one transaction. */
  markRead(
    workspaceId: string,
    userId: string,
    conversationId: string,
    lastRead: string,
    build: EventBuilder<MemberReadState>,
  ): Promise<Written<MemberReadState>>;
  /** Sets (category) or removes (null) the member's label of a conversation, with its events, in one transaction. */
  setLabel(
    workspaceId: string,
    userId: string,
    conversationId: string,
    label: { category: AiCategory; source: 'manual' | 'ai'; reason?: string; confidence?: number } | null,
    at: number,
    build: EventBuilder<null>,
  ): Promise<Written<null>>;
  /** The ts of the newest message by someone else than `userId` (what 'mark unread' steps back before). */
  latestFromOthers(workspaceId: string, conversationId: string, userId: string): Promise<{ ts: string; before: string } | null>;
  countMessages(workspaceId: string): Promise<number>;
  importBatch(workspaceId: string, batch: ImportBatch): Promise<void>;

  /* the event log */
  /** Appends events, each with its member's next sequence, in one transaction. */
  appendEvents(workspaceId: string, events: MemberEvent[], at: number): Promise<Array<StoredEvent & { userId: string }>>;
  currentSequence(workspaceId: string, userId: string): Promise<number>;
  eventsAfter(workspaceId: string, userId: string, after: number, limit?: number): Promise<StoredEvent[]>;

  close(): Promise<void>;
}
