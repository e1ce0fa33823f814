/** SPEC §7.1: sign-in, sessions, configuration and feature flags. */
import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AuthStatus, FeatureFlag } from '../../model/types';
import { sessionDeps, type AppContext, type AppEnv } from '../context';
import { liveSession, pruneExpiredSessions } from '../sessions';
import { clearSessionCookie, hashToken, newToken, presentedToken, setSessionCookie } from '../auth';
import { HttpProblem, parseBody } from '../http';
import type { Session } from '../store/types';
import { SlackSource } from '../sources/slack/source';
import { slackAuthRoutes } from '../sources/slack/routes';

/** The session of a request outside /api (those routes skip the /api middleware). */
async function sessionOf(ctx: AppContext, c: Context<AppEnv>): Promise<{ session: Session; tokenHash: string } | null> {
  const existing = c.get('session');
  if (existing) return { session: existing, tokenHash: c.get('tokenHash') };
  const token = presentedToken(c, ctx.cookie)?.token;
  if (!token) return null;
  const tokenHash = hashToken(token);
  const session = await liveSession(sessionDeps(ctx), tokenHash);
  return session ? { session, tokenHash } : null;
}

/**
 * A sign-in's new session: a fresh token, only in the HttpOnly cookie (never in a URL or the page's
 * storage). A session the browser held before is ended, so a token planted ahead of sign-in is
 * worth nothing afterwards.
 */
export async function startSession(ctx: AppContext, c: Context<AppEnv>, signIn: Omit<Session, 'createdAt' | 'lastSeenAt'>): Promise<void> {
  const previous = presentedToken(c, ctx.cookie);
  if (previous?.via === 'cookie') {
    const previousHash = hashToken(previous.token);
    await ctx.store.deleteSession(previousHash);
    ctx.hub.endSessions([previousHash]);
  }
  const token = newToken();
  await pruneExpiredSessions(sessionDeps(ctx));
  await ctx.store.createSession(hashToken(token), { ...signIn, createdAt: ctx.clock.now() });
  const limits = sessionDeps(ctx).limits;
  setSessionCookie(c, ctx.cookie, token, Math.floor(limits.maxAgeMs / 1000));
}

/** Where a completed sign-in lands (SPEC §2.3, without the token: the cookie carries it). */
export function signedInAddress(workspaceId: string): string {
  return `/?${new URLSearchParams({ auth_success: 'true', workspace: workspaceId }).toString()}`;
}

export function featureFlags(ctx: AppContext): Record<string, FeatureFlag> {
  return {
    aiEnabled: ctx.ai
      ? {
          enabled: true,
          state: ctx.ai.provider.kind,
          config: { provider: ctx.ai.provider.kind, model: ctx.ai.provider.model, transcription: ctx.ai.provider.canTranscribe },
        }
      : { enabled: false, state: 'unavailable', config: {} },
    userProfile: ctx.config.features?.userProfile === false ? { enabled: false, state: 'off', config: {} } : { enabled: true, state: 'on', config: {} },
    demoMode: { enabled: ctx.source.mode === 'demo', state: ctx.source.mode, config: {} },
  };
}

