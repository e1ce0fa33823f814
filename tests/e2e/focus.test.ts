/** Focus inboxes end to end in Chromium (issue 4): create, count, mark read, reload, edit, reorder, delete. */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSession, type RunningServer, sessionToken } from './harness';

const session = e2eSession({ signIn: true, init: [() => localStorage.setItem('sift_sort_mode:inbox', 'time')] });
let page: Page;
let server: RunningServer;

beforeAll(async () => {
  ({ page, server } = session);
});

const tab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });
const badge = async (name: string) => Number(await tab(name).locator('.tab-count').textContent());
const tabNames = () => page.getByRole('tab').evaluateAll((tabs) => tabs.map((t) => t.firstChild?.textContent ?? ''));
const dialog = () => page.getByRole('dialog');

async function unreadDms(): Promise<number> {
  const token = await sessionToken(page);
  const res = await fetch(`${server.url}/api/conversations/data?type=dm`, { headers: { Authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { data: { conversations: Array<{ unread_count: number }> } };
  return body.data.conversations.filter((c) => c.unread_count > 0).length;
}

describe('focus inboxes', () => {
  it('creates a focus inbox of unread DMs: its tab, selected, with its count', async () => {
    await page.getByRole('button', { name: 'Create Focus Inbox' }).click();
    await dialog().getByRole('heading', { name: 'Create Focus Inbox' }).waitFor();
    await dialog().getByLabel('View Name').fill('Unread DMs');
    await dialog().getByRole('checkbox', { name: 'Direct Messages' }).check();
    await dialog().getByRole('radio', { name: 'Unread Only' }).check();
    await dialog().getByRole('button', { name: 'Create View' }).click();
    await dialog().waitFor({ state: 'detached' });
    await tab('Unread DMs').waitFor();
    expect(await tab('Unread DMs').getAttribute('aria-selected')).toBe('true');
    const expected = await unreadDms();
    expect(expected).toBeGreaterThan(1);
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('[role="option"][data-conversation-id]').length === Math.min(n, 10) ||
        Number(document.querySelector('.conversation-list')?.getAttribute('data-total')) === n,
      expected,
    );
    expect(await badge('Unread DMs')).toBe(expected);
    // Every row in it is a DM (person icon).
    const icons = await page.locator('[role="option"] .type-icon').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(new Set(icons)).toEqual(new Set(['Direct message']));
  });

  it('marking one of its conversations read drops the count and the row', async () => {
    const before = await badge('Unread DMs');
    const first = page.locator('[role="option"][data-conversation-id]').first();
    const id = await first.getAttribute('data-conversation-id');
    await first.click();
    await page.locator('.detail-pane').waitFor();
    await page.keyboard.press('Control+e');
    await page.locator(`.conversation-list [data-conversation-id="${id}"]`).waitFor({ state: 'detached' });
    await page.waitForFunction((n) => Number(document.querySelector('[role="tab"][aria-selected="true"] .tab-count')?.textContent) === n, before - 1);
    await page.keyboard.press('Escape');
  });

  it('is still there after a reload, and can be edited', async () => {
    await page.reload();
    await tab('Unread DMs').waitFor();
    await tab('Unread DMs').click();
    await page.getByRole('button', { name: 'Configure focus inbox' }).click();
    await dialog().getByRole('heading', { name: 'Modify Focus Inbox' }).waitFor();
    expect(await dialog().getByLabel('View Name').inputValue()).toBe('Unread DMs');
    expect(await dialog().getByRole('checkbox', { name: 'Direct Messages' }).isChecked()).toBe(true);
    expect(await dialog().getByRole('radio', { name: 'Unread Only' }).isChecked()).toBe(true);
    await dialog().getByLabel('View Name').fill('DMs to answer');
    await dialog().getByRole('button', { name: 'Save Changes' }).click();
    await tab('DMs to answer').waitFor();
    expect(await tab('DMs to answer').getAttribute('aria-selected')).toBe('true');
  });

  it('reorders focus inboxes with Alt+Shift+Left, and the order survives a reload', async () => {
    await page.getByRole('button', { name: 'Create Focus Inbox' }).click();
    await dialog().getByLabel('View Name').fill('Channels only');
    await dialog().getByRole('checkbox', { name: 'Channels' }).check();
    await dialog().getByRole('button', { name: 'Create View' }).click();
    await tab('Channels only').waitFor();
    expect(await tabNames()).toEqual(['Inbox', 'DMs to answer', 'Channels only']);
    await page.mouse.move(5, 400);
    await page.keyboard.press('Alt+Shift+ArrowLeft');
    await page.waitForFunction(
      () => [...document.querySelectorAll('[role="tab"]')].map((t) => t.firstChild?.textContent).join('|') === 'Inbox|Channels only|DMs to answer',
    );
    await page.reload();
    await tab('Channels only').waitFor();
    expect(await tabNames()).toEqual(['Inbox', 'Channels only', 'DMs to answer']);
  });

  it('deletes a focus inbox after confirming', async () => {
    await tab('DMs to answer').click();
    page.once('dialog', (d) => {
      expect(d.message()).toBe('Are you sure you want to delete this focus inbox?');
      void d.accept();
    });
    await page
      .locator('.tab-wrap', { has: tab('DMs to answer') })
      .getByRole('button', { name: 'Configure focus inbox' })
      .click();
    await dialog().getByRole('button', { name: 'Delete View' }).click();
    await tab('DMs to answer').waitFor({ state: 'detached' });
    expect(await tabNames()).toEqual(['Inbox', 'Channels only']);
    expect(await tab('Inbox').getAttribute('aria-selected')).toBe('true');
  });
});
