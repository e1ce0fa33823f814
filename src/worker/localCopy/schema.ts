/**
 * The local copy's shape (issue 14 §2): what the engine saves in the browser per member and workspace,
 * the IndexedDB layout that holds it, and the pure rules of a save (which messages are kept).
 *
 * Layout, one database per member (`sift-copy:<workspace>:<user>`), whose IndexedDB version is the schema:
 *   meta      'meta' → { schema, sequence, savedAt, chunksAt }
 *   head      'head' → the first rows of every view and the people they name, with the views, saved with
 *             every write: a start paints from it at once (a few hundred records, milliseconds) and files
 *             the whole copy behind it
 *   chunks    the conversations and the people as of the last whole save, 1,000 records a chunk:
 *             { collection, index, items }. IndexedDB spends its time per record, not per byte: in
 *             Chromium 100,000 summaries one a record take 11 s to write and 2.5 s to read, in chunks
 *             0.4 s and 0.9 s (bench/localCopy.ts)
 *   changed   what changed since: { collection, id, value } (no value: removed). A delta writes only
 *             these; past COMPACT_AT of them the next save folds them into the chunks
 *   views     'views' → View[] (a few dozen at most)
 *   messages  { id, at, messages } a conversation, index 'at': the most recently saved are kept
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import type { ConversationSummary, Message, UserData } from '../../model/types';
import type { View } from '../../model/views';
import { compareTs } from '../../model/ts';

/** Raise it when the saved shape changes: a copy of another version is deleted at open, never read. */
export const SCHEMA_VERSION = 2;

/** Messages kept: the most recent `conversations` conversations opened or active, `perConversation` newest messages each. */
export const MESSAGE_CAP = { conversations: 200, perConversation: 100 } as const;

const PREFIX = 'sift-copy:';

/** The database, the Web Lock and the BroadcastChannel of one member's copy share this name. */
export function copyName(memberKey: string): string {
  return PREFIX + memberKey;
}

export function isCopyName(name: string | undefined): name is string {
  return typeof name === 'string' && name.startsWith(PREFIX);
}

export interface SavedCopy {
  schema: number;
  /** The member's live-event sequence the copy is up to date with. */
  sequence: number;
  /** Epoch ms of the last write. */
  savedAt: number;
  conversations: ConversationSummary[];
  users: UserData[];
  views: View[];
  /** Conversation id → its newest messages, ascending by ts. */
  messages: Record<string, Message[]>;
}

/**
 * The head of a copy: what the first screen of every view shows, saved beside the whole copy with the same
 * sequence. `total` is how many conversations the whole copy holds (the list's count while it is filed).
 */
export interface CopyHead {
  conversations: ConversationSummary[];
  users: UserData[];
  total: number;
}

/** A saved head as a start reads it: with the copy's sequence, save time and views. */
export type SavedHead = CopyHead & Pick<SavedCopy, 'schema' | 'sequence' | 'savedAt' | 'views'>;

/** What `saveAll` takes: a whole copy (schema and savedAt are filled in). `messages` lists the most recent first. */
export type CopyToSave = Omit<SavedCopy, 'schema' | 'savedAt'> & { head?: CopyHead };

/** One batch of changes, written in one transaction. */
export interface CopyChanges {
  /** Conversation summaries added or changed (whole records). */
  conversations?: ConversationSummary[];
  /** Conversations the member no longer has: their summaries and messages go. */
  removed?: string[];
  /** People added or changed. */
  users?: UserData[];
  /** The whole list of views, when it changed. */
  views?: View[];
  /** Conversations whose messages changed (the most recent last): their whole newest messages. */
  messages?: Array<{ id: string; messages: Message[] }>;
  /** The head as of these changes. */
  head?: CopyHead;
  sequence: number;
}

export interface MessageEntry {
  id: string;
  /** Orders the entries for eviction: the lowest goes first. */
  at: number;
  messages: Message[];
}

export interface Meta {
  schema: number;
  sequence: number;
  savedAt: number;
  /** When the chunks were last written whole (a full save, or changes folded in): a read across it starts over. */
  chunksAt: number;
}

/** The collections kept in chunks plus changes. */
export interface Collections {
  conversations: ConversationSummary;
  users: UserData;
}
export type CollectionName = keyof Collections;
export const COLLECTIONS: readonly CollectionName[] = ['conversations', 'users'];

/** Conversations of each view (and of each AI group) in the head: more than a screen of each. */
export const HEAD_ROWS = 100;

