/**
 * The view filter on /conversations, from the toolbar button and typed as a person types it
 * (lower case), right after the list loaded: the list narrows, every edit of the text re-filters,
 * and it keeps working on another page. (A list that remounted under the same key lost every
 * later window: the filter showed its text and the list never changed.)
 */
import { describe, expect, it } from 'vitest';
import { e2eSession } from './harness';

const session = e2eSession({ signIn: true, init: [() => localStorage.setItem('sift_sort_mode:conversations', 'time')] });
const total = async () => Number(await session.page.locator('.conversation-list').getAttribute('data-total'));

describe('the view filter', () => {
  it('narrows /conversations as the text changes, from the button, in lower case', async () => {
    const page = session.page;
    await page.goto(`${session.server.url}/conversations`);
    await page.getByRole('option').first().waitFor();
    const everything = await total();
    expect(everything).toBeGreaterThan(50);
    await page.getByRole('button', { name: 'Filter this view' }).click();
    const box = page.getByRole('searchbox', { name: 'Filter this view' });
    await box.fill('general');
    await expect.poll(total, { timeout: 5_000 }).toBe(1);
    await expect.poll(() => page.locator('[role="option"] .row-name').allTextContents()).toEqual(['general']);
    await box.press('Backspace');
    await expect.poll(total, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
    await box.fill('zzzz-nothing-matches');
    await page.getByText('No conversations match “zzzz-nothing-matches”').waitFor();
    await box.press('Escape');
    await expect.poll(total, { timeout: 5_000 }).toBe(everything);
  });

  it('filters the inbox too, after moving between pages', async () => {
    const page = session.page;
    await page.goto(`${session.server.url}/inbox`);
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('Shift+K');
    await page.getByRole('searchbox', { name: 'Filter this view' }).fill('zzzz-nothing-matches');
    await page.getByText('No conversations match “zzzz-nothing-matches”').waitFor({ timeout: 5_000 });
  });
});
