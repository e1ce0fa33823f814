/**
 * The worker's state: every conversation summary (a Map keyed by id, one entry replaced per
 * change), the users map, and the view indexes derived from them. Applying one live event
 * costs O(views × log n), never a copy of the collection.
 */
import type { Logger } from '../model/logger';
import { PREVIEW_LENGTH } from '../model/constants';
import { FLAT_LAYOUT, GROUPS, headerSlots, slotCount, slotOfPosition, slotsIn, type Layout, type SlotInfo } from '../model/layout';
import { displayName, referencedUsers, toRow, type ListItem, type ViewWindow } from '../model/rows';
import type { ConversationSummary, ConversationUpdateData, MessageUpdateData, UserData } from '../model/types';
import { reduceSummary } from './reduce';
import type { SearchName } from '../model/search';
import { BUILTIN_VIEWS, ViewIndex, definitionOf, type ViewDefinition } from './views';
import { BUILTIN_VIEWS as BUILTIN_VIEW_RECORDS, byPosition, type View } from '../model/views';

/** In-view filters kept at once (each is maintained on every event until dropped). */
const MAX_FILTERED_VIEWS = 4;

export class EngineStore {
  readonly conversations = new Map<string, ConversationSummary>();
  readonly users = new Map<string, UserData>();
  /** Lowercase title and activity by conversation id, kept with every change (the palette's local match scans these). */
  readonly searchNames = new Map<string, SearchName>();
  /** Lowercase names of each person (real, display, handle), kept with every change. */
  readonly searchPeople = new Map<string, string>();
  /** Every maintained index: the built-in views in time order, and on demand other orders and filters. */
  readonly views = new Map<string, ViewIndex>();
  private readonly definitions = new Map<string, ViewDefinition>();
  /** The member's views as the page lists them: built-in, then custom (focus inboxes). */
  private viewRecords = new Map<string, View>(BUILTIN_VIEW_RECORDS.map((v) => [v.id, v]));
  me = '';
  /** The member's workspace (a Slack team id in Slack mode): people of other teams are external. */
  workspaceId = '';
  /** Bumped when the list of views (not their content) changes. */
  viewsVersion = 0;
  /** Bumped on every change the page may need to see. */
  version = 0;

  constructor(private readonly log: Pick<Logger, 'warn'>) {
    for (const definition of BUILTIN_VIEWS) {
      this.definitions.set(definition.id, definition);
      this.views.set(definition.id, new ViewIndex(definition, (op) => this.log.warn(`Unknown filter operator ${op}: it matches everything`)));
    }
  }

  /** Every view, ordered by page and position (SPEC §4.9). */
  listViews(): View[] {
    return [...this.viewRecords.values()].sort(byPosition);
  }

  /** Adds or replaces a view; its indexes are rebuilt from its (possibly new) rules. */
  upsertView(view: View): void {
    this.dropIndexes(view.id);
    this.viewRecords.set(view.id, view);
    this.definitions.set(view.id, definitionOf(view));
    const index = new ViewIndex(definitionOf(view), (op) => this.log.warn(`Unknown filter operator ${op}: it matches everything`));
    index.rebuild(this.conversations.values());
    this.views.set(view.id, index);
    this.version += 1;
    this.viewsVersion += 1;
  }

  removeView(id: string): void {
    if (BUILTIN_VIEW_RECORDS.some((v) => v.id === id)) return;
    this.dropIndexes(id);
    this.viewRecords.delete(id);
    this.definitions.delete(id);
    this.version += 1;
    this.viewsVersion += 1;
  }

  /** Replaces the custom views (a session's first load, or a reset event); built-in views stay. */
  setCustomViews(views: readonly View[]): void {
    for (const record of [...this.viewRecords.values()]) if (record.isCustom) this.removeView(record.id);
    for (const view of views) if (view.isCustom) this.upsertView(view);
    // Built-in settings (visibility, position) from the server replace the defaults.
    for (const view of views) if (!view.isCustom && this.viewRecords.has(view.id)) this.viewRecords.set(view.id, view);
    this.viewsVersion += 1;
  }

  private dropIndexes(viewId: string): void {
    for (const key of [...this.views.keys()]) if (key === viewId || key.startsWith(`${viewId}\u0000`)) this.views.delete(key);
  }

  private static indexKey(viewId: string, layout: Layout): string {
    const query = layout.query.trim().toLowerCase();
    return layout.order === 'time' && !query ? viewId : `${viewId}\u0000${layout.order}\u0000${query}`;
  }

