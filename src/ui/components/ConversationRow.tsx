import { memo } from 'react';
import type { ConversationRow as Row } from '../../model/rows';
import { relativeTime } from '../../model/time';
import { Avatar } from './Avatar';
import { TypeIcon } from './TypeIcon';

const CATEGORY_BARS: Record<string, number> = { urgent: 3, can_wait: 2, fyi: 1 };

function CategoryBars({ category, reason }: { category?: string; reason?: string }) {
  const level = category ? (CATEGORY_BARS[category] ?? 0) : 0;
  return (
    <span className={`category-bars level-${level}`} title={reason} aria-label={category ? `Category ${category}` : 'Not categorized'}>
      <i />
      <i />
      <i />
    </span>
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
  setSize,
}: {
  row: Row;
  selected: boolean;
  active?: boolean;
  onOpen: (id: string, index: number) => void;
  onHover?: (index: number) => void;
  now: number;
  index: number;
  setSize: number;
}) {
  return (
    <div
      id={`row-${row.id}`}
      role="option"
      aria-selected={selected}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      className={`conversation-row${selected ? ' selected' : ''}${active ? ' active' : ''}${row.unread > 0 ? ' unread' : ''}`}
      onClick={() => onOpen(row.id, index)}
      onMouseEnter={onHover ? () => onHover(index) : undefined}
      data-conversation-id={row.id}
    >
      <CategoryBars category={row.category} reason={row.reason} />
      <TypeIcon type={row.type} isPrivate={row.is_private} />
      <div className="row-main">
        <div className="row-top">
          <span className="row-name">{row.name}</span>
          <time className="row-time">{relativeTime(row.latest_activity, now)}</time>
        </div>
        <div className="row-bottom">
          <span className="row-preview">{row.preview}</span>
          <span className="row-avatars" title={row.avatars.map((a) => a.name).join(', ')}>
            {row.avatars.map((a) => (
              <Avatar key={a.id} avatar={a} size={20} />
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
});
