/**
 * Ops over the real local copy module (src/worker/localCopy) run in a Chromium worker by
 * tests/e2e/localCopy.test.ts and bench/localCopy.ts (through tests/e2e/workerPage.ts).
 * The snapshot is generated here, in the worker: 100,000 conversations would be slow over CDP.
 */
import { openLocalCopy, wipeAllCopies, type LocalCopy } from '../../src/worker/localCopy/localCopy';
import { generateSnapshot, snapshotConversation, snapshotMessages, type Snapshot } from '../fixtures/snapshot';

let snapshot: Snapshot | null = null;
const copies = new Map<string, LocalCopy>();
const heard: number[] = [];
let becameWriter = 0;

const copyOf = (memberKey: string) => {
  const copy = copies.get(memberKey);
  if (!copy) throw new Error(`not open: ${memberKey}`);
  return copy;
};
const snap = () => {
  if (!snapshot) throw new Error('no snapshot generated');
  return snapshot;
};
/** The snapshot last generated in this worker (the SQLite comparison of bench/localCopySqlite.ts reads it too). */
export const currentSnapshot = snap;
const timed = async <T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> => {
  const start = performance.now();
  const result = await run();
  return { ms: performance.now() - start, result };
};

/** The delta of `count` changed conversations: new versions of every 1,000th, with new messages for a few, one removed. */
export function deltaOf(s: Snapshot, count: number, version: number, sequence: number) {
  const users = s.users.length;
  const changed = Array.from({ length: count }, (_, k) => snapshotConversation((k * 997) % s.conversations.length, users, version));
  return {
    conversations: changed,
    removed: [s.conversations[s.conversations.length - 1]!.id],
    messages: changed.slice(0, 5).map((c) => ({ id: c.id, messages: snapshotMessages(c.id, 100 + version, users) })),
    sequence,
  };
}

export const localCopyOps = {
  generate(args: { conversations: number; users: number; opened: number }) {
    snapshot = generateSnapshot(args);
    return { conversations: snapshot.conversations.length, users: snapshot.users.length, jsonBytes: JSON.stringify(snapshot).length };
  },
  async open(args: { memberKey: string; schema?: number }) {
    const { ms, result } = await timed(() => openLocalCopy(args.memberKey, args.schema ? { schema: args.schema } : {}));
    if (!result) return null;
    copies.set(args.memberKey, result);
    result.onChanged((sequence) => heard.push(sequence));
    result.onWriter(() => (becameWriter += 1));
    return { ms, isWriter: result.isWriter };
  },
  state(memberKey: string) {
    return { isWriter: copyOf(memberKey).isWriter, heard, becameWriter };
  },
  async saveAll(memberKey: string) {
    return timed(() => copyOf(memberKey).saveAll(snap()));
  },
  /** Loads, and says whether what was loaded equals the snapshot with `delta` applied (`version` 0: no delta). */
  async load(args: { memberKey: string; delta?: { count: number; version: number; sequence: number } }) {
    const { ms, result } = await timed(() => copyOf(args.memberKey).load());
    if (!result) return { ms, copy: null };
    const s = snap();
    let expected = { ...s, conversations: s.conversations, messages: s.messages };
    if (args.delta) {
      const d = deltaOf(s, args.delta.count, args.delta.version, args.delta.sequence);
      const changed = new Map(d.conversations.map((c) => [c.id, c]));
      const removed = new Set(d.removed);
      const messages = { ...s.messages };
      for (const m of d.messages) messages[m.id] = m.messages.slice(-100);
      expected = {
        ...s,
        sequence: d.sequence,
        conversations: s.conversations.filter((c) => !removed.has(c.id)).map((c) => changed.get(c.id) ?? c),
        messages,
      };
    }
    const sortedEntries = (m: Record<string, unknown>) => JSON.stringify(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : 1)));
    return {
      ms,
      copy: {
        schema: result.schema,
        sequence: result.sequence,
        conversations: result.conversations.length,
        users: result.users.length,
        views: result.views.length,
        messages: Object.keys(result.messages).length,
        sameConversations: JSON.stringify(result.conversations) === JSON.stringify(expected.conversations),
        sameUsers: JSON.stringify(result.users) === JSON.stringify(expected.users),
        sameViews: JSON.stringify(result.views) === JSON.stringify(expected.views),
        sameMessages: sortedEntries(result.messages) === sortedEntries(expected.messages),
        sameSequence: result.sequence === expected.sequence,
      },
    };
  },
  async saveDelta(args: { memberKey: string; count: number; version: number; sequence: number }) {
    return timed(() => copyOf(args.memberKey).saveChanges(deltaOf(snap(), args.count, args.version, args.sequence)));
  },
  async wipe(memberKey: string) {
    await copyOf(memberKey).wipe();
    copies.delete(memberKey);
  },
  async wipeAll() {
    for (const copy of copies.values()) copy.close();
    copies.clear();
    await wipeAllCopies();
  },
  close(memberKey: string) {
    copyOf(memberKey).close();
    copies.delete(memberKey);
  },
  async usage() {
    const estimate = await navigator.storage.estimate();
    return estimate.usage ?? 0;
  },
  /** What this origin keeps: IndexedDB databases, OPFS entries, Cache Storage caches. */
  async storage() {
    const databases = (await indexedDB.databases()).map((d) => d.name);
    const root = await navigator.storage.getDirectory();
    const opfs: string[] = [];
    for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys()) opfs.push(name);
    const caches = await self.caches.keys();
    return { databases, opfs, caches };
  },
};
