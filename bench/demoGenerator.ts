/**
 * Bench: stream the large demo workspace (100,000 conversations, 1,000,000 messages),
 * discarding every record, and report the time and the peak memory seen. Memory is sampled
 * every 10,000 records. Run directly: `npx tsx bench/demoGenerator.ts`.
 */
import { pathToFileURL } from 'node:url';
import { generateDemoWorkspace } from '../src/server/sources/demo/generator';

export interface DemoGeneratorBench {
  ms: number;
  peakHeapMB: number;
  peakRssMB: number;
  users: number;
  conversations: number;
  messages: number;
}

const MB = 1024 * 1024;
const SAMPLE_EVERY = 10_000;

export async function benchDemoGenerator(): Promise<DemoGeneratorBench> {
  const spec = {
    seed: 20_250_610,
    size: 'large' as const,
    workspaceId: 'T0BENCH01',
    workspaceName: 'Bench Co',
    now: Date.UTC(2025, 5, 10, 12, 0, 0),
    memberUserId: 'U0ALEXM0R',
  };
  let users = 0;
  let conversations = 0;
  let messages = 0;
  let records = 0;
  let peakHeap = 0;
  let peakRss = 0;
  const sample = (): void => {
    const m = process.memoryUsage();
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
    if (m.rss > peakRss) peakRss = m.rss;
  };
  sample();
  const start = performance.now();
  for (const record of generateDemoWorkspace(spec)) {
    if (record.kind === 'message') messages++;
    else if (record.kind === 'conversation') conversations++;
    else if (record.kind === 'user') users++;
    if (++records % SAMPLE_EVERY === 0) sample();
  }
  const ms = performance.now() - start;
  sample();
  return {
    ms: Math.round(ms),
    peakHeapMB: Math.round((peakHeap / MB) * 10) / 10,
    peakRssMB: Math.round((peakRss / MB) * 10) / 10,
    users,
    conversations,
    messages,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchDemoGenerator().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
