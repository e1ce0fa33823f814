/**
 * Search over a member's messages, conversations and people (SPEC §7.5), over the database handle (issue 15 §1),
 * with the same behaviour on both engines:
 *
 * - messages: every word must match (or, for the AI's second pass, any), the last one as a prefix, with English
 *   stemming; the newest matches come back with a relevance for the caller to weigh against age. SQLite: FTS5
 *   with the porter tokenizer (`message_search`, kept by triggers); PostgreSQL: a stored `tsvector` column of the
 *   message in the 'english' configuration with a GIN index, and `ts_rank`.
 * - conversation names: contains the text, case-insensitively, exact names first, then prefixes, then by activity.
 *   SQLite: an FTS5 trigram table; PostgreSQL: pg_trgm's GIN index, which serves ILIKE.
 * - people: any of their names contains the text.
 */
import type { ConversationSummary, User } from '../../model/types';
import type { Db } from './db';
import type { Migration } from './migrate';
import { COUNTS_AS_UNREAD, ilike, likeLiteral } from './sql';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './conversationRows';
import type { MessageHit, TextQuery } from './types';

export const SEARCH_RECORDS_MIGRATION: Migration = {
  version: 9,
  name: 'search: messages by English stems, conversation names by trigrams',
  // SQLite's FTS5 tables come with the SQLite store's migrations 4, 5 and 11.
  sqlite: '',
  postgres: `
    ALTER TABLE messages ADD COLUMN search tsvector GENERATED ALWAYS AS (
      CASE WHEN ${COUNTS_AS_UNREAD} THEN to_tsvector('english'::regconfig, COALESCE(resolved_text, text)) END
    ) STORED;
    CREATE INDEX messages_search ON messages USING GIN (search);
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX conversations_name_trigrams ON conversations USING GIN (name gin_trgm_ops);`,
};

/** The words of a query as FTS5 reads them: each quoted (no operators), the last one a prefix. */
export function fts5Query(query: TextQuery): string {
  const quoted = query.words.map((w, i) => `"${w.replace(/"/g, '""')}"${query.lastIsPrefix && i === query.words.length - 1 ? '*' : ''}`);
  return quoted.join(query.any ? ' OR ' : ' ');
}

/**
 * The words of a query as PostgreSQL's to_tsquery reads them: only letters and digits (a word with other
 * characters is its parts, all required), each quoted, the last one a prefix (`:*`). Null when no word is left.
 */
export function tsQuery(query: TextQuery): string | null {
  const terms: string[] = [];
  query.words.forEach((word, i) => {
    const parts = word.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    if (!parts.length) return;
    const prefix = query.lastIsPrefix && i === query.words.length - 1;
    const quoted = parts.map((p, j) => `'${p}'${prefix && j === parts.length - 1 ? ':*' : ''}`);
    terms.push(quoted.length > 1 ? `(${quoted.join(' & ')})` : quoted[0]!);
  });
  return terms.length ? terms.join(query.any ? ' | ' : ' & ') : null;
}

export class SearchRecords {
  constructor(private readonly db: Db) {}

  /**
   * The newest messages matching the query in conversations the member belongs to, with their relevance as
   * SQLite's bm25 spells it (lower is more relevant), for the caller to re-rank: taking the newest lets the
   * engine stop early instead of scoring every hit of a common word.
   */
  async messages(workspaceId: string, userId: string, query: TextQuery, limit: number): Promise<MessageHit[]> {
    if (!query.words.length) return [];
    if (this.db.dialect === 'sqlite')
      return this.db.all<MessageHit>(
        `SELECT s.conversation_id, s.ts, s.text, s.user, bm25(message_search) AS bm25
         FROM message_search s
         WHERE message_search MATCH ? AND s.workspace_id = ?
           AND EXISTS (SELECT 1 FROM conversation_members m WHERE m.workspace_id = ? AND m.user_id = ? AND m.conversation_id = s.conversation_id)
         ORDER BY s.rowid DESC LIMIT ?`,
        [fts5Query(query), workspaceId, workspaceId, userId, limit],
      );
    const q = tsQuery(query);
    if (q === null) return [];
    // ts_rank grows with relevance (0…1); negated, and scaled to bm25's range, it reads as bm25 does.
    return this.db.all<MessageHit>(
      `SELECT s.conversation_id, s.ts, COALESCE(s.resolved_text, s.text) AS text, s."user" AS user, -10 * ts_rank(s.search, q.query) AS bm25
       FROM messages s, to_tsquery('english', ?) AS q(query)
       WHERE s.workspace_id = ? AND s.search @@ q.query
         AND EXISTS (SELECT 1 FROM conversation_members m WHERE m.workspace_id = ? AND m.user_id = ? AND m.conversation_id = s.conversation_id)
       ORDER BY s.ts DESC LIMIT ?`,
      [q, workspaceId, workspaceId, userId, limit],
    );
  }

