/**
 * Classification at the large demo size: how long the local provider takes to read and label
 * the newest unread conversations of the member who has 25,000 of them (what classify-unread
 * does before it answers), without writing the labels (the bench database stays as it is).
 */
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { SqliteStore } from '../src/server/store/sqlite';
import { AiDirectory, classifyInputOf } from '../src/server/ai/inputs';
import { classifyLocally } from '../src/server/ai/local/classify';
import { CLASSIFY_SYNC_LIMIT } from '../src/server/ai/service';

export interface ClassifyLargeResult {
  unread: number;
  conversations: number;
  readMs: number;
  classifyMs: number;
  perConversationUs: number;
}

/** null when the large workspace has not been built yet (the Chromium part of the bench builds it). */
export async function benchClassifyLarge(): Promise<ClassifyLargeResult | null> {
  const file = join(import.meta.dirname, '..', 'data', 'bench-large', 'sift-large.db');
  if (!existsSync(file)) return null;
  const store = new SqliteStore(file);
  try {
    if (!(await store.workspaceImported('T0ACMEC01'))) return null;
    const started = performance.now();
    const unread = await store.unreadConversations('T0ACMEC01', 'U0SIFTME1');
    const directory = await new AiDirectory(store, 'T0ACMEC01').load();
    const newest = unread.slice(0, CLASSIFY_SYNC_LIMIT);
    const inputs = [];
    for (const conversation of newest) inputs.push(await classifyInputOf(store, directory, 'T0ACMEC01', conversation, 'U0SIFTME1'));
    const readMs = performance.now() - started;
    const classifyStarted = performance.now();
    for (const input of inputs) classifyLocally(input, []);
    const classifyMs = performance.now() - classifyStarted;
    return { unread: unread.length, conversations: inputs.length, readMs, classifyMs, perConversationUs: (classifyMs * 1000) / inputs.length };
  } finally {
    await store.close();
  }
}
