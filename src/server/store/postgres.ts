/**
 * The store on PostgreSQL (issue 15): the same aggregates as the embedded store (store/store.ts) over a pool, its
 * schema migrated once at start under an advisory lock (several servers starting together migrate once).
 *
 *   const store = await openPostgresStore(process.env.DATABASE_URL, { poolSize: 10 });
 */
import { openPostgres, type PostgresOptions } from './db';
import { migrate } from './migrate';
import { POSTGRES_MIGRATIONS } from './schema';
import { SiftStore } from './store';

export class PostgresStore extends SiftStore {
  /** The database's URL (the LISTEN connection and the leadership locks open their own connections to it). */
  readonly url: string;

  constructor(url: string, options: PostgresOptions = {}) {
    super(openPostgres(url, options));
    this.url = url;
  }
}

/** Opens the store and brings its schema up to date. */
export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<PostgresStore> {
  const store = new PostgresStore(url, options);
  try {
    await migrate(store.handle, POSTGRES_MIGRATIONS);
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}
