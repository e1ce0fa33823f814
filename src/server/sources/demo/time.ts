/**
 * Time in the demo workspace, in integer epoch microseconds (Slack ts precision): when a
 * conversation's latest message is, and how its messages are spread before that.
 */
import type { AiCategory } from '../../../model/types';
import { exponential, type Rng } from './random';

export const SECOND_US = 1_000_000;
export const MINUTE_US = 60 * SECOND_US;
export const HOUR_US = 60 * MINUTE_US;
export const DAY_US = 24 * HOUR_US;
/** Messages are spread over this window before `now`. */
export const WINDOW_US = 21 * DAY_US;

/** How long before now a conversation's latest message is: urgent ones are recent. */
export function lagUs(rng: Rng, truth: AiCategory): number {
  const u = rng();
  switch (truth) {
    case 'urgent':
      return MINUTE_US + u * u * 10 * HOUR_US;
    case 'can_wait':
      return 4 * MINUTE_US + u * Math.sqrt(u) * 5 * DAY_US;
    case 'fyi':
      return MINUTE_US + Math.pow(u, 1.6) * 19 * DAY_US;
  }
}

/** A log-uniform typical gap between messages, in [min, max] µs. */
export function gapUs(rng: Rng, min: number, max: number): number {
  return min * Math.pow(max / min, rng());
}

/**
 * Fills `out[0..n)` with strictly increasing integer µs times from `start` to `end` (the last
 * is `end`), random gaps that grow denser towards the end.
 */
export function layoutTimes(rng: Rng, out: number[], n: number, start: number, end: number): void {
  out.length = n;
  if (n === 0) return;
  let acc = 0;
  out[0] = 0;
  for (let i = 1; i < n; i++) {
    acc += exponential(rng);
    out[i] = acc;
  }
  const span = end - start;
  for (let i = 0; i < n - 1; i++) out[i] = Math.floor(start + span * Math.pow(out[i]! / acc, 0.75));
  out[n - 1] = Math.floor(end);
  for (let i = n - 2; i >= 0; i--) if (out[i]! >= out[i + 1]!) out[i] = out[i + 1]! - 1;
}
