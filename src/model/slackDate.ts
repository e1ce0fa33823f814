/**
 * Slack's `<!date^epoch^format|fallback>` as Slack's client shows it, in the member's time zone:
 * the tokens {date_num}, {date_slash}, {date}, {date_short}, {date_long}, {date_long_full},
 * {date_pretty}, {date_short_pretty}, {date_long_pretty}, {day_divider_pretty}, {time},
 * {time_secs} and {ago}; null for an epoch that is not a date (the caller shows the fallback).
 * Calendar parts come from Intl (the time zone), the distance of {ago} from date-fns.
 */
import { formatDistanceStrict } from 'date-fns';
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_MS = 86_400_000;
const MAX_DATE_MS = 8.64e15;

/** A date's calendar parts in one time zone. */
interface DateParts {
  year: number;
  month: number;
  day: number;
  weekday: string;
  hour: number;
  minute: number;
  second: number;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();

/** One cached formatter per zone; an unknown zone is the runtime's. */
function partFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let f = partFormats.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions = {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      weekday: 'long',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    };
    try {
      f = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    } catch {
      f = new Intl.DateTimeFormat('en-US', options);
    }
    if (partFormats.size > 32) partFormats.clear();
    partFormats.set(key, f);
  }
  return f;
}

function dateParts(ms: number, timeZone: string | undefined): DateParts {
  const parts: Record<string, string> = {};
  for (const p of partFormat(timeZone).formatToParts(ms)) parts[p.type] = p.value;
  const num = (k: string) => Number(parts[k] ?? 0);
  return {
    year: num('year'),
    month: num('month'),
    day: num('day'),
    weekday: parts.weekday ?? '',
    hour: num('hour') % 24,
    minute: num('minute'),
    second: num('second'),
  };
}

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

function clock(p: DateParts, seconds: boolean): string {
  const h = p.hour % 12 === 0 ? 12 : p.hour % 12;
  return `${h}:${pad2(p.minute)}${seconds ? `:${pad2(p.second)}` : ''} ${p.hour < 12 ? 'AM' : 'PM'}`;
}

/** 'today', 'yesterday' or 'tomorrow' in the zone, else null. */
function relativeDay(p: DateParts, now: DateParts): string | null {
  const days = Math.round((Date.UTC(p.year, p.month - 1, p.day) - Date.UTC(now.year, now.month - 1, now.day)) / DAY_MS);
  return ({ [-1]: 'yesterday', 0: 'today', 1: 'tomorrow' } as Record<number, string>)[days] ?? null;
}

/**
 * Slack's date tokens for a timestamp (Slack API: "Formatting text for app surfaces", date
 * formatting): {date_num} 2014-02-18, {date_slash} 18/02/2014, {date} February 18th, 2014,
 * {date_short} Feb 18, 2014, {date_long} Tuesday, February 18th, 2014, {date_long_full}
 * February 18, 2014, the *_pretty forms (today, yesterday, tomorrow, else the plain form),
 * {day_divider_pretty}, {time} 6:39 AM, {time_secs} 6:39:42 AM, {ago} 3 minutes ago. Unknown
 * tokens stay as written. Null when `ts` is not a whole number of seconds in Date's range.
 */
export function formatSlackDate(ts: string, format: string, options: { timeZone?: string; now?: number } = {}): string | null {
  if (!/^-?\d{1,16}$/.test(ts)) return null;
  const ms = Number(ts) * 1000;
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS || !format) return null;
  const nowMs = options.now ?? Date.now();
  const p = dateParts(ms, options.timeZone);
  let nowParts: DateParts | null = null;
  const relative = () => relativeDay(p, (nowParts ??= dateParts(nowMs, options.timeZone)));
  const month = MONTHS[p.month - 1] ?? '';
  const plain: Record<string, () => string> = {
    date_num: () => `${p.year}-${pad2(p.month)}-${pad2(p.day)}`,
    date_slash: () => `${pad2(p.day)}/${pad2(p.month)}/${p.year}`,
    date: () => `${month} ${ordinal(p.day)}, ${p.year}`,
    date_short: () => `${month.slice(0, 3)} ${p.day}, ${p.year}`,
    date_long: () => `${p.weekday}, ${month} ${ordinal(p.day)}, ${p.year}`,
    date_long_full: () => `${month} ${p.day}, ${p.year}`,
    time: () => clock(p, false),
    time_secs: () => clock(p, true),
    ago: () => formatDistanceStrict(ms, nowMs, { addSuffix: true }),
  };
  const pretty: Record<string, string> = { date_pretty: 'date', date_short_pretty: 'date_short', date_long_pretty: 'date_long' };
  const out = format.replace(/\{([a-z_]{1,24})\}/g, (whole, name: string, at: number) => {
    const base = pretty[name];
    if (base !== undefined || name === 'day_divider_pretty') {
      const rel = relative();
      if (rel) return at === 0 ? rel[0]!.toUpperCase() + rel.slice(1) : rel;
      if (base !== undefined) return plain[base]!();
      const sameYear = p.year === nowParts!.year;
      return sameYear ? `${p.weekday}, ${month} ${ordinal(p.day)}` : plain.date_long!();
    }
    return Object.hasOwn(plain, name) ? plain[name]!() : whole;
  });
  return out;
}
