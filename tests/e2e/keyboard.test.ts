/** The inbox without a mouse, end to end in Chromium (SPEC §2.11, §4.4, §4.5). */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSession, type RunningServer } from './harness';

const session = e2eSession({ signIn: true,
  // Time order: a flat list (the AI grouping has its own test).
  init: [
    () => {
      localStorage.setItem('sift_sort_mode:inbox', 'time');
      localStorage.setItem('sift_sort_mode:conversations', 'time');
    },
  ],
});
let page: Page;
let server: RunningServer;

beforeAll(async () => {
  ({ page, server } = session);
});

const activeId = () => page.getByRole('listbox').getAttribute('aria-activedescendant');
const rowIdAt = (i: number) => page.getByRole('option').nth(i).getAttribute('data-conversation-id');
const openTitle = () => page.locator('.detail-title').textContent();
const inboxCount = async () => Number(await page.getByRole('tab', { name: /Inbox/ }).locator('.tab-count').textContent());

describe('keyboard', () => {
  it('moves with j/k and the arrows, opens with Enter, closes with Esc', async () => {
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await activeId()).toBe(`row-${await rowIdAt(2)}`);
    await page.keyboard.press('k');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await activeId()).toBe(`row-${await rowIdAt(1)}`);
    const name = await page.getByRole('option').nth(1).locator('.row-name').textContent();
    await page.keyboard.press('Enter');
    await page.locator('.detail-title', { hasText: name! }).waitFor();
    expect(await openTitle()).toBe(name);
    expect(await page.getByRole('option').nth(1).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Escape');
    await page.locator('.detail-pane').waitFor({ state: 'detached' });
    await page.keyboard.press('Home');
    expect(await activeId()).toBe(`row-${await rowIdAt(0)}`);
  });

  it('marks read with Ctrl+E: the conversation leaves the unread inbox and the next one opens', async () => {
    await page.keyboard.press('Home');
    const first = await rowIdAt(0);
    const second = await rowIdAt(1);
    const before = await inboxCount();
    await page.keyboard.press('Enter');
    await page.locator('.detail-pane').waitFor();
    await page.keyboard.press('Control+e');
    await page.locator(`[data-conversation-id="${first}"]`).waitFor({ state: 'detached' });
    await page.waitForFunction((id) => document.querySelector('[role="option"][aria-selected="true"]')?.getAttribute('data-conversation-id') === id, second);
    expect(await inboxCount()).toBe(before - 1);
    await page.keyboard.press('Escape');
  });

  it('sets a category with Ctrl+1 and undoes it with Ctrl+Z', async () => {
    await page.keyboard.press('Home');
    const id = await rowIdAt(0);
    const name = await page.getByRole('option').first().locator('.row-name').textContent();
    await page.keyboard.press('Control+1');
    await page.getByText(`${name} marked as Urgent`).waitFor();
    await page.locator(`[data-conversation-id="${id}"] .category-bars.level-3`).waitFor();
    await page.keyboard.press('Control+z');
    await page.getByText('Undone').waitFor();
    await page.locator(`[data-conversation-id="${id}"] .category-bars.level-0`).waitFor();
    await page.keyboard.press('Control+3');
    await page.getByText(`${name} marked as FYI`).waitFor();
    await page.keyboard.press('Control+0');
    await page.getByText(`Removed category from ${name}`).waitFor();
  });

  it('marks the open conversation unread again with u', async () => {
    await page.goto(`${server.url}/conversations`);
    await page.getByRole('option').first().waitFor();
    // Find a read conversation whose latest message is from someone else.
    const id = await page.evaluate(() => {
      for (const row of document.querySelectorAll('[role="option"]')) {
        if (!row.querySelector('.unread-badge') && !row.querySelector('.row-preview')?.textContent?.startsWith('You:')) return row.getAttribute('data-conversation-id');
      }
      return null;
    });
    expect(id).toBeTruthy();
    await page.locator(`[data-conversation-id="${id}"]`).click();
    await page.locator('.detail-pane').waitFor();
    await page.mouse.move(5, 5);
    await page.keyboard.press('u');
    await page.locator(`[data-conversation-id="${id}"] .unread-badge`).waitFor();
    expect(await page.locator(`[data-conversation-id="${id}"] .unread-badge`).textContent()).toBe('1');
  });

  it('cycles sub-views with Tab and Shift+Tab', async () => {
    await page.keyboard.press('Escape');
    const selected = () => page.locator('[role="tab"][aria-selected="true"]').textContent();
    expect(await selected()).toMatch(/^All/);
    await page.keyboard.press('Tab');
    expect(await selected()).toMatch(/^DMs/);
    await page.keyboard.press('Tab');
    expect(await selected()).toMatch(/^Channels/);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await selected()).toMatch(/^Threads/);
  });

  it('lists every shortcut on ? and closes on any key', async () => {
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    for (const action of ['Mark as read', 'Mark as unread', 'Set category Urgent', 'Undo last mark as read or category change']) {
      expect(await dialog.getByText(action, { exact: true }).count()).toBe(1);
    }
    await page.keyboard.press('x');
    await dialog.waitFor({ state: 'detached' });
  });

  it('sends a reply: pending first, then the server copy, once', async () => {
    await page.getByRole('option').first().click();
    await page.locator('.detail-pane').waitFor();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Replying from the keyboard');
    await box.press('Enter');
    await page.locator('.message:not(.pending)', { hasText: 'Replying from the keyboard' }).waitFor();
    expect(await page.getByText('Replying from the keyboard', { exact: true }).count()).toBe(1);
    expect(await box.inputValue()).toBe('');
  });

  it('keeps the theme across a reload', async () => {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Menu' }).locator('[aria-haspopup="menu"]').click();
    await page.getByRole('menuitem', { name: 'Light Mode' }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.reload();
    await page.getByRole('option').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  });
});
