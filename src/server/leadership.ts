/**
 * Background work that must run once across servers (issue 15 §2): a member's Slack sync and polling, the demo
 * simulator, the event log's pruning, classification batches. Each job has a name; one server at a time leads
 * it, holding PostgreSQL's session-level advisory lock of that name on a connection of its own. When the leader
 * dies (its process, its machine, its network), PostgreSQL ends its session and frees the lock, and another
 * server's next try (every `retryMs`) takes it and starts the job: the work moves. On SQLite there is one server,
 * which leads at once.
 *
 *   const sync = lead({ url: process.env.DATABASE_URL, name: `slack-sync:${team}:${user}`, start: () => startSync() });
 *   sync.leading;          // whether this server runs it now
 *   await sync.stop();     // stops the job and frees the lock for another server
 *
 * A job must tolerate a short overlap: a leader cut off from the database stops its job when its connection
 * reports the loss, which may be after another server has taken over.
 */
import pg from 'pg';
import type { ServerLogger } from './log';

export interface Leadership {
  readonly leading: boolean;
  stop(): Promise<void>;
}

export interface LeadOptions {
  /** PostgreSQL's connection string; absent: SQLite, one server, which leads at once. */
  url?: string | undefined;
  name: string;
  /** Starts the job; answers what stops it. */
  start: () => () => void | Promise<void>;
  retryMs?: number;
  logger?: ServerLogger;
}

/** The advisory lock's two keys: Sift's space, and a 32-bit hash (FNV-1a) of the job's name. */
const LOCK_SPACE = 0x51f7;
export function lockKey(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return hash | 0;
}

export function lead(options: LeadOptions): Leadership {
  const { url, name, start, retryMs = 5_000, logger } = options;
  let stopJob: (() => void | Promise<void>) | null = null;
  let stopped = false;
  const begin = () => {
    stopJob = start();
    logger?.log('info', 'leading a background job', { job: name });
  };
  const end = async () => {
    const stopping = stopJob;
    stopJob = null;
    await stopping?.();
  };

  if (!url) {
    begin();
    return {
      get leading() {
        return stopJob !== null;
      },
      stop: async () => {
        stopped = true;
        await end();
      },
    };
  }

  /** The connection holding the job's lock while this server leads; attempts use connections of their own. */
  let holder: pg.Client | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const retry = () => {
    if (!stopped) timer = setTimeout(() => void attempt(), retryMs);
  };
  /** The lock's connection failed or ended: the lead is lost (PostgreSQL frees the lock with the session). */
  const lost = (client: pg.Client) => {
    if (holder !== client) return;
    holder = null;
    clearInterval(heartbeat);
    void client.end().catch(() => undefined);
    logger?.log('warn', 'lost the lead of a background job', { job: name });
    void end().finally(retry);
  };
  /** One try for the lock; whatever happens, exactly one next step (lead, or one retry). */
  async function attempt(): Promise<void> {
    const client = new pg.Client({ connectionString: url, keepAlive: true });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    try {
      await client.connect();
      const row = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [LOCK_SPACE, lockKey(name)])).rows[0];
      if (row?.locked && !stopped) {
        holder = client;
        // A leader cut off by the network learns it from a failed query, not from a quiet socket.
        heartbeat = setInterval(() => void client.query('SELECT 1').catch(() => lost(client)), retryMs);
        begin();
        return;
      }
      await client.end().catch(() => undefined);
    } catch (error) {
      logger?.log('warn', 'could not try the lead of a background job', { job: name, message: (error as Error).message });
      await client.end().catch(() => undefined);
    }
    retry();
  }
  void attempt();

  return {
    get leading() {
      return stopJob !== null;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(heartbeat);
      await end();
      const held = holder;
      holder = null;
      // Ending the session frees its advisory locks.
      await held?.end().catch(() => undefined);
    },
  };
}

/**
 * Runs `fn` on one server at a time (the demo workspace's first generation: the second server to start waits, then
 * finds the workspace there): PostgreSQL's session-level advisory lock of that name, held on a connection of its
 * own for the run. On SQLite (no url) it simply runs.
 */
export async function oneAtATime<T>(url: string | undefined, name: string, fn: () => Promise<T>): Promise<T> {
  if (!url) return fn();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_SPACE, lockKey(name)]);
    return await fn();
  } finally {
    // Ending the session frees the lock, whether fn succeeded or not.
    await client.end().catch(() => undefined);
  }
}
