/**
 * The few spellings where SQLite and PostgreSQL differ, for the aggregates' shared SQL (issue 15 §1). Everything
 * else is written once: `?` placeholders, `ON CONFLICT … DO NOTHING/UPDATE`, `"user"` quoted (a keyword in
 * PostgreSQL), and `CAST(? AS TEXT)` wherever PostgreSQL could not infer a parameter's type.
 */
import { QUIET_SUBTYPES } from '../../model/slack';
import type { Db } from './db';

/** SQL list of the subtypes that are no news (system lines, tombstones): never unread, a preview or a search hit. */
export const QUIET_SUBTYPES_SQL = `(${[...QUIET_SUBTYPES].map((s) => `'${s}'`).join(', ')})`;

/** A message that counts as unread, a preview and a search hit: not a system line. */
export const COUNTS_AS_UNREAD = `(subtype IS NULL OR subtype NOT IN ${QUIET_SUBTYPES_SQL})`;

/**
 * SQLite's index hint (`INDEXED BY`): without statistics its planner prefers a prefix of a primary key and scans
 * a workspace's every member row; PostgreSQL plans from statistics and has no such clause.
 */
export function indexedBy(db: Db, index: string): string {
  return db.dialect === 'sqlite' ? ` INDEXED BY ${index}` : '';
}

/** A LIMIT parameter for "no limit": SQLite's -1, PostgreSQL's NULL. */
export function limitOf(db: Db, limit: number | undefined): number | null {
  if (limit === undefined || limit < 0) return db.dialect === 'sqlite' ? -1 : null;
  return limit;
}

/** The larger of two values: SQLite's two-argument max(), PostgreSQL's GREATEST(). */
export function greatest(db: Db, a: string, b: string): string {
  return db.dialect === 'sqlite' ? `max(${a}, ${b})` : `GREATEST(${a}, ${b})`;
}

/** A text a LIKE pattern holds literally (`\` is the escape character). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Case-insensitive LIKE: SQLite's LIKE is (for ASCII), PostgreSQL's ILIKE is. */
export function ilike(db: Db): string {
  return db.dialect === 'sqlite' ? 'LIKE' : 'ILIKE';
}

/**
 * Inserts many rows into one table: on PostgreSQL as multi-row VALUES in chunks (a round trip per chunk, not per
 * row; at most 30,000 parameters each, below the protocol's 65,535), on SQLite row by row through one prepared
 * statement (no round trips to save). `suffix` follows the VALUES (an ON CONFLICT clause).
 */
export async function insertMany(tx: Db, table: string, columns: readonly string[], rows: ReadonlyArray<readonly unknown[]>, suffix = ''): Promise<void> {
  const one = `(${columns.map(() => '?').join(', ')})`;
  const head = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `;
  if (tx.dialect === 'sqlite') {
    for (const row of rows) await tx.run(`${head}${one} ${suffix}`, row);
    return;
  }
  const perChunk = Math.max(1, Math.floor(30_000 / columns.length));
  for (let i = 0; i < rows.length; i += perChunk) {
    const chunk = rows.slice(i, i + perChunk);
    await tx.run(`${head}${chunk.map(() => one).join(', ')} ${suffix}`, chunk.flat());
  }
}
