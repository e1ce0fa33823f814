/**
 * Sift against a Slack workspace, end to end in Chromium (issue 7 §6): the real server in
 * Slack mode, pointed at a local server that speaks Slack's Web API, OAuth pages and Socket
 * Mode (tests/fakes/slackServer.ts). Sign in through the OAuth pages, see the workspace's
 * conversations, a message posted in Slack appears live, and a reply sent from Sift reaches Slack.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FakeSlack } from '../fakes/slackServer';
import { slackE2eSession, sessionToken } from './harness';

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

/** A channel the member is in, with another person in it. */
function sharedChannel() {
  const me = fake.member.id;
  const channel = fake.workspace.conversations.find(
    (c) => c.kind === 'public_channel' && c.members.includes(me) && c.members.some((m) => m !== me && !fake.workspace.users.find((u) => u.id === m)?.is_bot),
  );
  if (!channel) throw new Error('the fake workspace has no shared channel');
  const other = channel.members.find((m) => m !== me && !fake.workspace.users.find((u) => u.id === m)?.is_bot)!;
  return { channel, other };
}

describe('Slack mode', () => {
  it('signs in through Slack’s OAuth pages and shows the workspace’s conversations', async () => {
    const visited: string[] = [];
    page.on('request', (request) => visited.push(request.url()));
    page.on('framenavigated', (frame) => visited.push(frame.url()));
    await page.goto(`${session.server.url}/auth`);
    await page.getByRole('button', { name: 'Connect to Slack' }).click();
    await page.waitForURL(`${fake.url}/oauth/v2/authorize**`);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL('**/inbox');
    // The inbox shows the member's unread conversations from Slack (after the first sync, which runs on sign-in).
    await page.locator('[role="option"][data-conversation-id]').first().waitFor({ timeout: 30_000 });
    const token = await sessionToken(page);
    // Issue 12 §1: the session token is in no address the browser visited (the OAuth round trip
    // included) and in none of the page's storage.
    expect(visited.filter((url) => url.includes(token))).toEqual([]);
    expect(await page.evaluate(() => [...Object.values(localStorage), ...Object.values(sessionStorage), document.cookie].join('\n'))).not.toContain(token);
    type Listed = Array<{ id: string; type: string; unread_count: number }>;
    const listed = async (): Promise<Listed> => {
      const res = await fetch(`${session.server.url}/api/conversations/data?limit=1000`, { headers: { Authorization: `Bearer ${token}` } });
      return ((await res.json()) as { data: { conversations: Listed } }).data.conversations;
    };
    // The first sync runs in the background after sign-in; wait until it has them all.
    // Archived conversations are not Sift's to show (access follows Slack).
    const slackIds = new Set(fake.workspace.conversations.filter((c) => c.members.includes(fake.member.id) && !c.is_archived).map((c) => c.id));
    await expect.poll(async () => (await listed()).filter((c) => c.type !== 'thread').length, { timeout: 30_000 }).toBe(slackIds.size);
    const conversations = await listed();
    expect(conversations.filter((c) => c.type !== 'thread').every((c) => slackIds.has(c.id))).toBe(true);
    const unread = conversations.filter((c) => c.unread_count > 0).length;
    expect(unread).toBeGreaterThan(0);
    await expect
      .poll(
        async () =>
          Number(
            await page
              .getByRole('tab', { name: /^Inbox/ })
              .locator('.tab-count')
              .textContent(),
          ),
        { timeout: 30_000 },
      )
      .toBe(unread);
    await page.goto(`${session.server.url}/conversations`);
    const { channel } = sharedChannel();
    await page
      .getByRole('option', { name: new RegExp(channel.name) })
      .first()
      .waitFor({ timeout: 30_000 });
  });

  it('shows a message posted in Slack without a reload', async () => {
    const { channel, other } = sharedChannel();
    fake.post(other, channel.id, 'Live from Slack: the quokka deploy is green');
    await page.getByRole('option', { name: /the quokka deploy is green/ }).waitFor({ timeout: 15_000 });
  });

  it('sends a reply from Sift that reaches Slack', async () => {
    const { channel } = sharedChannel();
    await page.getByRole('option', { name: /the quokka deploy is green/ }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Replying from Sift to Slack');
    await box.press('Enter');
    await page.locator('.message:not(.pending)', { hasText: 'Replying from Sift to Slack' }).waitFor();
    const sent = fake.calls.find((c) => c.method === 'chat.postMessage' && c.params.text === 'Replying from Sift to Slack');
    expect(sent?.params.channel).toBe(channel.id);
    expect(fake.workspace.conversations.find((c) => c.id === channel.id)!.messages.some((m) => m.text === 'Replying from Sift to Slack')).toBe(true);
    // Slack echoes it over Socket Mode; Sift shows it once.
    await page.waitForTimeout(500);
    expect(await page.locator('.detail-pane .message', { hasText: 'Replying from Sift to Slack' }).count()).toBe(1);
  });

  it('shows an edit and a deletion made in Slack in the open conversation', async () => {
    const { channel, other } = sharedChannel();
    const { ts } = fake.post(other, channel.id, 'A typo in the wombat release notes');
    const message = page.locator('.detail-pane .message', { hasText: 'wombat release notes' });
    await message.waitFor();
    fake.edit(channel.id, ts, 'No typo in the wombat release notes');
    await page.locator('.detail-pane .message', { hasText: 'No typo in the wombat release notes' }).waitFor({ timeout: 10_000 });
    fake.remove(channel.id, ts);
    await message.waitFor({ state: 'detached', timeout: 10_000 });
  });
});
