/**
 * Issue 12 §5 in Chromium: after signing in, the session token is in no address the browser
 * visited and in none of the page's storage (only in the HttpOnly cookie); a token in the
 * address is never trusted; every screen runs under Sift's Content-Security-Policy without a
 * violation (the page listens for `securitypolicyviolation`, and the server logs what the
 * browser reports, the engine's worker included); an injected inline script is refused and
 * reported; and no other site can frame the inbox.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSession, sessionToken, signIn, type RunningServer } from './harness';

declare global {
  interface Window {
    __violations: string[];
    __ran?: number;
  }
}

const session = e2eSession({
  init: [
    () => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
    },
  ],
});
let page: Page;
let server: RunningServer;
/** Every address the page asked for or went to. */
const visited: string[] = [];

beforeAll(async () => {
  ({ page, server } = session);
  page.on('request', (request) => visited.push(request.url()));
  page.on('framenavigated', (frame) => visited.push(frame.url()));
});

const violations = () => page.evaluate(() => window.__violations);
const reported = () => server.output().includes('content security policy violation');

describe('the session token stays in its HttpOnly cookie', () => {
  it('after signing in: in no visited address, not in localStorage, sessionStorage or document.cookie', async () => {
    await signIn(page, server.url);
    await page.getByRole('option').first().waitFor();
    const token = await sessionToken(page);
    const cookie = (await page.context().cookies()).find((c) => c.value === token)!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(visited.length).toBeGreaterThan(5);
    expect(visited.filter((url) => url.includes(token))).toEqual([]);
    expect(visited.some((url) => new URL(url).searchParams.has('token'))).toBe(false);
    const readable = await page.evaluate(() => [...Object.values(localStorage), ...Object.values(sessionStorage), document.cookie].join('\n'));
    expect(readable).not.toContain(token);
    expect(await page.evaluate(() => localStorage.getItem('sift_token'))).toBeNull();
  });

  it("a token in the address is never trusted: an attacker's link does not sign a browser into their account", async () => {
    const res = await fetch(`${server.url}/auth/slack`, { redirect: 'manual' });
    const attackers = /sift_token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
    const fresh = await page.context().browser()!.newContext();
    try {
      const victim = await fresh.newPage();
      await victim.goto(`${server.url}/?auth_success=true&workspace=T0SIFTDEMO&token=${attackers}`);
      await victim.waitForURL('**/auth');
      await victim.getByRole('button', { name: 'Connect to Slack' }).waitFor();
      expect(await victim.evaluate(() => [...Object.values(localStorage), ...Object.values(sessionStorage)].join('\n'))).not.toContain(attackers);
      expect(await fresh.cookies()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

describe('the Content-Security-Policy', () => {
  it('every screen runs under it with no violation, in the page or the worker', async () => {
    for (const path of ['/inbox', '/conversations', '/ask-ai', '/profile/me', '/inbox']) {
      await page.goto(`${server.url}${path}`);
      await page.locator('#root *').first().waitFor();
      await page.waitForTimeout(300);
      expect(await violations(), path).toEqual([]);
    }
    // A conversation (messages, avatars, emoji) and the palette with a search and a filter.
    await page.getByRole('option').first().waitFor();
    await page.getByRole('option').first().click();
    await page
      .getByRole('region', { name: /conversation/i })
      .or(page.locator('[data-testid="conversation-pane"]'))
      .first()
      .waitFor({ timeout: 5_000 })
      .catch(() => undefined);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('deploy');
    await page.waitForTimeout(800);
    await page.keyboard.press('Escape');
    expect(await violations()).toEqual([]);
    expect(reported(), server.output().slice(-2_000)).toBe(false);
  });

  it('an injected inline script is refused, seen by the page and reported to the server', async () => {
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__ran = 1';
      document.body.append(script);
    });
    await expect.poll(violations).toEqual([expect.stringMatching(/^script-src-elem inline/)]);
    expect(await page.evaluate(() => window.__ran)).toBeUndefined();
    await expect.poll(reported, { timeout: 5_000 }).toBe(true);
  });

  it('another site cannot frame the inbox', async () => {
    const context = await page.context().browser()!.newContext();
    const framer = await context.newPage();
    try {
      await framer.goto('about:blank');
      await framer.setContent(`<iframe id="f" src="${server.url}/inbox" width="800" height="600"></iframe>`);
      await framer.waitForTimeout(1_500);
      const frame = framer.frames().find((f) => f !== framer.mainFrame())!;
      const hasSift = await frame.evaluate(() => document.querySelector('#root') !== null).catch(() => false);
      expect(hasSift).toBe(false);
    } finally {
      await context.close();
    }
  });
});
