/**
 * Takes screenshots of each screen in both themes into ./screenshots, against a fresh
 * demo server: `npx tsx scripts/screenshots.ts`.
 */
import { mkdirSync } from 'node:fs';
import { launchBrowser, removeDir, signIn, startServer } from '../tests/e2e/harness';
import { buildClientIfNeeded } from './start';

buildClientIfNeeded();
mkdirSync('screenshots', { recursive: true });
const server = await startServer();
const browser = await launchBrowser();
try {
  for (const theme of ['dark', 'light'] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
    const page = await context.newPage();
    await page.goto(`${server.url}/auth`);
    await page.getByRole('button', { name: 'Connect to Slack' }).waitFor();
    await page.screenshot({ path: `screenshots/auth-${theme}.png` });
    await signIn(page, server.url);
    await page.getByRole('option').first().waitFor();
    await page.screenshot({ path: `screenshots/inbox-${theme}.png` });
    await page.getByRole('option').first().click();
    await page.locator('.message').first().waitFor();
    await page.screenshot({ path: `screenshots/conversation-${theme}.png` });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.screenshot({ path: `screenshots/menu-${theme}.png` });
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
  removeDir(server.dataDir);
}
