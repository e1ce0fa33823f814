/**
 * The local copy (issue 14 §2): what the engine holds, saved in IndexedDB per member and workspace so the
 * next start paints at once and asks the server only for the delta. Why IndexedDB and not SQLite over
 * OPFS: README "Local copy" (measured by bench/localCopy.ts).
 *
 *   const copy = await openLocalCopy('T123:U456');   // null: no storage here (private mode): work as before
 *   const head = await copy?.loadHead();             // the first rows of every view: paint them at once
 *   const saved = await copy?.load();                // null: nothing saved, or another schema (deleted)
 *   await copy.saveChanges({ conversations, removed, sequence });   // the writer tab only; one transaction
 *   copy.onChanged((sequence) => ...);               // another tab saved
 *   await wipeCopy('T123:U456');                     // logout, revoke, 401, switch of member
 *
 * Nothing goes to localStorage or Cache Storage.
 */
import { deleteDB, openDB, unwrap, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { coordinate, type Coordinator } from './writer';
import {
  COMPACT_AT,
  MESSAGE_CAP,
  SCHEMA_VERSION,
  STORES,
  type SavedHead,
  changedOf,
  chunksOf,
  copyName,
  createStores,
  isCopyName,
  mergeCollection,
  messageEntriesOfChanges,
  messageEntriesOfCopy,
  type Changed,
  type Chunk,
  type CollectionName,
  type Collections,
  type CopyChanges,
  type CopyDb,
  type CopyToSave,
  type SavedCopy,
} from './schema';

export { SCHEMA_VERSION, MESSAGE_CAP, type SavedCopy, type SavedHead, type CopyChanges, type CopyHead, type CopyToSave } from './schema';

export interface LocalCopy {
  readonly memberKey: string;
  /** True in the one tab of this member that writes; the others' saves do nothing (they return false). */
  readonly isWriter: boolean;
  /** The head alone (a few hundred records): null when there is none, or another schema. */
  loadHead(): Promise<SavedHead | null>;
  /** The whole copy, read a chunk per request so the worker answers the page between them. */
  load(): Promise<SavedCopy | null>;
  /** Replaces the whole copy (a fresh snapshot). */
  saveAll(copy: CopyToSave): Promise<boolean>;
  /** Applies one batch of changes in one transaction. */
  saveChanges(changes: CopyChanges): Promise<boolean>;
  /** Deletes this member's copy (and tells the other tabs). */
  wipe(): Promise<void>;
  /** Another tab saved the copy up to `sequence`. */
  onChanged(listener: (sequence: number) => void): () => void;
  /** This tab became the writer (the previous writer's tab closed). */
  onWriter(listener: () => void): () => void;
  /** Closes the database and leaves the writer's lock to another tab. */
  close(): void;
}

export interface OpenOptions {
  /** The schema to open with (tests of versioning); SCHEMA_VERSION otherwise. */
  schema?: number;
}

async function openDatabase(name: string, schema: number): Promise<IDBPDatabase<CopyDb>> {
  const open = () =>
    openDB<CopyDb>(name, schema, {
      upgrade: (db) => createStores(db),
      // Another tab wipes the copy or opens another schema: let it.
      blocking: (_current, _blocked, event) => (event.target as IDBDatabase).close(),
    });
  try {
    return await open();
  } catch (error) {
    // A newer schema than ours (an app rolled back): ours cannot read it; drop it.
    if ((error as DOMException)?.name !== 'VersionError') throw error;
    await deleteDB(name);
    return open();
  }
}

type ReadWrite = IDBPTransaction<CopyDb, Array<(typeof STORES)[number]>, 'readwrite'>;

/** The raw stores of a transaction: their requests are awaited once, through the transaction (100,000 promises cost more than the writes). */
const rawStores = (tx: ReadWrite) => (store: (typeof STORES)[number]) => unwrap(tx.objectStore(store)) as IDBObjectStore;

function writeChunks(raw: ReturnType<typeof rawStores>, records: Pick<SavedCopy, 'conversations' | 'users'>): void {
  const chunks = raw('chunks');
  for (const chunk of chunksOf('conversations', records.conversations)) chunks.put(chunk);
  for (const chunk of chunksOf('users', records.users)) chunks.put(chunk);
}

function mergeCollections(chunks: Chunk[], changed: Changed[]): Pick<SavedCopy, 'conversations' | 'users'> {
  const of = <C extends CollectionName>(collection: C) =>
    mergeCollection(
      chunks.filter((chunk): chunk is Chunk<C> => chunk.collection === collection),
      changed.filter((record): record is Changed<C> => record.collection === collection),
    ) as Array<Collections[C]>;
  return { conversations: of('conversations'), users: of('users') };
}

/** Chunks read in one transaction: each transaction's results come in one go (~50 ms of the worker's time). */
const CHUNKS_A_READ = 8;

/**
 * A whole copy. The chunks are read a few per transaction, so the worker answers the page between them
 * (read in one, ~1 s of deserializing at 100,000 conversations blocks it); the
 * other stores come in the first transaction, and a copy whose chunks were rewritten meanwhile answers
 * 'rewritten'. `atOnce` reads everything in one transaction.
 */
async function readCopy(db: IDBPDatabase<CopyDb>, schema: number, atOnce: boolean): Promise<SavedCopy | null | 'rewritten'> {
  const tx = db.transaction(STORES, 'readonly');
  const [meta, keys, changed, views, entries] = await Promise.all([
    tx.objectStore('meta').get('meta'),
    tx.objectStore('chunks').getAllKeys(),
    tx.objectStore('changed').getAll(),
    tx.objectStore('views').get('views'),
    tx.objectStore('messages').index('at').getAll(),
  ]);
  if (!meta || meta.schema !== schema) return null;
  const chunks: Chunk[] = [];
  if (atOnce) chunks.push(...(await tx.objectStore('chunks').getAll()));
  else {
    for (let start = 0; start < keys.length; start += CHUNKS_A_READ) {
      const batch = db.transaction('chunks', 'readonly').store;
      const read = await Promise.all(keys.slice(start, start + CHUNKS_A_READ).map((key) => batch.get(key)));
      if (read.some((chunk) => !chunk)) return 'rewritten';
      chunks.push(...(read as Chunk[]));
    }
    if ((await db.get('meta', 'meta'))?.chunksAt !== meta.chunksAt) return 'rewritten';
  }
  const messages: SavedCopy['messages'] = {};
  for (const entry of entries.reverse()) messages[entry.id] = entry.messages;
  return { schema, sequence: meta.sequence, savedAt: meta.savedAt, ...mergeCollections(chunks, changed), views: views ?? [], messages };
}

export async function openLocalCopy(memberKey: string, options: OpenOptions = {}): Promise<LocalCopy | null> {
  if (typeof indexedDB === 'undefined') return null;
  const name = copyName(memberKey);
  const schema = options.schema ?? SCHEMA_VERSION;
  let db: IDBPDatabase<CopyDb> | null;
  try {
    db = await openDatabase(name, schema);
  } catch {
    return null;
  }
  const coordinator: Coordinator = await coordinate(name);
  const closeDb = () => {
    db?.close();
    db = null;
  };
  coordinator.onMessage((message) => {
    if (message.type === 'wiped') closeDb();
  });
  const writable = () => (coordinator.isWriter ? db : null);
  const transaction = (database: IDBPDatabase<CopyDb>): ReadWrite => database.transaction([...STORES], 'readwrite', { durability: 'relaxed' });

  return {
    memberKey,
    get isWriter() {
      return coordinator.isWriter;
    },
    async loadHead() {
      if (!db) return null;
      const tx = db.transaction(['meta', 'head', 'views'], 'readonly');
      const [meta, head, views] = await Promise.all([
        tx.objectStore('meta').get('meta'),
        tx.objectStore('head').get('head'),
        tx.objectStore('views').get('views'),
      ]);
      if (!meta || meta.schema !== schema || !head) return null;
      return { schema, sequence: meta.sequence, savedAt: meta.savedAt, ...head, views: views ?? [] };
    },
    async load() {
      // Rewritten chunks under the read (the writer tab folded its changes in): read again, the last time at once.
      for (let attempt = 1; ; attempt++) {
        if (!db) return null;
        const read = await readCopy(db, schema, attempt === 3);
        if (read !== 'rewritten') return read;
      }
    },
    async saveAll(copy) {
      const database = writable();
      if (!database) return false;
      const savedAt = Date.now();
      const tx = transaction(database);
      const raw = rawStores(tx);
      for (const store of STORES) raw(store).clear();
      writeChunks(raw, copy);
      raw('views').put(copy.views, 'views');
      if (copy.head) raw('head').put(copy.head, 'head');
      const messages = raw('messages');
      for (const entry of messageEntriesOfCopy(copy.messages, savedAt)) messages.put(entry);
      raw('meta').put({ schema, sequence: copy.sequence, savedAt, chunksAt: savedAt }, 'meta');
      await tx.done;
      coordinator.post({ type: 'changed', sequence: copy.sequence });
      return true;
    },
    async saveChanges(changes) {
      const database = writable();
      if (!database) return false;
      const savedAt = Date.now();
      const tx = transaction(database);
      const raw = rawStores(tx);
      const changedStore = raw('changed');
      for (const record of changedOf(changes)) changedStore.put(record);
      const removed = new Set(changes.removed ?? []);
      for (const id of removed) raw('messages').delete(id);
      if (changes.views) raw('views').put(changes.views, 'views');
      if (changes.head) raw('head').put(changes.head, 'head');
      const entries = messageEntriesOfChanges(changes.messages, removed, savedAt);
      for (const entry of entries) raw('messages').put(entry);
      if (entries.length) {
        // Past the cap, the entries saved longest ago go.
        const messageStore = tx.objectStore('messages');
        const excess = (await messageStore.count()) - MESSAGE_CAP.conversations;
        if (excess > 0) for (const key of await messageStore.index('at').getAllKeys(null, excess)) raw('messages').delete(key);
      }
      const meta = await tx.objectStore('meta').get('meta');
      let chunksAt = meta?.chunksAt ?? savedAt;
      if ((await tx.objectStore('changed').count()) > COMPACT_AT) {
        // Fold the changes into the chunks, so a start reads few records and merges few.
        const [chunks, changed] = await Promise.all([tx.objectStore('chunks').getAll(), tx.objectStore('changed').getAll()]);
        raw('chunks').clear();
        raw('changed').clear();
        writeChunks(raw, mergeCollections(chunks, changed));
        chunksAt = savedAt;
      }
      raw('meta').put({ schema, sequence: Math.max(meta?.sequence ?? 0, changes.sequence), savedAt, chunksAt }, 'meta');
      await tx.done;
      coordinator.post({ type: 'changed', sequence: changes.sequence });
      return true;
    },
    async wipe() {
      closeDb();
      coordinator.close();
      await wipeCopy(memberKey);
    },
    onChanged(listener) {
      return coordinator.onMessage((message) => {
        if (message.type === 'changed') listener(message.sequence);
      });
    },
    onWriter: (listener) => coordinator.onWriter(listener),
    close() {
      closeDb();
      coordinator.close();
    },
  };
}

/** Deletes one member's copy, from any tab; the tabs that have it open close it and stop writing. */
export async function wipeCopy(memberKey: string): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  const name = copyName(memberKey);
  if (typeof BroadcastChannel === 'function') {
    const channel = new BroadcastChannel(name);
    channel.postMessage({ type: 'wiped' });
    channel.close();
  }
  await deleteDB(name);
}

/** Deletes every member's copy in this browser (logout of the account). */
export async function wipeAllCopies(): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  const databases = typeof indexedDB.databases === 'function' ? await indexedDB.databases() : [];
  await Promise.all(
    databases
      .map((database) => database.name)
      .filter(isCopyName)
      .map((name) => wipeCopy(name.slice(copyName('').length))),
  );
}
