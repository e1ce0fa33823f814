/**
 * The last session's auth status (issue 14 §3), kept in IndexedDB next to the copies: who was signed
 * in, so that Sift opens offline with that member's copy when the server cannot be reached; and each
 * member's outbox (actions taken offline, waiting to be sent), so a closed browser loses none. Both
 * are member data (a name, a workspace, a message's text), so they are wiped with the copies (logout,
 * revoke, 401, a switch of member) and never go to localStorage.
 */
import { deleteDB, openDB } from 'idb';
import type { AuthStatus } from '../../model/types';

const NAME = 'sift-last-session';
const STORE = 'session';
const KEY = 'last';

export interface LastSession {
  memberKey: string;
  status: AuthStatus;
  /** Epoch ms the server last said so. */
  savedAt: number;
}

const available = () => typeof indexedDB !== 'undefined';

async function database() {
  return openDB(NAME, 1, { upgrade: (db) => db.createObjectStore(STORE) });
}

export async function saveLastSession(session: LastSession): Promise<void> {
  if (!available()) return;
  const db = await database();
  try {
    await db.put(STORE, session, KEY);
  } finally {
    db.close();
  }
}

/** The last session, or null (none, or no storage here). */
export async function readLastSession(): Promise<LastSession | null> {
  if (!available()) return null;
  try {
    // Reading never creates the database (a wiped browser stays empty).
    if (!(await indexedDB.databases()).some((d) => d.name === NAME)) return null;
    const db = await database();
    try {
      const value = (await db.get(STORE, KEY)) as LastSession | undefined;
      return value && typeof value.memberKey === 'string' && value.status ? value : null;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

export async function wipeLastSession(): Promise<void> {
  if (!available()) return;
  await deleteDB(NAME);
}

const outboxKey = (memberKey: string) => `outbox:${memberKey}`;

/** Saves a member's outbox (the whole queue, oldest first); an empty one is deleted. */
export async function saveOutbox<T>(memberKey: string, entries: readonly T[]): Promise<void> {
  if (!available()) return;
  const db = await database();
  try {
    if (entries.length) await db.put(STORE, entries, outboxKey(memberKey));
    else await db.delete(STORE, outboxKey(memberKey));
  } finally {
    db.close();
  }
}

/** A member's saved outbox, oldest first (empty when none). */
export async function readOutbox<T>(memberKey: string): Promise<T[]> {
  if (!available()) return [];
  try {
    if (!(await indexedDB.databases()).some((d) => d.name === NAME)) return [];
    const db = await database();
    try {
      const value = (await db.get(STORE, outboxKey(memberKey))) as T[] | undefined;
      return Array.isArray(value) ? value : [];
    } finally {
      db.close();
    }
  } catch {
    return [];
  }
}
