/** What the search palette lists (SPEC §2.8), and the worker's local match over what it holds. */
import { avatarOf, conversationTitle, displayName } from './rows';
import { tokenize, tokensToPlain } from './mrkdwn';
import type { ConversationSummary, ConversationType, MentionData, User, UserData } from './types';

export type PaletteItem =
  | { kind: 'conversation'; id: string; title: string; subtitle?: string; type: ConversationType; is_private: boolean; unread?: number }
  | { kind: 'message'; id: string; conversationId: string; ts: string; title: string; text: string; author: string }
  | { kind: 'user'; id: string; title: string; subtitle?: string; initials: string; colour: number };

export interface PaletteSections {
  conversations: PaletteItem[];
  messages: PaletteItem[];
  users: PaletteItem[];
}

/** 0 exact, 1 starts with, 2 contains, -1 no match (case-insensitive). */
export function matchRank(name: string, query: string): number {
  const n = name.toLowerCase();
  if (n === query) return 0;
  if (n.startsWith(query)) return 1;
  return n.includes(query) ? 2 : -1;
}

export function conversationItem(c: ConversationSummary, users: ReadonlyMap<string, UserData>): PaletteItem {
  const item: PaletteItem = { kind: 'conversation', id: c.id, title: conversationTitle(c, users), type: c.type, is_private: c.is_private };
  if (c.unread_count_display > 0) item.unread = c.unread_count_display;
  return item;
}

export function userItem(u: UserData & { title?: string; team?: string }): PaletteItem {
  const { initials, colour } = avatarOf(u, u.id);
  const subtitle = [u.title, u.team].filter(Boolean).join(' · ');
  return { kind: 'user', id: u.id, title: displayName(u, u.id), ...(subtitle ? { subtitle } : {}), initials, colour };
}

/** A conversation's lowercase title and latest activity, as the store keeps them for search. */
export interface SearchName {
  name: string;
  at: number;
}

/** What the local match reads: lowercase names kept by the store, and lookups. */
export interface LocalIndex {
  /** Lowercase conversation titles (and activity) by id. */
  names: ReadonlyMap<string, SearchName>;
  conversation(id: string): ConversationSummary | undefined;
  /** Lowercase person names ("real\0display\0handle") by id. */
  people: ReadonlyMap<string, string>;
  users: ReadonlyMap<string, UserData>;
  me: string;
}

type Ranked = { id: string; rank: number; at: number };
const worse = (a: Ranked, b: Ranked) => (a.rank !== b.rank ? a.rank > b.rank : a.at < b.at);

/** Keeps the best `limit` items (a bounded insertion): no sort of a large array. */
function keep(best: Ranked[], item: Ranked, limit: number): void {
  if (best.length === limit && !worse(best[limit - 1]!, item)) return;
  let i = best.length;
  while (i > 0 && worse(best[i - 1]!, item)) i -= 1;
  best.splice(i, 0, item);
  if (best.length > limit) best.pop();
}

/** 0 when one of the \0-separated names equals the query, 1 when one starts with it, 2 when one contains it, -1 otherwise. */
function rankIn(names: string, q: string): number {
  const at = names.indexOf(q);
  if (at < 0) return -1;
  let rank = 2;
  for (const name of names.split('\u0000')) {
    if (name === q) return 0;
    if (name.startsWith(q)) rank = 1;
  }
  return rank;
}

/**
 * The best `limit` matches among the conversations and people the worker holds: exact,
 * then prefix, then contains; ties by activity (conversations) or name (people). One pass
 * of indexOf over lowercase names the store keeps; items are built for the winners only.
 */
export function localMatch(query: string, index: LocalIndex, limit = 8): PaletteSections {
  const q = query.trim().toLowerCase();
  const best: Ranked[] = [];
  // forEach: no [key, value] array per entry (100,000 of them on a broad query).
  index.names.forEach((entry, id) => {
    const at = entry.name.indexOf(q);
    if (at < 0) return;
    keep(best, { id, rank: at > 0 ? 2 : entry.name.length === q.length ? 0 : 1, at: entry.at }, limit);
  });
  const people: Ranked[] = [];
  index.people.forEach((names, id) => {
    if (id === index.me) return;
    const rank = rankIn(names, q);
    if (rank >= 0) people.push({ id, rank, at: 0 });
  });
  const userName = (id: string) => displayName(index.users.get(id), id);
  people.sort((a, b) => a.rank - b.rank || userName(a.id).localeCompare(userName(b.id)));
  return {
    conversations: best.flatMap(({ id }) => {
      const c = index.conversation(id);
      return c ? [conversationItem(c, index.users)] : [];
    }),
    messages: [],
    users: people.slice(0, limit).flatMap(({ id }) => {
      const u = index.users.get(id);
      return u ? [userItem(u)] : [];
    }),
  };
}

/** The server's answer (SPEC §7.5) as palette sections. */
export interface ServerSearch {
  results: {
    conversations: ConversationSummary[];
    messages: Array<{ id: string; ts: string; conversation_id: string; conversation_name: string; text: string; user: { name: string } }>;
    users: User[];
  };
  /** Names of the hits' channel and user group mentions (Sift's addition to SPEC §7.5). */
  mentions?: MentionData;
}

export function serverSections(body: ServerSearch, users: ReadonlyMap<string, UserData>): PaletteSections {
  const names = {
    user: (id: string) => {
      const u = users.get(id);
      return u ? displayName(u, id) : undefined;
    },
    channel: (id: string) => body.mentions?.channels?.[id],
    usergroup: (id: string) => body.mentions?.usergroups?.[id],
  };
  return {
    conversations: body.results.conversations.map((c) => conversationItem(c, users)),
    messages: body.results.messages.map((m) => ({
      kind: 'message' as const,
      id: m.id,
      conversationId: m.conversation_id,
      ts: m.ts,
      title: m.conversation_name,
      text: tokensToPlain(tokenize(m.text, names)),
      author: m.user.name,
    })),
    users: body.results.users.map(userItem),
  };
}
