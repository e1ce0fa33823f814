/**
 * `npm run bench`: the budgets of DESIGN §9 measured so far, in one run.
 *   - apply one live new_message event in the worker at 1k, 10k and 100k conversations;
 *   - compiled filters: a focus inbox over 100k conversations against a hand-written predicate,
 *     and one changed conversation re-checked against 20 views;
 *   - the large demo generator's time and peak memory;
 *   - every reader of Slack text over hostile 10,000- and 40,000-character inputs (linear or not);
 *   - AI triage: the local classifier's accuracy on the demo ground truth and on hand-written
 *     conversations, before and after 10 corrections, and its time at the large size;
 *   - Chromium at the large demo size: hold j for 3 s, then scroll the list to the bottom
 *     (longest main-thread task, rows in the DOM, largest worker->page message);
 *   - the local copy in a Chromium worker (issue 14 §2): write, start-up read, a delta of 100, size;
 *   - start-up in Chromium (issue 14 §4): cold, warm and after 100 changes while closed: time to the
 *     first rows and the whole list, API bytes, warm/cold ratios, page and worker heaps;
 *   - several servers (issue 15): the reconnect storm of a restart (SQLite, and two servers on PostgreSQL), and
 *     live fan-out to 1,000 streams across two servers on PostgreSQL, with one SQLite server beside it.
 * `npm run bench -- --no-browser` skips the Chromium part (the first run of it builds the
 * large workspace under data/bench-large, about a minute and a half).
 */
import { benchApply } from './liveEvent';
import { benchFilter } from './filter';
import { benchDemoGenerator } from './demoGenerator';
import { benchBrowser } from './browser';
import { benchLocalCopy, localCopyLines } from './localCopy';
import { benchStartup, type StartPhase } from './startup';
import { benchLocalMatch, benchServerSearch } from './search';
import { benchAiAccuracy } from './aiAccuracy';
import { benchClassifyLarge } from './aiClassify';
import { benchHostileText } from './hostileText';
import { benchReconnectStorm } from './reconnectStorm';
import { benchFanOut } from './fanOut';

const fmt = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
const verdicts: Array<[string, boolean]> = [];
const out = (line: string) => process.stdout.write(`${line}\n`);

const results = [1_000, 10_000, 100_000].map((n) => benchApply(n));
out('Apply one new_message event in the worker (mean over 18,000 events, batches of 100)');
for (const r of results) {
  out(`  ${String(r.n).padStart(7)} conversations: mean ${fmt(r.meanMs)}, p99 ${fmt(r.p99Ms)}  (budget ≤ 1 ms)`);
  verdicts.push([`apply at ${r.n}`, r.meanMs <= 1]);
}
const ratio = results[2]!.meanMs / results[0]!.meanMs;
out(`  ratio 100k / 1k: ${ratio.toFixed(2)}  (budget ≤ 2)`);
verdicts.push(['ratio 100k / 1k', ratio <= 2]);

const filter = benchFilter();
out('\nCompiled filters over 100,000 conversations (median of 31 interleaved runs; re-check: mean over 18,000 events)');
for (const c of filter.cases) {
  out(
    `  Focus inbox over 100k: ${c.evalMs.toFixed(2)} ms (hand-written ${c.handMs.toFixed(2)} ms, ratio ${c.ratio.toFixed(2)}) (budget ≤ 16 ms, ≤ 2)  [${c.name}]`,
  );
  verdicts.push([`focus inbox (${c.name})`, c.evalMs <= 16]);
  verdicts.push([`focus inbox ratio (${c.name})`, c.ratio <= 2]);
}
out(`  Re-check one event against ${filter.views} views: ${fmt(filter.recheckMs)}, p99 ${fmt(filter.recheckP99Ms)} (budget ≤ 0.1 ms)`);
verdicts.push([`re-check against ${filter.views} views`, filter.recheckMs <= 0.1]);

{
  for (const engine of ['sqlite', 'postgres'] as const) {
    const storm = await benchReconnectStorm(1_000, engine);
    const where = engine === 'sqlite' ? 'SQLite, one server restarted' : 'PostgreSQL, two servers restarted together, half the streams on each';
    out(`\nReconnect storm (issue 15 §2): ${storm.clients.toLocaleString()} live streams of the engine's client (${where})`);
    out(
      `  worst second ${(storm.worstSecondShare * 100).toFixed(1)} % of the reconnects (budget ≤ 20 %), all back in ${(storm.allBackMs / 1000).toFixed(1)} s; per second: ${storm.perSecond.join(' ')}`,
    );
    verdicts.push([`reconnect storm (${engine}): worst second`, storm.worstSecondShare <= 0.2]);
  }
  out('\nLive fan-out (issue 15 §3): 1,000 streams of 50 members (20 each), events committed at a steady rate for 5 s');
  for (const r of await benchFanOut()) {
    const shape = r.servers === 2 ? 'PostgreSQL, two servers, half the streams on each' : 'SQLite, one server in the bench process';
    out(
      `  ${shape}: ${r.appendedPerSecond.toLocaleString()} events/s committed → ${r.deliveredPerSecond.toLocaleString()} stream deliveries/s, delay p50 ${r.p50Ms} ms, p95 ${r.p95Ms} ms, max ${r.maxMs} ms, ${r.missing} missing`,
    );
    if (r.servers === 2) verdicts.push([`fan-out p95 at ${r.deliveredPerSecond.toLocaleString()} deliveries/s (≤ 50 ms)`, r.p95Ms <= 50]);
  }
}

