/**
 * What every request and answer goes through before a route sees it (issue 12 §2):
 * - security headers on every answer (a Content-Security-Policy, nosniff, no framing, no referrer,
 *   same-origin opener and resource policies); authenticated API answers get `Cache-Control: no-store` where the session
 *   is read (app.ts);
 * - a body limit on every API route (the transcription upload has its own, larger one);
 * - JSON routes take JSON only: a body of any other type answers 415;
 * - cross-site request forgery: a state-changing request authenticated by the session cookie
 *   must show it comes from Sift's own page (`Sec-Fetch-Site: same-origin`, or an `Origin` equal to
 *   Sift's); one that shows neither is refused, fail closed. Bearer-token clients send no cookie
 *   and are exempt. The GETs with side effects (`/api/conversations/fetch`, `/fetch-all`) count as
 *   state-changing, so a link or an image on another site starts nothing.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';

/** The largest JSON body a route reads: room for a 40,000-character message in any script, escaped. */
export const MAX_JSON_BODY_BYTES = 512 * 1024;

/** Routes that read their own body (multipart audio, the browser's violation reports) and carry their own limit. */
const OWN_BODY_LIMIT = new Set(['/api/features/voice-catchup/transcribe', '/api/csp-report']);

/** GETs that change something (SPEC §7: a full or incremental fetch from the workspace). */
const GET_WITH_EFFECTS = new Set(['/api/conversations/fetch', '/api/conversations/fetch-all']);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request changes something. */
export function changesState(c: Context): boolean {
  return !SAFE_METHODS.has(c.req.method) || GET_WITH_EFFECTS.has(c.req.path);
}

/**
 * The Content-Security-Policy of every answer: scripts, styles, the engine's worker and every
 * request come from Sift's own origin only (no inline script, no eval: the filter compiler
 * generates no code); images may come from the workspace's file and avatar hosts (https), data:
 * and blob:; nothing may frame Sift, and no <base> or plugin can change where things load from.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  mediaSrc: ["'self'", 'blob:', 'https:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  frameSrc: ["'none'"],
  baseUri: ["'none'"],
  objectSrc: ["'none'"],
  // Where the browser reports what it refused (routes/cspReport.ts logs it).
  reportUri: ['/api/csp-report'],
};

/** Security headers on every answer; HSTS only when Sift is served over https. */
export function securityHeaders(options: { https: boolean }): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    xFrameOptions: 'DENY',
    referrerPolicy: 'no-referrer',
    strictTransportSecurity: options.https ? 'max-age=31536000; includeSubDomains' : false,
  });
}

const jsonBodyLimit = bodyLimit({
  maxSize: MAX_JSON_BODY_BYTES,
  onError: (c) => c.json({ error: `The request body is larger than ${MAX_JSON_BODY_BYTES / 1024} KB` }, 413),
});

/** The body limit of every API route but the ones that read their own body. */
export const apiBodyLimit: MiddlewareHandler = (c, next) => (OWN_BODY_LIMIT.has(c.req.path) ? next() : jsonBodyLimit(c, next));

/** A body that is not JSON, on a route that reads JSON: 415. */
export const jsonOnly: MiddlewareHandler = async (c, next) => {
  if (OWN_BODY_LIMIT.has(c.req.path) || SAFE_METHODS.has(c.req.method)) return next();
  const length = Number(c.req.header('content-length') ?? '0');
  const hasBody = length > 0 || c.req.header('transfer-encoding') !== undefined;
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (hasBody && type !== 'application/json') return c.json({ error: 'Content-Type must be application/json' }, 415);
  return next();
};

/** Sift's own origin: the configured public URL's, else the request's own. */
function ownOrigin(c: Context, publicUrl: string | undefined): string {
  return new URL(publicUrl ?? c.req.url).origin;
}

/**
 * Whether a request comes from Sift's own page: the browser says same-origin, or its Origin is
 * Sift's. Browsers send at least one of them on every cross-site state-changing request.
 */
export function fromOwnPage(c: Context, publicUrl: string | undefined): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = c.req.header('origin');
  return origin !== undefined && origin === ownOrigin(c, publicUrl);
}
