/** The inbox's AI grouping, sort toggle, in-view filter and Inbox Zero, end to end in Chromium. */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSession, type RunningServer, sessionToken } from './harness';

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
  it('groups by AI category: Urgent, Can Wait, FYI, Not Categorized, with counts; Urgent starts open', async () => {
    // The local AI classified every unread conversation at sign-in, and some are urgent.
    expect(await groupCount('Urgent')).toBeGreaterThan(0);
    expect(await groupHeader('Urgent').getAttribute('aria-expanded')).toBe('true');
    expect(await rows().count()).toBeGreaterThan(0);
    // Collapsed, Urgent leaves room for every header.
    await groupHeader('Urgent').click();
    await page.waitForFunction(() => document.querySelectorAll('.group-header').length === 4);
    expect(await page.locator('.group-label').allTextContents()).toEqual(['Urgent', 'Can Wait', 'FYI', 'Not Categorized']);
    const total = Number(await page.getByRole('tab', { name: /Inbox/ }).locator('.tab-count').textContent());
    const counts = await Promise.all(['Urgent', 'Can Wait', 'FYI', 'Not Categorized'].map(groupCount));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(total);
    expect(counts[3]).toBe(0);
    await groupHeader('Urgent').click();
    await rows().first().waitFor();
  });

  it('moves a conversation out of Urgent with Ctrl+3, and collapses and expands groups', async () => {
    // Counts are read with Urgent collapsed, so every header is on screen.
    const collapsedCounts = async () => {
      await groupHeader('Urgent').click();
      await page.waitForFunction(() => document.querySelectorAll('.group-header').length === 4);
      expect(await groupHeader('Urgent').getAttribute('aria-expanded')).toBe('false');
      return { urgent: await groupCount('Urgent'), fyi: await groupCount('FYI') };
    };
    const before = await collapsedCounts();
    await groupHeader('Urgent').click();
    const id = await rows().first().getAttribute('data-conversation-id');
    await rows().first().hover();
    await page.keyboard.press('Control+3');
    // FYI is collapsed: the row leaves the list, and the counts move.
    await page.locator(`[data-conversation-id="${id}"]`).waitFor({ state: 'detached' });
    const next = await rows().first().getAttribute('data-conversation-id');
    expect(await collapsedCounts()).toEqual({ urgent: before.urgent - 1, fyi: before.fyi + 1 });
    await page.locator(`[data-conversation-id="${next}"]`).waitFor({ state: 'detached' });
    await groupHeader('Urgent').click();
    await page.locator(`[data-conversation-id="${next}"]`).waitFor();
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

  it('shows Inbox Zero once everything is read', async () => {
    const token = await sessionToken(page);
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const list = (await (await fetch(`${server.url}/api/conversations/data`, { headers })).json()) as {
      data: { conversations: Array<{ id: string; unread_count: number }> };
    };
    for (const c of list.data.conversations.filter((x) => x.unread_count > 0)) {
      await fetch(`${server.url}/api/conversations/${encodeURIComponent(c.id)}/mark-read`, { method: 'POST', headers, body: '{}' });
    }
    await page.getByText("You've hit Inbox Zero!").waitFor();
    expect(await page.getByText('Time to enjoy the view...').count()).toBe(1);
  });
});
