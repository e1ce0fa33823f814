/**
 * The real server: SQLite under the data dir, the demo workspace or Slack, the simulator
 * (demo only), and the built client. Configuration is by environment:
 *   PORT (8787), HOST (127.0.0.1), SIFT_DATA_DIR (./data), SIFT_DEMO_SEED (42),
 *   SIFT_DEMO_SIZE (small | large), SIFT_SIMULATOR_RATE (messages a minute, 0 = off),
 *   SIFT_STATIC_DIR (dist), SIFT_LOG_LEVEL (info), SIFT_USER_PROFILE (1; 0 turns the profile pages off),
 *   SIFT_RATE_LIMITS (on | off | a scale factor and/or name=points/seconds), SIFT_TRUST_PROXY (0: proxies in front),
 *   SIFT_EVENT_RETENTION_DAYS (7), SIFT_EVENT_RETENTION_MAX (50000 events per member).
 * Slack mode (sources/slack/config.ts): SLACK_CLIENT_ID + SLACK_CLIENT_SECRET, SLACK_APP_TOKEN,
 *   SLACK_API_URL, SLACK_AUTHORIZE_URL, SIFT_PUBLIC_URL, SIFT_SECRET, SIFT_SLACK_POLL_SECONDS.
 */
import { sessionLimitsFromDays, type SessionLimits } from './sessions';
import { rateLimitsFromEnv, type RateLimitConfig } from './rateLimits';
import { DEFAULT_EVENT_RETENTION_DAYS, DEFAULT_EVENT_RETENTION_MAX, eventRetentionFromDays, startEventLogPruning, type EventRetention } from './live/retention';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import { createApp } from './app';
import type { AiProvider } from './ai/types';
import { createLocalProvider } from './ai/local/provider';
import { createOpenAiProvider } from './ai/openai';
import { DEFAULT_DAILY_TOKENS } from './ai/budget';
import { jsonLogger, type ServerLogLevel } from './log';
import { SqliteStore } from './store/sqlite';
import { openPostgresStore } from './store/postgres';
import type { PostgresOptions } from './store/db';
import { bridgeNotifications } from './live/bridge';
import { DemoSource } from './sources/demoSource';
import { SlackSource } from './sources/slack/source';
import { slackConfigFromEnv, type SlackConfig } from './sources/slack/config';
import { startSimulator } from './sources/simulator';
import type { DemoSize } from './sources/demo/generator';
import { closeServer } from './live/shutdown';
import { lead, oneAtATime } from './leadership';
import { readFileSync } from 'node:fs';

export interface ServerOptions {
  port: number;
  host: string;
  dataDir: string;
  staticDir: string;
  seed: number;
  size: DemoSize;
  simulatorRate: number;
  logLevel: ServerLogLevel;
  userProfile: boolean;
  ai: AiOptions;
  /** Slack mode's configuration; null: the demo workspace. */
  slack: SlackConfig | null;
  /** Session lifetimes (SIFT_SESSION_MAX_DAYS, SIFT_SESSION_IDLE_DAYS). */
  sessions: SessionLimits;
  /** Rate limits (SIFT_RATE_LIMITS, SIFT_TRUST_PROXY). */
  rateLimits: RateLimitConfig;
  /** AI tokens per member per UTC day (SIFT_AI_DAILY_TOKENS; 0: unlimited). */
  aiDailyTokens: number;
  /** The event log's retention (SIFT_EVENT_RETENTION_DAYS, SIFT_EVENT_RETENTION_MAX). */
  eventRetention: EventRetention;
  /** PostgreSQL (DATABASE_URL): several servers share it; absent: the embedded SQLite file under dataDir. */
  database?: { url: string; poolSize: number; ssl?: PostgresOptions['ssl'] };
}

/** Which AI provider the server runs: the local one (default), an OpenAI-compatible server, or none. */
export type AiOptions =
  { provider: 'local' } | { provider: 'off' } | { provider: 'openai-compatible'; baseURL: string; apiKey?: string; model: string; transcriptionModel?: string };

