/**
 * Views: a compiled filter and a sorted index of the conversations that pass it, kept
 * incrementally. A live event re-checks only the conversation it touches and moves it in
 * each index (DESIGN §5); a list window reads positions [start, end) without copying.
 */
import { compileFilter, type Predicate } from '../model/filter';
import { SortedList } from '../model/sortedList';
import type { ConversationSummary, FilterSpec } from '../model/types';
import { BUILTIN_VIEWS as BUILTIN_DEFINITIONS, type ViewBase } from '../model/views';

/** What an index needs of a view: its id and its rules. */
export interface ViewDefinition {
  id: string;
  label: string;
  filter: FilterSpec;
}

/** A built-in or custom view as an index definition. */
export function definitionOf(view: ViewBase): ViewDefinition {
  return { id: view.id, label: view.label, filter: { rules: view.filters, combinator: view.combinator } };
}

/** The built-in sub-views (model/views), as index definitions. */
export const BUILTIN_VIEWS: readonly ViewDefinition[] = BUILTIN_DEFINITIONS.map(definitionOf);

/** Group rank in the AI order: the index in GROUPS (model/layout). */
const RANK: Record<string, number> = { urgent: 0, can_wait: 1, fyi: 2 };
export const rankOf = (c: ConversationSummary): number => (c.ai_category ? (RANK[c.ai_category] ?? 3) : 3);

/** Sort key: group rank (0 in time order), then newest activity first, ties by id. */
export interface SortKey {
  readonly rank: number;
  readonly at: number;
  readonly id: string;
}

export function compareKeys(a: SortKey, b: SortKey): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.at !== b.at) return b.at - a.at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export type ViewOrder = 'time' | 'ai';

export class ViewIndex {
  readonly predicate: Predicate<ConversationSummary>;
  private list = new SortedList<SortKey>(compareKeys);
  /** The key each member conversation is filed under. */
  private readonly keys = new Map<string, SortKey>();
  /** Members per group rank (AI order); all in rank 0 in time order. */
  readonly groupSizes = [0, 0, 0, 0];
  /** Members with unread messages (the tab badge). */
  private readonly unreadIds = new Set<string>();
  version = 0;

  constructor(
    readonly definition: ViewDefinition,
    onUnknownOperator?: (operator: string) => void,
    readonly order: ViewOrder = 'time',
    /** An extra test, e.g. the in-view filter's text. */
    extra?: Predicate<ConversationSummary>,
  ) {
    const rules = compileFilter<ConversationSummary>(definition.filter, onUnknownOperator);
    this.predicate = extra ? (c) => rules(c) && extra(c) : rules;
  }

  private keyOf(c: ConversationSummary): SortKey {
    return { rank: this.order === 'ai' ? rankOf(c) : 0, at: c.latest_activity, id: c.id };
  }

  rebuild(conversations: Iterable<ConversationSummary>): void {
    const keys: SortKey[] = [];
    this.keys.clear();
    this.unreadIds.clear();
    this.groupSizes.fill(0);
    for (const c of conversations) {
      if (!this.predicate(c)) continue;
      const key = this.keyOf(c);
      keys.push(key);
      this.keys.set(c.id, key);
      this.groupSizes[key.rank]! += 1;
      if (c.unread_count_display > 0) this.unreadIds.add(c.id);
    }
    this.list = SortedList.from(keys, compareKeys);
    this.version += 1;
  }

  /** Re-checks one conversation (undefined: it is gone); returns whether the view changed. */
  update(id: string, conversation: ConversationSummary | undefined): boolean {
    const old = this.keys.get(id);
    const belongs = conversation !== undefined && this.predicate(conversation);
    if (belongs && conversation.unread_count_display > 0) this.unreadIds.add(id);
    else this.unreadIds.delete(id);
    if (!belongs) {
      if (!old) return false;
      this.list.remove(old);
      this.keys.delete(id);
      this.groupSizes[old.rank]! -= 1;
      this.version += 1;
      return true;
    }
    const key = this.keyOf(conversation);
    if (old && compareKeys(old, key) === 0) {
      // Same place in the order; the row's content may still have changed.
      this.version += 1;
      return true;
    }
    if (old) {
      this.list.remove(old);
      this.groupSizes[old.rank]! -= 1;
    }
    this.list.insert(key);
    this.keys.set(id, key);
    this.groupSizes[key.rank]! += 1;
    this.version += 1;
    return true;
  }

  has(id: string): boolean {
    return this.keys.has(id);
  }

  get size(): number {
    return this.list.size;
  }

  get unread(): number {
    return this.unreadIds.size;
  }

  ids(start: number, end: number): string[] {
    return this.list.slice(start, end).map((k) => k.id);
  }

  indexOf(id: string): number {
    const key = this.keys.get(id);
    return key ? this.list.indexOf(key) : -1;
  }
}
