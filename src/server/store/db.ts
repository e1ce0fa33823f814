/**
 * One database handle over SQLite or PostgreSQL (issue 15 §1). The store's aggregates are written once against
 * it: portable SQL with `?` placeholders, and where the dialects differ (full-text search, upsert details,
 * advisory locks) the aggregate branches on `db.dialect` in that one place. Chosen over a query builder (Kysely
 * speaks both dialects) because the store's SQL is hand-tuned (index hints, FTS5, partial indexes) and reads
 * best as SQL; a builder would still need raw SQL for tsvector, pg_trgm, LISTEN/NOTIFY and advisory locks.
 *
 *   const db = openSqlite(':memory:');                        // or openPostgres('postgres://…', { poolSize: 10 })
 *   const rows = await db.all<{ id: string }>('SELECT id FROM t WHERE a = ?', [1]);
 *   await db.transaction(async (tx) => { await tx.run('…', […]); await tx.run('…', […]); });
 *
 * SQLite's one connection is synchronous underneath; a transaction's statements are awaited, so the handle runs
 * one transaction at a time and nothing else on the connection meanwhile (an async lock), as PostgreSQL's pool
 * gives each transaction a connection of its own.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import Database from 'better-sqlite3';
import pg from 'pg';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  readonly dialect: Dialect;
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** Runs one statement; answers how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Runs a script of several statements without parameters (a migration). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Inside, `tx` is the handle. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/* ---------- SQLite ---------- */

/** The SQLite handle whose lock the current async flow holds (the lock is reentrant: a holder's calls run at once). */
const holding = new AsyncLocalStorage<object>();

class SqliteDb implements SqliteHandle {
  readonly dialect = 'sqlite';
  private readonly statements = new Map<string, Database.Statement>();
  /** The tail of the lock: every operation waits for the transaction before it. */
  private tail: Promise<unknown> = Promise.resolve();
  /** The handle a transaction's function gets: the same connection, without the lock it holds. */
  private readonly inside: Db;

  constructor(private readonly db: Database.Database) {
    const statement = (sql: string) => {
      let st = this.statements.get(sql);
      if (!st) this.statements.set(sql, (st = this.db.prepare(sql)));
      return st;
    };
    const inside: Db = {
      dialect: 'sqlite',
      all: async <T>(sql: string, params: readonly unknown[] = []) => statement(sql).all(...params) as T[],
      get: async <T>(sql: string, params: readonly unknown[] = []) => statement(sql).get(...params) as T | undefined,
      run: async (sql, params = []) => statement(sql).run(...params).changes,
      exec: async (sql) => void this.db.exec(sql),
      // Already in one: a nested transaction is part of it.
      transaction: (fn) => fn(inside),
      close: () => Promise.reject(new Error('The database cannot be closed from inside one of its transactions')),
    };
    this.inside = inside;
  }

  private locked<T>(fn: () => T | Promise<T>): Promise<T> {
    // Already the holder (a transaction's function, an exclusive caller's nested call): run now, or it would wait for itself.
    if (holding.getStore() === this) return Promise.resolve().then(fn);
    const held = () => holding.run(this, fn);
    const run = this.tail.then(held, held);
    this.tail = run.catch(() => undefined);
    return run;
  }

  exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.locked(fn);
  }

  all<T>(sql: string, params?: readonly unknown[]) {
    return this.locked(() => this.inside.all<T>(sql, params));
  }
  get<T>(sql: string, params?: readonly unknown[]) {
    return this.locked(() => this.inside.get<T>(sql, params));
  }
  run(sql: string, params?: readonly unknown[]) {
    return this.locked(() => this.inside.run(sql, params));
  }
  exec(sql: string) {
    return this.locked(() => this.inside.exec(sql));
  }
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return this.locked(async () => {
      // IMMEDIATE: the write lock at once, so two processes on one file serialize here rather than fail later.
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.inside);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }
  async close() {
    await this.tail;
    this.db.close();
  }
}

export function openSqlite(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return new SqliteDb(db);
}

/** A SQLite handle also lends its lock: what runs in `exclusive` never shares the connection with a transaction. */
export interface SqliteHandle extends Db {
  exclusive<T>(fn: () => T | Promise<T>): Promise<T>;
}

/**
 * A handle on a connection the caller owns (the SQLite store's, while its aggregates move onto the handle). The
 * caller runs its own statements in `exclusive`, so that none lands inside a transaction an aggregate holds
 * across awaits.
 */
export function sqliteHandle(database: Database.Database): SqliteHandle {
  return new SqliteDb(database);
}

/* ---------- PostgreSQL ---------- */

/** `?` placeholders as PostgreSQL's `$1, $2…` (the store's SQL has no `?` inside its literals). */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** BIGINT (sequences, epoch ms) and COUNT come back as numbers, as from SQLite; they stay far below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

type Queryable = Pick<pg.PoolClient, 'query'>;

function postgresHandle(client: Queryable, transaction: Db['transaction'], close: Db['close']): Db {
  return {
    dialect: 'postgres',
    all: async <T>(sql: string, params: readonly unknown[] = []) => (await client.query(numbered(sql), [...params])).rows as T[],
    get: async <T>(sql: string, params: readonly unknown[] = []) => (await client.query(numbered(sql), [...params])).rows[0] as T | undefined,
    run: async (sql, params = []) => (await client.query(numbered(sql), [...params])).rowCount ?? 0,
    exec: async (sql) => void (await client.query(sql)),
    transaction,
    close,
  };
}

export interface PostgresOptions {
  /** Connections in the pool (SIFT_DB_POOL_SIZE; 10 by default). */
  poolSize?: number;
  /** TLS to the server: node-postgres's `ssl` (true, or { rejectUnauthorized, ca }); also `sslmode` in the URL. */
  ssl?: pg.PoolConfig['ssl'];
  /** An idle connection failed (the server restarted, a network cut): the pool drops it and opens another. */
  onError?: (error: Error) => void;
}

export function openPostgres(url: string, options: PostgresOptions = {}): Db & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types, ...(options.ssl !== undefined ? { ssl: options.ssl } : {}) });
  // Without a listener an idle connection's error would end the process (node-postgres's pool docs).
  pool.on('error', (error) => options.onError?.(error));
  const transaction: Db['transaction'] = async (fn) => {
    // A deadlock or a serialization failure rolls the transaction back whole: it is run again, a few times. A
    // transaction's function only reads and writes through its handle, so running it again is safe.
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(fn);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt >= 3 || (code !== '40P01' && code !== '40001')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
      }
    }
  };
  const once: Db['transaction'] = async (fn) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const inside = postgresHandle(
        client,
        (inner) => inner(inside),
        async () => undefined,
      );
      const result = await fn(inside);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  return { ...postgresHandle(pool, transaction, () => pool.end()), pool };
}
