/** The built client: files from dist/, and index.html for every app route (deep links). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import type { AppContext, AppEnv } from '../context';

export function staticRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const dir = ctx.config.staticDir;
  if (!dir) return app;
  // The service worker (SPEC §7.9, issue 14 §3): revalidated at every check, so a new build's worker takes over at
  // the next load. Not built yet: 404, never the shell's HTML (a script of the wrong type fails its registration anyway).
  app.get('/sw.js', (c) => {
    const file = join(dir, 'sw.js');
    if (!existsSync(file)) return c.text('Not found', 404);
    c.header('Cache-Control', 'no-cache');
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    return c.body(readFileSync(file));
  });
  app.use('/assets/*', serveStatic({ root: dir, onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable') }));
  app.use('*', serveStatic({ root: dir, onFound: (_path, c) => c.header('Cache-Control', 'no-cache') }));
  app.get('*', (c) => {
    const index = join(dir, 'index.html');
    if (!existsSync(index)) return c.text('The client is not built yet: run `npm run build` (npm start does it for you).', 503);
    c.header('Cache-Control', 'no-cache');
    return c.html(readFileSync(index, 'utf8'));
  });
  return app;
}
