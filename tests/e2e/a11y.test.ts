/**
 * What assistive technology reads (issue 13 §3, §5): axe-core over every screen and state in
 * both themes, failing on any critical or serious violation of WCAG 2.0/2.1 A and AA and of
 * axe's best practices. Each state is opened once and checked in the dark and the light theme
 * (the theme switched as the app switches it: data-theme on <html>, stored as 'theme').
 * A failure lists each violation as 'theme · rule (impact): help — element: summary'.
 * Then: prefers-reduced-motion stops animations and transitions, and forced colours keep the
 * focus ring, the cursor and the selected row visible.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSession, sessionToken, signIn, type RunningServer } from './harness';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const FAILING = new Set(['critical', 'serious']);
const THEMES = ['dark', 'light'] as const;

const session = e2eSession({});
let page: Page;
let server: RunningServer;

beforeAll(async () => {
  server = session.server;
  // AxeBuilder needs a page of a context the test made (browser.newPage's own context is refused).
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
});

async function setTheme(theme: (typeof THEMES)[number]): Promise<void> {
  await page.evaluate((t) => {
    document.documentElement.setAttribute('data-theme', t);
    localStorage.setItem('theme', t);
  }, theme);
}

/** The critical and serious violations of the page as it is now, in both themes, one readable line per element. */
async function violations(): Promise<string[]> {
  // A screen that is still fading in (the drawer's 160 ms) shows blended colours: read it once its entrance is over
  // (the finite animations; spinners run forever).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const lines: string[] = [];
  for (const theme of THEMES) {
    await setTheme(theme);
    const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    for (const v of results.violations) {
      if (!FAILING.has(v.impact ?? '')) continue;
      for (const node of v.nodes) {
        const summary = (node.failureSummary ?? '').replace(/\s+/g, ' ').trim();
        lines.push(`${theme} · ${v.id} (${v.impact}): ${v.help} — ${node.target.join(' ')}: ${summary}`);
      }
    }
  }
  await setTheme('dark');
  return lines;
}

/** Asserted after the state is closed again, so one failing state does not leave a dialog over the next. */
function expectNone(found: string[]): void {
  expect(found, `axe found ${found.length} critical or serious violation(s):\n${found.join('\n')}`).toEqual([]);
}

/** Waits until a reading stays the same for half a second. */
async function settled(read: () => Promise<number>): Promise<void> {
  let before = await read();
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(500);
    const now = await read();
    if (now === before) return;
    before = now;
  }
}

const dialog = () => page.getByRole('dialog');
const messageBox = () => page.getByRole('textbox', { name: 'Message' });

