import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIVE_BASE_DELAY_MS, LIVE_JITTER_RATIO, LIVE_MAX_DELAY_MS } from '../../src/model/constants';
import { reconnectDelay } from '../../src/streams/backoff';

describe('reconnectDelay', () => {
  it.each([
    // attempt, random, delay
    [0, 0, 500],
    [1, 0, 1_000],
    [2, 0, 2_000],
    [3, 0, 4_000],
    [4, 0, 8_000],
    [5, 0, 16_000],
    [6, 0, 30_000],
    [9, 0, 30_000],
    [50, 0, 30_000],
    [0, 0.5, 575],
    [3, 0.5, 4_600],
    [6, 0.5, 34_500],
  ])('attempt %i with random %d waits %d ms', (attempt, random, delay) => {
    expect(reconnectDelay(attempt, () => random)).toBeCloseTo(delay, 9);
  });

  it('adds at most 30% jitter: random just below 1 stays just below 1.3 × base', () => {
    expect(reconnectDelay(0, () => 0.999)).toBeCloseTo(649.85, 9);
    expect(reconnectDelay(6, () => 0.999)).toBeCloseTo(38_991, 9);
  });

  it('property: the delay lies in [base, 1.3 × base] and never above 39 000 ms', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_100 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, random) => {
        const base = Math.min(LIVE_BASE_DELAY_MS * 2 ** attempt, LIVE_MAX_DELAY_MS);
        const delay = reconnectDelay(attempt, () => random);
        expect(delay).toBeGreaterThanOrEqual(base);
        expect(delay).toBeLessThanOrEqual(base * (1 + LIVE_JITTER_RATIO));
        expect(delay).toBeLessThanOrEqual(39_000);
      }),
    );
  });

  it('property: the delay never shrinks as attempts grow (same random)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, random) => {
        expect(reconnectDelay(attempt + 1, () => random)).toBeGreaterThanOrEqual(reconnectDelay(attempt, () => random));
      }),
    );
  });
});
