/**
 * Bench of the local copy (issue 14 §2) in headless Chromium, inside a dedicated Worker, on a snapshot
 * shaped like the engine's: 100,000 conversation summaries, 10,000 people, the views, 200 opened
 * conversations of 100 messages, a sequence (tests/fixtures/snapshot.ts). For each store:
 *   - write: the whole copy, one transaction;
 *   - start-up read: open + read everything, in a fresh worker (as a new tab would);
 *   - delta: 100 changed conversations (5 with new messages, 1 removed), one transaction;
 *   - size on disk: navigator.storage.estimate() after the write, less before.
 * IndexedDB is the real module (src/worker/localCopy). SQLite over OPFS (@sqlite.org/sqlite-wasm) is
 * measured too when it is installed (`npm install --no-save @sqlite.org/sqlite-wasm`): it is not a
 * dependency. Median of 3 runs. Run directly: `npx tsx bench/localCopy.ts`.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { call, startWorkerPages, stopWorker } from '../tests/e2e/workerPage';

const ROOT = join(import.meta.dirname, '..');
const SQLITE_DIR = join(ROOT, 'node_modules', '@sqlite.org', 'sqlite-wasm', 'sqlite-wasm', 'jswasm');
const SNAPSHOT = { conversations: 100_000, users: 10_000, opened: 200 };
const RUNS = 3;

export interface StoreFigures {
  writeMs: number;
  readMs: number;
  deltaMs: number;
  diskMB: number;
  /** What the store adds to the worker's bundle (minified JS + wasm). */
  bundleKB: number;
}

