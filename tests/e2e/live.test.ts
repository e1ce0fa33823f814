/**
 * End to end in headless Chromium against the built app and the real server process:
 * sign-in, live updates from the simulator, and a hard kill and restart of the server
 * while a conversation is open — every message posted meanwhile shows, once.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../src/model/types';
import { api, signIn as apiSignIn } from '../server/helpers';
import { e2eSession, startServer, type RunningServer, sessionToken } from './harness';

const session = e2eSession({
  env: { SIFT_SIMULATOR_RATE: '120' },
  // Time order: a flat list whose first row is the newest conversation.
  init: [() => localStorage.setItem('sift_sort_mode:inbox', 'time')],
});
let page: Page;
let server: RunningServer;

beforeAll(async () => {
  ({ page, server } = session);
});

describe('Sift end to end', () => {
  it('sends a visitor to /auth, signs in through Connect to Slack, and shows the inbox', async () => {
    await page.goto(`${server.url}/`);
    await page.waitForURL('**/auth');
    await expect(page.getByRole('heading', { name: 'Sign up to Sift' }).isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Connect to Slack' }).click();
    await page.waitForURL('**/inbox');
    expect(new URL(page.url()).search).toBe('');
    await page.getByRole('option').first().waitFor();
    const rows = await page.getByRole('option').count();
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThan(100);
    expect(await sessionToken(page)).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it('shows a message posted by the simulator without a reload', async () => {
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    const firstRow = page.getByRole('option').first();
    const before = await firstRow.textContent();
    await page.waitForFunction((text) => document.querySelector('[role="option"]')?.textContent !== text, before, { timeout: 20_000 });
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    expect(await firstRow.textContent()).toMatch(/now/);
  });

  it('reconnects after the server is killed and restarted, showing every message posted meanwhile, once', async () => {
    const { token } = await apiSignIn(server.url);
    const conversations = (await api(server.url, token)<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data')).body.data.conversations;
    const dm = conversations.find((c) => c.type === 'dm' && c.dm_user)!;

    // Open the DM through the search palette: the simulator keeps reordering the list.
    const data = (await api(server.url, token)<{ data: { users: Record<string, { real_name: string }> } }>('/api/conversations/data?limit=1')).body.data;
    const person = data.users[dm.dm_user!]!.real_name;
    await page.goto(`${server.url}/inbox`);
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog');
    await palette.getByRole('tab', { name: 'Conversations' }).click();
    await palette.getByPlaceholder('Search conversations, messages, and people...').fill(person);
    await palette
      .getByRole('option', { name: new RegExp(person) })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.detail-title', { hasText: person }).waitFor();
    await page.locator('.message').first().waitFor();

    // What the page's polite announcer says, from here on (its words are cleared after a while).
    await page.evaluate(() => {
      const said: string[] = ((window as unknown as { __said: string[] }).__said = []);
      const region = document.querySelector('[role="status"][aria-live="polite"]')!;
      new MutationObserver(() => region.textContent && said.push(region.textContent)).observe(region, { childList: true, subtree: true, characterData: true });
    });
    await server.kill();
    await page.waitForSelector('.live-dot.error, .live-dot.connecting, .live-dot.failed', { timeout: 10_000 });
    server = session.server = await startServer({ port: server.port, dataDir: server.dataDir });
    const { token: otherToken } = await apiSignIn(server.url, dm.dm_user);
    const texts = ['after restart one', 'after restart two', 'after restart three'];
    for (const text of texts) {
      const res = await api(server.url, otherToken)('/api/messages/send', { body: { channel: dm.id, text } });
      expect(res.status).toBe(200);
    }
    const pane = page.locator('.detail-pane .messages');
    for (const text of texts) await pane.getByText(text, { exact: true }).waitFor({ timeout: 20_000 });
    // A screen reader heard the connection go and come back (issue 13 §3).
    const said = () => page.evaluate(() => (window as unknown as { __said: string[] }).__said.join(' | '));
    await expect.poll(said, { timeout: 10_000 }).toMatch(/Connection lost.*\|.*Connection restored/);
    await page.locator('.live-dot.connected').waitFor();
    for (const text of texts) expect(await pane.getByText(text, { exact: true }).count()).toBe(1);
  });
});
