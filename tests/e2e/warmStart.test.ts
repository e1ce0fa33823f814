/**
 * The local copy end to end in Chromium (issue 14 §2, §3, §5), against the real server: sign in and
 * load, close the page; a change is made from another session while Sift is closed; reopening paints
 * from the copy (no snapshot is downloaded) and shows the change (the replay). With the server down,
 * Sift opens from the cached shell and the copy, and says it is offline and when it last synced.
 * Logging out leaves nothing of the member in IndexedDB, Cache Storage or localStorage.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../src/model/types';
import { buildClientIfNeeded } from '../../scripts/start';
import { ensureChromium } from '../../scripts/chromium';
import { api, signIn as apiSignIn } from '../server/helpers';
import { launchBrowser, removeDir, signIn, startServer, type RunningServer } from './harness';

const SHOTS = join(import.meta.dirname, '..', '..', 'screenshots');
const CHANGE = 'Posted while Sift was closed';
const OFFLINE_REPLY = 'Written offline on the train platform';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;

/** What the member's browser holds: IndexedDB databases, Cache Storage addresses, localStorage keys. */
function storage(page: Page) {
  return page.evaluate(async () => ({
    databases: (await indexedDB.databases()).map((d) => d.name ?? ''),
    cached: (await Promise.all((await caches.keys()).map(async (name) => (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname)))).flat(),
    local: Object.keys(localStorage),
  }));
}

/** Opens a page of the context; `apiData` counts the snapshot requests the page and its worker make. */
async function open(path: string) {
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  await page.goto(`${server.url}${path}`);
  return { page, snapshotRequests: () => requests.filter((p) => p === '/api/conversations/data').length };
}

async function shoot(page: Page, name: string) {
  if (!process.env.SIFT_SCREENSHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    await page.screenshot({ path: join(SHOTS, `offline-${name}-${theme}.png`) });
  }
}

beforeAll(async () => {
  ensureChromium();
  buildClientIfNeeded();
  server = await startServer();
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => localStorage.setItem('sift_sort_mode:conversations', 'time'));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) removeDir(server.dataDir);
});

describe('Sift starts from its local copy', () => {
  it('a first visit loads the snapshot and keeps a copy', async () => {
    const page = await context.newPage();
    await signIn(page, server.url);
    await page.locator('.list-pane[data-load="loaded"]').waitFor();
    await expect.poll(async () => (await storage(page)).databases.some((name) => name.startsWith('sift-copy:')), { timeout: 15_000 }).toBe(true);
    // The engine saves a second after the last change; give the write its time.
    await page.waitForTimeout(3_000);
    await page.close();
  });

  it('reopened, it paints from the copy without downloading the snapshot, and shows what changed meanwhile', async () => {
    const { token } = await apiSignIn(server.url);
    const [target] = (
      await api(server.url, token)<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data?limit=5')
    ).body.data.conversations
      .filter((c) => c.type === 'channel')
      .slice(-1);
    await api(server.url, token)('/api/messages/send', { method: 'POST', body: { channel: target!.id, text: CHANGE, client_msg_id: crypto.randomUUID() } });

    const { page, snapshotRequests } = await open('/conversations');
    await page.locator('.list-pane[data-load="loaded"]').waitFor();
    await page.getByRole('option').filter({ hasText: CHANGE }).first().waitFor({ timeout: 15_000 });
    expect(snapshotRequests()).toBe(0);
    // Read it: a conversation read before reads offline too.
    await page.getByRole('option').filter({ hasText: CHANGE }).first().click();
    await page.locator('.message', { hasText: CHANGE }).waitFor();
    await page.waitForTimeout(2_500);
    await page.close();
  });

  let offlinePage: Page;
  it('with the server down it opens from the copy, says it is offline, reads a conversation and keeps a reply to send', async () => {
    await server.stop();
    const { page } = await open('/conversations');
    offlinePage = page;
    await page.getByRole('option').filter({ hasText: CHANGE }).first().waitFor({ timeout: 30_000 });
    const status = page.getByRole('status').filter({ hasText: 'Offline' });
    await status.waitFor({ timeout: 30_000 });
    expect(await status.textContent()).toMatch(/^Offline — last synced (just now|\d+[smhd] ago)$/);
    await shoot(page, 'list');

    await page.getByRole('option').filter({ hasText: CHANGE }).first().click();
    await page.locator('.message:not(.pending)', { hasText: CHANGE }).waitFor();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(OFFLINE_REPLY);
    await box.press('Enter');
    await page.locator('.message.pending', { hasText: OFFLINE_REPLY }).getByText('Waiting to send').waitFor();
    expect(await box.inputValue()).toBe('');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/· 1 change waits to be sent$/);
    await shoot(page, 'conversation');
  });

  it('when the server is back, the reply made offline arrives, once', async () => {
    server = await startServer({ port: server.port, dataDir: server.dataDir });
    const { token } = await apiSignIn(server.url);
    const sent = async () => {
      const found = (
        await api(server.url, token)<{ results: { messages?: Array<{ text: string }> } }>(`/api/search?q=${encodeURIComponent('train platform')}&type=messages`)
      ).body;
      return (found.results?.messages ?? []).filter((m) => m.text === OFFLINE_REPLY).length;
    };
    await expect.poll(sent, { timeout: 60_000, interval: 500 }).toBe(1);
    await offlinePage.locator('.message:not(.pending)', { hasText: OFFLINE_REPLY }).waitFor({ timeout: 30_000 });
    await offlinePage.waitForTimeout(1_500);
    expect(await sent()).toBe(1);
    expect(await offlinePage.getByText(OFFLINE_REPLY, { exact: true }).count()).toBe(1);
    await offlinePage.close();
  });

  it('logging out leaves nothing of the member in the browser', async () => {
    const { page } = await open('/inbox');
    await page.getByRole('option').first().waitFor();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: /Alex Morgan/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/auth');
    await expect.poll(async () => (await storage(page)).databases, { timeout: 15_000 }).toEqual([]);
    const after = await storage(page);
    expect(after.cached.filter((path) => path.startsWith('/api') || path.startsWith('/auth'))).toEqual([]);
    // Only the device's own settings stay (the theme, the sort order); nothing of the member.
    expect(after.local.filter((key) => !/^(theme|sift_sort_mode:\w+)$/.test(key))).toEqual([]);
    await page.close();
  });
});