export interface LocalCopyBench {
  snapshotJsonMB: number;
  indexedDb: StoreFigures;
  sqlite: StoreFigures | null;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const MB = 1024 * 1024;

async function moduleKB(): Promise<number> {
  const result = await build({
    entryPoints: [join(ROOT, 'src', 'worker', 'localCopy', 'localCopy.ts')],
    bundle: true,
    format: 'esm',
    minify: true,
    write: false,
  });
  return Math.round(result.outputFiles[0]!.contents.length / 102.4) / 10;
}

export async function benchLocalCopy(): Promise<LocalCopyBench> {
  const sqliteInstalled = existsSync(join(SQLITE_DIR, 'sqlite3.wasm'));
  const pages = await startWorkerPages(join(import.meta.dirname, 'localCopyWorker.ts'), sqliteInstalled ? { mounts: { '/sqlite/': SQLITE_DIR } } : {});
  try {
    const page = await pages.newPage();
    const runs: Array<{ idb: Omit<StoreFigures, 'bundleKB'>; sqlite: Omit<StoreFigures, 'bundleKB'> | null }> = [];
    let jsonBytes = 0;
    for (let run = 0; run < RUNS; run++) {
      const w = `writer-${run}`;
      const r = `reader-${run}`;
      jsonBytes = (await call<{ jsonBytes: number }>(page, w, 'generate', SNAPSHOT)).jsonBytes;
      await call(page, r, 'generate', SNAPSHOT);
      const delta = { count: 100, version: run + 1, sequence: 200_000 + run };

      // IndexedDB, through the module.
      const before = await call<number>(page, w, 'usage');
      const opened = await call<{ ms: number }>(page, w, 'open', { memberKey: 'bench:idb' });
      const written = await call<{ ms: number }>(page, w, 'saveAll', 'bench:idb');
      await call(page, w, 'close', 'bench:idb');
      const after = await call<number>(page, w, 'usage');
      const reopened = await call<{ ms: number }>(page, r, 'open', { memberKey: 'bench:idb' });
      const loaded = await call<{ ms: number; copy: { conversations: number } | null }>(page, r, 'load', { memberKey: 'bench:idb' });
      if (loaded.copy?.conversations !== SNAPSHOT.conversations) throw new Error(`IndexedDB read ${loaded.copy?.conversations} conversations`);
      const changed = await call<{ ms: number }>(page, r, 'saveDelta', { memberKey: 'bench:idb', ...delta });
      await call(page, r, 'wipeAll');
      const idb = { writeMs: opened.ms + written.ms, readMs: reopened.ms + loaded.ms, deltaMs: changed.ms, diskMB: (after - before) / MB };

      // SQLite over OPFS, when installed.
      let sqlite: Omit<StoreFigures, 'bundleKB'> | null = null;
      const sqlBefore = await call<number>(page, w, 'usage');
      const sqlOpen = await call<number | null>(page, w, 'sqliteOpen');
      if (sqlOpen !== null) {
        const sqlWrite = await call<number>(page, w, 'sqliteSaveAll');
        await call(page, w, 'sqliteClose');
        const sqlAfter = await call<number>(page, w, 'usage');
        const sqlReopen = (await call<number>(page, r, 'sqliteOpen'))!;
        const sqlLoad = await call<{ ms: number; conversations: number }>(page, r, 'sqliteLoad');
        if (sqlLoad.conversations !== SNAPSHOT.conversations) throw new Error(`SQLite read ${sqlLoad.conversations} conversations`);
        const sqlDelta = await call<number>(page, r, 'sqliteSaveDelta', delta);
        await call(page, r, 'sqliteWipe');
        sqlite = { writeMs: sqlOpen + sqlWrite, readMs: sqlReopen + sqlLoad.ms, deltaMs: sqlDelta, diskMB: (sqlAfter - sqlBefore) / MB };
      }
      await stopWorker(page, w);
      await stopWorker(page, r);
      runs.push({ idb, sqlite });
    }
    const figures = (pick: (run: (typeof runs)[number]) => Omit<StoreFigures, 'bundleKB'>, bundleKB: number): StoreFigures => ({
      writeMs: Math.round(median(runs.map((run) => pick(run).writeMs))),
      readMs: Math.round(median(runs.map((run) => pick(run).readMs))),
      deltaMs: Math.round(median(runs.map((run) => pick(run).deltaMs)) * 10) / 10,
      diskMB: Math.round(median(runs.map((run) => pick(run).diskMB)) * 10) / 10,
      bundleKB,
    });
    const sqliteKB = sqliteInstalled
      ? Math.round((statSync(join(SQLITE_DIR, 'sqlite3.wasm')).size + statSync(join(SQLITE_DIR, 'sqlite3.mjs')).size) / 1024)
      : 0;
    return {
      snapshotJsonMB: Math.round((jsonBytes / MB) * 10) / 10,
      indexedDb: figures((run) => run.idb, await moduleKB()),
      sqlite: runs[0]!.sqlite ? figures((run) => run.sqlite!, sqliteKB) : null,
    };
  } finally {
    await pages.close();
  }
}

/** The bench's lines, for bench/run.ts and a direct run. */
export function localCopyLines(b: LocalCopyBench): string[] {
  const line = (name: string, f: StoreFigures) =>
    `  ${name}: write ${f.writeMs} ms, start-up read ${f.readMs} ms, delta of 100 ${f.deltaMs} ms, on disk ${f.diskMB} MB, bundle ${f.bundleKB} KB`;
  return [
    `\nLocal copy in a Chromium worker: ${SNAPSHOT.conversations.toLocaleString()} conversations, ${SNAPSHOT.users.toLocaleString()} people, ${SNAPSHOT.opened} × 100 messages (${b.snapshotJsonMB} MB as JSON; median of ${RUNS})`,
    line('IndexedDB (the module)', b.indexedDb),
    b.sqlite ? line('SQLite over OPFS', b.sqlite) : '  SQLite over OPFS: not measured (`npm install --no-save @sqlite.org/sqlite-wasm` to compare)',
  ];
}

if (import.meta.filename === process.argv[1]) for (const line of localCopyLines(await benchLocalCopy())) console.log(line);
