/**
 * Session tokens: 32 random bytes, base64url. Only a SHA-256 hash is stored, so the
 * database never holds a usable token. A request presents its token as a Bearer header,
 * the session cookie, or (the live stream only, SPEC §7.3) a `token` query parameter.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { COOKIE_NAMES } from '../model/constants';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,200}$/;

/** How a request presented its token: a cookie is sent by the browser on its own, so it needs the CSRF check. */
export type TokenSource = 'bearer' | 'query' | 'cookie';

/**
 * The token a request carries and where it came from, in the order: Authorization header, query
 * (the live stream only), the session cookie. No other cookie authenticates.
 */
export function presentedToken(c: Context, allowQuery = false): { token: string; via: TokenSource } | null {
  const header = c.req.header('authorization');
  const candidates: Array<[string | undefined, TokenSource]> = [];
  if (header?.toLowerCase().startsWith('bearer ')) candidates.push([header.slice(7).trim(), 'bearer']);
  if (allowQuery) candidates.push([c.req.query('token'), 'query']);
  candidates.push([getCookie(c, COOKIE_NAMES.session), 'cookie']);
  for (const [candidate, via] of candidates) {
    if (candidate && candidate !== 'undefined' && candidate !== 'null' && TOKEN_SHAPE.test(candidate)) return { token: candidate, via };
  }
  return null;
}

/** The token a request carries (see presentedToken). */
export function requestToken(c: Context, allowQuery = false): string | null {
  return presentedToken(c, allowQuery)?.token ?? null;
}
