/**
 * Schema migrations for both engines (issue 15 §1): each migration has its SQLite and its PostgreSQL script, and
 * runs once, in order, recorded in `schema_migrations`. Several servers starting together migrate once: the whole
 * run holds a lock (PostgreSQL's transaction-scoped advisory lock; SQLite's write lock, BEGIN IMMEDIATE), so the
 * second server waits, then finds everything applied. A failed migration rolls the run back whole.
 */
import type { Db } from './db';

export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

/** The advisory lock's key (any fixed 64-bit number, the same on every server). */
const MIGRATION_LOCK = 0x5_1f7_0001;

/** Applies the migrations not applied yet, in version order; answers the versions it applied. */
export async function migrate(db: Db, migrations: readonly Migration[]): Promise<number[]> {
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  for (let i = 1; i < ordered.length; i++)
    if (ordered[i]!.version === ordered[i - 1]!.version) throw new Error(`Two migrations have version ${ordered[i]!.version}`);
  return db.transaction(async (tx) => {
    if (tx.dialect === 'postgres') await tx.run('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
    await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
    const applied = new Set((await tx.all<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version));
    const done: number[] = [];
    for (const migration of ordered) {
      if (applied.has(migration.version)) continue;
      await tx.exec(tx.dialect === 'postgres' ? migration.postgres : migration.sqlite);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [migration.version, migration.name, Date.now()]);
      done.push(migration.version);
    }
    return done;
  });
}
