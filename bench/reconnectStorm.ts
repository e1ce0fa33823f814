/**
 * The reconnect storm of a restart (issue 15 §2, §3): 1,000 live streams of the engine's own client (the
 * liveConnection pipeline over openSse, as each browser's worker runs it) are open on a server; the server
 * stops the way main.ts stops it (each stream told when to come back) and a new one starts on the same address
 * and database. Reports how the 1,000 reconnects spread over the seconds after the stop: the worst second's
 * share (budget: ≤ 20 %), and how long until all were back. One server on SQLite, or two servers on one
 * PostgreSQL, half of the streams on each, both restarted together. Run directly:
 * `npx tsx bench/reconnectStorm.ts [sqlite|postgres]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BehaviorSubject, NEVER, type Subscription } from 'rxjs';
import { liveConnection } from '../src/streams/liveConnection';
import { openSse } from '../src/worker/sse';
import { signIn, startTestServer } from '../tests/server/helpers';
import { startPostgres } from '../tests/server/postgres';
import { startSift, type SiftProcess } from '../tests/server/siftProcess';

export interface ReconnectStorm {
  clients: number;
  /** Reconnects in each second after the stop. */
  perSecond: number[];
  worstSecondShare: number;
  allBackMs: number;
}

/** Servers to storm: their stream addresses, a token, and a restart (stop every one, then start them again on the same addresses). */
interface Stormed {
  urls: string[];
  token: string;
  /** Stops every server (each telling its streams when to come back), calls `stopped`, and starts them again. */
  restart(stopped: () => void): Promise<void>;
  close(): Promise<void>;
}

async function sqliteServer(): Promise<Stormed> {
  const dir = mkdtempSync(join(tmpdir(), 'sift-storm-'));
  const file = join(dir, 'sift.db');
  let server = await startTestServer({ file });
  const port = Number(new URL(server.url).port);
  const { token } = await signIn(server.url);
  return {
    urls: [server.url],
    token,
    async restart(stopped) {
      stopped();
      await server.close();
      server = await startTestServer({ file, port });
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresServers(): Promise<Stormed> {
  const postgres = await startPostgres();
  const url = await postgres.database();
  const env = { SIFT_DB_POOL_SIZE: '10', SIFT_LOG_LEVEL: 'warn' };
  let servers: SiftProcess[] = await Promise.all([startSift(url, env), startSift(url, env)]);
  const ports = servers.map((s) => new URL(s.url).port);
  const { token } = await signIn(servers[0]!.url);
  return {
    urls: servers.map((s) => s.url),
    token,
    async restart(stopped) {
      stopped();
      await Promise.all(servers.map((s) => s.stop()));
      servers = await Promise.all(ports.map((port) => startSift(url, { ...env, PORT: port })));
    },
    async close() {
      await Promise.all(servers.map((s) => s.stop()));
      await postgres.stop();
    },
  };
}

export async function benchReconnectStorm(clients = 1_000, engine: 'sqlite' | 'postgres' = 'sqlite'): Promise<ReconnectStorm> {
  const stormed = engine === 'sqlite' ? await sqliteServer() : await postgresServers();
  const authorized: typeof fetch = (input, init) =>
    fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Authorization: `Bearer ${stormed.token}` } });

  let stoppedAt = 0;
  const connectedAt: number[] = [];
  let connected = 0;
  const subscriptions: Subscription[] = [];
  for (let i = 0; i < clients; i++) {
    let wasConnected = false;
    const url = `${stormed.urls[i % stormed.urls.length]}/api/sse/stream`;
    subscriptions.push(
      liveConnection({
        session$: new BehaviorSubject<string | null>('member'),
        command$: NEVER,
        lastSequence$: NEVER,
        open: () => openSse(url, authorized),
      }).subscribe((out) => {
        if (out.kind !== 'state') return;
        if (out.state.status === 'connected' && !wasConnected) {
          wasConnected = true;
          connected += 1;
          if (stoppedAt) connectedAt.push(Date.now() - stoppedAt);
        } else if (out.state.status !== 'connected') wasConnected = false;
      }),
    );
  }
  const deadline = Date.now() + 60_000;
  while (connected < clients && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (connected < clients) throw new Error(`only ${connected} of ${clients} streams opened`);

  await stormed.restart(() => (stoppedAt = Date.now()));
  const back = Date.now() + 90_000;
  while (connectedAt.length < clients && Date.now() < back) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const subscription of subscriptions) subscription.unsubscribe();
  await stormed.close();

  const perSecond: number[] = [];
  for (const ms of connectedAt) perSecond[Math.floor(ms / 1000)] = (perSecond[Math.floor(ms / 1000)] ?? 0) + 1;
  const filled = Array.from(perSecond, (n) => n ?? 0);
  return {
    clients,
    perSecond: filled,
    worstSecondShare: Math.round((Math.max(0, ...filled) / clients) * 1000) / 1000,
    allBackMs: connectedAt.length === clients ? Math.max(...connectedAt) : Number.POSITIVE_INFINITY,
  };
}

if (import.meta.filename === process.argv[1])
  console.log(JSON.stringify(await benchReconnectStorm(1_000, process.argv[2] === 'postgres' ? 'postgres' : 'sqlite'), null, 2));
