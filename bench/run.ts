/**
 * `npm run bench`: the budgets of DESIGN §9 that exist so far, measured in one run.
 *   - apply one live new_message event in the worker at 1k, 10k and 100k conversations;
 *   - the large demo generator's time and peak memory.
 */
import { benchApply } from './liveEvent';
import { benchDemoGenerator } from './demoGenerator';

const fmt = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

const results = [1_000, 10_000, 100_000].map((n) => benchApply(n));
process.stdout.write('Apply one new_message event in the worker (mean over 18,000 events, batches of 100)\n');
for (const r of results) process.stdout.write(`  ${String(r.n).padStart(7)} conversations: mean ${fmt(r.meanMs)}, p99 ${fmt(r.p99Ms)}  (budget ≤ 1 ms)\n`);
const ratio = results[2]!.meanMs / results[0]!.meanMs;
process.stdout.write(`  ratio 100k / 1k: ${ratio.toFixed(2)}  (budget ≤ 2)\n`);

const demo = await benchDemoGenerator();
process.stdout.write('\nLarge demo generator (every record consumed)\n');
process.stdout.write(
  `  ${demo.users.toLocaleString()} users, ${demo.conversations.toLocaleString()} conversations, ${demo.messages.toLocaleString()} messages in ${(demo.ms / 1000).toFixed(2)} s; peak heap ${demo.peakHeapMB} MB, peak RSS ${demo.peakRssMB} MB\n`,
);

const over = results.filter((r) => r.meanMs > 1).length + (ratio > 2 ? 1 : 0);
process.stdout.write(over ? `\n${over} budget(s) exceeded\n` : '\nAll budgets met\n');
