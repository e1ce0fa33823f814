/**
 * Takes screenshots of each screen in both themes into ./screenshots, against a fresh
 * demo server: `npx tsx scripts/screenshots.ts`.
 */
import { mkdirSync } from 'node:fs';
import { launchBrowser, removeDir, signIn, startServer, sessionToken } from '../tests/e2e/harness';
import { buildClientIfNeeded } from './start';

buildClientIfNeeded();
mkdirSync('screenshots', { recursive: true });
const browser = await launchBrowser();
try {
  for (const theme of ['dark', 'light'] as const) {
    // A fresh workspace per theme: the last screen reads everything.
    const server = await startServer();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
    const page = await context.newPage();
    const shot = (name: string) => page.screenshot({ path: `screenshots/${name}-${theme}.png` });
    await page.goto(`${server.url}/auth`);
    await page.getByRole('button', { name: 'Connect to Slack' }).waitFor();
    await shot('auth');
    await page.getByRole('button', { name: 'Connect to Teams' }).click();
    await page.getByRole('dialog').getByLabel('Email').fill('dana@example.com');
    await shot('waitlist');
    await page.keyboard.press('Escape');
    await page.goto(`${server.url}/auth?error=access_denied`);
    await page.getByRole('alert').waitFor();
    await shot('auth-error');
    await signIn(page, server.url);
    await page.locator('.group-header').first().waitFor();
    await page.getByRole('option').nth(5).hover();
    await page.keyboard.press('Control+1');
    await page.mouse.move(640, 10);
    await page.waitForTimeout(300);
    await shot('inbox-grouped');
    await page.locator('[role="option"][data-conversation-id]').first().click();
    await page.locator('.message').first().waitFor();
    await shot('conversation');
    await page.keyboard.press('/');
    await page.getByRole('searchbox', { name: 'Search in conversation' }).fill('the');
    await shot('conversation-search');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await shot('shortcuts');
    await page.keyboard.press('x');
    await page.keyboard.press('Shift+K');
    await page.getByRole('searchbox', { name: 'Filter this view' }).fill('deploy');
    await page.waitForTimeout(300);
    await shot('filter');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog').getByPlaceholder('Search conversations, messages, and people...').fill('deploy');
    await page.getByRole('dialog').getByRole('option').nth(3).waitFor();
    await page.waitForTimeout(600);
    await shot('search');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Create Focus Inbox' }).click();
    await page.getByRole('dialog').getByLabel('View Name').fill('Unread DMs');
    await page.getByRole('dialog').getByRole('checkbox', { name: 'Direct Messages' }).check();
    await page.getByRole('dialog').getByRole('radio', { name: 'Unread Only' }).check();
    await shot('focus-modal');
    await page.getByRole('dialog').getByRole('button', { name: 'Create View' }).click();
    await page.getByRole('tab', { name: /^Unread DMs/ }).waitFor();
    await page.waitForTimeout(300);
    await shot('focus-tab');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Menu' }).locator('[aria-haspopup="menu"]').click();
    await shot('menu');
    await page.goto(`${server.url}/profile/me`);
    await page.getByText('This is you').waitFor();
    await shot('profile');
    await page.goto(`${server.url}/conversations`);
    await page.getByRole('option').first().waitFor();
    await shot('conversations');
    // AI: refine a draft, ask from the palette, the Ask AI page and a catch-up.
    await page.locator('[role="option"][data-conversation-id]').first().click();
    await page
      .getByRole('textbox', { name: 'Message' })
      .fill('hey guys i think we should gonna ship the new onboarding flow tomorrow, can u check the copy asap lol');
    await page.getByRole('toolbar', { name: 'Refine message' }).getByRole('button', { name: 'Professional' }).click();
    const apply = page.getByRole('region', { name: 'Refined message' }).getByRole('button', { name: 'Apply' });
    await apply.waitFor();
    for (let i = 0; i < 50 && !(await apply.isEnabled()); i++) await page.waitForTimeout(100);
    await shot('refine');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog').getByPlaceholder('Search conversations, messages, and people...').fill('deploy rollback');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('dialog').getByRole('article', { name: 'AI answer' }).waitFor();
    await shot('palette-ai');
    await page.keyboard.press('Escape');
    await page.goto(`${server.url}/ask-ai`);
    await page.getByText(/unread conversations$/).waitFor();
    await page.waitForTimeout(1200);
    await shot('ask-ai');
    await page.getByRole('button', { name: "I have 5 minutes, what's important?" }).click();
    const log = page.getByRole('log', { name: 'Conversation with Sift AI' });
    for (let i = 0; i < 100 && (await log.getByRole('article', { name: 'Sift AI' }).count()) < 2; i++) await page.waitForTimeout(100);
    await page.waitForTimeout(300);
    await shot('ask-ai-conversation');
    const token = await sessionToken(page);
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    {
      const list = (await (await fetch(`${server.url}/api/conversations/data`, { headers })).json()) as {
        data: { conversations: Array<{ id: string; unread_count: number }> };
      };
      for (const c of list.data.conversations.filter((x) => x.unread_count > 0)) {
        await fetch(`${server.url}/api/conversations/${encodeURIComponent(c.id)}/mark-read`, { method: 'POST', headers, body: '{}' });
      }
    }
    await page.goto(`${server.url}/inbox`);
    await page.getByText("You've hit Inbox Zero!").waitFor();
    await page.waitForTimeout(300);
    await shot('inbox-zero');
    await context.close();
    await server.stop();
    removeDir(server.dataDir);
  }
} finally {
  await browser.close();
}
