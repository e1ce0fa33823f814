/**
 * Views: a compiled filter and a sorted index of the conversations that pass it, kept
 * incrementally. A live event re-checks only the conversation it touches and moves it in
 * each index (DESIGN §5); a list window reads positions [start, end) without copying.
 */
import { compileFilter, type Predicate } from '../model/filter';
import { SortedList } from '../model/sortedList';
import type { ConversationSummary, FilterSpec } from '../model/types';

export interface ViewDefinition {
  id: string;
  label: string;
  filter: FilterSpec;
}

/** The built-in sub-views of SPEC §2.1, as rules through the same engine. */
export const BUILTIN_VIEWS: readonly ViewDefinition[] = [
  { id: 'inbox', label: 'Inbox', filter: { rules: [{ field: 'unread_count', operator: 'gt', value: 0 }] } },
  { id: 'conversations', label: 'All', filter: { rules: [] } },
  { id: 'dms', label: 'DMs', filter: { rules: [{ field: 'type', operator: 'eq', value: 'dm' }] } },
  { id: 'channels', label: 'Channels', filter: { rules: [{ field: 'type', operator: 'eq', value: 'channel' }] } },
  { id: 'threads', label: 'Threads', filter: { rules: [{ field: 'type', operator: 'eq', value: 'thread' }] } },
];

/** Sort key: newest activity first, ties by id. */
export interface SortKey {
  readonly at: number;
  readonly id: string;
}

export function compareKeys(a: SortKey, b: SortKey): number {
  if (a.at !== b.at) return b.at - a.at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const keyOf = (c: ConversationSummary): SortKey => ({ at: c.latest_activity, id: c.id });

export class ViewIndex {
  readonly predicate: Predicate<ConversationSummary>;
  private list = new SortedList<SortKey>(compareKeys);
  /** The key each member conversation is filed under. */
  private readonly keys = new Map<string, SortKey>();
  version = 0;

  constructor(
    readonly definition: ViewDefinition,
    onUnknownOperator?: (operator: string) => void,
  ) {
    this.predicate = compileFilter<ConversationSummary>(definition.filter, onUnknownOperator);
  }

  rebuild(conversations: Iterable<ConversationSummary>): void {
    const keys: SortKey[] = [];
    this.keys.clear();
    for (const c of conversations) {
      if (!this.predicate(c)) continue;
      const key = keyOf(c);
      keys.push(key);
      this.keys.set(c.id, key);
    }
    this.list = SortedList.from(keys, compareKeys);
    this.version += 1;
  }

  /** Re-checks one conversation (undefined: it is gone); returns whether the view changed. */
  update(id: string, conversation: ConversationSummary | undefined): boolean {
    const old = this.keys.get(id);
    const belongs = conversation !== undefined && this.predicate(conversation);
    if (!belongs) {
      if (!old) return false;
      this.list.remove(old);
      this.keys.delete(id);
      this.version += 1;
      return true;
    }
    if (old && old.at === conversation.latest_activity) {
      // Same place in the order; the row's content may still have changed.
      this.version += 1;
      return true;
    }
    if (old) this.list.remove(old);
    const key = keyOf(conversation);
    this.list.insert(key);
    this.keys.set(id, key);
    this.version += 1;
    return true;
  }

  has(id: string): boolean {
    return this.keys.has(id);
  }

  get size(): number {
    return this.list.size;
  }

  ids(start: number, end: number): string[] {
    return this.list.slice(start, end).map((k) => k.id);
  }

  indexOf(id: string): number {
    const key = this.keys.get(id);
    return key ? this.list.indexOf(key) : -1;
  }
}
