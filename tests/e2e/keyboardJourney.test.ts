/**
 * Issue 13 §5: a keyboard-only member, no mouse, in Chromium. Sign in; triage five conversations
 * (open, read, categorise, undo, mark unread); create a focus inbox; search from the palette and
 * open a message; ask a question on the Ask AI page. After each step: where the focus is, and that
 * it shows (:focus-visible).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { MARK_READ_GUARD_MS } from '../../src/model/constants';
import { e2eSession, type RunningServer } from './harness';

const session = e2eSession({
  init: [
    () => {
      localStorage.setItem('sift_sort_mode:inbox', 'time');
      localStorage.setItem('sift_sort_mode:conversations', 'time');
    },
  ],
});
let page: Page;
let server: RunningServer;
beforeAll(() => {
  ({ page, server } = session);
});

interface Focus {
  tag: string;
  role: string | null;
  name: string;
  region: string | null;
  visible: boolean;
}

const focus = (): Promise<Focus> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const labelled = el.getAttribute('aria-labelledby');
    return {
      tag: el.tagName.toLowerCase(),
      role: el.getAttribute('role'),
      name: (
        el.getAttribute('aria-label') ??
        (labelled ? document.getElementById(labelled)?.textContent : null) ??
        (el as HTMLInputElement).labels?.[0]?.textContent ??
        (['INPUT', 'TEXTAREA'].includes(el.tagName) ? (el as HTMLInputElement).value : el.textContent) ??
        ''
      ).trim(),
      region: el.closest('[data-region]')?.getAttribute('data-region') ?? null,
      visible: el.matches(':focus-visible'),
    };
  });

/** Presses Tab until the focus is on an element whose name matches (at most `max` times). */
async function tabTo(name: RegExp, max = 40, key = 'Tab'): Promise<Focus> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const f = await focus();
    if (name.test(f.name)) {
      expect(f.visible, `the focus on '${f.name}' shows`).toBe(true);
      return f;
    }
  }
  throw new Error(`Tab never reached ${name}; the focus is on ${JSON.stringify(await focus())}`);
}

const activeRowId = () => page.getByRole('listbox').getAttribute('aria-activedescendant');
const unreadCount = async () =>
  Number(
    await page
      .getByRole('tab', { name: /^Inbox/ })
      .locator('.tab-count')
      .textContent(),
  );

describe('a keyboard-only member', () => {
  it('signs in: Tab reaches Connect to Slack, Enter signs in, and the focus lands on the list', async () => {
    await page.goto(`${server.url}/auth`);
    await tabTo(/^Connect to Slack/);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/inbox');
    await page.getByRole('option').first().waitFor();
    await expect.poll(async () => (await focus()).role).toBe('listbox');
  });

  it('triages five conversations: open, mark read and go on, categorise, undo, mark unread', async () => {
    // The whole list loaded, so the count read is the final one.
    await page.locator('[data-load="loaded"]').waitFor();
    const before = await unreadCount();
    await page.keyboard.press('Enter');
    await page.locator('.detail-pane').waitFor();
    for (let i = 1; i <= 5; i++) {
      const title = await page.locator('.detail-title').textContent();
      // Ctrl+E presses closer than MARK_READ_GUARD_MS are one (a held key repeats); a person's are not.
      await page.waitForTimeout(MARK_READ_GUARD_MS + 50);
      await page.keyboard.press('Control+e');
      await expect.poll(unreadCount, { timeout: 15_000 }).toBe(before - i);
      await expect.poll(() => page.locator('.detail-title').textContent(), { timeout: 15_000 }).not.toBe(title);
    }
    // Categorise the open one, then undo.
    const name = (await page.locator('.detail-title').textContent())!;
    await page.keyboard.press('Control+3');
    await page.getByText(`${name} marked as FYI`).first().waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await focus()).role).toBe('listbox');
    await page.keyboard.press('Control+z');
    await page.getByText('Undone').first().waitFor();
    // Mark the selected conversation unread again (it is read once opened).
    await page.keyboard.press('Home');
    const first = await activeRowId();
    expect(first).toMatch(/^row-/);
    await page.keyboard.press('u');
    await page
      .getByText(/marked as unread$/)
      .first()
      .waitFor();
    expect((await focus()).role).toBe('listbox');
  });

  it('creates a focus inbox with Shift+N, all by keys', async () => {
    await page.keyboard.press('Shift+N');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Create Focus Inbox' }).waitFor();
    // The dialog takes the focus: the first field is the name.
    await expect.poll(async () => (await focus()).name).toMatch(/View Name/);
    await page.keyboard.type('Keyboard DMs');
    await tabTo(/^Direct Messages$/);
    await page.keyboard.press('Space');
    expect(await dialog.getByRole('checkbox', { name: 'Direct Messages' }).isChecked()).toBe(true);
    await tabTo(/^Create View$/);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('tab', { selected: true }).textContent()).toMatch(/^Keyboard DMs/);
  });

  it('searches from the palette and opens a message at its place', async () => {
    await page.keyboard.press('Control+k');
    await expect.poll(async () => (await focus()).tag).toBe('input');
    await page.keyboard.type('deploy');
    const palette = page.getByRole('dialog');
    await palette.getByRole('option').first().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });
    await page.locator('.detail-pane').waitFor();
    // Opened from the palette, the focus is in the message box, ready to reply.
    await expect.poll(async () => (await focus()).name).toBe('Message');
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await focus()).role).toBe('listbox');
  });

  it('asks a question on the Ask AI page', async () => {
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.waitForURL('**/ask-ai');
    const box = page.getByRole('textbox').first();
    await box.waitFor();
    // The page opens with the focus in its question box.
    await expect.poll(async () => (await focus()).tag).toBe('textarea');
    await page.keyboard.type('What is urgent today?');
    await page.keyboard.press('Enter');
    await page.locator('.ask-thread, [aria-live]').first().waitFor();
    await expect.poll(() => page.getByText('What is urgent today?').count()).toBeGreaterThan(0);
  });
});
