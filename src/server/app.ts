/**
 * createApp(deps): the reference server as a Hono app. Everything it talks to (store,
 * workspace source, clock, hub, logger) is injected; main.ts wires the real ones, tests
 * build it over an in-memory database.
 */
import { Hono } from 'hono';
import type { Session, Store } from './store/types';
import type { WorkspaceSource } from './sources/types';
import { LiveHub } from './live/hub';
import { HttpProblem } from './http';
import { type ServerLogger, silentLogger } from './log';
import { hashToken, requestToken } from './auth';
import { MessagingError } from './messaging';
import { authRoutes } from './routes/auth';
import { conversationRoutes } from './routes/conversations';
import { liveRoutes } from './routes/live';
import { searchRoutes } from './routes/search';
import { staticRoutes } from './routes/static';
import { viewRoutes } from './routes/views';
import { aiRoutes } from './routes/ai';
import { waitlistRoutes } from './routes/waitlist';
import { AiService } from './ai/service';
import { AiError, type AiProvider } from './ai/types';
import { createLocalProvider } from './ai/local/provider';

export interface Clock {
  now(): number;
}

export interface AppConfig {
  /** Where the built client lives; without it only the API is served. */
  staticDir?: string;
  heartbeatMs?: number;
  /** Feature switches (SPEC §3 feature flags); the user profile is on unless turned off. */
  features?: { userProfile?: boolean };
  demo?: { seed: number; size: string };
}

export interface AppDeps {
  store: Store;
  source: WorkspaceSource;
  clock: Clock;
  hub?: LiveHub;
  logger?: ServerLogger;
  config?: AppConfig;
  /** The AI provider; absent: the local one; null: no AI (the aiEnabled flag is off and AI calls answer 503). */
  ai?: AiProvider | null;
}

export interface AppEnv {
  Variables: { session: Session; tokenHash: string };
}

export type AppContext = Required<Pick<AppDeps, 'store' | 'source' | 'clock' | 'hub' | 'logger'>> & { config: AppConfig; ai: AiService | null };

/** Paths under /api that answer without a token (SPEC §7.1: configuration and status; §7.7: the waitlist, on the sign-in page). */
const PUBLIC_API = new Set(['/api/auth/status', '/api/config/mode', '/api/config/features', '/api/setup/status', '/api/waitlist/signup']);

export function createApp(deps: AppDeps) {
  const hub = deps.hub ?? new LiveHub();
  const logger = deps.logger ?? silentLogger;
  const provider = deps.ai === undefined ? createLocalProvider() : deps.ai;
  const ctx: AppContext = {
    store: deps.store,
    source: deps.source,
    clock: deps.clock,
    hub,
    logger,
    config: deps.config ?? {},
    ai: provider ? new AiService({ store: deps.store, hub, provider, now: () => deps.clock.now(), logger }) : null,
  };
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    const path = c.req.path;
    if (path.startsWith('/api') || path.startsWith('/auth/')) {
      ctx.logger.log('info', 'request', { method: c.req.method, path, status: c.res.status, ms: Math.round(performance.now() - started) });
    }
  });

  app.onError((error, c) => {
    if (error instanceof HttpProblem) return c.json({ error: error.message, ...error.extra }, error.status);
    if (error instanceof MessagingError) return c.json({ error: error.message }, error.status);
    if (error instanceof AiError) {
      if (error.status >= 500) ctx.logger.log('warn', 'AI call failed', { path: c.req.path, status: error.status, error: error.message });
      return c.json({ error: error.message }, error.status);
    }
    ctx.logger.log('error', 'unhandled error', { path: c.req.path, error: String(error), stack: (error as Error).stack });
    return c.json({ error: 'Internal server error' }, 500);
  });

  // Every /api call but the public ones needs a valid session (Bearer, cookie, or the stream's token query).
  app.use('/api/*', async (c, next) => {
    const token = requestToken(c, c.req.path === '/api/sse/stream');
    if (token) {
      const tokenHash = hashToken(token);
      const session = await ctx.store.getSession(tokenHash);
      if (session) {
        c.set('session', session);
        c.set('tokenHash', tokenHash);
      }
    }
    if (!c.get('session') && !PUBLIC_API.has(c.req.path)) return c.json({ error: 'Authentication required' }, 401);
    return next();
  });

  app.route('/', authRoutes(ctx));
  app.route('/', conversationRoutes(ctx));
  app.route('/', liveRoutes(ctx));
  app.route('/', searchRoutes(ctx));
  app.route('/', viewRoutes(ctx));
  app.route('/', aiRoutes(ctx));
  app.route('/', waitlistRoutes(ctx));
  app.all('/api/*', (c) => c.json({ error: `No such endpoint: ${c.req.method} ${c.req.path}` }, 404));
  app.route('/', staticRoutes(ctx));
  return { app, ctx };
}
