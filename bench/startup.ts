/**
 * Start-up in Chromium at the large demo size (issue 14 §4): a cold start (a fresh browser profile,
 * sign-in → first rows → the whole list), a warm start (the same profile, a new page, nothing
 * changed) and a start after 100 changes made while Sift was closed. Reports, for each, the time to
 * the first rows and to the whole list (the list pane's data-load="loaded"), and the bytes of API
 * answers downloaded (the live stream included), counted by a proxy in front of the server so the
 * worker's requests count too; the ratios warm/cold are measured in one run. Also the page's and
 * the worker's JS heaps with the list loaded (over the DevTools protocol).
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { api, signIn as apiSignIn } from '../tests/server/helpers';
import { launchBrowser } from '../tests/e2e/harness';
import { instrument, startLargeServer } from './browser';
import type { ConversationSummary } from '../src/model/types';

/** How long a page stays open after its list loaded: long enough for the engine to save its local copy. */
const SETTLE_MS = 5_000;

export interface StartPhase {
  firstRowsMs: number;
  loadedMs: number;
  apiBytes: number;
  /** The largest worker→page message of the start (budget: 100 KiB, ever). */
  largestMessageBytes: number;
}

export interface StartupBench {
  conversations: number;
  /** Cold: from the navigation (the sign-in page, then the click on sign-in and the inbox). */
  cold: StartPhase & { signInToFirstRowsMs: number };
  warm: StartPhase;
  afterChanges: StartPhase;
  /** Warm over cold, in one run: the budgets are ≤ 0.10 (first rows) and ≤ 0.02 (bytes). */
  ratios: { warmFirstRows: number; warmFirstRowsOfColdWhole: number; warmBytes: number; changesBytes: number };
  heapMB: { page: number | null; worker: number | null };
}

/** A proxy that counts the bytes of every API answer (its body as sent, the stream's as it flows). */
async function countingProxy(target: string): Promise<{ url: string; bytes: () => number; reset: () => void; close: () => Promise<void> }> {
  const upstream = new URL(target);
  let bytes = 0;
  const server: Server = createServer((req, res) => {
    const forward = request({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      const counted = req.url?.startsWith('/api/') ?? false;
      answer.on('data', (chunk: Buffer) => {
        if (counted) bytes += chunk.length;
        res.write(chunk);
      });
      answer.on('end', () => res.end());
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
    res.on('close', () => forward.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: () => bytes,
    reset: () => (bytes = 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Installed before any page script: the moments (epoch ms, the same clock as the bench's) the first row entered
 * the DOM and the list pane said it was loaded, seen by a MutationObserver in the page itself. Waiting for them
 * from the bench adds its polling over the DevTools protocol (~100–200 ms here) to every figure.
 */
function markMoments() {
  const w = window as unknown as { __firstRowsAt?: number; __loadedAt?: number };
  new MutationObserver((_mutations, observer) => {
    w.__firstRowsAt ??= document.querySelector('[role="option"]') ? Date.now() : undefined;
    w.__loadedAt ??= document.querySelector('.list-pane[data-load="loaded"]') ? Date.now() : undefined;
    if (w.__firstRowsAt && w.__loadedAt) observer.disconnect();
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-load'] });
}

/** From `started`: the first rows, then the whole list loaded; a second's settling counts its bytes too. */
async function measure(page: Page, started: number, bytes: () => number): Promise<StartPhase> {
  await page.getByRole('option').first().waitFor({ timeout: 120_000 });
  await page.locator('.list-pane[data-load="loaded"]').waitFor({ timeout: 180_000 });
  const moments = await page.evaluate(() => {
    const w = window as unknown as { __firstRowsAt: number; __loadedAt: number };
    return { firstRows: w.__firstRowsAt, loaded: w.__loadedAt };
  });
  const firstRowsMs = moments.firstRows - started;
  const loadedMs = moments.loaded - started;
  await page.waitForTimeout(1_000);
  const largestMessageBytes = await page.evaluate(() => (window as unknown as { __bench: Record<string, { bytes: number }> }).__bench.load?.bytes ?? 0);
  return { firstRowsMs, loadedMs, apiBytes: bytes(), largestMessageBytes };
}

/** The JS heap of the page and of its dedicated worker, in MB, over the DevTools protocol. */
async function heaps(browser: Browser, page: Page): Promise<{ page: number | null; worker: number | null }> {
  const mb = (n: number) => Math.round(n / 1e5) / 10;
  const pageSession = await page.context().newCDPSession(page);
  const pageHeap = (await pageSession.send('Runtime.getHeapUsage')) as { usedSize: number };
  // The worker is a target of its own: attach (not flattened) and ask it through the browser session.
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string }> };
  const target = targetInfos.find((t) => t.type === 'worker');
  let worker: number | null = null;
  if (target) {
    const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
    worker = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), 5_000);
      cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
        const answer = JSON.parse(event.message) as { id?: number; result?: { usedSize: number } };
        if (event.sessionId !== sessionId || answer.id !== 1) return;
        clearTimeout(timer);
        resolve(answer.result ? mb(answer.result.usedSize) : null);
      });
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method: 'Runtime.getHeapUsage' }) });
    });
  }
  await cdp.detach();
  return { page: mb(pageHeap.usedSize), worker };
}

