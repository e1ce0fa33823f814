/** Builds the real app over SQLite and the small demo workspace, served on an ephemeral port. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createParser } from 'eventsource-parser';
import { createApp } from '../../src/server/app';
import { jsonLogger } from '../../src/server/log';
import type { SiftStore } from '../../src/server/store/store';
import { openTestStore } from './testStore';
import { DemoSource } from '../../src/server/sources/demoSource';
import type { LiveEvent } from '../../src/model/types';
import type { AiProvider } from '../../src/server/ai/types';
import { createLocalProvider } from '../../src/server/ai/local/provider';
import type { SessionLimits } from '../../src/server/sessions';
import { LiveHub } from '../../src/server/live/hub';
import { closeServer } from '../../src/server/live/shutdown';

export const FIXED_NOW = Date.UTC(2026, 10, 20, 15, 0, 0);

export interface TestServer {
  url: string;
  store: SiftStore;
  source: DemoSource;
  logLines: string[];
  hub: LiveHub;
  close(): Promise<void>;
}

export async function startTestServer(
  options: {
    file?: string;
    heartbeatMs?: number;
    now?: () => number;
    /** Absent: the local AI provider; null: AI off. */
    ai?: AiProvider | null;
    sessions?: SessionLimits;
    /** SIFT_PUBLIC_URL: https gives the `__Host-` Secure session cookie. */
    publicUrl?: string;
    /** The built client's folder (SIFT_STATIC_DIR); absent: no client is served. */
    staticDir?: string;
    /** The port (a restart on the same address); absent: a free one. */
    port?: number;
  } = {},
): Promise<TestServer> {
  const store = await openTestStore(options.file);
  const now = options.now ?? (() => Date.now());
  const source = new DemoSource({ seed: 42, size: 'small', now: () => FIXED_NOW });
  await source.prepare(store);
  const logLines: string[] = [];
  const hub = new LiveHub();
  const { app } = createApp({
    hub,
    store,
    source,
    clock: { now },
    logger: jsonLogger((line) => logLines.push(line), 'debug'),
    config: {
      heartbeatMs: options.heartbeatMs,
      ...(options.sessions ? { sessions: options.sessions } : {}),
      ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
      ...(options.staticDir ? { staticDir: options.staticDir } : {}),
    },
    ai: options.ai === undefined ? createLocalProvider({ chunkDelayMs: 0 }) : options.ai,
  });
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    source,
    logLines,
    hub,
    /** Stops as the real server does: the live streams are told when to come back, then the connections close. */
    async close() {
      await closeServer(server, hub);
      await store.close();
    },
  };
}

/** Signs in through GET /auth/slack (optionally as another demo member); answers the token and the redirect. */
export async function signIn(url: string, as?: string): Promise<{ token: string; location: string; cookie: string }> {
  const res = await fetch(`${url}/auth/slack${as ? `?as=${as}` : ''}`, { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  const location = res.headers.get('location') ?? '';
  const cookie = res.headers.get('set-cookie') ?? '';
  return { token: sessionTokenOf(cookie), location, cookie };
}

/** The session token a sign-in's Set-Cookie carries (the only place it travels to a browser). */
export function sessionTokenOf(setCookie: string): string {
  return /(?:^|[\s,;])(?:__Host-)?sift_token=([A-Za-z0-9_-]+)/.exec(setCookie)?.[1] ?? '';
}

/**
 * A JSON answer as a test reads it: field by field, asserting the shape it expects. `unknown` would
 * need a cast before every read, which would say less than the assertions do.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: the tests assert the shape
export type Json = any;

export function api(url: string, token?: string) {
  return async <T = Json>(path: string, init: { method?: string; body?: unknown; raw?: string } = {}): Promise<{ status: number; body: T }> => {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    if (init.body !== undefined || init.raw !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${url}${path}`, {
      method: init.method ?? (init.body !== undefined || init.raw !== undefined ? 'POST' : 'GET'),
      headers,
      body: init.raw ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
}

export interface StreamReader {
  events: LiveEvent[];
  comments: number;
  /** Resolves once `predicate` holds over the events read so far. */
  until(predicate: (events: LiveEvent[]) => boolean, timeoutMs?: number): Promise<LiveEvent[]>;
  close(): void;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
}

/** Opens the live stream (the session as a Bearer header) and collects its events. */
export async function openStream(url: string, token: string, lastSequence?: number): Promise<StreamReader> {
  const controller = new AbortController();
  const query = new URLSearchParams();
  if (lastSequence !== undefined) query.set('lastSequence', String(lastSequence));
  const res = await fetch(`${url}/api/sse/stream?${query}`, { signal: controller.signal, headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
  const reader: StreamReader = {
    events: [],
    comments: 0,
    until(predicate, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const tick = () => {
          if (predicate(reader.events)) return resolve(reader.events);
          if (Date.now() - started > timeoutMs) return reject(new Error(`timed out; got ${JSON.stringify(reader.events.map((e) => [e.type, e.sequence]))}`));
          setTimeout(tick, 10);
        };
        tick();
      });
    },
    close: () => controller.abort(),
    ended: Promise.resolve(),
  };
  let markEnded: () => void = () => {};
  reader.ended = new Promise<void>((resolve) => (markEnded = resolve));
  const parser = createParser({
    onEvent: (event) => reader.events.push(JSON.parse(event.data) as LiveEvent),
    onComment: () => (reader.comments += 1),
  });
  void (async () => {
    const body = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await body.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {
      /* aborted */
    }
    markEnded();
  })();
  return reader;
}
