/**
 * Live fan-out across servers (issue 15 §3): two Sift servers (`src/server/main.ts` processes) on one real
 * PostgreSQL, 1,000 live streams open across them (50 demo members, 20 streams each: their tabs and devices, half
 * on each server), and events committed to the members' logs at a steady rate by a third process's store (as
 * another server's writes are: a commit, then PostgreSQL's notification). Reports the events per second the
 * streams received and the delivery delay from commit to a stream's read (p50, p95, max): the goal is p95 ≤ 50 ms
 * at 2,000 events/s. Beside it, the same on SQLite with one server, in the bench's own process (its events
 * published to its hub as its routes do): server, writer and the 1,000 clients then share one thread.
 * Run directly: `npx tsx bench/fanOut.ts`.
 */
import { createParser } from 'eventsource-parser';
import { openPostgresStore } from '../src/server/store/postgres';
import type { MemberEvent } from '../src/server/store/types';
import { startPostgres } from '../tests/server/postgres';
import { startSift, type SiftProcess } from '../tests/server/siftProcess';
import { api, signIn, startTestServer } from '../tests/server/helpers';
import type { Store } from '../src/server/store/types';

const WORKSPACE = 'T0ACMEC01';

export interface FanOut {
  engine: string;
  servers: number;
  streams: number;
  members: number;
  offeredPerSecond: number;
  /** Events appended per second, as achieved. */
  appendedPerSecond: number;
  /** Stream reads per second (an event counts once per stream that got it). */
  deliveredPerSecond: number;
  /** Events each stream missed (0: every stream got every event of its member). */
  missing: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

interface Stream {
  close(): void;
}

/** Opens a stream and calls `onEvent(sequence, timestamp)` for each event after the connection frame. */
async function openStream(url: string, token: string, onEvent: (timestamp: number) => void): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${url}/api/sse/stream`, { signal: controller.signal, headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
  let ready: () => void = () => {};
  const connected = new Promise<void>((resolve) => (ready = resolve));
  const parser = createParser({
    onEvent: (message) => {
      const event = JSON.parse(message.data) as { type: string; timestamp: number };
      if (event.type === 'connection') ready();
      else if (event.type === 'bench') onEvent(event.timestamp);
    },
  });
  void (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {
      /* closed */
    }
  })();
  await connected;
  return { close: () => controller.abort() };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;

/** The members: the demo's people, each signed in once (one session per member; their streams share it). */
async function signInMembers(url: string, members: number): Promise<Map<string, string>> {
  const first = await signIn(url);
  const users = Object.keys((await api(url, first.token)('/api/conversations/data')).body.data.users as Record<string, unknown>).slice(0, members);
  const tokens = new Map<string, string>();
  for (const user of users) tokens.set(user, (await signIn(url, user)).token);
  return tokens;
}

async function measure(
  engine: string,
  urls: string[],
  store: Store,
  tokens: Map<string, string>,
  options: { streams: number; perSecond: number; seconds: number },
): Promise<FanOut> {
  const users = [...tokens.keys()];
  const delays: number[] = [];
  const received = new Map<string, number>();
  const streams: Stream[] = [];
  for (let i = 0; i < options.streams; i++) {
    const user = users[i % users.length]!;
    const url = urls[Math.floor(i / users.length) % urls.length]!;
    streams.push(
      await openStream(url, tokens.get(user)!, (timestamp) => {
        delays.push(Date.now() - timestamp);
        received.set(user, (received.get(user) ?? 0) + 1);
      }),
    );
  }
  // Appends in batches every 10 ms, each batch one transaction naming several members, members in turn.
  const perBatch = Math.max(1, Math.round(options.perSecond / 100));
  const appended = new Map<string, number>();
  let turn = 0;
  const started = Date.now();
  let batches = 0;
  const inFlight = new Set<Promise<unknown>>();
  while (Date.now() - started < options.seconds * 1000) {
    const events: MemberEvent[] = [];
    for (let k = 0; k < perBatch; k++) {
      const user = users[turn++ % users.length]!;
      appended.set(user, (appended.get(user) ?? 0) + 1);
      events.push({ userId: user, type: 'bench', data: { n: turn } });
    }
    const write: Promise<unknown> = store.appendEvents(WORKSPACE, events, Date.now()).then((): void => void inFlight.delete(write));
    inFlight.add(write);
    batches += 1;
    // Keep the offered rate: the next batch at its time, not after this one's commit.
    const next = started + batches * 10;
    const wait = next - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    while (inFlight.size > 8) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  const elapsed = (Date.now() - started) / 1000;
  const expected = [...appended].reduce((sum, [, n]) => sum + n * (options.streams / users.length), 0);
  const settle = Date.now() + 10_000;
  while (delays.length < expected && Date.now() < settle) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const stream of streams) stream.close();
  const sorted = [...delays].sort((x, y) => x - y);
  return {
    engine,
    servers: urls.length,
    streams: options.streams,
    members: users.length,
    offeredPerSecond: options.perSecond,
    appendedPerSecond: Math.round((batches * perBatch) / elapsed),
    deliveredPerSecond: Math.round(delays.length / elapsed),
    missing: Math.max(0, expected - delays.length),
    p50Ms: percentile(sorted, 0.5),
    p95Ms: percentile(sorted, 0.95),
    maxMs: sorted.at(-1) ?? Number.NaN,
  };
}

/**
 * Two loads: 100 events/s to the 50 members (2,000 stream deliveries a second, two a stream), and 2,000 events/s
 * (40,000 deliveries offered).
 */
export async function benchFanOut(rates: readonly number[] = [100, 2_000], base = { streams: 1_000, members: 50, seconds: 5 }): Promise<FanOut[]> {
  const results: FanOut[] = [];
  const postgres = await startPostgres();
  let servers: SiftProcess[] = [];
  try {
    const url = await postgres.database();
    servers = await Promise.all([startSift(url, { SIFT_LOG_LEVEL: 'warn' }), startSift(url, { SIFT_LOG_LEVEL: 'warn' })]);
    const store = await openPostgresStore(url, { poolSize: 8 });
    try {
      const tokens = await signInMembers(servers[0]!.url, base.members);
      for (const perSecond of rates)
        results.push(
          await measure(
            'PostgreSQL',
            servers.map((s) => s.url),
            store,
            tokens,
            { ...base, perSecond },
          ),
        );
    } finally {
      await store.close();
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await postgres.stop();
  }
  // SQLite: one server; the bench appends through that server's own store and publishes to its hub, as its routes do.
  const server = await startTestServer({ ai: null });
  try {
    const publishing: Store = Object.create(server.store) as Store;
    publishing.appendEvents = async (workspaceId, events, at) => {
      const stored = await server.store.appendEvents(workspaceId, events, at);
      server.hub.publish(workspaceId, stored);
      return stored;
    };
    const tokens = await signInMembers(server.url, base.members);
    for (const perSecond of rates) results.push(await measure('SQLite', [server.url], publishing, tokens, { ...base, perSecond }));
  } finally {
    await server.close();
  }
  return results;
}

if (import.meta.filename === process.argv[1]) console.log(JSON.stringify(await benchFanOut(), null, 2));
