/** The inbox without a mouse, end to end in Chromium (SPEC §2.11, §4.4, §4.5). */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS, actionSpec } from '../../src/ui/keyboard/registry';
import { e2eSession, type RunningServer } from './harness';

const session = e2eSession({
  signIn: true,
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
/** The visible toasts (the page's announcer says the same words, visually hidden: issue 13 §3). */
const toasts = () => page.getByRole('region', { name: 'Notifications' });
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
    await toasts().getByText(`${name} marked as Urgent`).waitFor();
    await page.locator(`[data-conversation-id="${id}"] .category-bars.level-3`).waitFor();
    await page.keyboard.press('Control+z');
    await toasts().getByText('Undone').waitFor();
    await page.locator(`[data-conversation-id="${id}"] .category-bars.level-0`).waitFor();
    await page.keyboard.press('Control+3');
    await toasts().getByText(`${name} marked as FYI`).waitFor();
    await page.keyboard.press('Control+0');
    await toasts().getByText(`Removed category from ${name}`).waitFor();
  });

  it('marks the open conversation unread again with u', async () => {
    await page.goto(`${server.url}/conversations`);
    await page.getByRole('option').first().waitFor();
    // Find a read conversation whose latest message is from someone else.
    const id = await page.evaluate(() => {
      for (const row of document.querySelectorAll('[role="option"]')) {
        if (!row.querySelector('.unread-badge') && !row.querySelector('.row-preview')?.textContent?.startsWith('You:'))
          return row.getAttribute('data-conversation-id');
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
    // The registry's actions, each once, focus on the dialog.
    for (const id of ['mark-read', 'mark-unread', 'category-urgent', 'undo', 'go-inbox'] as const) {
      expect(await dialog.getByText(actionSpec(id).label, { exact: true }).count()).toBe(1);
    }
    expect(await dialog.getByRole('definition').count()).toBe(ACTIONS.length);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('dialog');
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

/** What has the focus: its role and accessible name as the page sees it, and whether a focus ring shows. */
const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      role: el?.getAttribute('role') ?? el?.tagName.toLowerCase() ?? null,
      name: el?.getAttribute('aria-label') ?? el?.textContent?.trim().slice(0, 60) ?? '',
      region: el?.closest('[data-region]')?.getAttribute('data-region') ?? null,
      visible: el ? el.matches(':focus-visible') : false,
    };
  });

describe('the keyboard model (issue 13 §2)', () => {
  it('the page opens with the focus on the list; Esc on a conversation gives it back to the list', async () => {
    await page.goto(`${server.url}/inbox`);
    await page.getByRole('option').first().waitFor();
    await expect.poll(async () => (await focused()).role).toBe('listbox');
    await page.keyboard.press('Enter');
    await page.locator('.detail-pane').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.detail-pane').waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused()).role).toBe('listbox');
  });

  it('F6 moves between the regions; Tab then reaches every toolbar control, and Enter presses a focused button', async () => {
    // No conversation open: from the list, F6 wraps round to the top bar.
    await page.getByRole('listbox').focus();
    await page.keyboard.press('F6');
    expect((await focused()).region).toBe('topbar');
    // From the top bar's start, Tab walks its controls in order.
    const names: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      const f = await focused();
      if (f.region !== 'topbar') break;
      expect(f.visible).toBe(true);
      names.push(f.name);
    }
    for (const name of ['Create Focus Inbox', 'Fetch data', 'Sort by AI', 'Search', 'Filter this view', 'Keyboard shortcuts'])
      expect(names.some((n) => n.startsWith(name))).toBe(true);
    // Enter on 'Sort by …' presses it (it does not open a conversation).
    await page.getByRole('button', { name: /^Sort by/ }).focus();
    const before = await page.getByRole('button', { name: /^Sort by/ }).textContent();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: /^Sort by/ }).textContent()).not.toBe(before);
    expect(await page.locator('.detail-pane').count()).toBe(0);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: /^Sort by/ }).textContent()).toBe(before);
    // F6 again: the list.
    await page.keyboard.press('F6');
    expect((await focused()).role).toBe('listbox');
  });

  it("the first Tab on a fresh page reaches 'Skip to conversations', which leads to the list", async () => {
    await page.goto(`${server.url}/conversations`);
    await page.getByRole('option').first().waitFor();
    // The focus back at the document's start, as on a page the list has not taken the focus of yet.
    await page.evaluate(() => {
      const start = document.createElement('button');
      document.body.prepend(start);
      start.focus();
      start.remove();
    });
    await page.keyboard.press('Tab');
    const skip = await focused();
    expect(skip.name).toBe('Skip to conversations');
    expect(skip.visible).toBe(true);
    expect(await page.getByRole('link', { name: 'Skip to conversations' }).isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    expect((await focused()).role).toBe('listbox');
  });

  it('g then i / c go to the pages; Alt+2 goes to the second view', async () => {
    await page.keyboard.press('g');
    await page.keyboard.press('i');
    await page.waitForURL('**/inbox');
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    await page.waitForURL('**/conversations');
    await page.getByRole('option').first().waitFor();
    const second = page.getByRole('tab').nth(1);
    await page.keyboard.press('Alt+2');
    await expect.poll(() => second.getAttribute('aria-selected')).toBe('true');
  });

  it('F6 reaches the open conversation and its message box; typed letters there are text', async () => {
    await page.getByRole('listbox').focus();
    await page.keyboard.press('Enter');
    await page.locator('.detail-pane').waitFor();
    await page.waitForTimeout(300);
    // top bar → list → conversation → message box, wherever the focus starts
    await page.getByRole('button', { name: 'Open menu' }).focus();
    await page.keyboard.press('F6');
    expect((await focused()).role).toBe('listbox');
    await page.keyboard.press('F6');
    expect((await focused()).region).toBe('conversation');
    await page.keyboard.press('F6');
    expect((await focused()).name).toBe('Message');
    await page.keyboard.press('Shift+F6');
    expect((await focused()).region).toBe('conversation');
    await page.keyboard.press('F6');
    await page.keyboard.type('gij?');
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('gij?');
    expect(page.url()).toContain('/conversations');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('textbox', { name: 'Message' }).fill('');
  });
});