export function aiOptionsFromEnv(env: NodeJS.ProcessEnv): AiOptions {
  if (env.SIFT_AI === 'off') return { provider: 'off' };
  if (env.SIFT_AI !== undefined && env.SIFT_AI !== '' && env.SIFT_AI !== 'on') throw new Error(`SIFT_AI must be on or off, not ${env.SIFT_AI}`);
  const baseURL = env.SIFT_AI_BASE_URL?.trim();
  if (!baseURL) return { provider: 'local' };
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new Error(`SIFT_AI_BASE_URL must be an http(s) URL, not ${baseURL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`SIFT_AI_BASE_URL must be an http(s) URL, not ${baseURL}`);
  const options: AiOptions = { provider: 'openai-compatible', baseURL, model: env.SIFT_AI_MODEL?.trim() || 'gpt-4o-mini' };
  if (env.SIFT_AI_API_KEY) options.apiKey = env.SIFT_AI_API_KEY;
  if (env.SIFT_AI_TRANSCRIPTION_MODEL) options.transcriptionModel = env.SIFT_AI_TRANSCRIPTION_MODEL;
  return options;
}

function providerOf(options: AiOptions): AiProvider | null {
  if (options.provider === 'off') return null;
  if (options.provider === 'local') return createLocalProvider();
  const { provider: _kind, ...rest } = options;
  return createOpenAiProvider(rest);
}

export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): ServerOptions {
  const size = env.SIFT_DEMO_SIZE ?? 'small';
  if (size !== 'small' && size !== 'large') throw new Error(`SIFT_DEMO_SIZE must be small or large, not ${size}`);
  const number = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, not ${raw}`);
    return n;
  };
  const wholeNumber = (name: string, fallback: number) => {
    const n = number(name, fallback);
    if (!Number.isInteger(n)) throw new Error(`${name} must be a whole number, not ${env[name]}`);
    return n;
  };
  const positive = (name: string, fallback: number) => {
    const n = number(name, fallback);
    if (n <= 0) throw new Error(`${name} must be a positive number of days, not ${env[name]}`);
    return n;
  };
  const positiveWhole = (name: string, fallback: number) => {
    const n = wholeNumber(name, fallback);
    if (n < 1) throw new Error(`${name} must be a whole number of at least 1, not ${env[name]}`);
    return n;
  };
  const host = env.HOST ?? '127.0.0.1';
  const slack = slackConfigFromEnv(env);
  const database = databaseFromEnv(env, positiveWhole);
  // Demo mode signs anyone in as any member: it is for this machine only, unless asked for explicitly.
  if (!slack && !isLoopback(host) && env.SIFT_DEMO_ALLOW_REMOTE !== '1') {
    throw new Error(`the demo workspace signs anyone in as any member, so it listens on loopback only; HOST=${host} needs SIFT_DEMO_ALLOW_REMOTE=1`);
  }
  // Off this machine, Slack's redirect URI comes from SIFT_PUBLIC_URL, never from a request's Host header.
  if (slack && !isLoopback(host) && !slack.publicUrl) {
    throw new Error(`Slack mode on HOST=${host} needs SIFT_PUBLIC_URL (the address members open Sift at)`);
  }
  return {
    port: number('PORT', 8787),
    host,
    dataDir: resolve(env.SIFT_DATA_DIR ?? './data'),
    staticDir: resolve(env.SIFT_STATIC_DIR ?? 'dist'),
    seed: number('SIFT_DEMO_SEED', 42),
    size,
    simulatorRate: number('SIFT_SIMULATOR_RATE', 4),
    logLevel: (env.SIFT_LOG_LEVEL as ServerLogLevel | undefined) ?? 'info',
    userProfile: env.SIFT_USER_PROFILE !== '0',
    ai: aiOptionsFromEnv(env),
    slack,
    sessions: sessionLimitsFromDays(positive('SIFT_SESSION_MAX_DAYS', 30), positive('SIFT_SESSION_IDLE_DAYS', 7)),
    rateLimits: rateLimitsFromEnv(env),
    aiDailyTokens: wholeNumber('SIFT_AI_DAILY_TOKENS', DEFAULT_DAILY_TOKENS),
    eventRetention: eventRetentionFromDays(
      positive('SIFT_EVENT_RETENTION_DAYS', DEFAULT_EVENT_RETENTION_DAYS),
      positiveWhole('SIFT_EVENT_RETENTION_MAX', DEFAULT_EVENT_RETENTION_MAX),
    ),
    ...(database ? { database } : {}),
  };
}

/**
 * DATABASE_URL selects PostgreSQL (issue 15): `postgres://user:password@host:5432/sift`, TLS by its `sslmode`
 * (node-postgres reads it) or SIFT_DB_CA_FILE (a CA certificate the server's must chain to; verified). The pool
 * holds SIFT_DB_POOL_SIZE connections (10).
 */
function databaseFromEnv(env: NodeJS.ProcessEnv, positiveWhole: (name: string, fallback: number) => number): ServerOptions['database'] {
  const url = env.DATABASE_URL?.trim();
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('DATABASE_URL must be a postgres:// URL (postgres://user:password@host:5432/sift)');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new Error(`DATABASE_URL must be a postgres:// URL, not ${parsed.protocol}// (SQLite needs no DATABASE_URL)`);
  const caFile = env.SIFT_DB_CA_FILE?.trim();
  let ssl: PostgresOptions['ssl'];
  if (caFile) {
    try {
      ssl = { ca: readFileSync(caFile, 'utf8'), rejectUnauthorized: true };
    } catch (error) {
      throw new Error(`SIFT_DB_CA_FILE could not be read: ${(error as Error).message}`);
    }
  }
  return { url, poolSize: positiveWhole('SIFT_DB_POOL_SIZE', 10), ...(ssl ? { ssl } : {}) };
}

