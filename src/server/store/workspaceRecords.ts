/**
 * Workspaces, the accounts that span them, and each workspace's people, as an aggregate over the database handle
 * (issue 15 §1), on SQLite and PostgreSQL alike. A workspace's extra fields (domain, icon, whether its first
 * import finished) are JSON; where the engines' JSON functions differ, the statement is chosen here, once.
 */
import type { User, UserData, Workspace } from '../../model/types';
import type { Db } from './db';
import type { Migration } from './migrate';
import type { Membership } from './types';

export const WORKSPACE_RECORDS_MIGRATION: Migration = {
  version: 6,
  name: 'workspaces, accounts, memberships, users',
  // SQLite's tables come with the SQLite store's migration 1.
  sqlite: '',
  postgres: `
    CREATE TABLE workspaces (id TEXT PRIMARY KEY, name TEXT NOT NULL, source TEXT NOT NULL, data TEXT NOT NULL DEFAULT '{}');
    CREATE TABLE accounts (id TEXT PRIMARY KEY, created_at BIGINT NOT NULL);
    CREATE TABLE memberships (
      account_id TEXT NOT NULL REFERENCES accounts(id),
      workspace_id TEXT NOT NULL REFERENCES workspaces(id),
      user_id TEXT NOT NULL,
      PRIMARY KEY (account_id, workspace_id)
    );
    CREATE UNIQUE INDEX memberships_by_user ON memberships (workspace_id, user_id);
    CREATE TABLE users (workspace_id TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (workspace_id, id));`,
};

/** The statements whose JSON the engines spell differently. */
const JSON_SQL = {
  /** An upsert that keeps whether the workspace's first import finished. */
  upsert: {
    sqlite: `INSERT INTO workspaces (id, name, source, data) VALUES (?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET name = excluded.name, source = excluded.source,
        data = json_set(excluded.data, '$.imported', json_extract(workspaces.data, '$.imported'))`,
    postgres: `INSERT INTO workspaces (id, name, source, data) VALUES (?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET name = excluded.name, source = excluded.source,
        data = jsonb_set(excluded.data::jsonb, '{imported}', COALESCE(workspaces.data::jsonb -> 'imported', 'null'::jsonb))::text`,
  },
  markImported: {
    sqlite: `UPDATE workspaces SET data = json_set(data, '$.imported', json('true')) WHERE id = ?`,
    postgres: `UPDATE workspaces SET data = jsonb_set(data::jsonb, '{imported}', 'true'::jsonb)::text WHERE id = ?`,
  },
} as const;

export function toUserData(user: User): UserData {
  const data: UserData = { id: user.id, name: user.name, real_name: user.real_name, display_name: user.display_name };
  if (user.avatar) data.avatar = user.avatar;
  return data;
}

function toWorkspace(row: { id: string; name: string; data: string }): Workspace {
  const extra = JSON.parse(row.data) as { domain?: string; icon?: string };
  const workspace: Workspace = { id: row.id, name: row.name };
  if (extra.domain) workspace.domain = extra.domain;
  if (extra.icon) workspace.icon = extra.icon;
  return workspace;
}

export class WorkspaceRecords {
  constructor(private readonly db: Db) {}

  async upsertWorkspace(workspace: Workspace & { source: string }): Promise<void> {
    await this.db.run(JSON_SQL.upsert[this.db.dialect], [
      workspace.id,
      workspace.name,
      workspace.source,
      JSON.stringify({ domain: workspace.domain, icon: workspace.icon }),
    ]);
  }

  async getWorkspace(id: string): Promise<Workspace | null> {
    const row = await this.db.get<{ id: string; name: string; data: string }>(`SELECT id, name, data FROM workspaces WHERE id = ?`, [id]);
    return row ? toWorkspace(row) : null;
  }

  /** Whether the workspace's first import finished (a restart resumes one that did not). */
  async workspaceImported(id: string): Promise<boolean> {
    const row = await this.db.get<{ data: string }>(`SELECT data FROM workspaces WHERE id = ?`, [id]);
    // SQLite's json_extract hands a kept true back to json_set as 1.
    const imported = row ? (JSON.parse(row.data) as { imported?: unknown }).imported : undefined;
    return imported === true || imported === 1;
  }

  async markWorkspaceImported(id: string): Promise<void> {
    await this.db.run(JSON_SQL.markImported[this.db.dialect], [id]);
  }

  /**
   * Puts the member (workspace, user) into the account; answers whether they are the account's now. Never moved,
   * never replaced: an identity that is another account's stays there (the unique index decides a race).
   */
  addMembership(accountId: string, workspaceId: string, userId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const owner = await tx.get<{ account_id: string }>(`SELECT account_id FROM memberships WHERE workspace_id = ? AND user_id = ?`, [workspaceId, userId]);
      if (owner) return owner.account_id === accountId;
      await tx.run(`INSERT INTO accounts (id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING`, [accountId, Date.now()]);
      return (
        (await tx.run(`INSERT INTO memberships (account_id, workspace_id, user_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, [
          accountId,
          workspaceId,
          userId,
        ])) === 1
      );
    });
  }

  async memberships(accountId: string): Promise<Membership[]> {
    const rows = await this.db.all<{ user_id: string; id: string; name: string; data: string }>(
      `SELECT m.user_id, w.id, w.name, w.data FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
       WHERE m.account_id = ? ORDER BY w.name`,
      [accountId],
    );
    return rows.map((row) => ({ userId: row.user_id, workspace: toWorkspace(row) }));
  }

  /** The member's account; a member first seen gets an account of their own. */
  async accountFor(workspaceId: string, userId: string): Promise<string> {
    const row = await this.db.get<{ account_id: string }>(`SELECT account_id FROM memberships WHERE workspace_id = ? AND user_id = ?`, [workspaceId, userId]);
    if (row) return row.account_id;
    const accountId = `A_${workspaceId}_${userId}`;
    await this.addMembership(accountId, workspaceId, userId);
    return accountId;
  }

  async getUser(workspaceId: string, userId: string): Promise<User | null> {
    const row = await this.db.get<{ data: string }>(`SELECT data FROM users WHERE workspace_id = ? AND id = ?`, [workspaceId, userId]);
    return row ? (JSON.parse(row.data) as User) : null;
  }

  async listUsers(workspaceId: string): Promise<User[]> {
    const rows = await this.db.all<{ data: string }>(`SELECT data FROM users WHERE workspace_id = ? ORDER BY id`, [workspaceId]);
    return rows.map((row) => JSON.parse(row.data) as User);
  }

  async userData(workspaceId: string, userIds: string[]): Promise<Record<string, UserData>> {
    const out: Record<string, UserData> = {};
    for (const id of new Set(userIds)) {
      const user = await this.getUser(workspaceId, id);
      if (user) out[id] = toUserData(user);
    }
    return out;
  }
}
