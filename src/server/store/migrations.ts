/**
 * Schema migrations, applied in order on start. Each entry runs once, inside a
 * transaction, and bumps `user_version`. Append new entries; never edit a shipped one.
 */
import type Database from 'better-sqlite3';
import { QUIET_SUBTYPES_SQL } from './sql';

export const MIGRATIONS: readonly string[] = [
  // 1: the workspace, its members' state, sessions and the event log.
  `
  CREATE TABLE workspaces (id TEXT PRIMARY KEY, name TEXT NOT NULL, source TEXT NOT NULL, data TEXT NOT NULL DEFAULT '{}');
  CREATE TABLE accounts (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL);
  CREATE TABLE memberships (
    account_id TEXT NOT NULL REFERENCES accounts(id),
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    user_id TEXT NOT NULL,
    PRIMARY KEY (account_id, workspace_id)
  );
  CREATE UNIQUE INDEX memberships_by_user ON memberships (workspace_id, user_id);
  CREATE TABLE users (workspace_id TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (workspace_id, id)) WITHOUT ROWID;
  CREATE TABLE conversations (
    workspace_id TEXT NOT NULL, id TEXT NOT NULL,
    name TEXT NOT NULL, type TEXT NOT NULL CHECK (type IN ('dm', 'channel', 'thread')),
    is_private INTEGER NOT NULL DEFAULT 0, dm_user TEXT, member_ids TEXT NOT NULL DEFAULT '[]',
    parent_id TEXT, thread_ts TEXT, parent_user TEXT, parent_text TEXT, truth TEXT,
    message_count INTEGER NOT NULL DEFAULT 0, latest_ts TEXT, latest_user TEXT, latest_text TEXT,
    PRIMARY KEY (workspace_id, id)
  ) WITHOUT ROWID;
  CREATE TABLE conversation_members (
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, conversation_id TEXT NOT NULL,
    last_read TEXT NOT NULL DEFAULT '', unread_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, user_id, conversation_id)
  ) WITHOUT ROWID;
  CREATE INDEX conversation_members_by_conversation ON conversation_members (workspace_id, conversation_id);
  CREATE TABLE messages (
    workspace_id TEXT NOT NULL, conversation_id TEXT NOT NULL, ts TEXT NOT NULL,
    user TEXT, text TEXT NOT NULL, subtype TEXT, thread_ts TEXT, reply_count INTEGER NOT NULL DEFAULT 0, client_msg_id TEXT,
    PRIMARY KEY (workspace_id, conversation_id, ts)
  ) WITHOUT ROWID;
  CREATE TABLE labels (
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, conversation_id TEXT NOT NULL,
    category TEXT NOT NULL CHECK (category IN ('urgent', 'can_wait', 'fyi')),
    source TEXT NOT NULL CHECK (source IN ('manual', 'ai')),
    reason TEXT, confidence REAL, triggers TEXT, updated_at INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, user_id, conversation_id)
  ) WITHOUT ROWID;
  CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id),
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, created_at INTEGER NOT NULL
  );
  CREATE TABLE events (
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, sequence INTEGER NOT NULL,
    type TEXT NOT NULL, data TEXT NOT NULL, created_at INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, user_id, sequence)
  ) WITHOUT ROWID;
  `,
  // 2: pages of a member's conversations in activity order, newest first (keyset paging).
  `
  UPDATE conversations SET latest_ts = '' WHERE latest_ts IS NULL;
  CREATE INDEX conversations_by_activity ON conversations (workspace_id, latest_ts DESC, id ASC);
  `,
  // 3: each member's custom views (focus inboxes) and their settings of the built-in views.
  `
  CREATE TABLE custom_views (
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL,
    label TEXT NOT NULL, filters TEXT NOT NULL DEFAULT '[]',
    combinator TEXT CHECK (combinator IN ('and', 'or')),
    parent_view_id TEXT NOT NULL, position INTEGER,
    is_visible INTEGER NOT NULL DEFAULT 1 CHECK (is_visible IN (0, 1)),
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, user_id, id)
  ) WITHOUT ROWID;
  CREATE TABLE builtin_view_settings (
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, view_id TEXT NOT NULL,
    is_visible INTEGER NOT NULL CHECK (is_visible IN (0, 1)), position INTEGER,
    PRIMARY KEY (workspace_id, user_id, view_id)
  ) WITHOUT ROWID;
  `,
  // 4: full-text search over messages (porter stemming), kept in step with every stored message.
  `
  CREATE VIRTUAL TABLE message_search USING fts5(
    text, workspace_id UNINDEXED, conversation_id UNINDEXED, ts UNINDEXED, user UNINDEXED,
    tokenize = 'porter unicode61'
  );
  INSERT INTO message_search (text, workspace_id, conversation_id, ts, user)
    SELECT text, workspace_id, conversation_id, ts, user FROM messages WHERE subtype IS NULL;
  CREATE TRIGGER messages_searchable AFTER INSERT ON messages WHEN new.subtype IS NULL BEGIN
    INSERT INTO message_search (text, workspace_id, conversation_id, ts, user)
    VALUES (new.text, new.workspace_id, new.conversation_id, new.ts, new.user);
  END;
  `,
  // 5: conversation names by trigram, so a name search is indexed (three characters or more).
  // No delete trigger: clearWorkspaceData removes its rows itself, and searches join the live table.
  `
  CREATE VIRTUAL TABLE conversation_names USING fts5(name, workspace_id UNINDEXED, id UNINDEXED, tokenize = 'trigram');
  INSERT INTO conversation_names (name, workspace_id, id) SELECT name, workspace_id, id FROM conversations;
  CREATE TRIGGER conversation_names_insert AFTER INSERT ON conversations BEGIN
    INSERT INTO conversation_names (name, workspace_id, id) VALUES (new.name, new.workspace_id, new.id);
  END;
  `,
  // 6: AI. A label remembers the newest message it was computed from (basis_ts), so a
  // re-classification skips conversations that did not change; a member's lessons (manual
  // categories the local classifier learns from); and an index of each member's unread rows.
  `
  ALTER TABLE labels ADD COLUMN basis_ts TEXT;
  CREATE TABLE ai_lessons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, conversation_id TEXT NOT NULL,
    category TEXT NOT NULL CHECK (category IN ('urgent', 'can_wait', 'fyi')),
    lesson TEXT NOT NULL, created_at INTEGER NOT NULL
  );
  CREATE INDEX ai_lessons_by_member ON ai_lessons (workspace_id, user_id, id);
  CREATE INDEX conversation_members_unread ON conversation_members (workspace_id, user_id) WHERE unread_count > 0;
  `,
  // 7: what the AI reads of an unread conversation, as a covering index: the rows themselves
  // carry member lists of thousands, and reading past them cost seconds at 25,000 unread.
  `
  CREATE INDEX conversations_ai ON conversations (workspace_id, id, latest_ts, type, is_private, dm_user, parent_id, name);
  `,
  // 8: the waitlist for the platforms Sift cannot connect yet (SPEC §2.10, §7.7); one row per email and platform.
  `
  CREATE TABLE waitlist (
    email TEXT NOT NULL, platform TEXT NOT NULL CHECK (platform IN ('teams', 'email')), created_at INTEGER NOT NULL,
    PRIMARY KEY (email, platform)
  ) WITHOUT ROWID;
  `,
  // 9: Slack. Each member's token (encrypted by the source), sign-in states (hashes,
  // single-use, short-lived), processed event ids (de-duplication, pruned by age), and each
  // member's sync progress (a sync that failed resumes where it stopped).
  `
  CREATE TABLE source_credentials (
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, secret TEXT NOT NULL, expires_at INTEGER, updated_at INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
  ) WITHOUT ROWID;
  CREATE TABLE oauth_states (state_hash TEXT PRIMARY KEY, browser_hash TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE source_events (
    workspace_id TEXT NOT NULL, event_id TEXT NOT NULL, received_at INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, event_id)
  ) WITHOUT ROWID;
  CREATE INDEX source_events_by_time ON source_events (received_at);
  CREATE TABLE sync_state (
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, data TEXT NOT NULL, updated_at INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
  ) WITHOUT ROWID;
  `,
  // 10: catch-up sessions (SPEC §7.8), so a conversation with the assistant outlives a restart.
  `
  CREATE TABLE catchup_sessions (
    id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, user_id TEXT NOT NULL,
    created_at INTEGER NOT NULL, touched_at INTEGER NOT NULL, state TEXT NOT NULL
  );
  CREATE INDEX catchup_sessions_by_member ON catchup_sessions (workspace_id, user_id, touched_at);
  `,
  // 11: messages as Slack sends them. \`content\` keeps blocks, attachments, files, reactions, the
  // bot, the external author's profile… (JSON, NULL when there is none); \`resolved_text\` is the
  // derived text of all of it (NULL when it equals \`text\`), which search indexes. Every message
  // that is not a system line is searchable, bot and app posts included. source_names keeps the
  // names a workspace source looked up for mentions: channels the member is not in, user groups'
  // handles and custom emoji (name → image URL, or 'alias:other').
  `
  ALTER TABLE messages ADD COLUMN content TEXT;
  ALTER TABLE messages ADD COLUMN resolved_text TEXT;
  DROP TRIGGER messages_searchable;
  CREATE TRIGGER messages_searchable AFTER INSERT ON messages WHEN new.subtype IS NULL OR new.subtype NOT IN ${QUIET_SUBTYPES_SQL} BEGIN
    INSERT INTO message_search (text, workspace_id, conversation_id, ts, user)
    VALUES (COALESCE(new.resolved_text, new.text), new.workspace_id, new.conversation_id, new.ts, new.user);
  END;
  INSERT INTO message_search (text, workspace_id, conversation_id, ts, user)
    SELECT text, workspace_id, conversation_id, ts, user FROM messages WHERE subtype IS NOT NULL AND subtype NOT IN ${QUIET_SUBTYPES_SQL};
  CREATE TABLE source_names (
    workspace_id TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('channel', 'usergroup', 'emoji')), id TEXT NOT NULL, name TEXT NOT NULL,
    PRIMARY KEY (workspace_id, kind, id)
  ) WITHOUT ROWID;
  `,
  // 12: an 'Add workspace' sign-in remembers the account it adds to and the session that started it.
  `
  ALTER TABLE oauth_states ADD COLUMN add_to TEXT;
  `,
  // 13: sessions expire when idle too: when each was last used.
  `
  ALTER TABLE sessions ADD COLUMN last_seen_at INTEGER;
  CREATE INDEX sessions_by_member ON sessions (workspace_id, user_id);
  `,
  // 14: live stream tickets: short-lived and single-use, so a stream URL never carries a session token.
  `
  CREATE TABLE stream_tickets (
    ticket_hash TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // 15: the AI tokens each member used per UTC day (the daily AI budget), so a restart does not reset it.
  `
  CREATE TABLE ai_usage (
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, day TEXT NOT NULL, tokens INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, user_id, day)
  ) WITHOUT ROWID;
  `,
  // 16: the event log's retention (issue 14 §2). Each member's sequence is kept apart from the rows,
  // so pruning never lowers it, with the highest sequence pruned (a replay from below it is refused);
  // an index finds the old rows. The sends a member made by client_msg_id (issue 14 §3: a retried
  // send posts once), kept as long as the events.
  `
  CREATE TABLE event_sequences (
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL,
    last_sequence INTEGER NOT NULL, pruned_through INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, user_id)
  ) WITHOUT ROWID;
  INSERT INTO event_sequences (workspace_id, user_id, last_sequence)
    SELECT workspace_id, user_id, max(sequence) FROM events GROUP BY workspace_id, user_id;
  CREATE INDEX events_by_time ON events (created_at);
  CREATE TABLE message_sends (
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, client_msg_id TEXT NOT NULL,
    conversation_id TEXT NOT NULL, ts TEXT NOT NULL, created_at INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, user_id, client_msg_id)
  ) WITHOUT ROWID;
  CREATE INDEX message_sends_by_time ON message_sends (created_at);
  `,
];

export function migrate(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return MIGRATIONS.length;
}
