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

/** The best `limit` matches of the conversations and people the worker holds: exact, then prefix, then contains; ties by activity or name. */
export function localMatch(
  query: string,
  conversations: Iterable<ConversationSummary>,
  users: ReadonlyMap<string, UserData>,
  me: string,
  limit = 8,
): PaletteSections {
  const q = query.trim().toLowerCase();
  const convs: Array<{ c: ConversationSummary; rank: number; title: string }> = [];
  for (const c of conversations) {
    const title = conversationTitle(c, users);
    const rank = matchRank(title, q);
    if (rank >= 0) convs.push({ c, rank, title });
  }
  convs.sort((a, b) => a.rank - b.rank || b.c.latest_activity - a.c.latest_activity);
  const people: Array<{ u: UserData; rank: number }> = [];
  for (const u of users.values()) {
    if (u.id === me) continue;
    const rank = Math.min(...[displayName(u, u.id), u.display_name, u.name].map((n) => matchRank(n ?? '', q)).map((r) => (r < 0 ? 9 : r)));
    if (rank < 9) people.push({ u, rank });
  }
  people.sort((a, b) => a.rank - b.rank || displayName(a.u, a.u.id).localeCompare(displayName(b.u, b.u.id)));
  return {
    conversations: convs.slice(0, limit).map(({ c }) => conversationItem(c, users)),
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
