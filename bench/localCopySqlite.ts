/**
 * The alternative the local copy was measured against (issue 14 §2): SQLite compiled to WebAssembly,
 * over OPFS, in the worker, holding the same snapshot as JSON rows in tables like the IndexedDB stores.
 * It is not a dependency: `npm install --no-save @sqlite.org/sqlite-wasm` and bench/localCopy.ts serves
 * its files at /sqlite/ and measures it too; otherwise these ops answer null. Browser code.
 */
import { currentSnapshot, deltaOf } from '../tests/e2e/localCopyOps';

interface Stmt {
  bind(values: unknown[]): Stmt;
  step(): boolean;
  get(index: number): unknown;
  reset(): Stmt;
  finalize(): void;
}
interface Db {
  exec(sql: string): void;
  prepare(sql: string): Stmt;
  close(): void;
}
interface Sqlite3 {
  oo1: { OpfsDb?: new (file: string, mode: string) => Db };
}

const FILE = 'sift-copy-bench.sqlite3';
let sqlite3: Sqlite3 | null | undefined;
let db: Db | null = null;

async function load(): Promise<Sqlite3 | null> {
  if (sqlite3 !== undefined) return sqlite3;
  try {
    const url = '/sqlite/sqlite3.mjs';
    const init = ((await import(/* @vite-ignore */ url)) as { default: (options: object) => Promise<Sqlite3> }).default;
    sqlite3 = await init({ print: () => {}, printErr: () => {} });
  } catch {
    sqlite3 = null;
  }
  return sqlite3;
}

// A large page cache and the journal in memory: the fairest settings for OPFS, whose every page read or
// write is a round trip to the VFS's helper worker (SQLite 3.41's 'opfs' VFS; it also needs a
// cross-origin isolated page for SharedArrayBuffer and Atomics.wait).
const SCHEMA = `
  PRAGMA cache_size = -65536;
  PRAGMA journal_mode = memory;
  CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS conversations (id TEXT PRIMARY KEY, data TEXT) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS users (id TEXT PRIMARY KEY, data TEXT) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, at REAL, data TEXT) WITHOUT ROWID;`;

function write(table: string, rows: unknown[][]): void {
  if (!rows.length) return;
  const stmt = db!.prepare(`INSERT OR REPLACE INTO ${table} VALUES (${rows[0]!.map(() => '?').join(', ')})`);
  for (const row of rows) {
    stmt.bind(row).step();
    stmt.reset();
  }
  stmt.finalize();
}

function readAll(table: string): unknown[] {
  const stmt = db!.prepare(`SELECT data FROM ${table}`);
  const out: unknown[] = [];
  while (stmt.step()) out.push(JSON.parse(stmt.get(0) as string));
  stmt.finalize();
  return out;
}

const timed = async (run: () => unknown | Promise<unknown>) => {
  const start = performance.now();
  await run();
  return performance.now() - start;
};

export const sqliteOps = {
  /** Opens (or creates) the database; null when SQLite or its OPFS VFS is not there. */
  async sqliteOpen() {
    const s = await load();
    if (!s?.oo1.OpfsDb) return null;
    return timed(() => {
      db = new s.oo1.OpfsDb!(FILE, 'c');
      db.exec(SCHEMA);
    });
  },
  async sqliteSaveAll() {
    const snapshot = currentSnapshot();
    return timed(() => {
      db!.exec('BEGIN; DELETE FROM meta; DELETE FROM conversations; DELETE FROM users; DELETE FROM messages;');
      write(
        'conversations',
        snapshot.conversations.map((c) => [c.id, JSON.stringify(c)]),
      );
      write(
        'users',
        snapshot.users.map((u) => [u.id, JSON.stringify(u)]),
      );
      write('meta', [
        ['views', JSON.stringify(snapshot.views)],
        ['sequence', String(snapshot.sequence)],
      ]);
      write(
        'messages',
        Object.entries(snapshot.messages).map(([id, list], i) => [id, -i, JSON.stringify(list)]),
      );
      db!.exec('COMMIT');
    });
  },
  /** Reads everything back, as the engine would at start. */
  async sqliteLoad() {
    let count = 0;
    const ms = await timed(() => {
      const conversations = readAll('conversations');
      readAll('users');
      readAll('messages');
      count = conversations.length;
    });
    return { ms, conversations: count };
  },
  async sqliteSaveDelta(args: { count: number; version: number; sequence: number }) {
    const delta = deltaOf(currentSnapshot(), args.count, args.version, args.sequence);
    return timed(() => {
      db!.exec('BEGIN');
      write(
        'conversations',
        delta.conversations.map((c) => [c.id, JSON.stringify(c)]),
      );
      for (const id of delta.removed) db!.exec(`DELETE FROM conversations WHERE id = '${id}'`);
      write(
        'messages',
        delta.messages.map((m) => [m.id, Date.now(), JSON.stringify(m.messages.slice(-100))]),
      );
      write('meta', [['sequence', String(delta.sequence)]]);
      db!.exec('COMMIT');
    });
  },
  async sqliteClose() {
    db?.close();
    db = null;
  },
  async sqliteWipe() {
    db?.close();
    db = null;
    const root = await navigator.storage.getDirectory();
    for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys()) await root.removeEntry(name, { recursive: true });
  },
};
