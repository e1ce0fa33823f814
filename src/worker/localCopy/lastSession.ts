/**
 * The last session's auth status (issue 14 §3), kept in IndexedDB next to the copies: who was signed
 * in, so that Sift opens offline with that member's copy when the server cannot be reached. It is
 * member data (a name, a workspace), so it is wiped with the copies (logout, revoke, 401, a switch of
 * member) and never goes to localStorage.
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
