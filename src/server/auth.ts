/**
 * Session tokens: 32 random bytes, base64url. Only a SHA-256 hash is stored, so the
 * database never holds a usable token. A browser presents its token only in the HttpOnly
 * session cookie (`__Host-sift_token`, Secure, when Sift is served over https); a
 * non-browser client sends it as a Bearer header. No token is ever read from a URL: the
 * live stream's `token` query carries a short single-use ticket (routes/live.ts), never a
 * session token (issue 12 §1).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,200}$/;

/** Whether a presented value has a token's shape (the literal "undefined" and "null" do not). */
export function tokenShaped(value: string | undefined | null): value is string {
  return typeof value === 'string' && TOKEN_SHAPE.test(value) && value !== 'undefined' && value !== 'null';
}

/** The session cookie of a server: its name and whether it is Secure (served over https). */
export interface SessionCookie {
  name: string;
  secure: boolean;
}

/** `__Host-` prefixed and Secure over https (the browser then refuses it from http or a subdomain); plain on http. */
export function sessionCookieFor(publicUrl: string | undefined): SessionCookie {
  const secure = publicUrl?.startsWith('https://') ?? false;
  return { name: secure ? '__Host-sift_token' : 'sift_token', secure };
}

export function setSessionCookie(c: Context, cookie: SessionCookie, token: string, maxAgeSeconds: number): void {
  setCookie(c, cookie.name, token, { httpOnly: true, secure: cookie.secure, sameSite: 'Lax', path: '/', maxAge: maxAgeSeconds });
}

export function clearSessionCookie(c: Context, cookie: SessionCookie): void {
  deleteCookie(c, cookie.name, { path: '/', secure: cookie.secure });
}

/** How a request presented its token: a cookie is sent by the browser on its own, so it needs the CSRF check. */
export type TokenSource = 'bearer' | 'cookie';

/** The token a request carries and where it came from: the Authorization header, else the session cookie. */
export function presentedToken(c: Context, cookie: SessionCookie): { token: string; via: TokenSource } | null {
  const header = c.req.header('authorization');
  if (header?.toLowerCase().startsWith('bearer ')) {
    const bearer = header.slice(7).trim();
    if (tokenShaped(bearer)) return { token: bearer, via: 'bearer' };
  }
  const fromCookie = getCookie(c, cookie.name);
  return tokenShaped(fromCookie) ? { token: fromCookie, via: 'cookie' } : null;
}
