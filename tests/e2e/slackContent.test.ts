/**
 * A real company's Slack in Chromium (issue 11 §5): the built app and the real server in Slack
 * mode against the local Slack stand-in's workspace in Slack's own shapes. Each kind of message
 * (app and webhook posts with blocks and attachments, files, reactions, edits, /me, a deleted
 * parent, a huddle, system lines, an external person, mentions of user groups, channels and
 * custom emoji) is seen in its conversation and as a row preview; search finds words that exist
 * only inside a block, an attachment and a file title. Screenshots of each in both themes go to
 * screenshots/slack-*.png (with SIFT_SCREENSHOTS=1).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FakeSlack } from '../fakes/slackServer';
import { slackE2eSession, sessionToken } from './harness';
import { derivedText } from '../../src/model/slackText';
import { plainText } from '../../src/model/text';
import type { Message } from '../../src/model/types';

const slack = slackE2eSession();
const session = slack.session;
let fake: FakeSlack;
beforeAll(() => {
  fake = slack.fake();
});

let page: Page;
beforeAll(() => {
  ({ page } = session);
});

const SHOTS = join(import.meta.dirname, '..', '..', 'screenshots');
const extras = () => fake.workspace.extras!;
const nameOf = (id: string) => fake.workspace.conversations.find((c) => c.id === id)!.name;

/** Screenshots of the open conversation in both themes, when asked for (SIFT_SCREENSHOTS=1). */
async function shoot(name: string): Promise<void> {
  if (!process.env.SIFT_SCREENSHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    await page.screenshot({ path: join(SHOTS, `slack-${name}-${theme}.png`) });
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
}

/** The row of a conversation on the conversations page, brought into the list by the view's filter (the list is windowed). */
async function rowOf(id: string, filter: string) {
  const filterBox = page.getByRole('searchbox', { name: 'Filter this view' });
  if (!(await filterBox.count())) await page.getByRole('button', { name: 'Filter this view' }).click();
  await filterBox.fill(filter);
  const row = page.locator(`[role="option"][data-conversation-id="${id}"]`);
  await row.waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
    const shown = await page
      .locator('[role="option"][data-conversation-id]')
      .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-conversation-id')} ${r.textContent}`));
    const token = await sessionToken(page);
    const res = await fetch(`${session.server.url}/api/conversations/data?limit=1000`, { headers: { Authorization: `Bearer ${token}` } });
    const server = ((await res.json()) as { data: { conversations: Array<{ id: string; name: string }> } }).data.conversations.find((c) => c.id === id);
    throw new Error(`no row ${id} for '${filter}'; server has ${JSON.stringify(server)?.slice(0, 300)}; shown: ${shown.join(' | ')}; ${String(error)}`);
  });
  return row;
}

/** Opens a conversation from its row. */
async function open(id: string, filter: string): Promise<void> {
  await (await rowOf(id, filter)).click();
  await page.locator('.detail-pane .message').first().waitFor({ timeout: 15_000 });
}

const pane = () => page.locator('.detail-pane');

