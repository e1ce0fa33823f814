/** Time formats of SPEC §2.4, §2.6 and §9, as pure functions of a timestamp and "now". */
import { format, isSameDay, subDays } from 'date-fns';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/** Relative time for a list row: now, m, h, d, w (under 4 weeks), mo. */
export function relativeTime(epochSeconds: number, nowMs: number): string {
  const diff = Math.max(0, Math.floor(nowMs / 1000) - epochSeconds);
  if (diff < MINUTE) return 'now';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}m`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)}h`;
  if (diff < WEEK) return `${Math.floor(diff / DAY)}d`;
  if (diff < 4 * WEEK) return `${Math.floor(diff / WEEK)}w`;
  return `${Math.max(1, Math.floor(diff / (30 * DAY)))}mo`;
}

/** A message's time: 'h:mm a' today, 'Yesterday at h:mm a', else 'MMM d, h:mm a' (local time). */
export function messageTime(ms: number, nowMs: number): string {
  const at = new Date(ms);
  const now = new Date(nowMs);
  if (isSameDay(at, now)) return format(at, 'h:mm a');
  if (isSameDay(at, subDays(now, 1))) return `Yesterday at ${format(at, 'h:mm a')}`;
  return format(at, 'MMM d, h:mm a');
}
