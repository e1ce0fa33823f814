/**
 * The focus inbox's choosers (issue 14 §1): the member's channels and the workspace's people,
 * searched in the worker and handed to the page a window at a time, as the conversation list is
 * (DESIGN §3: never a whole list; under 10 KiB a message while the member types).
 *
 * A query matches case- and accent-insensitively ('jose' finds 'José'), as the palette's local
 * search does: a name equal to the query first, then names starting with it, then names
 * containing it, then options whose detail (a channel's privacy, a person's title) contains it;
 * alphabetical within each rank. The order of every option is kept sorted once per change of the
 * collection, so a keystroke is one pass of `includes` over folded names, never a sort.
 */
import { displayName } from '../model/rows';
import type { ConversationSummary, User, UserData } from '../model/types';
import type { EngineStore } from './store';

export type ChooserKind = 'channels' | 'people';

/** One option as the page shows it. */
export interface ChooserItem {
  id: string;
  label: string;
  /** A second line, searched too: 'Private' for a private channel, a person's title. */
  detail?: string;
}

/** A window of the options matching a query. */
export interface ChooserWindow {
  /** How many options match. */
  total: number;
  /** How many of those are among the ids the page said were selected (for 'Select All' / 'Clear All'). */
  selected: number;
  /** The matches from `offset` on: at most `limit`, and fewer when the message budget is reached. */
  items: ChooserItem[];
}

/** The most options one window carries (the page asks for the next as it scrolls). */
export const CHOOSER_PAGE = 50;
/** 'Select All' hands over at most this many ids (about 70 KB; DESIGN §3's 100 KiB). */
export const CHOOSER_MAX_IDS = 5_000;
/** A window's items stop before this many bytes of JSON (the message stays under 10 KiB). */
export const CHOOSER_BUDGET_BYTES = 9 * 1024;
/** Longer names and details are cut (with an ellipsis) in what crosses to the page. */
export const LABEL_MAX = 80;
export const DETAIL_MAX = 60;

const ASCII = /^[\x20-\x7e]*$/;
const MARKS = /\p{M}+/gu;

/** Lowercase, without accents (NFD with the combining marks removed). */
export function fold(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFD').replace(MARKS, '').toLowerCase();
}

/** What an option is searched and sorted by, built once per change of its source. */
export interface ChooserEntry {
  item: ChooserItem;
  /** Folded names, the one shown first (a channel's name without '#'; a person's real, display and handle names). */
  names: string[];
  /** Folded detail ('' when none). */
  detail: string;
  /** The folded label: the alphabetical order. */
  key: string;
}

export function entryOf(item: ChooserItem, names: readonly string[] = [item.label]): ChooserEntry {
  return { item, names: names.filter(Boolean).map(fold), detail: item.detail ? fold(item.detail) : '', key: fold(item.label) };
}

const byLabel = (a: ChooserEntry, b: ChooserEntry): number => {
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  return a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0;
};

/**
 * 0 a name equals the query, 1 one starts with it, 2 one contains it (model/search's matchRank, on
 * names already folded: one indexOf each, as localMatch ranks), 3 the detail contains it, -1 none.
 */
function rankOf(entry: ChooserEntry, q: string): number {
  const names = entry.names;
  let rank = -1;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const at = name.indexOf(q);
    if (at < 0) continue;
    const r = at > 0 ? 2 : name.length === q.length ? 0 : 1;
    if (rank < 0 || r < rank) rank = r;
  }
  if (rank < 0 && entry.detail.length > 0 && entry.detail.includes(q)) rank = 3;
  return rank;
}

/** A collection of options in label order, searched by folded query. */
export class ChooserIndex {
  readonly entries: readonly ChooserEntry[];
  private readonly byId: ReadonlyMap<string, ChooserEntry>;
  /** The last query's matches, in label order and ranked (a longer query searches only these). */
  private last: { q: string; inOrder: readonly ChooserEntry[]; matches: readonly ChooserEntry[] } | null = null;