  /** The member's conversations whose name contains the text, case-insensitively: exact names, then prefixes, then by activity. */
  async conversations(workspaceId: string, userId: string, text: string, limit: number): Promise<ConversationSummary[]> {
    const pattern = `%${likeLiteral(text)}%`;
    const escapedPrefix = `${likeLiteral(text)}%`;
    const like = ilike(this.db);
    // SQLite: the trigram index answers the inner name tests (3+ characters; it serves LIKE without ESCAPE, so
    // they may match a little more when the text holds % or _, and the outer test is exact). Candidates are
    // bounded: every name starting with the text, and the first names containing it.
    const candidates =
      this.db.dialect === 'sqlite'
        ? `SELECT id FROM (SELECT id FROM conversation_names WHERE name LIKE ? AND workspace_id = ? LIMIT 2000)
           UNION SELECT id FROM (SELECT id FROM conversation_names WHERE name LIKE ? AND workspace_id = ? LIMIT 500)`
        : `SELECT id FROM (SELECT id FROM conversations WHERE name ILIKE ? ESCAPE '\\' AND workspace_id = ? LIMIT 2000) p
           UNION SELECT id FROM (SELECT id FROM conversations WHERE name ILIKE ? ESCAPE '\\' AND workspace_id = ? LIMIT 500) r`;
    const candidateParams =
      this.db.dialect === 'sqlite' ? [`${text}%`, workspaceId, `%${text}%`, workspaceId] : [escapedPrefix, workspaceId, pattern, workspaceId];
    const rows = await this.db.all<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS}
       FROM (${candidates}) n
       CROSS JOIN conversations c
       CROSS JOIN conversation_members m
       LEFT JOIN labels l ON l.workspace_id = ? AND l.user_id = ? AND l.conversation_id = n.id
       WHERE c.workspace_id = ? AND c.id = n.id AND m.workspace_id = ? AND m.user_id = ? AND m.conversation_id = n.id
         AND c.name ${like} ? ESCAPE '\\'
       ORDER BY CASE WHEN lower(c.name) = lower(?) THEN 0 WHEN c.name ${like} ? ESCAPE '\\' THEN 1 ELSE 2 END, c.latest_ts DESC
       LIMIT ?`,
      [...candidateParams, workspaceId, userId, workspaceId, workspaceId, userId, pattern, text, escapedPrefix, limit],
    );
    return rows.map(toSummary);
  }

  /** People of the workspace whose real, display or user name contains the text, case-insensitively. */
  async users(workspaceId: string, text: string, limit: number): Promise<User[]> {
    const pattern = `%${likeLiteral(text)}%`;
    const field = (name: string) => (this.db.dialect === 'sqlite' ? `json_extract(data, '$.${name}')` : `(data::json ->> '${name}')`);
    const like = ilike(this.db);
    const rows = await this.db.all<{ data: string }>(
      `SELECT data FROM users WHERE workspace_id = ? AND (
         ${field('real_name')} ${like} ? ESCAPE '\\' OR ${field('display_name')} ${like} ? ESCAPE '\\' OR ${field('name')} ${like} ? ESCAPE '\\')
       LIMIT ?`,
      [workspaceId, pattern, pattern, pattern, limit],
    );
    return rows.map((row) => JSON.parse(row.data) as User);
  }
}
