/**
 * What the server keeps of a member beside their workspace's data, as an aggregate over the database handle
 * (issue 15 §1), on SQLite and PostgreSQL alike: catch-up sessions (SPEC §7.8), the AI tokens used per UTC day
 * (the daily budget) and the waitlist (SPEC §7.7). Each method is one statement or independent ones (no
 * transaction held across awaits), so the SQLite store can run it on its own connection while it moves over.
 */
import type { Db } from './db';
import type { Migration } from './migrate';
import type { CatchupSessionRecord } from './types';

export const MEMBER_RECORDS_MIGRATION: Migration = {
  version: 3,
  name: 'catch-up sessions, AI usage, waitlist',
  // SQLite's tables come with the SQLite store's migrations (8, 10, 15).
  sqlite: '',
  postgres: `
    CREATE TABLE catchup_sessions (
      id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, user_id TEXT NOT NULL,
      created_at BIGINT NOT NULL, touched_at BIGINT NOT NULL, state TEXT NOT NULL
    );
    CREATE INDEX catchup_sessions_by_member ON catchup_sessions (workspace_id, user_id, touched_at);
    CREATE TABLE ai_usage (
      workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, day TEXT NOT NULL, tokens BIGINT NOT NULL,
      PRIMARY KEY (workspace_id, user_id, day)
    );
    CREATE TABLE waitlist (
      email TEXT NOT NULL, platform TEXT NOT NULL CHECK (platform IN ('teams', 'email')), created_at BIGINT NOT NULL,
      PRIMARY KEY (email, platform)
    );`,
};

type CatchupState = Pick<CatchupSessionRecord, 'history' | 'pending' | 'cleared'>;

export class MemberRecords {
  constructor(private readonly db: Db) {}

  async saveCatchupSession(record: CatchupSessionRecord): Promise<void> {
    const { id, workspaceId, userId, createdAt, touchedAt, ...state } = record;
    await this.db.run(
      `INSERT INTO catchup_sessions (id, workspace_id, user_id, created_at, touched_at, state) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET touched_at = excluded.touched_at, state = excluded.state`,
      [id, workspaceId, userId, createdAt, touchedAt, JSON.stringify(state)],
    );
  }

  /** A catch-up session of the member, or null (another member's is as unknown as a missing one). */
  async getCatchupSession(workspaceId: string, userId: string, id: string): Promise<CatchupSessionRecord | null> {
    const row = await this.db.get<{ id: string; workspace_id: string; user_id: string; created_at: number; touched_at: number; state: string }>(
      `SELECT * FROM catchup_sessions WHERE id = ? AND workspace_id = ? AND user_id = ?`,
      [id, workspaceId, userId],
    );
    if (!row) return null;
    const state = JSON.parse(row.state) as CatchupState;
    return { id: row.id, workspaceId: row.workspace_id, userId: row.user_id, createdAt: row.created_at, touchedAt: row.touched_at, ...state };
  }

  async deleteCatchupSession(workspaceId: string, userId: string, id: string): Promise<boolean> {
    return (await this.db.run(`DELETE FROM catchup_sessions WHERE id = ? AND workspace_id = ? AND user_id = ?`, [id, workspaceId, userId])) > 0;
  }

  /** Drops everyone's sessions untouched since `cutoff`, and the member's beyond their `keep` most recent. */
  async pruneCatchupSessions(workspaceId: string, userId: string, cutoff: number, keep: number): Promise<void> {
    await this.db.run(`DELETE FROM catchup_sessions WHERE touched_at < ?`, [cutoff]);
    await this.db.run(
      `DELETE FROM catchup_sessions WHERE workspace_id = ? AND user_id = ? AND id NOT IN
         (SELECT id FROM catchup_sessions WHERE workspace_id = ? AND user_id = ? ORDER BY touched_at DESC LIMIT ?)`,
      [workspaceId, userId, workspaceId, userId, keep],
    );
  }

  async aiTokensUsed(workspaceId: string, userId: string, day: string): Promise<number> {
    const row = await this.db.get<{ tokens: number }>(`SELECT tokens FROM ai_usage WHERE workspace_id = ? AND user_id = ? AND day = ?`, [
      workspaceId,
      userId,
      day,
    ]);
    return row?.tokens ?? 0;
  }

  /** Adds to the member's tokens of `day` (earlier days go); answers the day's total. One upsert: concurrent adds all count. */
  async addAiTokens(workspaceId: string, userId: string, day: string, tokens: number): Promise<number> {
    await this.db.run(`DELETE FROM ai_usage WHERE workspace_id = ? AND user_id = ? AND day < ?`, [workspaceId, userId, day]);
    const row = await this.db.get<{ tokens: number }>(
      `INSERT INTO ai_usage (workspace_id, user_id, day, tokens) VALUES (?, ?, ?, ?)
       ON CONFLICT (workspace_id, user_id, day) DO UPDATE SET tokens = ai_usage.tokens + excluded.tokens RETURNING tokens`,
      [workspaceId, userId, day, Math.max(0, Math.round(tokens))],
    );
    return row!.tokens;
  }

  async addWaitlistSignup(email: string, platform: 'teams' | 'email', at: number): Promise<{ created: boolean }> {
    const changed = await this.db.run(`INSERT INTO waitlist (email, platform, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, [
      email.trim().toLowerCase(),
      platform,
      at,
    ]);
    return { created: changed > 0 };
  }

  async countWaitlist(platform?: 'teams' | 'email'): Promise<number> {
    const row = platform
      ? await this.db.get<{ n: number }>(`SELECT count(*) AS n FROM waitlist WHERE platform = ?`, [platform])
      : await this.db.get<{ n: number }>(`SELECT count(*) AS n FROM waitlist`);
    return row!.n;
  }
}