/** Records a chunk. */
export const CHUNK_SIZE = 1_000;
/** Changed records kept beside the chunks before a save folds them in (a few per cent of a large copy). */
export const COMPACT_AT = 5_000;

export interface Chunk<C extends CollectionName = CollectionName> {
  collection: C;
  index: number;
  items: Array<Collections[C]>;
}

export interface Changed<C extends CollectionName = CollectionName> {
  collection: C;
  id: string;
  /** Absent: the record was removed. */
  value?: Collections[C];
}

export interface CopyDb extends DBSchema {
  meta: { key: 'meta'; value: Meta };
  head: { key: 'head'; value: CopyHead };
  chunks: { key: [string, number]; value: Chunk };
  changed: { key: [string, string]; value: Changed };
  views: { key: 'views'; value: View[] };
  messages: { key: string; value: MessageEntry; indexes: { at: number } };
}

export const STORES = ['meta', 'head', 'chunks', 'changed', 'views', 'messages'] as const;

/** The upgrade callback: whatever an older schema held is dropped, and the current stores are made empty. */
export function createStores(db: IDBPDatabase<CopyDb>): void {
  for (const name of Array.from(db.objectStoreNames)) db.deleteObjectStore(name);
  db.createObjectStore('meta');
  db.createObjectStore('head');
  db.createObjectStore('chunks', { keyPath: ['collection', 'index'] });
  db.createObjectStore('changed', { keyPath: ['collection', 'id'] });
  db.createObjectStore('views');
  db.createObjectStore('messages', { keyPath: 'id' }).createIndex('at', 'at');
}

export function chunksOf<C extends CollectionName>(collection: C, items: ReadonlyArray<Collections[C]>, size: number = CHUNK_SIZE): Array<Chunk<C>> {
  const chunks: Array<Chunk<C>> = [];
  for (let start = 0; start < items.length; start += size) chunks.push({ collection, index: chunks.length, items: items.slice(start, start + size) });
  return chunks;
}

/** The records of one collection: the chunks' in order, each changed one in its place, removed ones gone, new ones at the end. */
export function mergeCollection<T extends { id: string }>(
  chunks: ReadonlyArray<{ items: readonly T[] }>,
  changed: ReadonlyArray<{ id: string; value?: T }>,
): T[] {
  const changes = new Map<string, T | undefined>();
  for (const change of changed) changes.set(change.id, change.value);
  const out: T[] = [];
  for (const chunk of chunks)
    for (const item of chunk.items) {
      if (!changes.has(item.id)) out.push(item);
      else {
        const value = changes.get(item.id);
        if (value) out.push(value);
        changes.delete(item.id);
      }
    }
  for (const value of changes.values()) if (value) out.push(value);
  return out;
}

/** The changed records of a batch: upserts, then removals (a conversation both changed and removed is removed). */
export function changedOf(changes: CopyChanges): Changed[] {
  const removed = new Set(changes.removed ?? []);
  return [
    ...(changes.conversations ?? []).filter((c) => !removed.has(c.id)).map((value): Changed => ({ collection: 'conversations', id: value.id, value })),
    ...[...removed].map((id): Changed => ({ collection: 'conversations', id })),
    ...(changes.users ?? []).map((value): Changed => ({ collection: 'users', id: value.id, value })),
  ];
}

/** The newest `max` messages, ascending by ts (the engine's order). */
export function newestMessages(messages: readonly Message[], max: number = MESSAGE_CAP.perConversation): Message[] {
  const sorted = [...messages].sort((a, b) => compareTs(a.ts, b.ts));
  return sorted.length > max ? sorted.slice(sorted.length - max) : sorted;
}

/**
 * The message entries of a whole copy: the first `MESSAGE_CAP.conversations` conversations of `messages`
 * (the most recent first), each trimmed to its newest messages; the first gets the highest `at`.
 */
export function messageEntriesOfCopy(messages: Record<string, Message[]>, now: number): MessageEntry[] {
  return Object.entries(messages)
    .slice(0, MESSAGE_CAP.conversations)
    .map(([id, list], index) => ({ id, at: now - index, messages: newestMessages(list) }));
}

/** The entries of a batch of changes: later in the list is more recent, and all are newer than anything saved before `now`. */
export function messageEntriesOfChanges(changes: CopyChanges['messages'], removed: ReadonlySet<string>, now: number): MessageEntry[] {
  const latest = new Map<string, MessageEntry>();
  (changes ?? []).forEach(({ id, messages }, index) => {
    if (removed.has(id)) return;
    latest.delete(id);
    latest.set(id, { id, at: now + index / 1000, messages: newestMessages(messages) });
  });
  return [...latest.values()];
}