const demo = await benchDemoGenerator();
out('\nLarge demo generator (every record consumed)');
out(
  `  ${demo.users.toLocaleString()} users, ${demo.conversations.toLocaleString()} conversations, ${demo.messages.toLocaleString()} messages in ${(demo.ms / 1000).toFixed(2)} s; peak heap ${demo.peakHeapMB} MB, peak RSS ${demo.peakRssMB} MB`,
);

{
  const local = benchLocalMatch();
  out('\nSearch (issue 5)');
  out(
    `  local match over 100,000 conversations: p50 ${local.p50.toFixed(1)} ms, p95 ${local.p95.toFixed(1)} ms over ${local.runs} keystrokes (budget ≤ 16 ms)`,
  );
  verdicts.push(['search: local match p95', local.p95 <= 16]);
  const server = await benchServerSearch();
  if (server) {
    out(
      `  server search over ${server.messages.toLocaleString()} messages: p50 ${server.p50.toFixed(1)} ms, p95 ${server.p95.toFixed(1)} ms over ${server.runs} queries (budget p95 ≤ 50 ms)`,
    );
    verdicts.push(['search: server p95', server.p95 <= 50]);
  } else out('  server search: skipped (the large workspace is built by the Chromium part of this bench on its first run)');
}

{
  const hostile = benchHostileText();
  out('\nHostile text, 10,000 vs 40,000 characters (linear ≈ 4×, quadratic ≈ 16×; median of 7)');
  for (const r of hostile) out(`  ${r.name}: ${r.ms40k.toFixed(2)} ms at 40,000, ratio ${r.ratio.toFixed(2)}`);
  const slowest = hostile.reduce((a, b) => (b.ms40k > a.ms40k ? b : a));
  out(`  slowest: ${slowest.name} (${slowest.ms40k.toFixed(2)} ms)`);
  verdicts.push(['hostile text: every reader linear (ratio ≤ 8)', hostile.every((r) => r.ratio <= 8)]);
}

{
  const pct = (n: number) => `${(n * 100).toFixed(1)} %`;
  const ai = await benchAiAccuracy();
  out('\nAI triage: the local classifier (issue 6)');
  out(
    `  demo ground truth: ${pct(ai.demo.accuracy)} of ${ai.demo.n} unread conversations (${ai.demo.seeds.map((s) => `seed ${s.seed} ${pct(s.accuracy)}`).join(', ')}) (goal ≥ 90 %)`,
  );
  out(
    `  hand-written conversations: ${pct(ai.handWritten.accuracy)} of ${ai.handWritten.n} (goal ≥ 80 %); the ${ai.handWrittenLater.n} written after the lexicon was frozen: ${pct(ai.handWrittenLater.accuracy)}`,
  );
  out(
    `  learning: ${pct(ai.learning.before)} before → ${pct(ai.learning.after)} after ${ai.learning.corrections} corrections, on ${ai.learning.n} later conversations`,
  );
  out(
    `  app posts in Slack's shapes (blocks, attachments; issue 11): ${pct(ai.appPosts.accuracy)} of ${ai.appPosts.n} (urgent ${pct(ai.appPosts.byCategory.urgent)}, can wait ${pct(ai.appPosts.byCategory.can_wait)}, FYI ${pct(ai.appPosts.byCategory.fyi)})`,
  );
  out(`  time: ${ai.perConversationUs.toFixed(0)} µs a conversation of 10 messages with 10 lessons (median)`);
  verdicts.push(['AI: demo accuracy', ai.demo.accuracy >= 0.9]);
  verdicts.push(['AI: hand-written accuracy', ai.handWritten.accuracy >= 0.8]);
  verdicts.push(['AI: learning helps', ai.learning.after > ai.learning.before]);
  verdicts.push(['AI: app posts accuracy', ai.appPosts.accuracy >= 0.75]);
  const large = await benchClassifyLarge();
  if (large) {
    out(
      `  large workspace: ${large.unread.toLocaleString()} unread; the newest ${large.conversations.toLocaleString()} (what classify-unread answers after) read in ${(large.readMs / 1000).toFixed(2)} s, classified in ${large.classifyMs.toFixed(0)} ms (${large.perConversationUs.toFixed(0)} µs each)`,
    );
  } else out('  large workspace: skipped (built by the Chromium part of this bench on its first run)');
}

