/** What the search palette lists (SPEC §2.8), and the worker's local match over what it holds. */
import { avatarOf, conversationTitle, displayName } from './rows';
import { tokenize, tokensToPlain } from './mrkdwn';
import type { ConversationSummary, ConversationType, User, UserData } from './types';

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

/** Lowercase names, cached per summary object (summaries are replaced, never changed, so an entry never goes stale). */
const lowerNames = new WeakMap<ConversationSummary, string>();

function lowerName(c: ConversationSummary, users: ReadonlyMap<string, UserData>): string {
  let name = lowerNames.get(c);
  if (name === undefined) {
    const person = c.type === 'dm' && c.dm_user ? users.get(c.dm_user) : undefined;
    name = (person ? displayName(person, c.name) : c.name).toLowerCase();
    lowerNames.set(c, name);
  }
  return name;
}

/**
 * The best `limit` matches of the conversations and people the worker holds: exact, then
 * prefix, then contains; ties by activity or name. One pass of string tests over cached
 * lowercase names; titles are built for the winners only.
 */
export function localMatch(
  query: string,
  conversations: Iterable<ConversationSummary>,
  users: ReadonlyMap<string, UserData>,
  me: string,
  limit = 8,
): PaletteSections {
  const q = query.trim().toLowerCase();
  // Keep the best `limit` while scanning (a bounded insertion): no sort of a large array.
  const best: Array<{ c: ConversationSummary; rank: number }> = [];
  const worse = (a: { c: ConversationSummary; rank: number }, b: { c: ConversationSummary; rank: number }) =>
    a.rank !== b.rank ? a.rank > b.rank : a.c.latest_activity < b.c.latest_activity;
  for (const c of conversations) {
    const name = lowerName(c, users);
    const at = name.indexOf(q);
    if (at < 0) continue;
    const item = { c, rank: at > 0 ? 2 : name.length === q.length ? 0 : 1 };
    if (best.length === limit && !worse(best[limit - 1]!, item)) continue;
    let i = best.length;
    while (i > 0 && worse(best[i - 1]!, item)) i -= 1;
    best.splice(i, 0, item);
    if (best.length > limit) best.pop();
  }
  const people: Array<{ u: UserData; rank: number }> = [];
  for (const u of users.values()) {
    if (u.id === me) continue;
    const rank = Math.min(...[displayName(u, u.id), u.display_name, u.name].map((n) => matchRank(n ?? '', q)).map((r) => (r < 0 ? 9 : r)));
    if (rank < 9) people.push({ u, rank });
  }
  people.sort((a, b) => a.rank - b.rank || displayName(a.u, a.u.id).localeCompare(displayName(b.u, b.u.id)));
  return {
    conversations: best.map(({ c }) => conversationItem(c, users)),
    messages: [],
    users: people.slice(0, limit).map(({ u }) => userItem(u)),
  };
}

/** The server's answer (SPEC §7.5) as palette sections. */
export interface ServerSearch {
  results: {
    conversations: ConversationSummary[];
    messages: Array<{ id: string; ts: string; conversation_id: string; conversation_name: string; text: string; user: { name: string } }>;
    users: User[];
  };
}

export function serverSections(body: ServerSearch, users: ReadonlyMap<string, UserData>): PaletteSections {
  const names = { user: (id: string) => { const u = users.get(id); return u ? displayName(u, id) : undefined; } };
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