  /** The index of a view in a layout's order and filter, built on first use. */
  indexFor(viewId: string, layout: Layout = FLAT_LAYOUT): ViewIndex | undefined {
    const key = EngineStore.indexKey(viewId, layout);
    const existing = this.views.get(key);
    if (existing) return existing;
    const definition = this.definitions.get(viewId);
    if (!definition) return undefined;
    const query = layout.query.trim().toLowerCase();
    if (query) {
      // Drop the oldest filter indexes: each one costs time on every live event.
      const filtered = [...this.views.keys()].filter((k) => k.split('\u0000')[2]);
      while (filtered.length >= MAX_FILTERED_VIEWS) this.views.delete(filtered.shift()!);
    }
    const index = new ViewIndex(definition, undefined, layout.order, query ? (c) => this.matchesQuery(c, query) : undefined);
    index.rebuild(this.conversations.values());
    this.views.set(key, index);
    return index;
  }

  /** The in-view filter (SPEC §2.4): case-insensitive over the name, the last message and the participants' names. */
  matchesQuery(c: ConversationSummary, query: string): boolean {
    if (c.name.toLowerCase().includes(query)) return true;
    if (c.latest_message?.text.toLowerCase().includes(query)) return true;
    for (const id of c.member_ids) {
      const user = this.users.get(id);
      if (user && (displayName(user, id).toLowerCase().includes(query) || user.name.toLowerCase().includes(query))) return true;
    }
    return false;
  }

  /** Nothing of the member stays: a new session (another member, or nobody) starts from the built-in views alone. */
  clear(): void {
    this.conversations.clear();
    this.users.clear();
    this.searchNames.clear();
    this.searchPeople.clear();
    this.held.clear();
    this.setCustomViews(BUILTIN_VIEW_RECORDS);
    for (const view of this.views.values()) view.rebuild([]);
    this.me = '';
    this.workspaceId = '';
    this.version += 1;
  }

  mergeUsers(users: Record<string, UserData> | undefined): void {
    if (!users) return;
    for (const [id, user] of Object.entries(users)) {
      this.users.set(id, user);
      this.searchPeople.set(id, `${user.real_name}\u0000${user.display_name}\u0000${user.name}`.toLowerCase());
    }
  }

  private nameOf(c: ConversationSummary): string {
    const person = c.type === 'dm' && c.dm_user ? this.users.get(c.dm_user) : undefined;
    return (person ? person.real_name || person.display_name || person.name || c.name : c.name).toLowerCase();
  }

  /** Replaces everything with a snapshot. */
  replaceAll(conversations: Iterable<ConversationSummary>, users?: Record<string, UserData>): void {
    this.conversations.clear();
    this.searchNames.clear();
    this.mergeUsers(users);
    for (const c of conversations) {
      this.conversations.set(c.id, c);
      this.searchNames.set(c.id, { name: this.nameOf(c), at: c.latest_activity });
    }
    for (const view of this.views.values()) view.rebuild(this.conversations.values());
    this.version += 1;
  }

  /** Adds (or replaces) a page of conversations, filing each in every view. */
  addMany(conversations: Iterable<ConversationSummary>): void {
    for (const c of conversations) {
      this.conversations.set(c.id, c);
      this.searchNames.set(c.id, { name: this.nameOf(c), at: c.latest_activity });
      for (const view of this.views.values()) view.update(c.id, c);
    }
    this.version += 1;
  }

  /**
   * The first `perView` conversations of every maintained index (of each AI group too) and the people they
   * name: what the first screen of any view shows (the local copy's head, issue 14 §4).
   */
  head(perView: number): { conversations: ConversationSummary[]; users: UserData[] } {
    const ids = new Set<string>();
    for (const index of this.views.values()) {
      let start = 0;
      for (const size of index.groupSizes) {
        for (const id of index.ids(start, start + Math.min(size, perView))) ids.add(id);
        start += size;
      }
    }
    const conversations = [...ids].flatMap((id) => this.conversations.get(id) ?? []);
    const people = referencedUsers(conversations).add(this.me);
    return { conversations, users: [...people].flatMap((id) => this.users.get(id) ?? []) };
  }

  /** Conversations whose place in the views is held (SPEC §4.4 mark-read-after-reply). */
  private readonly held = new Set<string>();

  /** Holds a conversation where it is in every view: its row still updates, but it neither moves nor leaves. */
  hold(id: string): void {
    this.held.add(id);
  }

  /** Releases a hold: the conversation is re-filed (it may leave an unread view, and moves by activity). */
  release(id: string): boolean {
    if (!this.held.delete(id)) return false;
    const current = this.conversations.get(id);
    for (const view of this.views.values()) view.update(id, current);
    this.version += 1;
    return true;
  }

