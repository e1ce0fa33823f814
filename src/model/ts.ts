/**
 * Slack message timestamps: "seconds.micros" strings, unique within a conversation and
 * compared numerically. A double cannot hold 16 significant digits exactly, so these
 * helpers compare the two integer parts instead of parsing a float.
 */

const TS_PATTERN = /^\d{1,12}(\.\d{1,6})?$/;

export function isTs(value: unknown): value is string {
  return typeof value === 'string' && TS_PATTERN.test(value);
}

function parts(ts: string): [number, number] {
  const dot = ts.indexOf('.');
  if (dot < 0) return [Number(ts), 0];
  const micros = ts
    .slice(dot + 1)
    .padEnd(6, '0')
    .slice(0, 6);
  return [Number(ts.slice(0, dot)), Number(micros)];
}

/** Negative when a is older than b, 0 when equal, positive when newer. Empty strings are oldest. */
export function compareTs(a: string | undefined, b: string | undefined): number {
  if (!a) return b ? -1 : 0;
  if (!b) return 1;
  const [as, am] = parts(a);
  const [bs, bm] = parts(b);
  return as !== bs ? as - bs : am - bm;
}

export function maxTs(a: string | undefined, b: string | undefined): string {
  return compareTs(a, b) >= 0 ? (a ?? '') : (b ?? '');
}

/** The ts of an epoch-milliseconds instant. */
export function tsFromMs(ms: number): string {
  const whole = Math.floor(ms);
  const seconds = Math.floor(whole / 1000);
  const micros = (whole - seconds * 1000) * 1000;
  return `${seconds}.${String(micros).padStart(6, '0')}`;
}

/** The next possible ts after `ts` (one microsecond later). */
export function nextTs(ts: string): string {
  const [s, m] = parts(ts);
  return m >= 999_999 ? `${s + 1}.000000` : `${s}.${String(m + 1).padStart(6, '0')}`;
}

/** A ts for `ms` that is strictly after `after` (when given). */
export function tsAfter(ms: number, after: string | undefined): string {
  const candidate = tsFromMs(ms);
  return after && compareTs(candidate, after) <= 0 ? nextTs(after) : candidate;
}

/** Epoch seconds of a ts (for latest_activity). */
export function tsSeconds(ts: string): number {
  return parts(ts)[0];
}

/** Epoch milliseconds of a ts (micros truncated). */
export function tsToMs(ts: string): number {
  const [s, m] = parts(ts);
  return s * 1000 + Math.floor(m / 1000);
}
