/**
 * What a workspace source (Slack) keeps, as an aggregate over the database handle (issue 15 §1), on SQLite and
 * PostgreSQL alike: each member's credential (encrypted by the source), the names its mentions resolve to
 * (channels, user groups, custom emoji), the ids of the events it processed (Socket Mode delivers an event to one
 * of the app's connections, and may deliver it again: de-duplication by id, shared by every server), and each
 * member's sync progress. Each method is one statement or independent ones (no transaction held across awaits),
 * so the SQLite store can run it on its own connection while it moves over.
 */
import type { Db } from './db';
import type { Migration } from './migrate';
import type { SourceCredential, SourceNameKind } from './types';

export const SOURCE_RECORDS_MIGRATION: Migration = {
  version: 4,
  name: 'source credentials, names, events, sync state',
  // SQLite's tables come with the SQLite store's migrations (9, 11).
  sqlite: '',
  postgres: `
    CREATE TABLE source_credentials (
      workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, secret TEXT NOT NULL, expires_at BIGINT, updated_at BIGINT NOT NULL,
      PRIMARY KEY (workspace_id, user_id)
    );
    CREATE TABLE source_names (
      workspace_id TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('channel', 'usergroup', 'emoji')), id TEXT NOT NULL, name TEXT NOT NULL,
      PRIMARY KEY (workspace_id, kind, id)
    );
    CREATE TABLE source_events (workspace_id TEXT NOT NULL, event_id TEXT NOT NULL, received_at BIGINT NOT NULL, PRIMARY KEY (workspace_id, event_id));
    CREATE INDEX source_events_by_time ON source_events (received_at);
    CREATE TABLE sync_state (
      workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, data TEXT NOT NULL, updated_at BIGINT NOT NULL,
      PRIMARY KEY (workspace_id, user_id)
    );`,
};

/** Names written per statement: one statement is one commit on SQLite, and well under both engines' parameter limits. */
const NAMES_A_STATEMENT = 200;

interface CredentialRow {
  workspace_id: string;
  user_id: string;
  secret: string;
  expires_at: number | null;
  updated_at: number;
}

function toCredential(row: CredentialRow): SourceCredential {
  return { workspaceId: row.workspace_id, userId: row.user_id, secret: row.secret, expiresAt: row.expires_at, updatedAt: row.updated_at };
}

export class SourceRecords {
  constructor(private readonly db: Db) {}

  async saveCredential(credential: SourceCredential): Promise<void> {
    await this.db.run(
      `INSERT INTO source_credentials (workspace_id, user_id, secret, expires_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (workspace_id, user_id) DO UPDATE SET secret = excluded.secret, expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
      [credential.workspaceId, credential.userId, credential.secret, credential.expiresAt, credential.updatedAt],
    );
  }

  async getCredential(workspaceId: string, userId: string): Promise<SourceCredential | null> {
    const row = await this.db.get<CredentialRow>(`SELECT * FROM source_credentials WHERE workspace_id = ? AND user_id = ?`, [workspaceId, userId]);
    return row ? toCredential(row) : null;
  }

  /** Replaces the secret only if it is still `expected` (a re-encryption racing a new sign-in loses); answers whether it did. */
  async replaceCredentialSecret(workspaceId: string, userId: string, expected: string, secret: string): Promise<boolean> {
    return (
      (await this.db.run(`UPDATE source_credentials SET secret = ? WHERE workspace_id = ? AND user_id = ? AND secret = ?`, [
        secret,
        workspaceId,
        userId,
        expected,
      ])) === 1
    );
  }

  async listCredentials(): Promise<SourceCredential[]> {
    return (await this.db.all<CredentialRow>(`SELECT * FROM source_credentials ORDER BY workspace_id, user_id`)).map(toCredential);
  }

  async deleteCredential(workspaceId: string, userId: string): Promise<void> {
    await this.db.run(`DELETE FROM source_credentials WHERE workspace_id = ? AND user_id = ?`, [workspaceId, userId]);
  }

  async saveSourceNames(workspaceId: string, kind: SourceNameKind, names: Readonly<Record<string, string>>): Promise<void> {
    const entries = Object.entries(names);
    for (let start = 0; start < entries.length; start += NAMES_A_STATEMENT) {
      const chunk = entries.slice(start, start + NAMES_A_STATEMENT);
      await this.db.run(
        `INSERT INTO source_names (workspace_id, kind, id, name) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}
         ON CONFLICT (workspace_id, kind, id) DO UPDATE SET name = excluded.name`,
        chunk.flatMap(([id, name]) => [workspaceId, kind, id, name]),
      );
    }
  }

  /** The names of `ids` (those known), or every name of the kind. */
  async sourceNames(workspaceId: string, kind: SourceNameKind, ids?: readonly string[]): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    if (ids) {
      for (const id of new Set(ids)) {
        const row = await this.db.get<{ name: string }>(`SELECT name FROM source_names WHERE workspace_id = ? AND kind = ? AND id = ?`, [
          workspaceId,
          kind,
          id,
        ]);
        if (row) out[id] = row.name;
      }
      return out;
    }
    const rows = await this.db.all<{ id: string; name: string }>(`SELECT id, name FROM source_names WHERE workspace_id = ? AND kind = ?`, [workspaceId, kind]);
    for (const row of rows) out[row.id] = row.name;
    return out;
  }

  async sourceEventSeen(workspaceId: string, eventId: string): Promise<boolean> {
    return (await this.db.get(`SELECT 1 AS seen FROM source_events WHERE workspace_id = ? AND event_id = ?`, [workspaceId, eventId])) !== undefined;
  }

  /** Records an event id; answers false when it was recorded before (by this server or another). */
  async recordSourceEvent(workspaceId: string, eventId: string, at: number): Promise<boolean> {
    return (
      (await this.db.run(`INSERT INTO source_events (workspace_id, event_id, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, [
        workspaceId,
        eventId,
        at,
      ])) > 0
    );
  }

  async pruneSourceEvents(before: number): Promise<number> {
    return this.db.run(`DELETE FROM source_events WHERE received_at < ?`, [before]);
  }

  async getSyncState<T>(workspaceId: string, userId: string): Promise<T | null> {
    const row = await this.db.get<{ data: string }>(`SELECT data FROM sync_state WHERE workspace_id = ? AND user_id = ?`, [workspaceId, userId]);
    return row ? (JSON.parse(row.data) as T) : null;
  }

  async setSyncState(workspaceId: string, userId: string, state: unknown, at: number): Promise<void> {
    await this.db.run(
      `INSERT INTO sync_state (workspace_id, user_id, data, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (workspace_id, user_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`,
      [workspaceId, userId, JSON.stringify(state), at],
    );
  }
}