describe('axe-core: no critical or serious violations, dark and light', () => {
  it('sign-in', async () => {
    await page.goto(`${server.url}/auth`);
    await page.getByRole('button', { name: 'Connect to Slack' }).waitFor();
    const found = await violations();
    expectNone(found);
  });

  it('waitlist modal', async () => {
    await page.getByRole('button', { name: /^Connect to Teams/ }).click();
    await dialog().getByRole('heading', { name: 'Join the Teams waitlist' }).waitFor();
    const found = await violations();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expectNone(found);
  });

  it('inbox with a group open', async () => {
    await signIn(page, server.url);
    await page.locator('[role="option"][data-conversation-id]').first().waitFor();
    // The group headers are buttons named by their words, outside the listbox (which owns only groups of options).
    await page.getByRole('button', { name: /^Urgent \d+ conversations?$/, expanded: true }).waitFor();
    expect(await page.getByRole('listbox').getByRole('button').count()).toBe(0);
    const found = await violations();
    expectNone(found);
  });

  it('filter bar', async () => {
    await page.getByRole('button', { name: 'Filter this view' }).click();
    await page.getByRole('searchbox', { name: 'Filter this view' }).fill('a');
    const found = await violations();
    await page.keyboard.press('Escape');
    await page.getByRole('searchbox', { name: 'Filter this view' }).waitFor({ state: 'detached' });
    expectNone(found);
  });

  it('focus inbox modal', async () => {
    await page.getByRole('button', { name: 'Create Focus Inbox' }).click();
    await dialog().getByRole('heading', { name: 'Create Focus Inbox' }).waitFor();
    const found = await violations();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expectNone(found);
  });

  it('shortcuts overlay', async () => {
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await dialog().waitFor();
    const found = await violations();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expectNone(found);
  });

  it('palette with results', async () => {
    await page.keyboard.press('Control+k');
    await dialog().getByPlaceholder('Search conversations, messages, and people...').fill('deploy');
    await dialog().getByRole('option').first().waitFor();
    // Every section of results in (conversations, then messages and people), so the whole list is checked.
    await settled(() => dialog().getByRole('option').count());
    const found = await violations();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expectNone(found);
  });

  it('side menu and account menu', async () => {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Menu' }).waitFor();
    const found = await violations();
    await page.locator('.account-button').click();
    await page.getByRole('menu').waitFor();
    found.push(...(await violations()));
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.getByRole('navigation', { name: 'Menu' }).waitFor({ state: 'hidden' });
    expectNone(found);
  });

  it('conversation with the composer', async () => {
    await page.goto(`${server.url}/conversations`);
    await page.locator('[role="option"][data-conversation-id]').first().click();
    await messageBox().waitFor();
    await page.locator('.detail-pane .message').first().waitFor();
    const found = await violations();
    expectNone(found);
  });

  it('refine suggestion', async () => {
    await messageBox().fill('hey guys i think we should gonna ship it tomorrow lol');
    await page.getByRole('toolbar', { name: 'Refine message' }).getByRole('button', { name: 'Professional' }).click();
    const view = page.getByRole('region', { name: 'Refined message' });
    await expect.poll(() => view.getByRole('button', { name: 'Apply' }).isEnabled(), { timeout: 15_000 }).toBe(true);
    const found = await violations();
    await view.getByRole('button', { name: 'Cancel' }).click();
    await view.waitFor({ state: 'detached' });
    await messageBox().fill('');
    expectNone(found);
  });

  it('in-conversation search', async () => {
    await page.getByRole('button', { name: 'Search in conversation' }).click();
    await page.getByRole('searchbox', { name: 'Search in conversation' }).fill('the');
    const found = await violations();
    await page.keyboard.press('Escape');
    expectNone(found);
  });

  it('profile', async () => {
    await page.goto(`${server.url}/profile/me`);
    await page.getByRole('heading').first().waitFor();
    const found = await violations();
    expectNone(found);
  });

  it('Ask AI start and conversation', async () => {
    await page.goto(`${server.url}/ask-ai`);
    await page.getByRole('heading', { name: 'Ask Sift AI anything' }).waitFor();
    await page.getByText(/^[1-9]\d* unread conversations$/).waitFor();
    const found = await violations();
    await page.getByRole('group', { name: 'Suggestions' }).getByRole('button', { name: 'summarize urgent messages' }).click();
    const log = page.getByRole('log', { name: 'Conversation with Sift AI' });
    await expect.poll(() => log.getByRole('article', { name: 'Sift AI' }).count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await page.getByRole('list', { name: 'Catch-up stats' }).waitFor();
    found.push(...(await violations()));
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Ask Sift AI anything' }).waitFor();
    expectNone(found);
  });

  it('Inbox Zero', async () => {
    const headers = { Authorization: `Bearer ${await sessionToken(page)}`, 'Content-Type': 'application/json' };
    const list = (await (await fetch(`${server.url}/api/conversations/data`, { headers })).json()) as {
      data: { conversations: Array<{ id: string; unread_count: number }> };
    };
    for (const c of list.data.conversations.filter((x) => x.unread_count > 0)) {
      await fetch(`${server.url}/api/conversations/${encodeURIComponent(c.id)}/mark-read`, { method: 'POST', headers, body: '{}' });
    }
    await page.goto(`${server.url}/inbox`);
    await page.getByText("You've hit Inbox Zero!").waitFor();
    const found = await violations();
    expectNone(found);
  });
});

describe('motion and forced colours (issue 13 §3)', () => {
  it('prefers-reduced-motion stops animations and transitions (the side menu slides in no more, the account chevron turns at once)', async () => {
    await page.goto(`${server.url}/conversations`);
    await page.locator('[role="option"][data-conversation-id]').first().waitFor();
    const motion = async () => {
      await page.getByRole('button', { name: 'Open menu' }).click();
      const nav = page.getByRole('navigation', { name: 'Menu' });
      await nav.waitFor();
      const seconds = await nav.evaluate((el) => ({
        drawer: parseFloat(getComputedStyle(el).animationDuration),
        chevron: parseFloat(getComputedStyle(el.querySelector('.account-chevron')!).transitionDuration),
      }));
      await page.keyboard.press('Escape');
      await nav.waitFor({ state: 'hidden' });
      return seconds;
    };
    const normal = await motion();
    expect(normal.drawer).toBeGreaterThan(0.1);
    expect(normal.chevron).toBeGreaterThan(0.1);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    try {
      const reduced = await motion();
      expect(reduced.drawer).toBeLessThan(0.001);
      expect(reduced.chevron).toBeLessThan(0.001);
    } finally {
      await page.emulateMedia({ reducedMotion: null });
    }
  });

  it('forced colours keep the focus ring, the cursor and the selected row visible, in system colours', async () => {
    await page.goto(`${server.url}/conversations`);
    await page.locator('[role="option"][data-conversation-id]').nth(1).click();
    await messageBox().waitFor();
    await page.getByRole('listbox').focus();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.emulateMedia({ forcedColors: 'active' });
    try {
      for (const theme of THEMES) {
        await setTheme(theme);
        const seen = await page.evaluate(() => {
          const probe = document.createElement('span');
          probe.style.cssText = 'background-color: Highlight; color: CanvasText';
          document.body.append(probe);
          const { backgroundColor: highlight, color: canvasText } = getComputedStyle(probe);
          probe.remove();
          const selected = getComputedStyle(document.querySelector('.conversation-row.selected')!);
          const cursor = getComputedStyle(document.querySelector('.conversation-row.active:not(.selected)')!);
          const list = getComputedStyle(document.querySelector('.conversation-list')!);
          return {
            selected: selected.backgroundColor === highlight,
            cursor: cursor.outlineStyle !== 'none' && parseFloat(cursor.outlineWidth) >= 2 && [canvasText, highlight].includes(cursor.outlineColor),
            focusRing: list.outlineStyle !== 'none' && parseFloat(list.outlineWidth) >= 2 && list.outlineColor === highlight,
          };
        });
        expect(seen, theme).toEqual({ selected: true, cursor: true, focusRing: true });
      }
    } finally {
      await page.emulateMedia({ forcedColors: 'none' });
      await setTheme('dark');
    }
  });
});
