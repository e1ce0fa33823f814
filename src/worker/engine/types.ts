/**
 * The engine's public shapes: its options, what its streams carry (load state, an open
 * conversation, an incoming message) and what its commands take and answer. Types only, plus
 * the one conversion of a failure into the `{isNetworkError, status, message}` the page shows.
 */
import type { SchedulerLike } from 'rxjs';
import type { Logger } from '../../model/logger';
import type { FilterRule, ConversationSummary, HttpError, Message, UserData, MentionData } from '../../model/types';
import type { View } from '../../model/views';
import { HttpFailure } from '../http';

export interface EngineOptions {
  baseUrl: string;
  log: Logger;
  fetch?: typeof fetch;
  scheduler?: SchedulerLike;
  random?: () => number;
  /** Conversations per snapshot page. */
  pageSize?: number;
  /** SPEC §4.3: whether the inbox is in AI order at start (then unread conversations are classified before loading). */
  classifyOnLoad?: boolean;
  /**
   * Where a session may start from before the network (issue 14 §2, the local copy): called with the
   * session's key when it starts; a saved state is put into the store and the live stream connects with
   * its sequence, so the server replays only what changed. Null (the default): a cold start.
   */
  savedState?: (sessionKey: string) => Promise<SavedState | null> | SavedState | null;
  /**
   * Keep the local copy in IndexedDB (issue 14 §2; engine/copy.ts); by default wherever IndexedDB exists
   * (the browser's worker). A session then starts from it (unless `savedState` is given), saves its
   * changes, and is wiped at sign-out.
   */
  localCopy?: boolean;
}

/** What a session can start from: everything the list needs, and the member's sequence it is up to date with. */
export interface SavedState {
  conversations: ConversationSummary[];
  users: UserData[];
  views: View[];
  sequence: number;
  /**
   * Set when this is only the head of a saved state (the first rows of every view, issue 14 §4): the session
   * paints it while loading (`total` conversations in all), then swaps in the whole, which this answers; null:
   * the saved state is gone, and a snapshot is loaded instead.
   */
  whole?: () => Promise<SavedState | null>;
  total?: number;
}

export type LoadStatus = 'idle' | 'loading' | 'loaded' | 'error';

export interface LoadState {
  status: LoadStatus;
  loaded: number;
  total: number;
  error?: HttpError;
}

export interface ConversationDetail {
  id: string;
  status: 'loading' | 'loaded' | 'error';
  conversation?: ConversationSummary;
  participants?: UserData[];
  /** Everyone the messages name: authors, members and mentioned people. */
  members?: Record<string, UserData>;
  /** Channel, user group and custom emoji names the messages use. */
  mentions?: MentionData;
  /** The member's own user id. */
  me?: string;
  /** The member's workspace id (Slack: the team id that people of other organizations do not share). */
  workspaceId?: string;
  messages: Message[];
  error?: HttpError;
}

/** A message from someone else that just arrived live (not a replay): what a desktop notification needs. */
export interface IncomingMessage {
  conversationId: string;
  title: string;
  author: string;
  /** The body of SPEC §5, already formatted. */
  body: string;
}

/** What the page sends to create or change a custom view (SPEC §7.6). */
export interface ViewInput {
  label: string;
  filters: FilterRule[];
  combinator?: 'and' | 'or';
  parentViewId: string;
  position?: number;
  isVisible?: boolean;
}

export interface SendResult {
  ok: boolean;
  /** Offline: the message waits in the outbox (shown pending) and is sent when the connection returns. */
  queued?: boolean;
  error?: string;
}

/** Per built-in view: conversations, and those with unread messages (the tab badges). */
export interface ViewCounts {
  total: Record<string, number>;
  unread: Record<string, number>;
}

export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpFailure) return error.toJSON();
  return { isNetworkError: false, status: 0, message: (error as Error)?.message || 'An unexpected error occurred' };
}
