/**
 * A virtualized listbox over one view. Only the visible rows exist in the DOM, and only
 * they cross from the worker: the list tells the engine its window, the engine sends
 * {total, rows, version}.
 */
import { useEffect, useId, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { PREVIEW_LENGTH, PREVIEW_LENGTH_DETAIL_OPEN } from '../../model/constants';
import type { Layout } from '../../model/layout';
import type { ListItem } from '../../model/rows';
import { command } from '../engine';
import { useViewWindow } from '../hooks/useEngine';
import { ConversationRow } from './ConversationRow';

const ROW_HEIGHT = 72;
const HEADER_HEIGHT = 40;
const MIN_WINDOW = 20;

export function ConversationList({
  hidden = false,
  viewId,
  label,
  selectedId,
  activeIndex,
  followActive,
  layout,
  onOpen,
  onHover,
  onToggleGroup,
  onTotal,
  now,
}: {
  /** Stays mounted (it keeps the live total) but gives its space away, e.g. to Inbox Zero. */
  hidden?: boolean;
  viewId: string;
  label: string;
  selectedId: string | null;
  /** The keyboard cursor's row. */
  activeIndex: number;
  /** Scroll the cursor's row into view (keyboard navigation). */
  followActive: boolean;
  layout: Layout;
  onOpen: (id: string, index: number) => void;
  onHover: (index: number) => void;
  onToggleGroup: (group: string) => void;
  /** Told the number of slots whenever it changes (the keyboard cursor's bound), and the group sizes seen. */
  onTotal: (total: number, loaded: boolean, groups: Record<string, number>) => void;
  now: number;
}) {
  const key = useId();
  const win = useViewWindow(key);
  const scrollRef = useRef<HTMLDivElement>(null);
  const current = win && win.viewId === viewId ? win : undefined;
  const total = current?.total ?? 0;
  const headers = current?.headers ?? [];
  const headerKey = headers.join(',');
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => (headers.includes(index) ? HEADER_HEIGHT : ROW_HEIGHT),
    overscan: 4,
  });
  // Header positions moved (a group grew, shrank or collapsed): re-measure.
  useEffect(() => virtualizer.measure(), [headerKey, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const start = items[0]?.index ?? 0;
  const end = Math.max((items[items.length - 1]?.index ?? -1) + 1, start + MIN_WINDOW);
  const previewLength = selectedId ? PREVIEW_LENGTH_DETAIL_OPEN : PREVIEW_LENGTH;

  useEffect(() => {
    void command((api) => api.setWindow(key, viewId, start, end, { layout, previewLength }));
  }, [key, viewId, start, end, previewLength, layout]);

  useEffect(() => {
    const groups: Record<string, number> = {};
    for (const item of current?.items ?? []) if (item.kind === 'group') groups[item.group] = item.count;
    onTotal(total, current !== undefined, groups);
  }, [total, current, onTotal]);

  const itemAt = (index: number): ListItem | undefined => (current ? current.items[index - current.start] : undefined);
  const active = itemAt(activeIndex);

  useEffect(() => {
    if (followActive && activeIndex < total) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [followActive, activeIndex, total, virtualizer]);

  return (
    <div
      ref={scrollRef}
      hidden={hidden}
      className="conversation-list"
      role="listbox"
      aria-label={label}
      tabIndex={0}
      aria-activedescendant={active ? (active.kind === 'row' ? `row-${active.row.id}` : `group-${active.group}`) : undefined}
      data-total={total}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((slot) => {
          const item = itemAt(slot.index);
          const key = item ? (item.kind === 'row' ? item.row.id : `group-${item.group}`) : `placeholder-${slot.index}`;
          return (
            <div key={key} className="row-slot" style={{ transform: `translateY(${slot.start}px)`, height: slot.size }}>
              {item?.kind === 'row' ? (
                <ConversationRow
                  row={item.row}
                  selected={item.row.id === selectedId}
                  active={slot.index === activeIndex}
                  onOpen={onOpen}
                  onHover={onHover}
                  now={now}
                  index={slot.index}
                  setSize={total}
                />
              ) : item?.kind === 'group' ? (
                <div
                  id={`group-${item.group}`}
                  role="option"
                  aria-selected={false}
                  aria-expanded={!item.collapsed}
                  aria-label={`${item.label}, ${item.count} ${item.count === 1 ? 'conversation' : 'conversations'}, ${item.collapsed ? 'collapsed' : 'expanded'}`}
                  className={`group-header${slot.index === activeIndex ? ' active' : ''}`}
                  onClick={() => onToggleGroup(item.group)}
                  onMouseEnter={() => onHover(slot.index)}
                  data-group={item.group}
                >
                  <span className="chevron" aria-hidden="true">
                    {item.collapsed ? '▸' : '▾'}
                  </span>
                  <span className="group-label">{item.label}</span>
                  <span className="group-count">{item.count}</span>
                </div>
              ) : (
                <div className="row-placeholder" aria-hidden="true" />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
