/**
 * The store a server test runs on (issue 15 §3): SQLite by default, PostgreSQL when the `server-postgres` project
 * runs the same files (SIFT_TEST_DB=postgres; its global setup starts one real PostgreSQL, tests/server/postgres.ts,
 * and each store gets a fresh database of its own). A `file` names a database that outlives its store: opened
 * again with the same name, on either engine, it holds what was written (a restart test).
 *
 *   const store = await openTestStore();                 // empty, migrated
 *   const rows = await selectRows(store, 'SELECT count(*) AS n FROM messages WHERE text = ?', [text]);
 */
import { inject } from 'vitest';
import pg from 'pg';
import { SqliteStore } from '../../src/server/store/sqlite';
import { openPostgresStore } from '../../src/server/store/postgres';
import type { SiftStore } from '../../src/server/store/store';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test PostgreSQL's admin connection string (the server-postgres project's global setup). */
    postgresAdmin: string;
  }
}

export type TestEngine = 'sqlite' | 'postgres';
export const TEST_ENGINE: TestEngine = process.env.SIFT_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

/** The databases made for named files in this test file's worker. */
const databases = new Map<string, string>();
let made = 0;

/** A new empty database on the test PostgreSQL; answers its URL. */
export async function createTestDatabase(): Promise<string> {
  const admin = inject('postgresAdmin');
  const name = `sift_${process.pid}_${++made}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return admin.replace(/\/[^/]*$/, `/${name}`);
}

export async function openTestStore(file = ':memory:'): Promise<SiftStore> {
  if (TEST_ENGINE === 'sqlite') return new SqliteStore(file);
  let url = file === ':memory:' ? undefined : databases.get(file);
  if (!url) {
    url = await createTestDatabase();
    if (file !== ':memory:') databases.set(file, url);
  }
  return openPostgresStore(url, { poolSize: 4 });
}

/** Rows of a query on the store's own database, on either engine (`?` placeholders). */
export function selectRows<T = Record<string, unknown>>(store: SiftStore, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  return store.handle.all<T>(sql, params);
}

/** The one row of a query (`SELECT count(*) AS n …`). */
export async function selectRow<T = Record<string, unknown>>(store: SiftStore, sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
  return store.handle.get<T>(sql, params);
}
