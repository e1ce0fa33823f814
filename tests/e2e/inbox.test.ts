/** The inbox's AI grouping, sort toggle, in-view filter and Inbox Zero, end to end in Chromium. */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSession, type RunningServer } from './harness';

const session = e2eSession({ signIn: true });
let page: Page;
let server: RunningServer;

beforeAll(async () => {
  ({ page, server } = session);
  await page.locator('.group-header').first().waitFor();
});

const groupHeader = (label: string) => page.locator('.group-header', { has: page.locator('.group-label', { hasText: new RegExp(`^${label}$`) }) });
const groupCount = async (label: string) => Number(await groupHeader(label).locator('.group-count').textContent());
const rows = () => page.locator('[role="option"][data-conversation-id]');

describe('inbox', () => {
  it('groups by AI category: Urgent, Can Wait, FYI, Not Categorized, with counts', async () => {
    expect(await page.locator('.group-label').allTextContents()).toEqual(['Urgent', 'Can Wait', 'FYI', 'Not Categorized']);
    const total = Number(await page.getByRole('tab', { name: /Inbox/ }).locator('.tab-count').textContent());
    const counts = await Promise.all(['Urgent', 'Can Wait', 'FYI', 'Not Categorized'].map(groupCount));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(total);
    // Nothing is urgent yet, so the first group with conversations starts open.
    expect(await rows().count()).toBeGreaterThan(0);
  });

  it('moves a conversation into Urgent with Ctrl+1, and collapses and expands groups', async () => {
    const id = await rows().first().getAttribute('data-conversation-id');
    await rows().first().hover();
    await page.keyboard.press('Control+1');
    await page.locator(`.group-header + *, [data-conversation-id="${id}"]`).first().waitFor();
    await page.waitForFunction(() => document.querySelector('.group-header .group-count')?.textContent === '1');
    // Urgent is expanded: its one row comes right after its header.
    const order = await page.locator('[role="option"]').evaluateAll((els) => els.slice(0, 2).map((e) => e.getAttribute('data-group') ?? e.getAttribute('data-conversation-id')));
    expect(order).toEqual(['urgent', id]);
    await groupHeader('Urgent').click();
    await page.locator(`[data-conversation-id="${id}"]`).waitFor({ state: 'detached' });
    expect(await groupHeader('Urgent').getAttribute('aria-expanded')).toBe('false');
    await groupHeader('Urgent').click();
    await page.locator(`[data-conversation-id="${id}"]`).waitFor();
  });

  it('toggles to time order, flat, and keeps the choice across a reload', async () => {
    await page.getByRole('button', { name: 'Sort by Time' }).click();
    await page.locator('.group-header').first().waitFor({ state: 'detached' });
    const times = await rows().evaluateAll((els) => els.map((e) => e.querySelector('.row-time')?.textContent));
    expect(times.length).toBeGreaterThan(3);
    await page.reload();
    await rows().first().waitFor();
    expect(await page.getByRole('button', { name: 'Sort by AI' }).count()).toBe(1);
    expect(await page.locator('.group-header').count()).toBe(0);
  });

  it('filters the view with Shift+K, case-insensitively, and clears on Esc', async () => {
    const name = (await rows().nth(2).locator('.row-name').textContent())!;
    const before = Number(await page.locator('.conversation-list').getAttribute('data-total'));
    await page.keyboard.press('Shift+K');
    const input = page.getByRole('searchbox', { name: 'Filter this view' });
    await input.waitFor();
    await input.fill(name.slice(0, 8).toUpperCase());
    await page.waitForFunction((b) => Number(document.querySelector('.conversation-list')?.getAttribute('data-total')) < b, before);
    const names = await rows().evaluateAll((els) => els.map((e) => e.textContent?.toLowerCase() ?? ''));
    expect(names.length).toBeGreaterThan(0);
    await input.press('Escape');
    await input.waitFor({ state: 'detached' });
    await page.waitForFunction((b) => Number(document.querySelector('.conversation-list')?.getAttribute('data-total')) === b, before);
  });

  it("shows Inbox Zero once everything is read", async () => {
    const token = await page.evaluate(() => localStorage.getItem('sift_token'));
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const list = (await (await fetch(`${server.url}/api/conversations/data`, { headers })).json()) as { data: { conversations: Array<{ id: string; unread_count: number }> } };
    for (const c of list.data.conversations.filter((x) => x.unread_count > 0)) {
      await fetch(`${server.url}/api/conversations/${encodeURIComponent(c.id)}/mark-read`, { method: 'POST', headers, body: '{}' });
    }
    await page.getByText("You've hit Inbox Zero!").waitFor();
    expect(await page.getByText('Time to enjoy the view...').count()).toBe(1);
  });
});
