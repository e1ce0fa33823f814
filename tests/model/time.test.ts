import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageTime, relativeTime } from '../../src/model/time';

const S = 1;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const W = 7 * D;

describe('relativeTime', () => {
  const nowMs = 1_700_000_000_000;
  const nowS = nowMs / 1000;

  it.each([
    // seconds ago, text
    [0, 'now'],
    [1, 'now'],
    [59, 'now'],
    [M, '1m'],
    [M + 59, '1m'],
    [2 * M, '2m'],
    [H - 1, '59m'],
    [H, '1h'],
    [2 * H - 1, '1h'],
    [D - 1, '23h'],
    [D, '1d'],
    [2 * D, '2d'],
    [W - 1, '6d'],
    [W, '1w'],
    [2 * W - 1, '1w'],
    [2 * W, '2w'],
    [4 * W - 1, '3w'],
    // 4 weeks and over is months, at least 1
    [4 * W, '1mo'],
    [30 * D, '1mo'],
    [60 * D - 1, '1mo'],
    [60 * D, '2mo'],
    [365 * D, '12mo'],
    // the future (clock skew) is now
    [-5, 'now'],
    [-10 * D, 'now'],
  ])('%i s ago is %s', (ago, text) => {
    expect(relativeTime(nowS - ago, nowMs)).toBe(text);
  });

  it('ignores the sub-second part of now', () => {
    expect(relativeTime(nowS - 59, nowMs + 999)).toBe('now');
    expect(relativeTime(nowS - 60, nowMs + 999)).toBe('1m');
  });

  it('property: never throws, always one of the SPEC units, and never goes backwards as time passes', () => {
    const order = (t: string) => {
      if (t === 'now') return 0;
      const m = /^(\d+)(m|h|d|w|mo)$/.exec(t)!;
      const unit = { m: M, h: H, d: D, w: W, mo: 30 * D }[m[2] as 'm' | 'h' | 'd' | 'w' | 'mo'];
      return Number(m[1]) * unit;
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e9 }), fc.integer({ min: -1e6, max: 4e8 }), fc.integer({ min: 0, max: 1e8 }), (at, ago, later) => {
        const now = (at + ago) * 1000;
        const a = relativeTime(at, now);
        expect(a).toMatch(/^(now|[1-9]\d*(m|h|d|w|mo))$/);
        const b = relativeTime(at, now + later * 1000);
        // compare the spans the texts stand for (3w → 1mo drops the number, not the span)
        expect(order(b)).toBeGreaterThanOrEqual(order(a));
      }),
    );
  });
});

describe('messageTime (local time)', () => {
  // Built from local fields, so the expectations hold in any TZ.
  const now = new Date(2024, 2, 15, 14, 30).getTime(); // Fri 15 Mar 2024, 2:30 PM

  it.each<[string, Date, string]>([
    ['today, morning', new Date(2024, 2, 15, 9, 5), '9:05 AM'],
    ['today, midnight', new Date(2024, 2, 15, 0, 0), '12:00 AM'],
    ['today, noon', new Date(2024, 2, 15, 12, 0), '12:00 PM'],
    ['today, a minute ago', new Date(2024, 2, 15, 14, 29), '2:29 PM'],
    ['later today', new Date(2024, 2, 15, 23, 59), '11:59 PM'],
    ['yesterday, late', new Date(2024, 2, 14, 23, 59), 'Yesterday at 11:59 PM'],
    ['yesterday, early', new Date(2024, 2, 14, 0, 1), 'Yesterday at 12:01 AM'],
    ['two days ago', new Date(2024, 2, 13, 23, 59), 'Mar 13, 11:59 PM'],
    ['last month', new Date(2024, 1, 2, 8, 7), 'Feb 2, 8:07 AM'],
    ['last year', new Date(2023, 11, 25, 18, 0), 'Dec 25, 6:00 PM'],
    ['tomorrow', new Date(2024, 2, 16, 9, 0), 'Mar 16, 9:00 AM'],
  ])('%s', (_label, at, text) => {
    expect(messageTime(at.getTime(), now)).toBe(text);
  });

  it.each<[string, Date, Date, string]>([
    ['across a month boundary (leap day)', new Date(2024, 2, 1, 10, 0), new Date(2024, 1, 29, 22, 15), 'Yesterday at 10:15 PM'],
    ['across a year boundary', new Date(2024, 0, 1, 0, 5), new Date(2023, 11, 31, 23, 55), 'Yesterday at 11:55 PM'],
    ['two days across a year boundary', new Date(2024, 0, 1, 0, 5), new Date(2023, 11, 30, 23, 55), 'Dec 30, 11:55 PM'],
    ['just after midnight, a minute ago is yesterday', new Date(2024, 5, 10, 0, 0), new Date(2024, 5, 9, 23, 59), 'Yesterday at 11:59 PM'],
  ])('%s', (_label, nowDate, at, text) => {
    expect(messageTime(at.getTime(), nowDate.getTime())).toBe(text);
  });

  it('property: never throws and is one of the three forms', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 0, max: 4e12 }), (at, nowMs) => {
        expect(messageTime(at, nowMs)).toMatch(/^(\d{1,2}:\d\d [AP]M|Yesterday at \d{1,2}:\d\d [AP]M|[A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d\d [AP]M)$/);
      }),
    );
  });
});