  constructor(
    entries: Iterable<ChooserEntry>,
    /** Turns the typed text into the folded query (channels drop a leading '#'). */
    private readonly queryOf: (typed: string) => string = (typed) => fold(typed.trim()),
  ) {
    this.entries = [...entries].sort(byLabel);
    this.byId = new Map(this.entries.map((e) => [e.item.id, e]));
  }

  /** Every match, best rank first, alphabetical within a rank (the previous query's answer is kept for paging). */
  matches(typed: string): readonly ChooserEntry[] {
    const q = this.queryOf(typed);
    if (!q) return this.entries;
    if (this.last?.q === q) return this.last.matches;
    // What contains the longer query contains the shorter one: typing on searches the last matches only.
    const entries = this.last && q.includes(this.last.q) ? this.last.inOrder : this.entries;
    const ranks: ChooserEntry[][] = [[], [], [], []];
    const inOrder: ChooserEntry[] = [];
    for (let i = 0; i < entries.length; i++) {
      const rank = rankOf(entries[i]!, q);
      if (rank < 0) continue;
      ranks[rank]!.push(entries[i]!);
      inOrder.push(entries[i]!);
    }
    const matches = ranks.flat();
    this.last = { q, inOrder, matches };
    return matches;
  }

  window(typed: string, offset: number, limit: number, selected: readonly string[] = []): ChooserWindow {
    const matches = this.matches(typed);
    const start = Math.max(0, Math.floor(offset));
    const end = Math.min(matches.length, start + Math.max(0, Math.min(CHOOSER_PAGE, Math.floor(limit))));
    const items = withinBudget(matches.slice(start, end).map((e) => e.item));
    return { total: matches.length, selected: this.countSelected(typed, matches, selected), items };
  }

  /** The ids of every match ('Select All'), or null when more than CHOOSER_MAX_IDS match. */
  ids(typed: string): { total: number; ids: string[] | null } {
    const matches = this.matches(typed);
    return { total: matches.length, ids: matches.length > CHOOSER_MAX_IDS ? null : matches.map((e) => e.item.id) };
  }

  /** The options of the given ids (the chosen ones an edited focus inbox shows by name), in that order; unknown ids are left out. */
  labels(ids: readonly string[]): ChooserItem[] {
    return withinBudget(
      ids.slice(0, CHOOSER_PAGE).flatMap((id) => {
        const entry = this.byId.get(id);
        return entry ? [entry.item] : [];
      }),
    );
  }

  private countSelected(typed: string, matches: readonly ChooserEntry[], selected: readonly string[]): number {
    if (selected.length === 0) return 0;
    if (!this.queryOf(typed)) return selected.reduce((n, id) => n + (this.byId.has(id) ? 1 : 0), 0);
    const chosen = new Set(selected);
    let n = 0;
    for (const entry of matches) if (chosen.has(entry.item.id)) n += 1;
    return n;
  }
}

/** At most `max` characters (code points), the last an ellipsis when cut. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = [...text.slice(0, max * 2)];
  if (chars.length <= max && text.length <= max * 2) return text;
  return `${chars.slice(0, max - 1).join('')}…`;
}

function shown(item: ChooserItem): ChooserItem {
  const label = cut(item.label, LABEL_MAX);
  return item.detail ? { id: item.id, label, detail: cut(item.detail, DETAIL_MAX) } : { id: item.id, label };
}

/** The items as shown, as many as fit CHOOSER_BUDGET_BYTES of JSON (at least one). */
function withinBudget(items: readonly ChooserItem[]): ChooserItem[] {
  const fit: ChooserItem[] = [];
  let bytes = 0;
  for (const item of items) {
    const small = shown(item);
    bytes += utf8Length(JSON.stringify(small)) + 1;
    if (bytes > CHOOSER_BUDGET_BYTES && fit.length > 0) break;
    fit.push(small);
  }
  return fit;
}

const encoder = new TextEncoder();
const utf8Length = (text: string) => (ASCII.test(text) ? text.length : encoder.encode(text).length);

/* ---------------- over the engine's store ---------------- */