export function authRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  // Slack mode: OAuth v2 sign-in (GET /auth/slack and its callback); the demo sign-in below is then never reached.
  if (ctx.source instanceof SlackSource)
    app.route(
      '/',
      slackAuthRoutes(ctx, ctx.source, (c) => sessionOf(ctx, c)),
    );

  app.get('/auth/slack', async (c) => {
    if (!ctx.source.demoSignIn) throw new HttpProblem(501, 'Slack sign-in is not configured on this server');
    const as = c.req.query('as');
    if (as !== undefined && !/^[A-Z0-9]{2,20}$/.test(as)) throw new HttpProblem(400, 'as must be a user id');
    const signIn = await ctx.source.demoSignIn(ctx.store, as);
    if (!signIn) throw new HttpProblem(400, `No demo member with id ${as}`);
    await startSession(ctx, c, signIn);
    ctx.logger.log('info', 'signed in', { workspace: signIn.workspaceId, user: signIn.userId });
    return c.redirect(signedInAddress(signIn.workspaceId), 302);
  });

  app.post('/auth/logout', async (c) => {
    const found = await sessionOf(ctx, c);
    if (found) {
      await ctx.store.deleteSession(found.tokenHash);
      // Its open streams close now, not at their next heartbeat.
      ctx.hub.endSessions([found.tokenHash]);
    }
    clearSessionCookie(c, ctx.cookie);
    return c.json({ success: true });
  });

  app.post('/auth/switch-workspace', async (c) => {
    const found = await sessionOf(ctx, c);
    if (!found) return c.json({ error: 'Authentication required' }, 401);
    const { workspaceId } = await parseBody(c, z.object({ workspaceId: z.string().min(1) }));
    const membership = (await ctx.store.memberships(found.session.accountId)).find((m) => m.workspace.id === workspaceId);
    if (!membership) throw new HttpProblem(404, 'You are not a member of that workspace');
    await ctx.store.switchSessionWorkspace(found.tokenHash, workspaceId, membership.userId);
    return c.json({ success: true, workspace: membership.workspace });
  });

  app.get('/api/auth/status', async (c) => {
    const session = c.get('session');
    if (!session) {
      const body: AuthStatus = { authenticated: false, user: null, workspace: null, organizations: [] };
      return c.json(body);
    }
    const [user, workspace, memberships] = await Promise.all([
      ctx.store.getUser(session.workspaceId, session.userId),
      ctx.store.getWorkspace(session.workspaceId),
      ctx.store.memberships(session.accountId),
    ]);
    const body: AuthStatus = {
      authenticated: true,
      user,
      workspace,
      team: workspace,
      organizations: memberships.map((m) => m.workspace),
    };
    return c.json(body);
  });

  app.post('/api/auth/revoke', async (c) => {
    const session = c.get('session');
    // Slack mode: the member's Slack token is revoked too (auth.revoke), and forgotten.
    if (ctx.source instanceof SlackSource) await ctx.source.revoke(session.workspaceId, session.userId);
    // Revoking ends every session of the member, on every device, and closes their streams.
    const ended = await ctx.store.deleteSessionsOf(session.workspaceId, session.userId);
    await ctx.store.deleteSession(c.get('tokenHash'));
    ctx.hub.endSessions([...ended, c.get('tokenHash')]);
    clearSessionCookie(c, ctx.cookie);
    return c.json({ success: true, revoked: true });
  });

  app.get('/api/config/mode', (c) =>
    c.json({ centralized: false, hasCredentials: ctx.source.mode === 'slack', mode: 'workspace-specific', source: ctx.source.mode }),
  );

  app.get('/api/config/features', (c) => {
    const flags = featureFlags(ctx);
    return c.json(Object.fromEntries(Object.entries(flags).map(([name, flag]) => [name, flag.enabled])));
  });

  app.get('/api/features/flags', (c) => c.json({ success: true, flags: featureFlags(ctx) }));

  app.get('/api/setup/status', (c) =>
    c.json({
      configured: true,
      mode: ctx.source.mode,
      slack:
        ctx.source instanceof SlackSource
          ? { configured: true, liveEvents: ctx.source.config.appToken ? 'socket-mode' : 'polling', scopes: ctx.source.config.scopes }
          : { configured: false },
      demo: ctx.source.mode === 'demo' ? (ctx.config.demo ?? null) : null,
    }),
  );

  app.get('/api/workspaces/installations', async (c) => {
    const memberships = await ctx.store.memberships(c.get('session').accountId);
    return c.json({
      success: true,
      installations: memberships.map((m) => ({ workspace: m.workspace, user_id: m.userId, source: ctx.source.mode })),
    });
  });

  return app;
}
