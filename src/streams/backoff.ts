import { LIVE_BASE_DELAY_MS, LIVE_JITTER_RATIO, LIVE_MAX_DELAY_MS } from '../model/constants';

/**
 * The wait before a live-stream reconnect (SPEC §9): 500 ms doubling per attempt, capped at
 * 30 s, plus random jitter up to 30 % of that delay.
 *
 * `attempt` 0 is the first retry. `random` is a source in [0, 1) (Math.random in production,
 * a constant in tests). The result lies in [base, 1.3 × base], so never above 39 000 ms.
 *
 *   attempt:   0     1      2      3      4      5       6…
 *   base:    500  1000   2000   4000   8000  16000   30000
 */
export function reconnectDelay(attempt: number, random: () => number): number {
  const base = Math.min(LIVE_BASE_DELAY_MS * 2 ** attempt, LIVE_MAX_DELAY_MS);
  return base + random() * LIVE_JITTER_RATIO * base;
}
