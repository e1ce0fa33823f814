/**
 * The local copy's logic in Node (issue 14 §2): how chunks and changed records merge, which messages are
 * kept, the schema's versioning and the wipe, through the real module over fake-indexeddb (an in-memory
 * IndexedDB). That it works in a browser (IndexedDB, Web Locks, BroadcastChannel) is proven in Chromium:
 * tests/e2e/localCopy.test.ts.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { openLocalCopy, wipeAllCopies, wipeCopy, type LocalCopy } from '../../src/worker/localCopy/localCopy';
import {
  COMPACT_AT,
  MESSAGE_CAP,
  SCHEMA_VERSION,
  changedOf,
  chunksOf,
  mergeCollection,
  messageEntriesOfChanges,
  newestMessages,
} from '../../src/worker/localCopy/schema';
import { generateSnapshot, snapshotConversation, snapshotMessages } from '../fixtures/snapshot';

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

const item = (id: string, v = 0) => ({ id, v });
const databases = async () => (await indexedDB.databases()).map((d) => d.name);

describe('mergeCollection', () => {
  it.each([
    ['no change', [[item('a'), item('b')], [item('c')]], [], ['a0', 'b0', 'c0']],
    ['a change stays in place', [[item('a'), item('b')], [item('c')]], [{ id: 'b', value: item('b', 1) }], ['a0', 'b1', 'c0']],
    ['a removal', [[item('a'), item('b')], [item('c')]], [{ id: 'a' }], ['b0', 'c0']],
    ['a new record goes last', [[item('a')]], [{ id: 'z', value: item('z', 1) }], ['a0', 'z1']],
    ['the last change of a record wins', [[item('a')]], [{ id: 'a', value: item('a', 1) }, { id: 'a' }], []],
    ['removing an unknown record does nothing', [[item('a')]], [{ id: 'q' }], ['a0']],
  ])('%s', (_name, chunks, changed, expected) => {
    const merged = mergeCollection(
      chunks.map((items) => ({ items })),
      changed,
    );
    expect(merged.map((r) => `${r.id}${r.v}`)).toEqual(expected);
  });

  it('equals applying the changes to the records one by one (any chunk size)', () => {
    const id = fc.constantFrom(...'abcdefghij'.split(''));
    fc.assert(
      fc.property(
        fc.uniqueArray(id).map((ids) => ids.map((i) => item(i))),
        fc.array(fc.record({ id, v: fc.option(fc.integer({ min: 1, max: 9 }), { nil: undefined }) })),
        fc.integer({ min: 1, max: 4 }),
        (base, changes, size) => {
          const expected = new Map(base.map((r) => [r.id, r]));
          for (const c of changes) {
            if (c.v === undefined) expected.delete(c.id);
            else expected.set(c.id, item(c.id, c.v));
          }
          const merged = mergeCollection(
            chunksOf('users', base as never, size) as never,
            changes.map((c) => (c.v === undefined ? { id: c.id } : { id: c.id, value: item(c.id, c.v) })),
          );
          expect(new Map(merged.map((r) => [r.id, r]))).toEqual(expected);
          expect(merged).toHaveLength(expected.size);
        },
      ),
    );
  });

  it('a batch removing a conversation it also changes removes it', () => {
    const c = snapshotConversation(1, 10);
    expect(changedOf({ conversations: [c], removed: [c.id], sequence: 1 })).toEqual([{ collection: 'conversations', id: c.id }]);
  });
});

describe('messages kept', () => {
  it('keeps the newest messages of a conversation, ascending', () => {
    const list = snapshotMessages('C1', 150, 10);
    const kept = newestMessages([...list].reverse());
    expect(kept).toHaveLength(MESSAGE_CAP.perConversation);
    expect(kept).toEqual(list.slice(-MESSAGE_CAP.perConversation));
  });

  it('a conversation listed twice in a batch keeps its last messages, as the most recent', () => {
    const a = snapshotMessages('A', 2, 10);
    const b = snapshotMessages('B', 3, 10);
    const entries = messageEntriesOfChanges(
      [
        { id: 'A', messages: a },
        { id: 'B', messages: b },
        { id: 'A', messages: a.slice(1) },
        { id: 'R', messages: b },
      ],
      new Set(['R']),
      1_000,
    );
    expect(entries.map((e) => [e.id, e.messages.length])).toEqual([
      ['B', 3],
      ['A', 1],
    ]);
    expect(entries[1]!.at).toBeGreaterThan(entries[0]!.at);
  });
});

describe('the copy in IndexedDB', () => {
  const small = () => generateSnapshot({ conversations: 2_500, users: 300, opened: 3 });

  async function open(memberKey = 'T1:U1', schema?: number): Promise<LocalCopy> {
    const copy = await openLocalCopy(memberKey, schema ? { schema } : {});
    if (!copy) throw new Error('no copy');
    return copy;
  }

  it('is absent before the first save', async () => {
    expect(await (await open()).load()).toBeNull();
  });

  it('round-trips a whole save, in order', async () => {
    const s = small();
    const copy = await open();
    expect(copy.isWriter).toBe(true);
    expect(await copy.saveAll(s)).toBe(true);
    const loaded = await (await open()).load();
    expect(loaded).toMatchObject({
      schema: SCHEMA_VERSION,
      sequence: s.sequence,
      conversations: s.conversations,
      users: s.users,
      views: s.views,
      messages: s.messages,
    });
  });

  it('applies a batch of changes over the saved copy', async () => {
    const s = small();
    const copy = await open();
    await copy.saveAll(s);
    const changed = snapshotConversation(7, 300, 1);
    const added = { ...snapshotConversation(9_999, 300), id: 'CNEW' };
    const person = { ...s.users[3]!, real_name: 'Renamed' };
    const views = s.views.slice(0, 2);
    const messages = snapshotMessages(changed.id, 120, 300);
    await copy.saveChanges({
      conversations: [changed, added],
      removed: [s.conversations[0]!.id],
      users: [person],
      views,
      messages: [{ id: changed.id, messages }],
      sequence: s.sequence + 5,
    });
    const loaded = (await copy.load())!;
    expect(loaded.sequence).toBe(s.sequence + 5);
    expect(loaded.conversations).toEqual([...s.conversations.slice(1).map((c) => (c.id === changed.id ? changed : c)), added]);
    expect(loaded.users[3]).toEqual(person);
    expect(loaded.views).toEqual(views);
    expect(Object.keys(loaded.messages)[0]).toBe(changed.id);
    expect(loaded.messages[changed.id]).toEqual(messages.slice(-100));
  });

  it("keeps a head beside the copy: saved with each write, read alone with the copy's sequence and views", async () => {
    const s = small();
    const copy = await open();
    expect(await copy.loadHead()).toBeNull();
    const head = { conversations: s.conversations.slice(0, 5), users: s.users.slice(0, 2), total: s.conversations.length };
    await copy.saveAll({ ...s, head });
    expect(await (await open()).loadHead()).toEqual({ schema: SCHEMA_VERSION, sequence: s.sequence, savedAt: expect.any(Number), views: s.views, ...head });
    const next = { conversations: [snapshotConversation(7, 300, 1)], users: [], total: s.conversations.length + 1 };
    await copy.saveChanges({ sequence: s.sequence + 3, head: next });
    expect(await copy.loadHead()).toMatchObject({ sequence: s.sequence + 3, ...next });
    // A batch without a head leaves the last one.
    await copy.saveChanges({ sequence: s.sequence + 4 });
    expect(await copy.loadHead()).toMatchObject({ sequence: s.sequence + 4, conversations: next.conversations });
  });

  it('a whole read across a rewrite of the chunks (another tab saved anew) starts over and answers the new copy', async () => {
    const before = generateSnapshot({ conversations: 12_000, users: 50, opened: 1 });
    // As many chunks as before (a shorter copy would show as a missing chunk), every record different.
    const after = { ...before, sequence: before.sequence + 50, conversations: before.conversations.map((c) => ({ ...c, name: `${c.name} (renamed)` })) };
    const writer = await open();
    await writer.saveAll(before);
    await writer.saveChanges({ removed: [before.conversations[0]!.id], sequence: before.sequence + 1 });
    const reader = await open();
    // The read's first transaction is queued first; the rewrite lands before its chunks are read.
    const reading = reader.load();
    await writer.saveAll(after);
    const read = (await reading)!;
    expect(read.sequence).toBe(after.sequence);
    expect(read.conversations).toEqual(after.conversations);
    expect(read.users).toEqual(after.users);
  });

  it('a delta with an older sequence does not move the saved sequence back', async () => {
    const copy = await open();
    await copy.saveAll(small());
    await copy.saveChanges({ sequence: 5 });
    expect((await copy.load())!.sequence).toBe(small().sequence);
  });

  it(`folds the changes into the chunks past ${COMPACT_AT} of them, and loads the same`, async () => {
    const s = generateSnapshot({ conversations: 6_000, users: 10, opened: 0 });
    const copy = await open();
    await copy.saveAll({ ...s, conversations: s.conversations.slice(0, 10) });
    const batch = (from: number, to: number) => ({ conversations: s.conversations.slice(from, to), sequence: to });
    await copy.saveChanges(batch(10, COMPACT_AT));
    const changedCount = () =>
      new Promise<number>((resolve) => {
        const request = indexedDB.open('sift-copy:T1:U1');
        request.onsuccess = () => {
          const count = request.result.transaction('changed').objectStore('changed').count();
          count.onsuccess = () => {
            request.result.close();
            resolve(count.result);
          };
        };
      });
    expect(await changedCount()).toBe(COMPACT_AT - 10);
    await copy.saveChanges(batch(COMPACT_AT, 6_000));
    expect(await changedCount()).toBe(0);
    expect((await copy.load())!.conversations).toEqual(s.conversations);
  });

  it(`keeps the messages of the ${MESSAGE_CAP.conversations} conversations saved most recently`, async () => {
    const s = generateSnapshot({ conversations: 300, users: 10, opened: MESSAGE_CAP.conversations + 10 });
    const copy = await open();
    await copy.saveAll(s);
    const ids = Object.keys(s.messages);
    expect(Object.keys((await copy.load())!.messages)).toEqual(ids.slice(0, MESSAGE_CAP.conversations));
    const fresh = s.conversations.slice(250, 253).map((c) => ({ id: c.id, messages: snapshotMessages(c.id, 2, 10) }));
    await copy.saveChanges({ messages: fresh, sequence: 1 });
    const kept = Object.keys((await copy.load())!.messages);
    expect(kept).toEqual([...fresh.map((f) => f.id).reverse(), ...ids.slice(0, MESSAGE_CAP.conversations - 3)]);
  });

  it('drops a copy of another schema at open: older, then newer', async () => {
    const s = small();
    await (await open('T1:U1', 1)).saveAll(s);
    const newer = await open('T1:U1', 2);
    expect(await newer.load()).toBeNull();
    await newer.saveAll(s);
    newer.close();
    // An app rolled back to schema 1 meets a schema 2 copy: it deletes it too.
    expect(await (await open('T1:U1', 1)).load()).toBeNull();
  });

  it('wipes one member, then all', async () => {
    const a = await open('T1:U1');
    const b = await open('T1:U2');
    await a.saveAll(small());
    await b.saveAll(small());
    await a.wipe();
    expect(await databases()).toEqual(['sift-copy:T1:U2']);
    expect(await a.saveChanges({ sequence: 1 })).toBe(false);
    await wipeCopy('T1:U9');
    b.close();
    await wipeAllCopies();
    expect(await databases()).toEqual([]);
  });
});
