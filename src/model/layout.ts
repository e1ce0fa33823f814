/**
 * How a view is laid out as one flat list: in time order, its rows; in AI order with
 * headers (the /inbox grouping of SPEC §2.4), each group's header followed by its rows
 * unless the group is collapsed. Rows of a group are a contiguous run of the view's
 * sorted index, so a slot maps to a position in it by arithmetic on the group sizes.
 */

export const GROUPS = [
  { id: 'urgent', label: 'Urgent' },
  { id: 'can_wait', label: 'Can Wait' },
  { id: 'fyi', label: 'FYI' },
  { id: 'none', label: 'Not Categorized' },
] as const;
export type GroupId = (typeof GROUPS)[number]['id'];

/** SPEC §2.4: Urgent starts expanded, the others collapsed. */
export const DEFAULT_COLLAPSED: readonly GroupId[] = ['can_wait', 'fyi', 'none'];

export interface Layout {
  order: 'time' | 'ai';
  /** Group headers (AI order only). */
  headers: boolean;
  collapsed: readonly GroupId[];
  /** The in-view filter text ('' for none). */
  query: string;
}

export const FLAT_LAYOUT: Layout = { order: 'time', headers: false, collapsed: [], query: '' };

export type Slot = { kind: 'group'; rank: number } | { kind: 'row'; position: number };

/** What a slot holds, as the page asks for it. */
export type SlotInfo = { kind: 'row'; id: string } | { kind: 'group'; group: string } | null;

function grouped(layout: Layout): boolean {
  return layout.order === 'ai' && layout.headers;
}

/** The number of slots the layout shows. */
export function slotCount(groupSizes: readonly number[], layout: Layout): number {
  if (!grouped(layout)) return groupSizes.reduce((a, b) => a + b, 0);
  return GROUPS.reduce((n, g, rank) => n + 1 + (layout.collapsed.includes(g.id) ? 0 : groupSizes[rank]!), 0);
}

/** Slots [start, end). */
export function slotsIn(groupSizes: readonly number[], layout: Layout, start: number, end: number): Slot[] {
  const out: Slot[] = [];
  if (!grouped(layout)) {
    const total = slotCount(groupSizes, layout);
    for (let i = Math.max(0, start); i < Math.min(end, total); i++) out.push({ kind: 'row', position: i });
    return out;
  }
  let slot = 0;
  let position = 0;
  GROUPS.forEach((g, rank) => {
    const size = groupSizes[rank]!;
    if (slot >= start && slot < end) out.push({ kind: 'group', rank });
    slot += 1;
    if (!layout.collapsed.includes(g.id)) {
      const from = Math.max(start, slot);
      const to = Math.min(end, slot + size);
      for (let s = from; s < to; s++) out.push({ kind: 'row', position: position + (s - slot) });
      slot += size;
    }
    position += size;
  });
  return out;
}

export function slotAt(groupSizes: readonly number[], layout: Layout, index: number): Slot | null {
  return slotsIn(groupSizes, layout, index, index + 1)[0] ?? null;
}

/** The slot of a position in the sorted index, or -1 when its group is collapsed. */
export function slotOfPosition(groupSizes: readonly number[], layout: Layout, position: number): number {
  if (!grouped(layout)) return position;
  let slot = 0;
  let start = 0;
  for (let rank = 0; rank < GROUPS.length; rank++) {
    const size = groupSizes[rank]!;
    const collapsed = layout.collapsed.includes(GROUPS[rank]!.id);
    slot += 1;
    if (position < start + size) return collapsed ? -1 : slot + (position - start);
    if (!collapsed) slot += size;
    start += size;
  }
  return -1;
}

/** The slots of the group headers (empty when the layout has none). */
export function headerSlots(groupSizes: readonly number[], layout: Layout): number[] {
  if (!grouped(layout)) return [];
  const out: number[] = [];
  let slot = 0;
  GROUPS.forEach((g, rank) => {
    out.push(slot);
    slot += 1 + (layout.collapsed.includes(g.id) ? 0 : groupSizes[rank]!);
  });
  return out;
}
