/**
 * The reconnect storm of a restart (issue 15 §2, §3): 1,000 live streams of the engine's own client (the
 * liveConnection pipeline over openSse, as each browser's worker runs it) are open on a server; the server
 * stops the way main.ts stops it (each stream told when to come back) and a new one starts on the same address
 * and database. Reports how the 1,000 reconnects spread over the seconds after the stop: the worst second's
 * share (budget: ≤ 20 %), and how long until all were back. One server on SQLite (PostgreSQL's several servers
 * join once the store runs on it). Run directly: `npx tsx bench/reconnectStorm.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BehaviorSubject, NEVER, type Subscription } from 'rxjs';
import { liveConnection } from '../src/streams/liveConnection';
import { openSse } from '../src/worker/sse';
import { signIn, startTestServer } from '../tests/server/helpers';

export interface ReconnectStorm {
  clients: number;
  /** Reconnects in each second after the stop. */
  perSecond: number[];
  worstSecondShare: number;
  allBackMs: number;
}

export async function benchReconnectStorm(clients = 1_000): Promise<ReconnectStorm> {
  const dir = mkdtempSync(join(tmpdir(), 'sift-storm-'));
  const file = join(dir, 'sift.db');
  let server = await startTestServer({ file });
  const port = Number(new URL(server.url).port);
  const { token } = await signIn(server.url);
  const url = `${server.url}/api/sse/stream`;
  const authorized: typeof fetch = (input, init) =>
    fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Authorization: `Bearer ${token}` } });

  let stoppedAt = 0;
  const connectedAt: number[] = [];
  let connected = 0;
  const subscriptions: Subscription[] = [];
  for (let i = 0; i < clients; i++) {
    let wasConnected = false;
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

  stoppedAt = Date.now();
  await server.close();
  server = await startTestServer({ file, port });
  const back = Date.now() + 90_000;
  while (connectedAt.length < clients && Date.now() < back) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const subscription of subscriptions) subscription.unsubscribe();
  await server.close();
  rmSync(dir, { recursive: true, force: true });

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

if (import.meta.filename === process.argv[1]) console.log(JSON.stringify(await benchReconnectStorm(), null, 2));
