/**
 * Between the store and the local copy (issue 14 §2): a start paints the store from the copy; a
 * change is saved as a delta (only what changed, by identity), batched, only while the store is
 * whole and with the sequence it is up to date with. Through the real store and the real copy
 * module over fake-indexeddb; the browser's own IndexedDB is proven in tests/e2e/localCopy.test.ts.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { asyncScheduler, Subject, type Subscription } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILTIN_VIEWS } from '../../src/model/views';
import type { Message } from '../../src/model/types';
import { openedOf, persistCopy, SavedState } from '../../src/worker/copySync';
import { openLocalCopy, type LocalCopy } from '../../src/worker/localCopy/localCopy';
import { COMPACT_AT } from '../../src/worker/localCopy/schema';
import { EngineStore } from '../../src/worker/store';
import { snapshotConversation, snapshotMessages, snapshotUsers } from '../fixtures/snapshot';

const quiet = { warn: () => undefined };

function storeWith(n: number): EngineStore {
  const store = new EngineStore(quiet);
  store.mergeUsers(Object.fromEntries(snapshotUsers(20).map((u) => [u.id, u])));
  store.setCustomViews([...BUILTIN_VIEWS]);
  store.addMany(Array.from({ length: n }, (_, i) => snapshotConversation(i, 20)));
  return store;
}

let copy: LocalCopy;
let running: Subscription | null = null;
beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  copy = (await openLocalCopy('T1:U1'))!;
});
afterEach(() => {
  running?.unsubscribe();
  running = null;
  copy.close();
});

describe('SavedState.changes', () => {
  it('after a start from the copy, only what changes later is a change (the store holds the very same records)', async () => {
    const store = storeWith(30);
    await copy.saveAll({
      sequence: 4,
      conversations: [...store.conversations.values()],
      users: [...store.users.values()],
      views: store.listViews(),
      messages: {},
    });
    const saved = (await copy.load())!;
    const started = new EngineStore(quiet);
    started.replaceAll(saved.conversations, Object.fromEntries(saved.users.map((u) => [u.id, u])));
    started.setCustomViews(saved.views);
    const state = SavedState.fromCopy(saved);
    // The views once (their version is unknown after a start), then nothing.
    expect(Object.keys(state.changes(started, 4, new Map())!)).toEqual(['sequence', 'views']);
    expect(state.changes(started, 4, new Map())).toBeNull();
  });

  it('is null when nothing changed, and names exactly what changed since', () => {
    const store = storeWith(50);
    const state = SavedState.of(store, 7);
    expect(state.changes(store, 7, new Map())).toBeNull();
    const changed = { ...store.conversations.get(snapshotConversation(3, 20).id)!, unread_count_display: 9 };
    store.put(changed.id, changed);
    const gone = snapshotConversation(4, 20).id;
    store.put(gone, undefined);
    const messages = new Map<string, Message[]>([[changed.id, [{ ts: '1.000001', text: 'hi', user: 'U1', channel: changed.id }]]]);
    const delta = state.changes(store, 9, messages)!;
    expect(delta.sequence).toBe(9);
    expect(delta.conversations).toEqual([changed]);
    expect(delta.removed).toEqual([gone]);
    expect(delta.users).toBeUndefined();
    expect(delta.views).toBeUndefined();
    expect(delta.messages).toEqual([{ id: changed.id, messages: messages.get(changed.id) }]);
    // Taken as saved: asking again finds nothing.
    expect(state.changes(store, 9, messages)).toBeNull();
  });

  it('a new sequence alone is a change (the copy is up to date with more events)', () => {
    const store = storeWith(5);
    const state = SavedState.of(store, 1);
    expect(state.changes(store, 2, new Map())).toEqual({ sequence: 2 });
  });
});

describe('persistCopy', () => {
  /** Waits past the save delay (20 ms here) for the copy's writes to finish. */
  const flush = () => new Promise((resolve) => setTimeout(resolve, 120));

  it('saves a whole copy first, then deltas; a later start paints the same store from it', async () => {
    const store = storeWith(200);
    const version$ = new Subject<number>();
    let sequence = 10;
    const save = vi.spyOn(copy, 'saveChanges');
    const saveAll = vi.spyOn(copy, 'saveAll');
    running = persistCopy(
      { store, copy, version$, sequence: () => sequence, ready: () => true, messages: new Map(), saved: null, log: quiet, delayMs: 20 },
      asyncScheduler,
    ).subscribe();
    version$.next(1);
    await flush();
    expect(saveAll).toHaveBeenCalledTimes(1);
    expect(save).not.toHaveBeenCalled();

    // A burst of changes (within the delay) is one save, of just those conversations.
    for (let i = 0; i < 3; i++) {
      const c = store.conversations.get(snapshotConversation(i, 20).id)!;
      store.put(c.id, { ...c, unread_count_display: 5 });
      sequence += 1;
      version$.next(i + 2);
    }
    await flush();
    expect(save).toHaveBeenCalledTimes(1);
    expect(save.mock.calls[0]![0].conversations).toHaveLength(3);
    expect(save.mock.calls[0]![0].sequence).toBe(13);

    const saved = (await copy.load())!;
    expect(saved.sequence).toBe(13);
    // What a start does with it (snapshot.ts's startFrom).
    const again = new EngineStore(quiet);
    again.replaceAll(saved.conversations, Object.fromEntries(saved.users.map((u) => [u.id, u])));
    again.setCustomViews(saved.views);
    expect(again.conversations.size).toBe(200);
    expect(again.conversations.get(snapshotConversation(1, 20).id)?.unread_count_display).toBe(5);
    expect(again.counts()).toEqual(store.counts());
  });

  it('saves nothing while the store is not whole (a first load or a replay under way)', async () => {
    const store = storeWith(10);
    const version$ = new Subject<number>();
    let ready = false;
    const saveAll = vi.spyOn(copy, 'saveAll');
    running = persistCopy(
      { store, copy, version$, sequence: () => 3, ready: () => ready, messages: new Map(), saved: null, log: quiet, delayMs: 20 },
      asyncScheduler,
    ).subscribe();
    version$.next(1);
    await flush();
    expect(saveAll).not.toHaveBeenCalled();
    ready = true;
    version$.next(2);
    await flush();
    expect(saveAll).toHaveBeenCalledTimes(1);
  });
});