export function channelEntry(c: ConversationSummary): ChooserEntry {
  const item: ChooserItem = c.is_private ? { id: c.id, label: `#${c.name}`, detail: 'Private' } : { id: c.id, label: `#${c.name}` };
  return entryOf(item, [c.name]);
}

export function personEntry(u: UserData): ChooserEntry {
  const title = (u as User).title;
  const item: ChooserItem = title ? { id: u.id, label: displayName(u, u.id), detail: title } : { id: u.id, label: displayName(u, u.id) };
  return entryOf(item, [u.real_name, u.display_name, u.name, item.label]);
}

const channelQuery = (typed: string) => fold(typed.trim().replace(/^#/, ''));

interface Cached<S> {
  version: number;
  sources: ReadonlyMap<string, S>;
  index: ChooserIndex;
}

/** The store's channels and people as indexes, rebuilt only when an option's name (or the set) changed. */
const caches = new WeakMap<EngineStore, { channels?: Cached<ConversationSummary>; people?: Cached<UserData> }>();

/**
 * The previous index while every source is the same one, or one whose shown and searched names are
 * equal; else a new one. `version` skips the check when the store has not changed since (null: check).
 */
function cached<S>(
  previous: Cached<S> | undefined,
  version: number | null,
  current: () => Iterable<[string, S]>,
  same: (a: S, b: S) => boolean,
  build: (sources: Iterable<S>) => ChooserIndex,
): Cached<S> {
  if (previous && version !== null && previous.version === version) return previous;
  if (previous) {
    let count = 0;
    let changed = false;
    for (const [id, source] of current()) {
      count += 1;
      const before = previous.sources.get(id);
      if (before === undefined || (before !== source && !same(before, source))) {
        changed = true;
        break;
      }
    }
    if (!changed && count === previous.sources.size) return { ...previous, version: version ?? 0 };
  }
  const sources = new Map(current());
  return { version: version ?? 0, sources, index: build(sources.values()) };
}

function* channelsOf(store: EngineStore): Iterable<[string, ConversationSummary]> {
  for (const [id, c] of store.conversations) if (c.type === 'channel') yield [id, c];
}

function* peopleOf(store: EngineStore): Iterable<[string, UserData]> {
  for (const [id, u] of store.users) if (id !== store.me) yield [id, u];
}

/** The chooser index of one kind over the store's current content. */
export function chooserIndex(store: EngineStore, kind: ChooserKind): ChooserIndex {
  const entry = caches.get(store) ?? {};
  caches.set(store, entry);
  if (kind === 'channels') {
    entry.channels = cached(
      entry.channels,
      store.version,
      () => channelsOf(store),
      (a, b) => a.name === b.name && a.is_private === b.is_private,
      (sources) => new ChooserIndex([...sources].map(channelEntry), channelQuery),
    );
    return entry.channels.index;
  }
  // People change without bumping the store's version (mergeUsers): the few thousand are checked every time.
  entry.people = cached(
    entry.people,
    null,
    () => peopleOf(store),
    (a, b) => a.real_name === b.real_name && a.display_name === b.display_name && a.name === b.name && (a as User).title === (b as User).title,
    (sources) => new ChooserIndex([...sources].map(personEntry)),
  );
  return entry.people.index;
}

/** The choosers as engine commands (each answer one small message): a window, every matching id, the labels of chosen ids. */
export function chooserCommands(store: EngineStore) {
  return {
    /** The focus inbox's channels or people matching `query`, from `offset` (at most 50, under 10 KiB). */
    chooserWindow: (kind: ChooserKind, query: string, offset: number, limit: number, selected: string[] = []): ChooserWindow =>
      chooserIndex(store, kind).window(query, offset, limit, selected),
    /** Every id matching `query` ('Select All'), or null past 5,000. */
    chooserIds: (kind: ChooserKind, query: string) => chooserIndex(store, kind).ids(query),
    /** The names of chosen ids (an edited focus inbox's chips). */
    chooserLabels: (kind: ChooserKind, ids: string[]): ChooserItem[] => chooserIndex(store, kind).labels(ids),
  };
}