describe('a real Slack workspace, as Slack shows it', () => {
  it('signs in and syncs the workspace', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${session.server.url}/auth`);
    await page.getByRole('button', { name: 'Connect to Slack' }).click();
    await page.waitForURL(`${fake.url}/oauth/v2/authorize**`);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL('**/inbox');
    // The first sync runs in the background after sign-in and reloads the page at its end: wait for it.
    const token = await sessionToken(page);
    const held = async () => {
      const res = await fetch(`${session.server.url}/api/conversations/data?limit=1000`, { headers: { Authorization: `Bearer ${token}` } });
      return ((await res.json()) as { data: { conversations: Array<{ type: string }> } }).data.conversations.filter((c) => c.type !== 'thread').length;
    };
    const inSlack = fake.workspace.conversations.filter((c) => c.members.includes(fake.member.id) && !c.is_archived).length;
    await expect.poll(held, { timeout: 30_000 }).toBe(inSlack);
    await page.waitForTimeout(1_000);
    await page.goto(`${session.server.url}/conversations`);
    await rowOf(extras().alerts, nameOf(extras().alerts));
  });

  it('shows app and webhook posts: attachment cards, blocks, the app as author, system lines; the row previews the newest post', async () => {
    // The row: the newest post's derived text (its text is empty; it lives in an attachment or blocks).
    const row = await rowOf(extras().alerts, nameOf(extras().alerts));
    const newest = fake.workspace.conversations
      .find((c) => c.id === extras().alerts)!
      .messages.filter((m) => !m.subtype || m.subtype === 'bot_message')
      .at(-1)!;
    expect(newest.text.length).toBeLessThan(20);
    const words = plainText(derivedText(newest as unknown as Message), { user: () => undefined })
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 16);
    expect(words.length).toBeGreaterThan(10);
    await expect.poll(async () => (await row.locator('.row-preview').textContent()) ?? '').toContain(words);
    expect(await row.textContent()).not.toMatch(/set the channel (topic|description)|joined the channel|pinned a message/);
    await open(extras().alerts, nameOf(extras().alerts));
    // PagerDuty's legacy attachment, as a card with its title and fields.
    const card = pane().locator('.attachment', { hasText: '#4821: [P1] checkout-api error rate above 5%' }).first();
    await card.waitFor();
    await expect.poll(() => card.locator('.attachment-field').count()).toBeGreaterThan(1);
    // A webhook post is authored by its app (bots.info), with the APP badge; nothing reads 'Unknown'.
    await pane().locator('.message-author', { hasText: 'Statuspage' }).first().waitFor();
    expect(await pane().locator('.app-badge').count()).toBeGreaterThan(0);
    expect(
      await pane()
        .locator('.message-author', { hasText: /^Unknown$/ })
        .count(),
    ).toBe(0);
    // System lines (topic, purpose, pin, integration) are lines, not messages.
    expect(await pane().locator('.system-line').count()).toBeGreaterThan(0);
    await shoot('alerts');
  });

  it('shows files, reactions, edits, /me, a deleted parent, a huddle, user groups, channel mentions and custom emoji', async () => {
    await open(extras().deploys, nameOf(extras().deploys));
    const p = pane();
    await p.locator('.file-title', { hasText: 'Marmaladon capacity plan Q3' }).waitFor();
    const chip = p.locator('a.file-chip, .file-chip').filter({ hasText: 'Marmaladon' }).first();
    expect(await chip.textContent()).toMatch(/KB|MB/);
    await p.locator('.reactions .reaction').first().waitFor();
    expect(await p.locator('.reactions .reaction.mine').count()).toBeGreaterThan(0);
    await p.locator('.edited').first().waitFor();
    await p.locator('.me-message').first().waitFor();
    await p.locator('.deleted-message', { hasText: 'This message was deleted.' }).first().waitFor();
    await p.locator('.huddle-card').first().waitFor();
    await p.getByText('@oncall-payments').first().waitFor();
    await p.getByText('#incident-review').first().waitFor();
    await p.locator('img.custom-emoji').first().waitFor();
    await shoot('deploys');
  });

  it('names a Slack Connect person in their DM and marks them as external', async () => {
    const external = fake.workspace.externalUsers.find((u) => u.id === extras().externalUserId)!;
    await open(extras().externalIm, external.profile.display_name || external.real_name);
    await pane().locator('.message-author', { hasText: external.real_name }).first().waitFor();
    await pane().locator('.external-badge').first().waitFor();
    await shoot('external');
  });

  it.each([['zanzibarite'], ['quillfeather'], ['marmaladon']])('search finds %s, a word that exists only inside a post', async (word) => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('ControlOrMeta+k');
    const input = page.getByRole('combobox', { name: 'Search' });
    await input.waitFor({ timeout: 5_000 });
    await input.fill(word);
    const where = extras().textOnlyInside.find((t) => t.word === word)!;
    const result = page
      .locator('[role="option"]', { hasText: nameOf(where.channel) })
      .filter({ hasText: new RegExp(word, 'i') })
      .first();
    await result.waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
      await page.screenshot({ path: join(SHOTS, `failed-search-${word}.png`) });
      throw error;
    });
    if (word === 'zanzibarite') await shoot('search');
    await page.keyboard.press('Escape');
  });
});