/** Whether a HOST is this machine only. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export async function startServer(options: ServerOptions) {
  const logger = jsonLogger(undefined, options.logLevel);
  mkdirSync(options.dataDir, { recursive: true });
  const database = options.database;
  // One database file per demo size, so switching size never mixes two workspaces; Slack has its own.
  const file = join(options.dataDir, options.slack ? 'sift-slack.db' : options.size === 'small' ? 'sift.db' : `sift-${options.size}.db`);
  const store = database
    ? await openPostgresStore(database.url, {
        poolSize: database.poolSize,
        ...(database.ssl ? { ssl: database.ssl } : {}),
        onError: (error) => logger.log('warn', 'a database connection failed; the pool replaces it', { error: error.message }),
      })
    : new SqliteStore(file);
  const clock = { now: () => Date.now() };
  const source = options.slack
    ? new SlackSource({
        config: options.slack,
        dataDir: options.dataDir,
        now: clock.now,
        logger,
        // A member's syncs take turns across servers (a poll on one, a sign-in's full sync on another).
        exclusive: (name, fn) => oneAtATime(database?.url, name, fn),
      })
    : new DemoSource({ seed: options.seed, size: options.size, now: clock.now, logger });
  const started = performance.now();
  // Several servers starting together on one database: the first generates the demo workspace, the others wait and find it.
  await oneAtATime(database?.url, 'workspace-prepare', () => source.prepare(store));
  logger.log('info', 'workspace ready', {
    store: database ? 'postgres' : file,
    source: source.mode,
    size: options.slack ? undefined : options.size,
    ms: Math.round(performance.now() - started),
  });

  const { app, ctx } = createApp({
    store,
    source,
    clock,
    logger,
    ai: providerOf(options.ai),
    config: {
      staticDir: options.staticDir,
      demo: options.slack ? undefined : { seed: options.seed, size: options.size },
      features: { userProfile: options.userProfile },
      ...(process.env.SIFT_PUBLIC_URL?.trim() ? { publicUrl: process.env.SIFT_PUBLIC_URL.trim().replace(/\/+$/, '') } : {}),
      aiModels: (process.env.SIFT_AI_MODELS ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
      sessions: options.sessions,
      rateLimits: options.rateLimits,
      aiDailyTokens: options.aiDailyTokens,
    },
  });
  const server = await new Promise<Server>((resolveServer) => {
    const s = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, () => resolveServer(s as Server));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  // On loopback without SIFT_PUBLIC_URL, the redirect URI is the address Sift listens on, not a request's Host header.
  if (source instanceof SlackSource && !source.config.publicUrl) source.config.publicUrl = url;
  logger.log('info', 'listening', { url, ai: ctx.ai ? `${ctx.ai.provider.kind} (${ctx.ai.provider.model})` : 'off' });

  // Events other servers commit reach this server's streams (PostgreSQL's LISTEN/NOTIFY).
  const notifications = database
    ? await bridgeNotifications(database.url, ctx.hub, (workspaceId, userId, after, limit) => store.eventsAfter(workspaceId, userId, after, limit), logger)
    : null;
  // Background work runs once across servers (leadership.ts): on SQLite, the one server leads at once.
  const simulator =
    source instanceof DemoSource && options.simulatorRate > 0
      ? lead({
          url: database?.url,
          name: 'demo-simulator',
          logger,
          start: () => startSimulator({ store, hub: ctx.hub, now: clock.now, ratePerMinute: options.simulatorRate, seed: options.seed, source, logger }),
        })
      : null;
  const pruning = lead({
    url: database?.url,
    name: 'event-log-pruning',
    logger,
    start: () => startEventLogPruning({ store, now: clock.now, retention: options.eventRetention, logger }),
  });
  // Slack: live events through Socket Mode, or polling without an app token.
  const stopSlack =
    source instanceof SlackSource
      ? await source.start({ hub: ctx.hub, runOnce: (name, start) => lead({ url: database?.url, name, logger, start }) })
      : async () => {};

  const close = async () => {
    await simulator?.stop();
    await pruning.stop();
    await stopSlack();
    await closeServer(server, ctx.hub);
    await notifications?.close();
    await store.close();
  };
  return { url, port, close, store, hub: ctx.hub };
}

/** Starts from the environment and stops cleanly on SIGINT / SIGTERM. */
export function runFromCommandLine(): void {
  startServer(optionsFromEnv())
    .then(({ url, close }) => {
      process.stdout.write(`Sift is running on ${url}\n`);
      const stop = () => void close().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    })
    .catch((error: unknown) => {
      process.stderr.write(`Sift could not start: ${(error as Error).message}\n`);
      process.exit(1);
    });
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) runFromCommandLine();
