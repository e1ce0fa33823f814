/**
 * PostgreSQL's schema, by aggregate, in the order the migrations run (store/migrate.ts). SQLite's schema is
 * store/migrations.ts, the embedded store's history since its first release (the same tables and columns, and
 * FTS5 tables where PostgreSQL has a tsvector column and pg_trgm).
 */
import { CONVERSATION_RECORDS_MIGRATION } from './conversationRecords';
import { EVENT_LOG_MIGRATIONS } from './eventLog';
import { LABEL_RECORDS_MIGRATION } from './labelRecords';
import { MEMBER_RECORDS_MIGRATION } from './memberRecords';
import type { Migration } from './migrate';
import { SEARCH_RECORDS_MIGRATION } from './searchRecords';
import { SESSION_MIGRATION } from './sessionRecords';
import { SOURCE_RECORDS_MIGRATION } from './sourceRecords';
import { VIEW_RECORDS_MIGRATION } from './viewRecords';
import { WORKSPACE_RECORDS_MIGRATION } from './workspaceRecords';

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  ...EVENT_LOG_MIGRATIONS,
  SESSION_MIGRATION,
  MEMBER_RECORDS_MIGRATION,
  SOURCE_RECORDS_MIGRATION,
  VIEW_RECORDS_MIGRATION,
  WORKSPACE_RECORDS_MIGRATION,
  LABEL_RECORDS_MIGRATION,
  CONVERSATION_RECORDS_MIGRATION,
  SEARCH_RECORDS_MIGRATION,
];
