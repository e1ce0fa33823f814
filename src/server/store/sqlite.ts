/**
 * The embedded store: SQLite through better-sqlite3, a file under the data dir (or ':memory:' in tests), with the
 * store's aggregates over its handle (store/store.ts). better-sqlite3 is synchronous, so each transaction is
 * committed before its promise resolves; WAL with synchronous=FULL makes that commit survive a hard kill of the
 * process. Its schema is store/migrations.ts (PostgreSQL's is store/schema.ts).
 */
import Database from 'better-sqlite3';
import { sqliteHandle } from './db';
import { migrate } from './migrations';
import { SiftStore } from './store';

export class SqliteStore extends SiftStore {
  /** The connection itself, for what only SQLite has (tests that read its tables, the benchmarks). */
  readonly db: Database.Database;

  constructor(filename: string) {
    const db = new Database(filename);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    // The default 2 MB page cache thrashes on a 100,000-conversation workspace.
    db.pragma('cache_size = -131072');
    db.pragma('temp_store = MEMORY');
    migrate(db);
    super(sqliteHandle(db));
    this.db = db;
  }
}
