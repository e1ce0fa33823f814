/**
 * The small display records that cross from the worker to the page. A list view never
 * receives conversations, only a window of rows: {total, rows, version}.
 */
import { AVATAR_COLOUR_PAIRS, MEMBER_AVATARS_SHOWN } from './constants';
import { colourIndex, cutText, initialsOf } from './text';
import { threadTitle, tokenize, tokensToPlain } from './mrkdwn';
import type { AiCategory, ConversationSummary, ConversationType, UserData } from './types';

/** What an avatar draws: a picture, or initials on one of the theme's colour pairs. */
export interface Face {
  initials: string;
  colour: number;
  image?: string;
}

export interface RowAvatar extends Face {
  id: string;
  name: string;
}

export interface ConversationRow {
  id: string;
  name: string;
  type: ConversationType;
  is_private: boolean;
  unread: number;
  preview: string;
  latest_activity: number;
  category?: AiCategory;
  reason?: string;
  /** Up to three other members; their names come on hover (a row stays small: windows cross while scrolling). */
  avatars: Face[];
  /** Members beyond the avatars shown ('+N'). */
  more: number;
}

/** One slot of a list window: a conversation row, or a group header (AI order on /inbox). */
export type ListItem =
  { kind: 'row'; index: number; row: ConversationRow } | { kind: 'group'; index: number; group: string; label: string; count: number; collapsed: boolean };

export interface ViewWindow {
  viewId: string;
  start: number;
  /** Slots in the layout (rows, plus headers when grouped). */
  total: number;
  items: ListItem[];
  /** Slots that hold group headers, in the whole layout (for row heights outside the window). */
  headers: number[];
  version: number;
}

export function displayName(user: UserData | undefined, fallback: string): string {
  if (!user) return fallback;
  return user.real_name || user.display_name || user.name || fallback;
}

export function avatarOf(user: UserData | undefined, id: string): RowAvatar {
  const name = displayName(user, id);
  const avatar: RowAvatar = { id, name, initials: initialsOf(name), colour: colourIndex(id, AVATAR_COLOUR_PAIRS) };
  // Only an address crosses to the page; inline image data would swell every row window.
  if (user?.avatar && !user.avatar.startsWith('data:') && user.avatar.length <= 512) avatar.image = user.avatar;
  return avatar;
}

/** The title a conversation shows: a dm shows its person, a thread its parent message's words (cut to 50). */
export function conversationTitle(c: ConversationSummary, users: ReadonlyMap<string, UserData>): string {
  if (c.type === 'dm' && c.dm_user) return displayName(users.get(c.dm_user), c.name);
  if (c.type === 'thread' && c.parent_message?.text) {
    return threadTitle(c.parent_message.text, {
      user: (id) => {
        const u = users.get(id);
        return u ? displayName(u, id) : undefined;
      },
    });
  }
  return c.name;
}

export function toRow(c: ConversationSummary, users: ReadonlyMap<string, UserData>, me: string, previewLength: number): ConversationRow {
  const others = c.member_ids.filter((id) => id !== me);
  const shown = others.slice(0, MEMBER_AVATARS_SHOWN).map((id): Face => {
    const { initials, colour, image } = avatarOf(users.get(id), id);
    return image ? { initials, colour, image } : { initials, colour };
  });
  const names = {
    user: (id: string) => {
      const u = users.get(id);
      return u ? displayName(u, id) : undefined;
    },
  };
  const latest = c.latest_message;
  // The preview reads as the message does: names for mentions, emoji for short codes, no markers.
  let preview = latest ? tokensToPlain(tokenize(latest.text, names)) : '';
  if (latest?.user && c.type !== 'dm') {
    const author = latest.user === me ? 'You' : displayName(users.get(latest.user), latest.user).split(' ')[0];
    preview = `${author}: ${preview}`;
  }
  const row: ConversationRow = {
    id: c.id,
    name: conversationTitle(c, users),
    type: c.type,
    is_private: c.is_private,
    unread: c.unread_count_display ?? c.unread_count,
    preview: cutText(preview, previewLength),
    latest_activity: c.latest_activity,
    avatars: shown,
    more: Math.max(0, others.length - shown.length),
  };
  if (c.ai_category) row.category = c.ai_category;
  if (c.ai_reason) row.reason = c.ai_reason;
  return row;
}

/**
 * The people rows name: a DM's person, the faces a row shows (MEMBER_AVATARS_SHOWN, the member among
 * them), the last message's and a thread's authors. A first page of rows needs only these (the server's
 * `includeUsers=referenced`, the local copy's head).
 */
export function referencedUsers(conversations: Iterable<ConversationSummary>): Set<string> {
  const ids = new Set<string>();
  for (const c of conversations) {
    if (c.dm_user) ids.add(c.dm_user);
    for (const id of (c.member_ids ?? []).slice(0, MEMBER_AVATARS_SHOWN + 1)) ids.add(id);
    if (c.latest_message?.user) ids.add(c.latest_message.user);
    if (c.parent_message?.user) ids.add(c.parent_message.user);
  }
  return ids;
}
