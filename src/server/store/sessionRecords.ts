/**
 * Sessions and the short-lived secrets of signing in, as an aggregate over the database handle (issue 15 §1), on
 * SQLite and PostgreSQL alike: sessions (by their token's hash), live stream tickets (single-use) and Slack sign-in
 * states (single-use). Every secret is stored as its hash. Each method is one statement or independent ones (no
 * transaction held across awaits), so the SQLite store can run it on its own connection while it moves over.
 */
import type { Db } from './db';
import type { Migration } from './migrate';
import type { OAuthAddTo, Session } from './types';

export const SESSION_MIGRATION: Migration = {
  version: 2,
  name: 'sessions, stream tickets, sign-in states',
  // SQLite's tables come with the SQLite store's migrations (1, 9, 12, 13, 14).
  sqlite: '',
  postgres: `
    CREATE TABLE sessions (
      token_hash TEXT PRIMARY KEY, account_id TEXT NOT NULL,
      workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, created_at BIGINT NOT NULL, last_seen_at BIGINT
    );
    CREATE INDEX sessions_by_member ON sessions (workspace_id, user_id);
    CREATE TABLE stream_tickets (ticket_hash TEXT PRIMARY KEY, token_hash TEXT NOT NULL, expires_at BIGINT NOT NULL);
    CREATE TABLE oauth_states (state_hash TEXT PRIMARY KEY, browser_hash TEXT NOT NULL, expires_at BIGINT NOT NULL, add_to TEXT);`,
};

/** How long a sign-in state is kept past its expiry before it is swept. */
const OAUTH_STATE_SWEEP_MS = 60 * 60 * 1000;

export class SessionRecords {
  constructor(private readonly db: Db) {}

  async createSession(tokenHash: string, session: Session): Promise<void> {
    await this.db.run(`INSERT INTO sessions (token_hash, account_id, workspace_id, user_id, created_at) VALUES (?, ?, ?, ?, ?)`, [
      tokenHash,
      session.accountId,
      session.workspaceId,
      session.userId,
      session.createdAt,
    ]);
  }

  async getSession(tokenHash: string): Promise<Session | null> {
    const row = await this.db.get<{ account_id: string; workspace_id: string; user_id: string; created_at: number; last_seen_at: number | null }>(
      `SELECT account_id, workspace_id, user_id, created_at, last_seen_at FROM sessions WHERE token_hash = ?`,
      [tokenHash],
    );
    if (!row) return null;
    const session: Session = { accountId: row.account_id, workspaceId: row.workspace_id, userId: row.user_id, createdAt: row.created_at };
    if (row.last_seen_at !== null) session.lastSeenAt = row.last_seen_at;
    return session;
  }

  async touchSession(tokenHash: string, at: number): Promise<void> {
    await this.db.run(`UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?`, [at, tokenHash]);
  }

  async pruneSessions(createdBefore: number, seenBefore: number): Promise<string[]> {
    const rows = await this.db.all<{ token_hash: string }>(
      `DELETE FROM sessions WHERE created_at < ? OR COALESCE(last_seen_at, created_at) < ? RETURNING token_hash`,
      [createdBefore, seenBefore],
    );
    return rows.map((r) => r.token_hash);
  }

  async switchSessionWorkspace(tokenHash: string, workspaceId: string, userId: string): Promise<void> {
    await this.db.run(`UPDATE sessions SET workspace_id = ?, user_id = ? WHERE token_hash = ?`, [workspaceId, userId, tokenHash]);
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.run(`DELETE FROM sessions WHERE token_hash = ?`, [tokenHash]);
  }

  async deleteSessionsOf(workspaceId: string, userId: string): Promise<string[]> {
    const rows = await this.db.all<{ token_hash: string }>(`DELETE FROM sessions WHERE workspace_id = ? AND user_id = ? RETURNING token_hash`, [
      workspaceId,
      userId,
    ]);
    return rows.map((r) => r.token_hash);
  }

  async createStreamTicket(ticketHash: string, tokenHash: string, expiresAt: number): Promise<void> {
    await this.db.run(`INSERT INTO stream_tickets (ticket_hash, token_hash, expires_at) VALUES (?, ?, ?)`, [ticketHash, tokenHash, expiresAt]);
  }

  /** The session a ticket was made for, once (taking deletes it); null when unknown or expired. */
  async takeStreamTicket(ticketHash: string, now: number): Promise<string | null> {
    await this.db.run(`DELETE FROM stream_tickets WHERE expires_at <= ?`, [now]);
    const row = await this.db.get<{ token_hash: string }>(`DELETE FROM stream_tickets WHERE ticket_hash = ? RETURNING token_hash`, [ticketHash]);
    return row?.token_hash ?? null;
  }

  async saveOAuthState(stateHash: string, browserHash: string, expiresAt: number, addTo?: OAuthAddTo): Promise<void> {
    await this.db.run(`DELETE FROM oauth_states WHERE expires_at < ?`, [Date.now() - OAUTH_STATE_SWEEP_MS]);
    await this.db.run(`INSERT INTO oauth_states (state_hash, browser_hash, expires_at, add_to) VALUES (?, ?, ?, ?)`, [
      stateHash,
      browserHash,
      expiresAt,
      addTo ? JSON.stringify(addTo) : null,
    ]);
  }

  async takeOAuthState(stateHash: string): Promise<{ browserHash: string; expiresAt: number; addTo?: OAuthAddTo } | null> {
    const row = await this.db.get<{ browser_hash: string; expires_at: number; add_to: string | null }>(
      `DELETE FROM oauth_states WHERE state_hash = ? RETURNING browser_hash, expires_at, add_to`,
      [stateHash],
    );
    if (!row) return null;
    const state: { browserHash: string; expiresAt: number; addTo?: OAuthAddTo } = { browserHash: row.browser_hash, expiresAt: row.expires_at };
    if (row.add_to) state.addTo = JSON.parse(row.add_to) as OAuthAddTo;
    return state;
  }
}