  /** Replaces one conversation and re-files it in every view (unless its place is held). */
  put(id: string, next: ConversationSummary | undefined): boolean {
    const previous = this.conversations.get(id);
    if (next === previous) return false;
    if (next) {
      this.conversations.set(id, next);
      const entry = this.searchNames.get(id);
      if (!entry || next.name !== previous?.name) this.searchNames.set(id, { name: this.nameOf(next), at: next.latest_activity });
      else entry.at = next.latest_activity;
    } else {
      this.conversations.delete(id);
      this.searchNames.delete(id);
    }
    if (!this.held.has(id) || !next) for (const view of this.views.values()) view.update(id, next);
    this.version += 1;
    return true;
  }

  applyMessageUpdate(data: MessageUpdateData): boolean {
    this.mergeUsers(data.users);
    const id = data.conversation_id;
    return this.put(id, reduceSummary(this.conversations.get(id), data, this.me));
  }

  applyConversationUpdate(data: ConversationUpdateData): boolean {
    const id = data.conversation_id ?? data.conversation?.id;
    if (!id || !data.conversation) return false;
    const previous = this.conversations.get(id);
    if (!previous) return data.added === true && typeof data.conversation.name === 'string' ? this.put(id, data.conversation as ConversationSummary) : false;
    if (data.removed === true) return this.put(id, undefined);
    // A null field is a removal (JSON has no undefined): a removed label clears its AI fields.
    const next: Record<string, unknown> = { ...previous };
    for (const [key, value] of Object.entries(data.conversation)) {
      if (value === null) delete next[key];
      else next[key] = value;
    }
    return this.put(id, next as unknown as ConversationSummary);
  }

  window(viewId: string, start: number, end: number, layout: Layout = FLAT_LAYOUT, previewLength = PREVIEW_LENGTH): ViewWindow {
    const view = this.indexFor(viewId, layout);
    if (!view) return { viewId, start, total: 0, items: [], headers: [], version: this.version };
    const items: ListItem[] = [];
    const slots = slotsIn(view.groupSizes, layout, start, end);
    // Rows of a window are consecutive positions of the index: read them in one slice.
    const positions = slots.filter((s) => s.kind === 'row').map((s) => (s as { position: number }).position);
    const ids = positions.length ? view.ids(positions[0]!, positions[positions.length - 1]! + 1) : [];
    const byPosition = new Map(ids.map((id, k) => [positions[0]! + k, id]));
    slots.forEach((slot, k) => {
      const index = start + k;
      if (slot.kind === 'group') {
        const group = GROUPS[slot.rank]!;
        items.push({
          kind: 'group',
          index,
          group: group.id,
          label: group.label,
          count: view.groupSizes[slot.rank]!,
          collapsed: layout.collapsed.includes(group.id),
        });
        return;
      }
      const c = this.conversations.get(byPosition.get(slot.position) ?? '');
      if (c) items.push({ kind: 'row', index, row: toRow(c, this.users, this.me, previewLength) });
    });
    return { viewId, start, total: slotCount(view.groupSizes, layout), items, headers: headerSlots(view.groupSizes, layout), version: view.version };
  }

  /** The conversation id in a slot of a view's layout (null for a group header or out of range). */
  idAt(viewId: string, index: number, layout: Layout = FLAT_LAYOUT): string | null {
    const view = this.indexFor(viewId, layout);
    const slot = view ? slotsIn(view.groupSizes, layout, index, index + 1)[0] : undefined;
    return slot?.kind === 'row' ? (view!.ids(slot.position, slot.position + 1)[0] ?? null) : null;
  }

  /** What a slot holds: a conversation, a group header, or nothing. */
  slotAt(viewId: string, index: number, layout: Layout = FLAT_LAYOUT): SlotInfo {
    const view = this.indexFor(viewId, layout);
    const slot = view ? slotsIn(view.groupSizes, layout, index, index + 1)[0] : undefined;
    if (!slot) return null;
    if (slot.kind === 'group') return { kind: 'group', group: GROUPS[slot.rank]!.id };
    const id = view!.ids(slot.position, slot.position + 1)[0];
    return id ? { kind: 'row', id } : null;
  }

  /** The slot of a conversation in a view's layout, or -1. */
  indexOf(viewId: string, id: string, layout: Layout = FLAT_LAYOUT): number {
    const view = this.indexFor(viewId, layout);
    if (!view) return -1;
    const position = view.indexOf(id);
    return position < 0 ? -1 : slotOfPosition(view.groupSizes, layout, position);
  }

  /** Unread conversations per built-in view (the tab badges). */
  unreadCounts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const id of this.definitions.keys()) out[id] = this.views.get(id)?.unread ?? 0;
    return out;
  }

  counts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const id of this.definitions.keys()) out[id] = this.views.get(id)?.size ?? 0;
    return out;
  }
}
