/**
 * A virtualized listbox over one view. Only the visible rows exist in the DOM, and only
 * they cross from the worker: the list tells the engine its window, the engine sends
 * {total, rows, version}.
 */
import { useEffect, useId, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { PREVIEW_LENGTH, PREVIEW_LENGTH_DETAIL_OPEN } from '../../model/constants';
import type { ConversationRow as Row } from '../../model/rows';
import { command } from '../engine';
import { useViewWindow } from '../hooks/useEngine';
import { ConversationRow } from './ConversationRow';

const ROW_HEIGHT = 72;
const MIN_WINDOW = 30;

export function ConversationList({
  viewId,
  label,
  selectedId,
  activeIndex,
  followActive,
  onOpen,
  onHover,
  now,
}: {
  viewId: string;
  label: string;
  selectedId: string | null;
  /** The keyboard cursor's row. */
  activeIndex: number;
  /** Scroll the cursor's row into view (keyboard navigation). */
  followActive: boolean;
  onOpen: (id: string, index: number) => void;
  onHover: (index: number) => void;
  now: number;
}) {
  const key = useId();
  const win = useViewWindow(key);
  const scrollRef = useRef<HTMLDivElement>(null);
  const current = win && win.viewId === viewId ? win : undefined;
  const total = current?.total ?? 0;
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const items = virtualizer.getVirtualItems();
  const start = items[0]?.index ?? 0;
  const end = Math.max((items[items.length - 1]?.index ?? -1) + 1, start + MIN_WINDOW);
  const previewLength = selectedId ? PREVIEW_LENGTH_DETAIL_OPEN : PREVIEW_LENGTH;

  useEffect(() => {
    void command((api) => api.setWindow(key, viewId, start, end, previewLength));
  }, [key, viewId, start, end, previewLength]);

  const rowAt = (index: number): Row | undefined => (current ? current.rows[index - current.start] : undefined);
  const activeRow = rowAt(activeIndex);

  useEffect(() => {
    if (followActive && activeIndex < total) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [followActive, activeIndex, total, virtualizer]);

  return (
    <div
      ref={scrollRef}
      className="conversation-list"
      role="listbox"
      aria-label={label}
      tabIndex={0}
      aria-activedescendant={activeRow ? `row-${activeRow.id}` : undefined}
      data-total={total}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = rowAt(item.index);
          return (
            <div
              key={row?.id ?? `placeholder-${item.index}`}
              className="row-slot"
              style={{ transform: `translateY(${item.start}px)`, height: item.size }}
            >
              {row ? (
                <ConversationRow
                  row={row}
                  selected={row.id === selectedId}
                  active={item.index === activeIndex}
                  onOpen={onOpen}
                  onHover={onHover}
                  now={now}
                  index={item.index}
                  setSize={total}
                />
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
