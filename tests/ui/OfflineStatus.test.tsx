import { render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageTime } from '../../src/model/time';
import { OfflineStatus, syncedAgo } from '../../src/ui/components/OfflineStatus';

const NOW = Date.UTC(2026, 10, 20, 15, 0, 0);
const MINUTE = 60_000;

const status = () => screen.getByRole('status');

describe('OfflineStatus (issue 14 §3)', () => {
  it('says Sift is offline and when it last synced, the exact time in the tooltip', () => {
    const syncedAt = NOW - 5 * MINUTE;
    render(<OfflineStatus online={false} lastSyncedAt={syncedAt} now={NOW} />);
    expect(status().textContent).toBe('Offline — last synced 5m ago');
    const time = status().querySelector('time')!;
    expect(time.getAttribute('datetime')).toBe(new Date(syncedAt).toISOString());
    expect(time.getAttribute('title')).toBe(messageTime(syncedAt, NOW));
  });

  it('says how many changes made offline wait to be sent', () => {
    const { rerender } = render(<OfflineStatus online={false} lastSyncedAt={NOW - 5 * MINUTE} now={NOW} waiting={1} />);
    expect(status().textContent).toBe('Offline — last synced 5m ago · 1 change waits to be sent');
    rerender(<OfflineStatus online={false} lastSyncedAt={NOW - 5 * MINUTE} now={NOW} waiting={3} />);
    expect(status().textContent).toBe('Offline — last synced 5m ago · 3 changes wait to be sent');
  });

  it('says it never synced when there is no sync yet', () => {
    render(<OfflineStatus online={false} lastSyncedAt={null} now={NOW} />);
    expect(status().textContent).toBe('Offline — not synced yet');
    expect(status().querySelector('time')).toBeNull();
  });

  it('is an empty status while online, and the same region fills when the connection drops and empties when it returns', () => {
    const { rerender } = render(<OfflineStatus online lastSyncedAt={NOW - MINUTE} now={NOW} />);
    const region = status();
    expect(region.textContent).toBe('');
    expect(region.hasAttribute('data-offline')).toBe(false);

    rerender(<OfflineStatus online={false} lastSyncedAt={NOW - MINUTE} now={NOW} />);
    expect(status()).toBe(region);
    expect(region.textContent).toBe('Offline — last synced 1m ago');
    expect(region.hasAttribute('data-offline')).toBe(true);

    // Time passes while offline: the caller's `now` moves the relative time.
    rerender(<OfflineStatus online={false} lastSyncedAt={NOW - MINUTE} now={NOW + 3 * 60 * MINUTE} />);
    expect(region.textContent).toBe('Offline — last synced 3h ago');

    rerender(<OfflineStatus online lastSyncedAt={NOW} now={NOW} />);
    expect(status()).toBe(region);
    expect(region.textContent).toBe('');
  });

  it.each([
    { ago: 0, text: 'just now' },
    { ago: 59_000, text: 'just now' },
    { ago: MINUTE, text: '1m ago' },
    { ago: 59 * MINUTE, text: '59m ago' },
    { ago: 2 * 60 * MINUTE, text: '2h ago' },
    { ago: 3 * 24 * 60 * MINUTE, text: '3d ago' },
    { ago: 14 * 24 * 60 * MINUTE, text: '2w ago' },
    { ago: 70 * 24 * 60 * MINUTE, text: '2mo ago' },
    { ago: -5 * MINUTE, text: 'just now' }, // a clock a little ahead of the page's
  ])('syncedAgo: $ago ms before now is $text', ({ ago, text }) => {
    expect(syncedAgo(NOW - ago, NOW)).toBe(text);
  });

  it('is styled with the theme variables only, so both themes colour it', () => {
    const css = readFileSync(resolve('src/ui/styles-offline.css'), 'utf8');
    const colours = [...css.matchAll(/(?:^|[\s;{])(color|background|border|border-color|background-color)\s*:\s*([^;]+);/g)].map((m) => m[2]!);
    expect(colours.length).toBeGreaterThanOrEqual(3);
    for (const value of colours) expect(value).toMatch(/var\(--[a-z-]+\)/);
    expect(css).not.toMatch(/#[0-9a-f]{3,8}\b|rgb\(|hsl\(/i);
  });
});
