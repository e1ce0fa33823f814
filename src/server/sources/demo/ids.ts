/**
 * Slack-shaped identifiers and timestamps for the demo workspace.
 *
 * Ids are a letter plus 8 upper-case base-36 characters. The last 7 characters are a keyed
 * bijection of a running index (a 32-bit permutation), so ids of one kind never collide and
 * no set of issued ids has to be kept; the first character is a hash, for looks only.
 */

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A keyed permutation of the 32-bit integers (every step is invertible). */
function permute32(index: number, key: number): number {
  let x = (index ^ key) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d) >>> 0;
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b) >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  x = (x + key) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0x5bd1e995) >>> 0;
  return (x ^ (x >>> 15)) >>> 0;
}

/**
 * The id of the `index`-th entity of one kind: `prefix` + 8 base-36 characters.
 * Distinct indices (below 2^32) of one prefix under one key always give distinct ids.
 */
export function slackId(prefix: string, index: number, key: number): string {
  key = (key ^ Math.imul(prefix.charCodeAt(0), 0x9e3779b1)) >>> 0; // one permutation per kind
  let x = permute32(index, key);
  let body = '';
  for (let i = 0; i < 7; i++) {
    body = BASE36[x % 36]! + body;
    x = Math.floor(x / 36);
  }
  // 36^7 > 2^32, so x is now 0: the 7 characters carry the whole permutation.
  const lead = BASE36[permute32(index, key ^ 0x5f3759df) % 36]!;
  return prefix + lead + body;
}

/** Slack's "seconds.micros" form of an epoch time in integer microseconds. */
export function formatTs(micros: number): string {
  const seconds = Math.floor(micros / 1_000_000);
  const frac = micros - seconds * 1_000_000;
  return `${seconds}.${String(frac).padStart(6, '0')}`;
}

/** Epoch microseconds of a Slack ts (exact for any ts this module formats). */
export function parseTs(ts: string): number {
  const dot = ts.indexOf('.');
  if (dot < 0) return Number(ts) * 1_000_000;
  return (
    Number(ts.slice(0, dot)) * 1_000_000 +
    Number(
      ts
        .slice(dot + 1)
        .padEnd(6, '0')
        .slice(0, 6),
    )
  );
}

/** A last_read that is earlier than every message: nothing in the conversation was read. */
export const NEVER_READ_TS = '0000000000.000000';
