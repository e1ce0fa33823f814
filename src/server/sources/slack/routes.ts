/**
 * Slack sign-in over HTTP (SPEC §2.2, §2.3, §7.1): GET /auth/slack sends the browser to
 * Slack's authorize page with a single-use state, bound to this browser by a short-lived
 * cookie; GET /auth/slack/callback verifies it, exchanges the code, and lands on
 * /?auth_success=true&workspace=… as in demo mode (the session only in its HttpOnly cookie), or on /auth?error=…&message=…
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppContext, AppEnv } from '../../context';
import { signedInAddress, startSession } from '../../routes/auth';
import type { OAuthAddTo, Session } from '../../store/types';
import { OAUTH_STATE_TTL_MS, SignInError, type SlackSource } from './source';

export const OAUTH_COOKIE = 'sift_oauth_state';

/** The redirect URI Slack sends the browser back to: SIFT_PUBLIC_URL's origin, else the request's. */
export function redirectUri(source: SlackSource, c: Context): string {
  return `${source.config.publicUrl ?? new URL(c.req.url).origin}/auth/slack/callback`;
}

export function slackAuthRoutes(
  ctx: AppContext,
  source: SlackSource,
  sessionOf: (c: Context<AppEnv>) => Promise<{ session: Session; tokenHash: string } | null>,
) {
  const app = new Hono<AppEnv>();

  app.get('/auth/slack', async (c) => {
    // ?add=true: add a workspace to the signed-in account (bound to this session); otherwise a sign-in of its own.
    let addTo: OAuthAddTo | undefined;
    if (c.req.query('add') === 'true') {
      const current = await sessionOf(c);
      if (!current) return c.redirect(`/auth?${new URLSearchParams({ error: 'not_signed_in', message: 'Sign in first, then add another workspace.' })}`, 302);
      addTo = { accountId: current.session.accountId, sessionHash: current.tokenHash };
    }
    const { url, browserNonce } = await source.beginSignIn(redirectUri(source, c), addTo);
    setCookie(c, OAUTH_COOKIE, browserNonce, { httpOnly: true, sameSite: 'Lax', path: '/auth/slack', maxAge: OAUTH_STATE_TTL_MS / 1000 });
    return c.redirect(url, 302);
  });

  app.get('/auth/slack/callback', async (c) => {
    const browserNonce = getCookie(c, OAUTH_COOKIE);
    deleteCookie(c, OAUTH_COOKIE, { path: '/auth/slack' });
    try {
      const current = await sessionOf(c);
      const signIn = await source.completeSignIn({
        code: c.req.query('code'),
        state: c.req.query('state'),
        error: c.req.query('error'),
        browserNonce,
        redirectUri: redirectUri(source, c),
        sessionHash: current?.tokenHash,
      });
      await startSession(ctx, c, { accountId: signIn.accountId, workspaceId: signIn.workspaceId, userId: signIn.userId });
      if (signIn.firstSignIn) source.syncInBackground(signIn.workspaceId, signIn.userId);
      ctx.logger.log('info', 'signed in', { workspace: signIn.workspaceId, user: signIn.userId, source: 'slack' });
      return c.redirect(signedInAddress(signIn.workspaceId), 302);
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      ctx.logger.log('info', 'Slack sign-in refused', { reason: error.code });
      const query = new URLSearchParams({ error: error.code, message: error.message });
      return c.redirect(`/auth?${query.toString()}`, 302);
    }
  });

  return app;
}
