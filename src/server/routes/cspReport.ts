/**
 * Content-Security-Policy violation reports (the policy's `report-uri`): the browser posts one
 * when it refuses something (an injected inline script, an eval, a request to another origin), in
 * the page or in the engine's worker. Each is logged as a warning, so an operator sees an attack,
 * or a part of Sift that breaks its own policy, in the server's log. Unauthenticated (browsers
 * send reports without credentials), small (16 KB), and at most 60 logged a minute.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppContext, AppEnv } from '../context';

export const CSP_REPORT_PATH = '/api/csp-report';
const MAX_REPORT_BYTES = 16 * 1024;
const LOGGED_PER_MINUTE = 60;

/** The fields worth logging, from the legacy `application/csp-report` body or a Reporting API list. */
function violations(body: unknown): Array<Record<string, string>> {
  const pick = (r: Record<string, unknown>) => {
    const out: Record<string, string> = {};
    for (const [from, to] of [
      ['violated-directive', 'directive'],
      ['effective-directive', 'directive'],
      ['effectiveDirective', 'directive'],
      ['blocked-uri', 'blocked'],
      ['blockedURL', 'blocked'],
      ['document-uri', 'page'],
      ['documentURL', 'page'],
      ['source-file', 'source'],
      ['sourceFile', 'source'],
      ['line-number', 'line'],
      ['lineNumber', 'line'],
    ] as const) {
      const v = r[from];
      if ((typeof v === 'string' || typeof v === 'number') && out[to] === undefined) out[to] = String(v).slice(0, 300);
    }
    return out;
  };
  if (Array.isArray(body))
    return body
      .slice(0, 10)
      .flatMap((r) => (r && typeof r === 'object' && 'body' in r && r.body && typeof r.body === 'object' ? [pick(r.body as Record<string, unknown>)] : []));
  if (body && typeof body === 'object' && 'csp-report' in body) {
    const report = (body as { 'csp-report': unknown })['csp-report'];
    if (report && typeof report === 'object') return [pick(report as Record<string, unknown>)];
  }
  return [];
}

export function cspReportRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  let windowStart = 0;
  let logged = 0;
  app.post(CSP_REPORT_PATH, bodyLimit({ maxSize: MAX_REPORT_BYTES, onError: (c) => c.body(null, 413) }), async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return c.body(null, 400);
    }
    const now = ctx.clock.now();
    if (now - windowStart >= 60_000) {
      windowStart = now;
      logged = 0;
    }
    for (const violation of violations(body)) {
      if (logged++ >= LOGGED_PER_MINUTE) break;
      ctx.logger.log('warn', 'content security policy violation', violation);
    }
    return c.body(null, 204);
  });
  return app;
}
