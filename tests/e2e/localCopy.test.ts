/**
 * The local copy (src/worker/localCopy, issue 14 §2) in real Chromium: the module bundled into a dedicated
 * Worker of a page served from 127.0.0.1 (tests/e2e/workerPage.ts), over the browser's own IndexedDB, Web
 * Locks and BroadcastChannel. Two pages of one browser profile are two tabs of the same person.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCHEMA_VERSION } from '../../src/worker/localCopy/schema';
import { call, startWorkerPages, stopWorker, type WorkerPages } from './workerPage';

let pages: WorkerPages;
beforeAll(async () => {
  pages = await startWorkerPages(join(import.meta.dirname, 'localCopyWorker.ts'));
});
afterAll(() => pages?.close());

const MEMBER = 'T0TEST:U0ME00001';
const LARGE = { conversations: 100_000, users: 10_000, opened: 50 };
const SMALL = { conversations: 500, users: 50, opened: 5 };

interface Loaded {
  ms: number;
  copy: null | Record<string, number | boolean>;
}
interface State {
  isWriter: boolean;
  heard: number[];
  becameWriter: number;
}

async function withWorker(page: Page, name: string, snapshot: typeof SMALL, memberKey = MEMBER, schema?: number) {
  await call(page, name, 'generate', snapshot);
  return call<{ isWriter: boolean } | null>(page, name, 'open', { memberKey, schema });
}

it('saves 100,000 conversations, reads them back in a fresh worker, and applies a delta of 100', async () => {
  const page = await pages.newPage();
  expect(await withWorker(page, 'writer', LARGE)).toMatchObject({ isWriter: true });
  expect((await call<{ result: boolean }>(page, 'writer', 'saveAll', MEMBER)).result).toBe(true);
  await stopWorker(page, 'writer');

  await withWorker(page, 'reader', LARGE);
  const loaded = await call<Loaded>(page, 'reader', 'load', { memberKey: MEMBER });
  expect(loaded.copy).toEqual({
    schema: SCHEMA_VERSION,
    sequence: 123_456,
    conversations: 100_000,
    users: 10_000,
    views: 10,
    messages: 50,
    sameConversations: true,
    sameUsers: true,
    sameViews: true,
    sameMessages: true,
    sameSequence: true,
  });
  const delta = { count: 100, version: 1, sequence: 123_500 };
  expect((await call<{ result: boolean }>(page, 'reader', 'saveDelta', { memberKey: MEMBER, ...delta })).result).toBe(true);
  await stopWorker(page, 'reader');

  await withWorker(page, 'next', LARGE);
  const next = await call<Loaded>(page, 'next', 'load', { memberKey: MEMBER, delta });
  expect(next.copy).toMatchObject({
    sequence: 123_500,
    conversations: 99_999,
    sameConversations: true,
    sameUsers: true,
    sameMessages: true,
    sameSequence: true,
  });
  await call(page, 'next', 'wipeAll');
  await page.close();
});

it('drops a copy saved with another schema version', async () => {
  const page = await pages.newPage();
  await withWorker(page, 'old', SMALL);
  await call(page, 'old', 'saveAll', MEMBER);
  await stopWorker(page, 'old');
  // The next version of the app opens the copy: the old one is gone, not read.
  await withWorker(page, 'new', SMALL, MEMBER, SCHEMA_VERSION + 1);
  expect((await call<Loaded>(page, 'new', 'load', { memberKey: MEMBER })).copy).toBeNull();
  await call(page, 'new', 'saveAll', MEMBER);
  await stopWorker(page, 'new');
  await withWorker(page, 'again', SMALL, MEMBER, SCHEMA_VERSION + 1);
  expect((await call<Loaded>(page, 'again', 'load', { memberKey: MEMBER })).copy).toMatchObject({ schema: SCHEMA_VERSION + 1, sameConversations: true });
  await call(page, 'again', 'wipeAll');
  await page.close();
});

it('a wipe leaves nothing of the member in IndexedDB, OPFS, Cache Storage or localStorage', async () => {
  const page = await pages.newPage();
  await withWorker(page, 'w', SMALL);
  await withWorker(page, 'other', SMALL, 'T0TEST:U0OTHER01');
  await call(page, 'w', 'saveAll', MEMBER);
  await call(page, 'other', 'saveAll', 'T0TEST:U0OTHER01');
  expect((await call<{ databases: string[] }>(page, 'w', 'storage')).databases.sort()).toEqual(['sift-copy:T0TEST:U0ME00001', 'sift-copy:T0TEST:U0OTHER01']);
  await call(page, 'w', 'wipe', MEMBER);
  expect((await call<{ databases: string[] }>(page, 'w', 'storage')).databases).toEqual(['sift-copy:T0TEST:U0OTHER01']);
  // The other member's worker still has its copy open: a wipe of all closes it and deletes it.
  await call(page, 'w', 'wipeAll');
  expect(await call(page, 'w', 'storage')).toEqual({ databases: [], opfs: [], caches: [] });
  expect(await page.evaluate(async () => ({ localStorage: localStorage.length, caches: await caches.keys() }))).toEqual({ localStorage: 0, caches: [] });
  await page.close();
});

it('two tabs of one member: one writes, the other follows, and takes over when the writer closes', async () => {
  const first = await pages.newPage();
  const second = await pages.newPage();
  expect(await withWorker(first, 'engine', SMALL)).toEqual({ ms: expect.any(Number), isWriter: true });
  expect(await withWorker(second, 'engine', SMALL)).toEqual({ ms: expect.any(Number), isWriter: false });
  // Another member's copy has a writer of its own.
  expect(await withWorker(second, 'someone', SMALL, 'T0TEST:U0OTHER01')).toMatchObject({ isWriter: true });

  expect((await call<{ result: boolean }>(first, 'engine', 'saveAll', MEMBER)).result).toBe(true);
  expect((await call<{ result: boolean }>(second, 'engine', 'saveDelta', { memberKey: MEMBER, count: 10, version: 1, sequence: 124_000 })).result).toBe(false);
  expect((await call<{ result: boolean }>(first, 'engine', 'saveDelta', { memberKey: MEMBER, count: 10, version: 1, sequence: 124_001 })).result).toBe(true);
  await expect.poll(async () => (await call<State>(second, 'engine', 'state', MEMBER)).heard).toEqual([123_456, 124_001]);
  // What the follower reloads is what the writer saved.
  expect((await call<Loaded>(second, 'engine', 'load', { memberKey: MEMBER, delta: { count: 10, version: 1, sequence: 124_001 } })).copy).toMatchObject({
    sameConversations: true,
    sameSequence: true,
  });

  // The writer's tab closes: the follower becomes the writer.
  await first.close();
  await expect.poll(async () => call<State>(second, 'engine', 'state', MEMBER)).toMatchObject({ isWriter: true, becameWriter: 1 });
  expect((await call<{ result: boolean }>(second, 'engine', 'saveDelta', { memberKey: MEMBER, count: 10, version: 2, sequence: 124_002 })).result).toBe(true);
  await call(second, 'engine', 'wipeAll');
  await call(second, 'someone', 'wipeAll');
  await second.close();
});
