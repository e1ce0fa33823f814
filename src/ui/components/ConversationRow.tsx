import { memo } from 'react';
import { GROUPS } from '../../model/layout';
import { stripBidi } from '../../model/linkSafety';
import type { ConversationRow as Row } from '../../model/rows';
import { relativeTime } from '../../model/time';
import { command } from '../engine';
import { Avatar } from './Avatar';
import { TypeIcon } from './TypeIcon';

const CATEGORY_BARS: Record<string, number> = { urgent: 3, can_wait: 2, fyi: 1 };

/** The three-bar category icon; its reason shows on hover, and on the active row while navigating by keyboard. */
function CategoryBars({ category, reason: raw, tipId }: { category?: string; reason?: string; tipId: string }) {
  const level = category ? (CATEGORY_BARS[category] ?? 0) : 0;
  // The AI's words, shown outside a message: no bidi or control characters (issue 12 §4).
  const reason = raw === undefined ? undefined : stripBidi(raw).trim() || undefined;
  return (
    <span className="category">
      <span className={`category-bars level-${level}`} title={reason} aria-label={category ? `Category ${category}` : 'Not categorized'}>
        <i />
        <i />
        <i />
      </span>
      {reason && (
        <span className="reason-tip" role="tooltip" id={tipId}>
          {reason}
        </span>
      )}
    </span>
  );
}

const UNITS: Record<string, string> = { m: 'minute', h: 'hour', d: 'day', w: 'week', mo: 'month' };

/** The row's short time ('5m', '3h', 'now') as words a screen reader says ('5 minutes ago', 'just now'). */
export function spokenTime(short: string): string {
  const match = /^(\d+)(mo|m|h|d|w)$/.exec(short);
  if (!match) return short === 'now' ? 'just now' : short;
  const n = Number(match[1]);
  return `${n} ${UNITS[match[2]!]}${n === 1 ? '' : 's'} ago`;
}

/**
 * What a screen reader says for a row, in the order a member scans it: name, unread count
 * (when there is one, as the badge shows), category, last message, time.
 */
export function rowLabel(row: Row, time: string): string {
  const category = GROUPS.find((g) => g.id === (row.category ?? 'none'))!.label;
  const parts = [row.name, row.unread > 0 ? `${row.unread} unread` : null, category, row.preview || null, spokenTime(time)];
  return parts.filter((p): p is string => p !== null).join(', ');
}

/** Windows arrive as new objects: compare what a row shows, so an unchanged row does not re-render. */
function sameRow(a: Row, b: Row): boolean {
  return (
    a.id === b.id &&
    a.name === b.name &&
    a.unread === b.unread &&
    a.preview === b.preview &&
    a.latest_activity === b.latest_activity &&
    a.category === b.category &&
    a.reason === b.reason &&
    a.more === b.more &&
    a.is_private === b.is_private &&
    a.avatars.length === b.avatars.length &&
    a.avatars.every((f, i) => f.initials === b.avatars[i]!.initials && f.colour === b.avatars[i]!.colour && f.image === b.avatars[i]!.image)
  );
}

type RowProps = {
  row: Row;
  selected: boolean;
  active?: boolean;
  onOpen: (id: string, index: number) => void;
  onHover?: (index: number) => void;
  now: number;
  /** The row's slot in the list (what onOpen and onHover are told). */
  index: number;
  /** Its position in its set (its group when grouped), from 1; the slot + 1 by default. */
  posInSet?: number;
  setSize: number;
};

function equalProps(a: RowProps, b: RowProps): boolean {
  return (
    sameRow(a.row, b.row) &&
    a.selected === b.selected &&
    a.active === b.active &&
    a.onOpen === b.onOpen &&
    a.onHover === b.onHover &&
    a.now === b.now &&
    a.index === b.index &&
    a.posInSet === b.posInSet &&
    a.setSize === b.setSize
  );
}

export const ConversationRow = memo(function ConversationRow({
  row,
  selected,
  active = false,
  onOpen,
  onHover,
  now,
  index,
  posInSet = index + 1,
  setSize,
}: RowProps) {
  const time = relativeTime(row.latest_activity, now);
  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/interactive-supports-focus -- an option of an aria-activedescendant listbox: the focus stays on the listbox, whose Enter (the registry's 'open') opens it
    <div
      id={`row-${row.id}`}
      role="option"
      aria-selected={selected}
      aria-label={rowLabel(row, time)}
      aria-describedby={row.reason ? `reason-${row.id}` : undefined}
      aria-posinset={posInSet}
      aria-setsize={setSize}
      className={`conversation-row${selected ? ' selected' : ''}${active ? ' active' : ''}${row.unread > 0 ? ' unread' : ''}`}
      onClick={() => onOpen(row.id, index)}
      onMouseEnter={onHover ? () => onHover(index) : undefined}
      data-conversation-id={row.id}
    >
      <CategoryBars category={row.category} reason={row.reason} tipId={`reason-${row.id}`} />
      <TypeIcon type={row.type} isPrivate={row.is_private} />
      <div className="row-main">
        <div className="row-top">
          <span className="row-name">{row.name}</span>
          <time className="row-time" dateTime={Number.isFinite(row.latest_activity) ? new Date(row.latest_activity * 1000).toISOString() : undefined}>
            {time}
          </time>
        </div>
        <div className="row-bottom">
          <span className="row-preview">{row.preview}</span>
          <span
            className="row-avatars"
            onMouseEnter={(e) => {
              // The hover list names every other member (fetched on demand: rows carry faces only).
              const target = e.currentTarget;
              if (!target.title)
                void command((api) => api.memberNames(row.id)).then((names) => (target.title = names.map((n) => stripBidi(n).trim()).join(', ')));
            }}
          >
            {row.avatars.map((a, i) => (
              <Avatar key={i} avatar={a} size={20} />
            ))}
            {row.more > 0 && <span className="more">+{row.more}</span>}
          </span>
          {row.unread > 0 && (
            <span className="unread-badge" aria-label={`${row.unread} unread`}>
              {row.unread}
            </span>
          )}
        </div>
      </div>
    </div>
  );
}, equalProps);
