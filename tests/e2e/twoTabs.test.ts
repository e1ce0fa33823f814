/**
 * Two open tabs of one member share one local copy (issue 14 §2, §5), in Chromium against the real server:
 * the second tab paints from the copy the first one saved; a change made elsewhere reaches both tabs; the
 * first tab writes the copy (the Web Lock), the second follows; when the first closes, the second takes over
 * writing, and the copy keeps up with the server's sequence and holds the latest change, whole and readable.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../src/model/types';
import { buildClientIfNeeded } from '../../scripts/start';
import { ensureChromium } from '../../scripts/chromium';
import { api, signIn as apiSignIn } from '../server/helpers';
import { launchBrowser, removeDir, signIn, startServer, type RunningServer } from './harness';

const COPY = 'sift-copy:T0ACMEC01:U0SIFTME1';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  ensureChromium();
  buildClientIfNeeded();
  server = await startServer();
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => localStorage.setItem('sift_sort_mode:conversations', 'time'));
  call = api(server.url, (await apiSignIn(server.url)).token);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) removeDir(server.dataDir);
});

/** The copy as a tab's IndexedDB holds it: its sequence, and the latest message of each conversation of its head. */
function copyOf(page: Page) {
  return page.evaluate(
    (name) =>
      new Promise<{ sequence: number; head: Record<string, string> } | null>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains('meta')) return resolve(null);
          const tx = db.transaction(['meta', 'head'], 'readonly');
          const meta = tx.objectStore('meta').get('meta');
          const head = tx.objectStore('head').get('head');
          tx.oncomplete = () => {
            db.close();
            const conversations = (head.result?.conversations ?? []) as ConversationSummary[];
            resolve(
              meta.result ? { sequence: meta.result.sequence, head: Object.fromEntries(conversations.map((c) => [c.id, c.latest_message?.text ?? ''])) } : null,
            );
          };
        };
      }),
    COPY,
  );
}

/** The copy's Web Lock as the browser reports it: held by the writer tab, pending for the tabs that follow. */
function locks(page: Page) {
  return page.evaluate(async (name) => {
    const state = await navigator.locks.query();
    return { held: (state.held ?? []).filter((l) => l.name === name).length, pending: (state.pending ?? []).filter((l) => l.name === name).length };
  }, COPY);
}

const currentSequence = async () => (await call<{ currentSequence: number }>('/api/sse/stats')).body.currentSequence;

async function post(text: string): Promise<ConversationSummary> {
  const [target] = (await call<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data?order=activity&type=channel&limit=1')).body.data
    .conversations;
  const sent = await call('/api/messages/send', { method: 'POST', body: { channel: target!.id, text, client_msg_id: crypto.randomUUID() } });
  expect(sent.status).toBe(200);
  return target!;
}

async function open(): Promise<{ page: Page; snapshots: () => number }> {
  const page = await context.newPage();
  let snapshots = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/conversations/data') snapshots += 1;
  });
  await page.goto(`${server.url}/conversations`);
  await page.locator('.list-pane[data-load="loaded"]').waitFor();
  return { page, snapshots: () => snapshots };
}

describe('two tabs of one member', () => {
  it('share one copy: one writes, the other follows and takes over when the writer closes', async () => {
    const first = await context.newPage();
    await signIn(first, server.url);
    // Every conversation, newest first (the member's own message leaves the inbox's unread).
    await first.goto(`${server.url}/conversations`);
    await first.locator('.list-pane[data-load="loaded"]').waitFor();
    await expect.poll(async () => (await copyOf(first))?.sequence ?? -1, { timeout: 15_000 }).toBeGreaterThanOrEqual(await currentSequence());

    // The second tab paints from the copy the first one saved: no snapshot.
    const second = await open();
    expect(second.snapshots()).toBe(0);

    // One writer: the first tab holds the copy's Web Lock, the second waits in its queue.
    expect(await locks(second.page)).toEqual({ held: 1, pending: 1 });

    // A change made elsewhere reaches both tabs, and the writer saves it.
    const one = 'Seen in both tabs';
    await post(one);
    for (const page of [first, second.page]) await expect.poll(() => page.getByRole('option').filter({ hasText: one }).count(), { timeout: 10_000 }).toBe(1);
    const afterOne = await currentSequence();
    await expect.poll(async () => (await copyOf(second.page))?.sequence ?? -1, { timeout: 10_000 }).toBeGreaterThanOrEqual(afterOne);

    // The writer's tab closes: the other takes the lock and keeps the copy up to date.
    await first.close();
    await expect.poll(() => locks(second.page), { timeout: 5_000 }).toEqual({ held: 1, pending: 0 });
    const two = 'Saved by the tab that took over';
    const target = await post(two);
    await expect.poll(() => second.page.getByRole('option').filter({ hasText: two }).count(), { timeout: 10_000 }).toBe(1);
    const afterTwo = await currentSequence();
    await expect.poll(async () => (await copyOf(second.page))?.sequence ?? -1, { timeout: 10_000 }).toBeGreaterThanOrEqual(afterTwo);
    expect((await copyOf(second.page))?.head[target.id]).toBe(two);

    // A third tab starts from that copy and shows the change without a snapshot.
    const third = await open();
    expect(third.snapshots()).toBe(0);
    expect(await third.page.getByRole('option').filter({ hasText: two }).count()).toBe(1);
    await third.page.close();
    await second.page.close();
  });
});
