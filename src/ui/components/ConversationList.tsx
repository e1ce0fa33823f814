/**
 * A virtualized listbox over one view. Only the visible rows exist in the DOM, and only
 * they cross from the worker: the list tells the engine its window, the engine sends
 * {total, rows, version}.
 *
 * Grouped (the inbox in AI order), the listbox holds one `role=group` per category, labelled
 * by its header; a listbox may own only options and groups (ARIA 1.2), so each header's
 * collapse control is a real button outside the listbox, laid over the header's slot, with
 * aria-expanded and aria-controls naming its group. The page's cursor walks rows and headers
 * alike through aria-activedescendant; on a header it reads the header's words and state.
 */
import { useEffect, useId, useRef } from 'react';
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { PREVIEW_LENGTH, PREVIEW_LENGTH_DETAIL_OPEN } from '../../model/constants';
import { GROUPS, type Layout } from '../../model/layout';
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
  const listboxRef = useRef<HTMLDivElement>(null);
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

  const slots = items.map((slot) => ({ slot, item: itemAt(slot.index) }));
  const segments = groupSegments(slots, headers);
  const rowFacts = (index: number): { posInSet: number; setSize: number } => {
    if (!headers.length) return { posInSet: index + 1, setSize: total };
    const rank = rankAt(headers, index);
    const first = headers[rank]! + 1;
    return { posInSet: index - first + 1, setSize: (headers[rank + 1] ?? total) - first };
  };

  const renderSlot = ({ slot, item }: Slot) => {
    const key = item ? (item.kind === 'row' ? item.row.id : `group-${item.group}`) : `placeholder-${slot.index}`;
    const style = { transform: `translateY(${slot.start}px)`, height: slot.size };
    if (item?.kind === 'group') {
      // The header as the listbox reads it: the group's label, and what the cursor announces on it.
      // Its button (below, outside the listbox) is what the pointer and assistive technology press.
      return (
        <div key={key} id={`group-${item.group}`} className="row-slot header-slot" style={style}>
          <span className="visually-hidden">
            <span id={`group-label-${item.group}`}>{item.label}</span>, {conversations(item.count)}, {item.collapsed ? 'collapsed' : 'expanded'}
          </span>
        </div>
      );
    }
    return (
      <div key={key} className="row-slot" style={style}>
        {item?.kind === 'row' ? (
          <ConversationRow
            row={item.row}
            selected={item.row.id === selectedId}
            active={slot.index === activeIndex}
            onOpen={onOpen}
            onHover={onHover}
            now={now}
            index={slot.index}
            {...rowFacts(slot.index)}
          />
        ) : (
          <div className="row-placeholder" aria-hidden="true" />
        )}
      </div>
    );
  };

  return (
    <div ref={scrollRef} hidden={hidden} className="conversation-list" data-total={total}>
      <div className="list-canvas" style={{ height: virtualizer.getTotalSize() }}>
        <div
          ref={listboxRef}
          className="list-box"
          role="listbox"
          aria-label={label}
          tabIndex={0}
          aria-busy={current ? undefined : true}
          aria-activedescendant={active ? (active.kind === 'row' ? `row-${active.row.id}` : `group-${active.group}`) : undefined}
        >
          {segments.map((segment) =>
            segment.group === null ? (
              segment.slots.map(renderSlot)
            ) : (
              <div
                key={`items-${segment.group.id}`}
                id={`group-items-${segment.group.id}`}
                role="group"
                // Labelled by its header while the header is in the window; by the same words otherwise.
                {...(segment.slots.some((s) => s.item?.kind === 'group')
                  ? { 'aria-labelledby': `group-label-${segment.group.id}` }
                  : { 'aria-label': segment.group.label })}
              >
                {segment.slots.map(renderSlot)}
              </div>
            ),
          )}
        </div>
        {slots.map(({ slot, item }) =>
          item?.kind === 'group' ? (
            <button
              key={`toggle-${item.group}`}
              type="button"
              tabIndex={-1}
              aria-expanded={!item.collapsed}
              aria-controls={`group-items-${item.group}`}
              className={`group-header${slot.index === activeIndex ? ' active' : ''}`}
              style={{ transform: `translateY(${slot.start}px)`, height: slot.size }}
              // Like a click on a row, a click here leaves the focus on the listbox (the page's cursor).
              onMouseDown={(event) => {
                event.preventDefault();
                listboxRef.current?.focus({ preventScroll: true });
              }}
              onClick={() => onToggleGroup(item.group)}
              onMouseEnter={() => onHover(slot.index)}
              data-group={item.group}
            >
              <span className="chevron" aria-hidden="true">
                {item.collapsed ? '▸' : '▾'}
              </span>
              {/* Named by its visible words ('Urgent 2'), then ' conversations' for the ear; the state is aria-expanded. */}
              <span className="group-label">{item.label}</span> <span className="group-count">{item.count}</span>
              <span className="visually-hidden"> {item.count === 1 ? 'conversation' : 'conversations'}</span>
            </button>
          ) : null,
        )}
      </div>
    </div>
  );
}

type Slot = { slot: VirtualItem; item: ListItem | undefined };

function conversations(count: number): string {
  return `${count} ${count === 1 ? 'conversation' : 'conversations'}`;
}

/** The group (by rank in GROUPS) a slot falls in: the last header at or before it. */
function rankAt(headers: readonly number[], index: number): number {
  let rank = 0;
  while (rank + 1 < headers.length && headers[rank + 1]! <= index) rank++;
  return rank;
}

/** The window's slots cut into runs of one group each (one run with no group when the layout has no headers). */
function groupSegments(slots: Slot[], headers: readonly number[]): Array<{ group: (typeof GROUPS)[number] | null; slots: Slot[] }> {
  if (!headers.length) return [{ group: null, slots }];
  const out: Array<{ group: (typeof GROUPS)[number]; slots: Slot[] }> = [];
  for (const s of slots) {
    const group = GROUPS[rankAt(headers, s.slot.index)]!;
    const last = out[out.length - 1];
    if (last?.group === group) last.slots.push(s);
    else out.push({ group, slots: [s] });
  }
  return out;
}