export async function benchStartup(): Promise<StartupBench> {
  const server = await startLargeServer();
  const proxy = await countingProxy(server.url);
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(() => localStorage.setItem('sift_sort_mode:inbox', 'time'));
    // tsx compiles with esbuild's keepNames: functions sent to the page call its __name helper.
    await context.addInitScript('window.__name = (fn) => fn;');
    await context.addInitScript(instrument);
    await context.addInitScript(markMoments);

    // Cold: a fresh profile opens Sift, is sent to sign-in, signs in and lands on the inbox.
    let page = await context.newPage();
    proxy.reset();
    let started = Date.now();
    await page.goto(`${proxy.url}/inbox`);
    await page.waitForURL('**/auth');
    const signingIn = Date.now();
    await page.getByRole('button', { name: 'Connect to Slack' }).click();
    const coldPhase = await measure(page, started, proxy.bytes);
    const cold = { ...coldPhase, signInToFirstRowsMs: coldPhase.firstRowsMs - (signingIn - started) };
    // The member reads for a moment: the engine saves its copy (a second after the last change, then the write).
    await page.waitForTimeout(SETTLE_MS);
    await page.close();

    // Warm: the same profile opens Sift again; nothing changed meanwhile.
    page = await context.newPage();
    proxy.reset();
    started = Date.now();
    await page.goto(`${proxy.url}/inbox`);
    const warm = await measure(page, started, proxy.bytes);
    const heapMB = await heaps(browser, page);
    await page.waitForTimeout(SETTLE_MS);
    await page.close();

    // 100 changes while closed: replies posted from another session of the member.
    const { token } = await apiSignIn(server.url);
    const call = api(server.url, token);
    const conversations = (await call<{ total: number }>('/api/conversations/data?limit=1')).body.total;
    const list = (await call<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data?limit=100')).body.data.conversations;
    for (let i = 0; i < 100; i++) {
      const c = list[i % list.length]!;
      await call('/api/messages/send', { method: 'POST', body: { channel: c.id, text: `bench change ${i}`, client_msg_id: crypto.randomUUID() } });
    }
    page = await context.newPage();
    proxy.reset();
    started = Date.now();
    await page.goto(`${proxy.url}/inbox`);
    const afterChanges = await measure(page, started, proxy.bytes);
    await page.close();

    const ratio = (a: number, b: number) => Math.round((a / Math.max(1, b)) * 1000) / 1000;
    return {
      conversations,
      cold,
      warm,
      afterChanges,
      ratios: {
        warmFirstRows: ratio(warm.firstRowsMs, cold.firstRowsMs),
        warmFirstRowsOfColdWhole: ratio(warm.firstRowsMs, cold.loadedMs),
        warmBytes: ratio(warm.apiBytes, cold.apiBytes),
        changesBytes: ratio(afterChanges.apiBytes, cold.apiBytes),
      },
      heapMB,
    };
  } finally {
    await browser.close();
    await proxy.close();
    await server.stop();
  }
}

if (import.meta.filename === process.argv[1]) console.log(JSON.stringify(await benchStartup(), null, 2));
