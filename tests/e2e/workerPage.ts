/**
 * Runs a module in a dedicated Worker of a real Chromium page, for browser-only storage (IndexedDB, OPFS,
 * Web Locks, BroadcastChannel): the entry is bundled with esbuild into a temporary folder and served, with
 * a blank page, from a tiny HTTP server on 127.0.0.1 (a secure context; cross-origin isolated, as SQLite's
 * OPFS VFS needs). The entry calls `serveOps` (tests/e2e/workerRpc.ts); `call(page, worker, op, args)`
 * runs an op in the page's worker of that name, started at its first call. Used by the local copy's
 * Chromium test and its bench.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { build } from 'esbuild';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, removeDir } from './harness';
import { ensureChromium } from '../../scripts/chromium';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

const PAGE = `<!doctype html><meta charset="utf-8"><title>worker</title><script type="module">
const workers = new Map();
const pending = new Map();
let next = 0;
function worker(name) {
  let w = workers.get(name);
  if (w) return w;
  w = new Worker('/worker.js', { type: 'module', name });
  w.onmessage = (event) => {
    const p = pending.get(event.data.id);
    pending.delete(event.data.id);
    if ('error' in event.data) p.reject(new Error(event.data.error));
    else p.resolve(event.data.result);
  };
  w.onerror = (event) => { for (const p of pending.values()) p.reject(new Error(event.message)); pending.clear(); };
  workers.set(name, w);
  return w;
}
window.callWorker = (name, op, args) => new Promise((resolve, reject) => {
  const id = next++;
  pending.set(id, { resolve, reject });
  worker(name).postMessage({ id, op, args });
});
window.stopWorker = (name) => { workers.get(name)?.terminate(); workers.delete(name); };
</script>`;

export interface WorkerPages {
  url: string;
  browser: Browser;
  /** One browser profile: its pages share storage, as a person's tabs do. */
  context: BrowserContext;
  /** A new tab on the blank page. */
  newPage(): Promise<Page>;
  /** Bytes of the bundled worker. */
  bundleBytes: number;
  close(): Promise<void>;
}

/** Runs `op` of the worker named `worker` in `page` (the worker starts at its first call). */
export async function call<T = unknown>(page: Page, worker: string, op: string, args: unknown = null): Promise<T> {
  try {
    return (await page.evaluate(
      ([w, o, a]) => (window as unknown as { callWorker: (w: string, o: string, a: unknown) => Promise<unknown> }).callWorker(w, o, a),
      [worker, op, args] as const,
    )) as T;
  } catch (error) {
    // Without the page's stack, whose frames are URLs of the tiny server (Vitest would try to read them as files).
    const message = (error as Error).message.split('\n').filter((line) => !/^\s+at /.test(line));
    const plain = new Error(`${op} in worker '${worker}': ${message.join('\n')}`);
    plain.stack = plain.message;
    throw plain;
  }
}

/** Terminates a page's worker: its locks are released and its connections closed, as when a tab closes. */
export async function stopWorker(page: Page, worker: string): Promise<void> {
  await page.evaluate((w) => (window as unknown as { stopWorker: (w: string) => void }).stopWorker(w), worker);
}

/** Bundles `entry`, serves it (and `mounts`: URL prefix → folder) and launches Chromium. */
export async function startWorkerPages(entry: string, options: { mounts?: Record<string, string> } = {}): Promise<WorkerPages> {
  ensureChromium();
  const dir = mkdtempSync(join(tmpdir(), 'sift-worker-page-'));
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    outfile: join(dir, 'worker.js'),
    logLevel: 'error',
  });
  const bundleBytes = readFileSync(join(dir, 'worker.js')).length;
  const roots: Array<[string, string]> = [...Object.entries(options.mounts ?? {}), ['/', dir]];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp', 'Cache-Control': 'no-store' };
    if (path === '/') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html' }).end(PAGE);
      return;
    }
    const [prefix, root] = roots.find(([p]) => path.startsWith(p))!;
    const file = normalize(join(root, path.slice(prefix.length)));
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404, headers).end();
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const browser = await launchBrowser();
  const context = await browser.newContext();
  return {
    url,
    browser,
    context,
    bundleBytes,
    async newPage() {
      const page = await context.newPage();
      // tsx compiles with esbuild's keepNames: functions sent to the page call its __name helper.
      await page.addInitScript('window.__name = (fn) => fn;');
      await page.goto(url);
      await page.waitForFunction(() => 'callWorker' in window);
      return page;
    },
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      removeDir(dir);
    },
  };
}