describe('persistCopy after a reload', () => {
  it(`saves a store swapped in whole (over ${COMPACT_AT} records changed) as a whole copy, not as changed records`, async () => {
    const store = storeWith(COMPACT_AT + 100);
    const version$ = new Subject<number>();
    const saveChanges = vi.spyOn(copy, 'saveChanges');
    const saveAll = vi.spyOn(copy, 'saveAll');
    running = persistCopy(
      { store, copy, version$, sequence: () => 3, ready: () => true, messages: new Map(), saved: SavedState.of(store, 3), log: quiet, delayMs: 20 },
      asyncScheduler,
    ).subscribe();
    // A small change is a delta.
    const one = { ...store.conversations.get(snapshotConversation(1, 20).id)!, unread_count_display: 4 };
    store.put(one.id, one);
    version$.next(1);
    await vi.waitFor(() => expect(saveChanges).toHaveBeenCalledTimes(1));
    // A reload: every record is a new object.
    store.replaceAll([...store.conversations.values()].map((c) => ({ ...c })));
    version$.next(2);
    await vi.waitFor(() => expect(saveAll).toHaveBeenCalledTimes(1));
    expect(saveChanges).toHaveBeenCalledTimes(1);
    expect((await copy.load())!.conversations).toHaveLength(COMPACT_AT + 100);
  });
});

describe('openedOf', () => {
  it("turns the copy's messages (the most recently saved first) into the engine's order (the least recent first, evicted first)", () => {
    const saved = { recent: snapshotMessages('recent', 2, 5), older: snapshotMessages('older', 2, 5), oldest: snapshotMessages('oldest', 2, 5) };
    expect(openedOf(saved).map(([id]) => id)).toEqual(['oldest', 'older', 'recent']);
    // As core.opened evicts: the first key goes first, so the conversation read most recently stays longest.
    const opened = new Map(openedOf(saved));
    opened.delete(opened.keys().next().value!);
    expect([...opened.keys()]).toEqual(['older', 'recent']);
  });
});
