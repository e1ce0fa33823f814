/**
 * /sw.js over real HTTP (SPEC §7.9, issue 14 §3): the service worker is served as JavaScript that is
 * revalidated at every check (so a new build takes over at the next load), under the policy that lets
 * Sift's own origin register it; an unbuilt one is a 404, never the shell's HTML under a script's name.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

const SHELL = '<!doctype html><html><head><title>Sift</title></head><body><div id="root"></div></body></html>';
const WORKER = "self.addEventListener('fetch', () => {});\n";

let server: TestServer | undefined;
let dir: string | undefined;

async function serve(files: Record<string, string>): Promise<string> {
  dir = mkdtempSync(join(tmpdir(), 'sift-sw-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  server = await startTestServer({ staticDir: dir });
  return server.url;
}

afterEach(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  server = undefined;
  dir = undefined;
});

describe('/sw.js', () => {
  it('is served as JavaScript with no-cache, under a policy whose worker-src and script-src are self', async () => {
    const url = await serve({ 'index.html': SHELL, 'sw.js': WORKER });
    const res = await fetch(`${url}/sw.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(WORKER);
  });

  it('is a 404 while the client has no service worker, not the shell served under its name', async () => {
    const url = await serve({ 'index.html': SHELL });
    const res = await fetch(`${url}/sw.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).not.toContain('text/html');
    expect(await res.text()).not.toContain('<div id="root">');
    // The app routes still get the shell.
    const inbox = await fetch(`${url}/inbox`);
    expect(inbox.status).toBe(200);
    expect(await inbox.text()).toBe(SHELL);
  });
});
