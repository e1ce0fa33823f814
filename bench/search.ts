/**
 * Bench (issue 5): the palette's local match over 100,000 conversations (budget ≤ 16 ms a
 * keystroke), and the server's GET /api/search over the large demo's 1,000,000 messages
 * (budget p95 ≤ 50 ms), through the real app over HTTP on the data/bench-large database.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { localMatch } from '../src/model/search';
import type { UserData } from '../src/model/types';
import { createApp } from '../src/server/app';
import { DemoSource } from '../src/server/sources/demoSource';
import { SqliteStore } from '../src/server/store/sqlite';
import { syntheticConversations } from './liveEvent';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

export function benchLocalMatch(): { p50: number; p95: number; runs: number } {
  const conversations = syntheticConversations(100_000);
  const users = new Map<string, UserData>();
  for (let i = 0; i < 5_000; i++) users.set(`U${i}`, { id: `U${i}`, name: `person${i}`, real_name: `Person Number ${i}`, display_name: `p${i}` });
  // The index as the worker's store keeps it (lowercase names maintained with every change).
  const names = new Map(conversations.map((c) => [c.id, { name: c.name.toLowerCase(), at: c.latest_activity }] as const));
  const byId = new Map(conversations.map((c) => [c.id, c] as const));
  const people = new Map([...users.values()].map((u) => [u.id, `${u.real_name}\u0000${u.display_name}\u0000${u.name}`.toLowerCase()] as const));
  const index = { names, conversation: (id: string) => byId.get(id), people, users, me: 'U_ME' };
  const queries = ['co', 'con', 'conv', 'conversation-9', 'conversation-99', 'pe', 'person number 4', 'zz', 'on-12', 'ation-5'];
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const q of queries) {
      const start = performance.now();
      localMatch(q, index);
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), runs: times.length };
}

export async function benchServerSearch(): Promise<{ p50: number; p95: number; runs: number; messages: number; migrateMs: number } | null> {
  const dir = join(import.meta.dirname, '..', 'data', 'bench-large');
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const store = new SqliteStore(join(dir, 'sift-large.db'));
  const migrateMs = performance.now() - started;
  const source = new DemoSource({ seed: 42, size: 'large', now: () => Date.now() });
  if (!(await store.workspaceImported('T0ACMEC01'))) {
    await store.close();
    return null; // run `npm run bench` with the browser part once: it builds the large workspace
  }
  await source.prepare(store);
  const messages = await store.countMessages('T0ACMEC01');
  const { app } = createApp({ store, source, clock: { now: () => Date.now() } });
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const location = (await fetch(`${url}/auth/slack`, { redirect: 'manual' })).headers.get('location') ?? '';
    const token = new URL(location, url).searchParams.get('token');
    const queries = [
      'deploy',
      'incident',
      'review',
      'blocked',
      'customers',
      'rollback',
      'migration plan',
      'release notes',
      'approve',
      'latency',
      'offsite',
      'budget',
      'launch checklist',
      'postmortem',
      'onboarding',
      'canary',
      'pager',
      'quarterly',
      'sso',
      'dashboard',
    ];
    const times: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const q of queries) {
        const start = performance.now();
        const res = await fetch(`${url}/api/search?q=${encodeURIComponent(q)}&limit=20`, { headers: { Authorization: `Bearer ${token}` } });
        await res.json();
        times.push(performance.now() - start);
      }
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), runs: times.length, messages, migrateMs };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await store.close();
  }
}

if (import.meta.filename === process.argv[1]) {
  console.log(JSON.stringify({ local: benchLocalMatch(), server: await benchServerSearch() }, null, 2));
}
