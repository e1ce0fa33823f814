/**
 * A workspace source: where a workspace's people, conversations and messages come from.
 * The demo source generates them; the Slack source (sources/slack) syncs them through
 * Slack's Web API. Both keep the store as the one copy the routes read.
 */
import type { Store } from '../store/types';

export interface SignIn {
  accountId: string;
  workspaceId: string;
  userId: string;
}

export interface FetchSummary {
  workspaces: number;
  users: number;
  conversations: number;
  messages: number;
}

export interface WorkspaceSource {
  readonly mode: 'demo' | 'slack';
  /** Makes sure the store holds the source's workspaces; idempotent, run on start. */
  prepare(store: Store): Promise<void>;
  /** Demo mode: the member a sign-in lands on (`as`: another demo member, by user id). */
  demoSignIn?(store: Store, as?: string): Promise<SignIn | null>;
  /** A full fetch of the member's workspace into the store. */
  fetchAll(store: Store, workspaceId: string, userId: string): Promise<FetchSummary>;
  /** An incremental fetch: only what is newer than the store holds (Slack: `oldest`); absent: nothing to fetch. */
  fetchNew?(store: Store, workspaceId: string, userId: string): Promise<FetchSummary & { new_messages: number }>;
  /**
   * Hands a message to the workspace before it is stored (Slack: chat.postMessage); a
   * failure throws and nothing is stored. The answered ts (Slack's) is the stored message's.
   */
  deliver?(input: { workspaceId: string; userId: string; conversationId: string; text: string; thread_ts?: string }): Promise<void | { ts: string }>;
  /** Moves the member's read mark in the workspace before the local write (Slack: conversations.mark); a failure throws and nothing changes. */
  markRead?(input: { workspaceId: string; userId: string; conversationId: string; ts: string }): Promise<void>;
}
