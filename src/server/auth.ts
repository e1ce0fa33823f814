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

/** The token a request carries, in the order: Authorization header, session cookie, query (when allowed). */
export function requestToken(c: Context, allowQuery = false): string | null {
  const header = c.req.header('authorization');
  const candidates: Array<string | undefined> = [];
  if (header?.toLowerCase().startsWith('bearer ')) candidates.push(header.slice(7).trim());
  if (allowQuery) candidates.push(c.req.query('token'));
  candidates.push(getCookie(c, COOKIE_NAMES.stream), getCookie(c, COOKIE_NAMES.session));
  for (const candidate of candidates) {
    if (candidate && candidate !== 'undefined' && candidate !== 'null' && TOKEN_SHAPE.test(candidate)) return candidate;
  }
  return null;
}
