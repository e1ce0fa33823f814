/** The search palette end to end in Chromium (issue 5 §4). */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSession, type RunningServer, sessionToken } from './harness';

const session = e2eSession({ signIn: true, init: [() => localStorage.setItem('sift_sort_mode:inbox', 'time')] });
let page: Page;
let server: RunningServer;

beforeAll(async () => {
  ({ page, server } = session);
});

const palette = () => page.getByRole('dialog');

describe('search palette', () => {
  it('Cmd/Ctrl+K, a word from a message, arrow to it, Enter: the conversation opens with the message highlighted', async () => {
    // A message to find, in a conversation the member is in.
    const token = await sessionToken(page);
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const list = (await (await fetch(`${server.url}/api/conversations/data?type=channel`, { headers })).json()) as {
      data: { conversations: Array<{ id: string; name: string }> };
    };
    const channel = list.data.conversations[3]!;
    const sent = (await (
      await fetch(`${server.url}/api/messages/send`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ channel: channel.id, text: 'The narwhalgate rollback is done' }),
      })
    ).json()) as { ts: string };

    await page.keyboard.press('Control+k');
    const input = palette().getByPlaceholder('Search conversations, messages, and people...');
    await input.waitFor();
    expect(await palette().getByText('Type to search...').count()).toBe(1);
    await input.fill('narwhalgate');
    const result = palette().getByRole('option', { name: /narwhalgate/ });
    await result.waitFor();
    // Arrow down until the message result is highlighted, then Enter.
    for (let i = 0; i < 10; i++) {
      const active = await input.getAttribute('aria-activedescendant');
      if (active && active === (await result.getAttribute('id'))) break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await palette().waitFor({ state: 'detached' });
    const highlighted = page.locator(`.detail-pane .message.highlighted[data-ts="${sent.ts}"]`);
    await highlighted.waitFor();
    expect(await page.locator('.detail-title').textContent()).toBe(channel.name);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
    // The highlight clears after 3 s.
    await highlighted.waitFor({ state: 'detached', timeout: 6_000 });
  });

  it('runs an action from the Actions tab', async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await palette().getByRole('tab', { name: 'Actions' }).click();
    await palette().getByPlaceholder('Search conversations, messages, and people...').fill('light mode');
    await palette()
      .getByRole('option', { name: /Switch to Light Mode/ })
      .click();
    await palette().waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  });
});
