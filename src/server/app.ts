/**
 * createApp(deps): the reference server as a Hono app. Everything it talks to (store,
 * workspace source, clock, hub, logger) is injected; main.ts wires the real ones, tests
 * build it over an in-memory database.
 */
import { Hono, type Context, type Next } from 'hono';
import { sessionDeps, type AppContext, type AppDeps, type AppEnv } from './context';
import { LiveHub } from './live/hub';
import { silentLogger } from './log';
import { hashToken, presentedToken, sessionCookieFor, tokenShaped } from './auth';
import { apiBodyLimit, changesState, fromOwnPage, jsonOnly, securityHeaders } from './requestSafety';
import { liveSession } from './sessions';
import { rateLimits } from './rateLimits';
import { authRoutes } from './routes/auth';
import { conversationRoutes } from './routes/conversations';
import { liveRoutes } from './routes/live';
import { searchRoutes } from './routes/search';
import { staticRoutes } from './routes/static';
import { viewRoutes } from './routes/views';
import { aiRoutes } from './routes/ai';
import { waitlistRoutes } from './routes/waitlist';
import { CSP_REPORT_PATH, cspReportRoutes } from './routes/cspReport';
import { AiService } from './ai/service';
import { createLocalProvider } from './ai/local/provider';
import { errorResponse } from './errors';

export type { AppConfig, AppContext, AppDeps, AppEnv, Clock } from './context';

/** Paths under /api that answer without a token (SPEC §7.1: configuration and status; §7.7: the waitlist, on the sign-in page). */
const PUBLIC_API = new Set(['/api/auth/status', '/api/config/mode', '/api/config/features', '/api/setup/status', '/api/waitlist/signup', CSP_REPORT_PATH]);

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
    cookie: sessionCookieFor(deps.config?.publicUrl),
    ai: provider
      ? new AiService({
          store: deps.store,
          hub,
          provider,
          now: () => deps.clock.now(),
          logger,
          models: deps.config?.aiModels,
          dailyTokens: deps.config?.aiDailyTokens,
        })
      : null,
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

  app.use('*', securityHeaders({ https: deps.config?.publicUrl?.startsWith('https://') ?? false }));
  // Rate limits (issue 12 §2): per address here (sign-in, waitlist), per member once the session is known.
  const limits = rateLimits(deps.config?.rateLimits);
  app.use('*', limits.byAddress);
  app.use('/api/*', apiBodyLimit);
  app.use('/api/*', jsonOnly);
  // A change made with the session cookie must come from Sift's own page (issue 12 §2); Bearer clients are exempt.
  const csrf = async (c: Context<AppEnv>, next: Next) => {
    if (changesState(c) && presentedToken(c, ctx.cookie)?.via === 'cookie' && !fromOwnPage(c, deps.config?.publicUrl)) {
      return c.json({ error: 'This request did not come from Sift and was refused' }, 403);
    }
    return next();
  };
  app.use('/api/*', csrf);
  app.use('/auth/*', csrf);

  // Every error becomes an answer here, and only here (errors.ts).
  app.onError((error, c) => errorResponse(error, c, ctx.logger));

  /** The hash of the session token a request presents; a stream URL's `token` is a ticket, used up here. */
  async function presentedTokenHash(c: Context<AppEnv>): Promise<string | null> {
    if (c.req.path === '/api/sse/stream' && c.req.query('token') !== undefined) {
      const ticket = c.req.query('token');
      return tokenShaped(ticket) ? ctx.store.takeStreamTicket(hashToken(ticket), ctx.clock.now()) : null;
    }
    const token = presentedToken(c, ctx.cookie)?.token;
    return token ? hashToken(token) : null;
  }

  // Every /api call but the public ones needs a valid session: Bearer or the session cookie, or for the
  // live stream a single-use ticket in its `token` query (never a session token: routes/live.ts).
  app.use('/api/*', async (c, next) => {
    const tokenHash = await presentedTokenHash(c);
    if (tokenHash) {
      const session = await liveSession(sessionDeps(ctx), tokenHash);
      if (session) {
        c.set('session', session);
        c.set('tokenHash', tokenHash);
        // A member's data is never kept by a cache (a route with its own rule, the live stream, replaces it).
        c.header('Cache-Control', 'no-store');
      }
    }
    if (!c.get('session') && !PUBLIC_API.has(c.req.path)) return c.json({ error: 'Authentication required' }, 401);
    return next();
  });

  app.use('/api/*', limits.byMember);

  app.route('/', authRoutes(ctx));
  app.route('/', conversationRoutes(ctx));
  app.route('/', liveRoutes(ctx));
  app.route('/', searchRoutes(ctx));
  app.route('/', viewRoutes(ctx));
  app.route('/', aiRoutes(ctx));
  app.route('/', waitlistRoutes(ctx));
  app.route('/', cspReportRoutes(ctx));
  app.all('/api/*', (c) => c.json({ error: `No such endpoint: ${c.req.method} ${c.req.path}` }, 404));
  app.route('/', staticRoutes(ctx));
  return { app, ctx };
}
