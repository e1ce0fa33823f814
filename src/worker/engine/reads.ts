/**
 * Small reads the page asks for one at a time: a conversation's facts for a command, the names
 * behind a '+N', a person, the DM with someone, the id or slot at a list position, the options of
 * the focus inbox modal. Synchronous over the store; each crosses Comlink as one answer. Also the
 * decision behind 'mark read and open the next' (markReadAndNext), over a store and a mark-read
 * command, so the page's test engine answers it from the same code.
 */
import type { Layout } from '../../model/layout';
import { conversationTitle, displayName } from '../../model/rows';
import type { User } from '../../model/types';
import type { EngineStore } from '../store';
import type { Core } from './core';

/** What 'mark read and open the next' answers: the conversation to open (null: none), the list slot for the cursor, and the read mark an undo goes back to. */
export interface MarkedAndNext {
  next: string | null;
  index: number;
  lastRead: string;
}

/**
 * Marks an unread conversation read and answers which to open next in the view (the page's Ctrl+E, one
 * round trip): the one that took its place when it left the view, else the one after it; else the one
 * before. Null when it is unknown or already read, or the mark failed (the engine then reloads).
 */
export async function markReadAndNext(
  store: EngineStore,
  markRead: (id: string) => Promise<boolean>,
  viewId: string,
  id: string,
  layout?: Layout,
): Promise<MarkedAndNext | null> {
  const c = store.conversations.get(id);
  if (!c || c.unread_count_display === 0) return null;
  const lastRead = c.last_read;
  const index = store.indexOf(viewId, id, layout);
  if (!(await markRead(id))) return null;
  const stayed = store.idAt(viewId, index, layout) === id;
  let nextIndex = stayed ? index + 1 : index;
  let next = store.idAt(viewId, nextIndex, layout);
  if (!next && index > 0) {
    nextIndex = index - 1;
    next = store.idAt(viewId, nextIndex, layout);
  }
  return { next: next && next !== id ? next : null, index: Math.max(0, nextIndex), lastRead };
}

export function createReads(core: Core) {
  const { store } = core;

  return {
    /** One conversation's small facts for a command (name, unread, category, last_read). */
    facts: (id: string) => conversationFacts(store, id),
    /** The names of a conversation's other members (the '+N' hover list). */
    memberNames: (id: string): string[] => {
      const c = store.conversations.get(id);
      if (!c) return [];
      return c.member_ids.filter((m) => m !== store.me).map((m) => displayName(store.users.get(m), m));
    },
    /** A person of the workspace, as the users map holds them (null when unknown). */
    user: (id: string): User | null => (store.users.get(id) as User | undefined) ?? null,
    /** The DM with a person, when the member has one. */
    dmWith: (userId: string) => {
      for (const c of store.conversations.values()) if (c.type === 'dm' && c.dm_user === userId) return c.id;
      return null;
    },
    idAt: (viewId: string, index: number, layout?: Layout) => store.idAt(viewId, index, layout),
    slotAt: (viewId: string, index: number, layout?: Layout) => store.slotAt(viewId, index, layout),
    indexOf: (viewId: string, id: string, layout?: Layout) => store.indexOf(viewId, id, layout),
  };
}

/** One conversation's small facts for a command (name, unread, category, last_read), or null when not held. */
export function conversationFacts(store: Pick<EngineStore, 'conversations' | 'users'>, id: string) {
  const c = store.conversations.get(id);
  return c
    ? {
        id: c.id,
        name: conversationTitle(c, store.users),
        unread: c.unread_count_display,
        last_read: c.last_read,
        category: c.ai_category ?? null,
        type: c.type,
        dm_user: c.dm_user ?? null,
      }
    : null;
}