if (!process.argv.includes('--no-browser')) {
  const b = await benchBrowser();
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  const task = (ms: number) => (ms === 0 ? 'none ≥ 50 ms' : `${ms} ms`);
  out(
    `\nChromium at the large demo size: ${b.conversations.toLocaleString()} conversations (first rows ${(b.firstRowsMs / 1000).toFixed(1)} s, all loaded ${(b.loadedMs / 1000).toFixed(1)} s after sign-in)`,
  );
  out(
    `  hold j 3 s (${b.holdJ.moves} moves): longest task ${task(b.holdJ.longestTaskMs)}, rows in DOM ≤ ${b.holdJ.maxRows}, largest message ${kib(b.holdJ.largestMessageBytes)}`,
  );
  out(
    `  scroll to the bottom (${b.scroll.frames} frames): longest task ${task(b.scroll.longestTaskMs)}, rows in DOM ≤ ${b.scroll.maxRows}, largest message ${kib(b.scroll.largestMessageBytes)}`,
  );
  out(`  focus inbox modal, people searched and scrolled (${b.modal.options} options drawn): largest message ${kib(b.modal.largestMessageBytes)}`);
  out(`  largest message while the snapshot loaded: ${kib(b.loadLargestMessageBytes)} (budget ≤ 100 KiB, ever)`);
  out(`  page heap ${b.heapMB ?? '?'} MB`);
  verdicts.push(['focus inbox modal: largest message', b.modal.largestMessageBytes <= 10 * 1024]);
  verdicts.push(['loading: largest message', b.loadLargestMessageBytes <= 100 * 1024]);
  out('  (budgets: no task over 50 ms; under 100 rows in the DOM; ≤ 10 KiB a message while scrolling or typing)');
  for (const [name, phase] of [
    ['hold j', b.holdJ],
    ['scroll', b.scroll],
  ] as const) {
    verdicts.push([`${name}: longest task`, phase.longestTaskMs <= 50]);
    verdicts.push([`${name}: rows in DOM`, phase.maxRows < 100]);
    verdicts.push([`${name}: largest message`, phase.largestMessageBytes <= 10 * 1024]);
  }
  for (const line of localCopyLines(await benchLocalCopy())) out(line);

  const st = await benchStartup();
  const mib = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`);
  const phase = (p: StartPhase) =>
    `first rows ${(p.firstRowsMs / 1000).toFixed(2)} s, whole list ${(p.loadedMs / 1000).toFixed(2)} s, ${mib(p.apiBytes)} of API answers, largest message ${mib(p.largestMessageBytes)}`;
  out(`\nStart-up at the large demo size (${st.conversations.toLocaleString()} conversations; issue 14 §4)`);
  out(`  cold (fresh browser, sign-in): ${phase(st.cold)}; sign-in → first rows ${(st.cold.signInToFirstRowsMs / 1000).toFixed(2)} s`);
  out(`  warm (nothing changed):        ${phase(st.warm)}`);
  out(`  after 100 changes while closed: ${phase(st.afterChanges)}`);
  out(
    `  warm/cold: first rows ${st.ratios.warmFirstRows.toFixed(3)} (of the cold whole list ${st.ratios.warmFirstRowsOfColdWhole.toFixed(3)}), bytes ${st.ratios.warmBytes.toFixed(5)}; after changes/cold bytes ${st.ratios.changesBytes.toFixed(5)}; JS heap page ${st.heapMB.page ?? '?'} MB + worker ${st.heapMB.worker ?? '?'} MB`,
  );
  out(
    '  (budgets: warm first rows ≤ 10 % of cold; warm whole list ≤ 1 s; bytes ≤ 2 % of cold, warm and after changes; cold sign-in → first rows ≤ 1 s; heaps ≤ 300 MB; a message ≤ 100 KiB)',
  );
  verdicts.push(['start-up: warm first rows ≤ 10 % of cold', st.ratios.warmFirstRows <= 0.1]);
  verdicts.push(['start-up: warm whole list ≤ 1 s', st.warm.loadedMs <= 1_000]);
  verdicts.push(['start-up: warm bytes ≤ 2 % of cold', st.ratios.warmBytes <= 0.02]);
  verdicts.push(['start-up: bytes after 100 changes ≤ 2 % of cold', st.ratios.changesBytes <= 0.02]);
  verdicts.push(['start-up: cold sign-in → first rows ≤ 1 s', st.cold.signInToFirstRowsMs <= 1_000]);
  verdicts.push([
    'start-up: largest message ≤ 100 KiB',
    Math.max(st.cold.largestMessageBytes, st.warm.largestMessageBytes, st.afterChanges.largestMessageBytes) <= 100 * 1024,
  ]);
  verdicts.push(['start-up: page + worker heap ≤ 300 MB', (st.heapMB.page ?? 0) + (st.heapMB.worker ?? 0) <= 300]);
}

const failed = verdicts.filter(([, ok]) => !ok).map(([name]) => name);
out(failed.length ? `\nBudgets exceeded: ${failed.join(', ')}` : '\nAll budgets met');
