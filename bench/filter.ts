/**
 * Bench: compiled filter rules (src/model/filter.ts), DESIGN §9.
 *   - Re-evaluate a focus inbox over 100,000 conversation summaries with the predicate that
 *     compileFilter makes of formToRules(form), against the same logic hand-written over the
 *     same array, in the same run. Budget: ≤ 16 ms, and ≤ 2 × the hand-written predicate (no code
 *     is generated at run time: the browser's Content-Security-Policy has no 'unsafe-eval').
 *     Runs are interleaved (the order alternating) and the median of each side is taken.
 *   - Re-check one changed conversation against 20 view indexes (ViewIndex.update, as the
 *     store does for every live event), 100,000 conversations filed. Budget: ≤ 0.1 ms.
 * Run directly: `npx tsx bench/filter.ts`.
 */
import { pathToFileURL } from 'node:url';
import { compileFilter, type Predicate } from '../src/model/filter';
import { formToRules, type FocusFilter } from '../src/model/focus';
import { createRandom } from '../src/server/sources/demo/generator';
import type { ConversationSummary, FilterSpec } from '../src/model/types';
import { BUILTIN_VIEWS, ViewIndex, type ViewDefinition } from '../src/worker/views';
import { syntheticConversations } from './liveEvent';

const N = 100_000;
/** The ids syntheticConversations gives its users (k < 5000). */
const userId = (k: number) => `U${k.toString(36).toUpperCase().padStart(8, '0')}`;

export interface FocusCase {
  name: string;
  /** Median ms to evaluate the compiled predicate over every summary. */
  evalMs: number;
  /** Median ms of the hand-written predicate over the same summaries. */
  handMs: number;
  ratio: number;
  /** Conversations that pass (the same on both sides, checked). */
  matches: number;
}

export interface FilterBench {
  /** The worst case (by ratio) of `cases`. */
  evalMs: number;
  handMs: number;
  ratio: number;
  /** Mean ms to re-check one changed conversation against the 20 views. */
  recheckMs: number;
  recheckP99Ms: number;
  views: number;
  cases: FocusCase[];
}

/** Kept out of line so both sides run through the same call site. */
function countMatches(all: readonly ConversationSummary[], predicate: Predicate<ConversationSummary>): number {
  let n = 0;
  for (let i = 0; i < all.length; i++) if (predicate(all[i]!)) n++;
  return n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function focusCase(name: string, all: readonly ConversationSummary[], form: FocusFilter, hand: Predicate<ConversationSummary>, runs: number): FocusCase {
  const compiled = compileFilter<ConversationSummary>({ rules: formToRules(form) });
  const expected = countMatches(all, hand);
  const got = countMatches(all, compiled);
  if (got !== expected) throw new Error(`${name}: compiled predicate found ${got}, hand-written ${expected}`);
  // Warm both up before timing.
  for (let i = 0; i < 5; i++) {
    countMatches(all, compiled);
    countMatches(all, hand);
  }
  const compiledMs: number[] = [];
  const handMs: number[] = [];
  const time = (p: Predicate<ConversationSummary>, into: number[]) => {
    const start = performance.now();
    countMatches(all, p);
    into.push(performance.now() - start);
  };
  for (let r = 0; r < runs; r++) {
    if (r % 2 === 0) {
      time(compiled, compiledMs);
      time(hand, handMs);
    } else {
      time(hand, handMs);
      time(compiled, compiledMs);
    }
  }
  const evalMs = median(compiledMs);
  const hm = median(handMs);
  return { name, evalMs, handMs: hm, ratio: evalMs / hm, matches: got };
}

/** 20 views: the five built-ins and fifteen custom ones of varied rules. */
function twentyViews(all: readonly ConversationSummary[]): ViewDefinition[] {
  const users = [userId(3), userId(17), userId(4242)];
  const channels = all
    .filter((c) => c.type === 'channel')
    .filter((_, i) => i % 1_500 === 0)
    .map((c) => c.id);
  const recent = all[0]!.latest_activity - 86_400 * 3;
  const custom: Array<[string, FilterSpec]> = [
    ['dm-unread-people', { rules: formToRules({ messageTypes: ['dm'], readStatus: 'unread', channels: [], users }) }],
    ['unread-channels', { rules: formToRules({ messageTypes: [], readStatus: 'unread', channels, users: [] }) }],
    ['threads-read', { rules: formToRules({ messageTypes: ['thread'], readStatus: 'read', channels: [], users: [] }) }],
    ['dm-channel-people', { rules: formToRules({ messageTypes: ['dm', 'channel'], readStatus: 'all', channels: [], users }) }],
    ['urgent', { rules: [{ field: 'ai_category', operator: 'eq', value: 'urgent' }] }],
    ['no-label', { rules: [{ field: 'ai_category', operator: 'not_exists' }] }],
    ['deploy-text', { rules: [{ field: 'latest_message.text', operator: 'contains', value: 'Deploy' }] }],
    ['name-7', { rules: [{ field: 'name', operator: 'contains', value: '-7' }] }],
    ['recent', { rules: [{ field: 'latest_activity', operator: 'gte', value: recent }] }],
    ['busy', { rules: [{ field: 'unread_count', operator: 'gte', value: 3 }] }],
    ['with-me', { rules: [{ field: 'member_ids', operator: 'contains', value: userId(42) }] }],
    [
      'public',
      {
        rules: [
          { field: 'is_private', operator: 'eq', value: 'false' },
          { field: 'message_count', operator: 'lt', value: '100' },
        ],
      },
    ],
    ['from-someone', { rules: [{ field: 'latest_message.user', operator: 'neq', value: 'U0ME00001' }] }],
    [
      'dm-or-unread',
      {
        rules: [
          { field: 'type', operator: 'eq', value: 'dm' },
          { field: 'unread_count', operator: 'gt', value: 0 },
        ],
        combinator: 'or',
      },
    ],
    [
      'few-members',
      {
        rules: [
          { field: 'member_ids', operator: 'in', value: users },
          { field: 'latest_activity', operator: 'lt', value: String(recent) },
        ],
      },
    ],
  ];
  return [...BUILTIN_VIEWS, ...custom.map(([id, filter]) => ({ id, label: id, filter }))];
}

function benchRecheck(all: readonly ConversationSummary[], events = 20_000): { meanMs: number; p99Ms: number; views: number } {
  const definitions = twentyViews(all);
  const views = definitions.map((d) => new ViewIndex(d, () => {}, d.id.length % 2 ? 'ai' : 'time'));
  const current = new Map(all.map((c) => [c.id, c]));
  for (const v of views) v.rebuild(current.values());
  // Changes prepared first: a new message (unread up, activity up) or a read (unread to 0).
  const rng = createRandom(11);
  const prepared: ConversationSummary[] = [];
  let clock = all[0]!.latest_activity;
  const categories = [undefined, 'urgent', 'can_wait', 'fyi'] as const;
  for (let i = 0; i < events; i++) {
    const c = current.get(all[Math.floor(rng() * all.length)]!.id)!;
    clock += 1;
    const read = rng() < 0.3;
    const unread = read ? 0 : c.unread_count + 1;
    const next: ConversationSummary = read
      ? { ...c, unread_count: 0, unread_count_display: 0 }
      : {
          ...c,
          unread_count: unread,
          unread_count_display: unread,
          latest_activity: clock,
          message_count: c.message_count + 1,
          latest_message: { ts: `${clock}.000100`, text: rng() < 0.2 ? 'Deploy failed' : 'A new message arrives', user: rng() < 0.5 ? 'U0ME00001' : userId(9) },
          ai_category: categories[Math.floor(rng() * categories.length)],
        };
    current.set(c.id, next);
    prepared.push(next);
  }
  const apply = (c: ConversationSummary) => {
    for (let v = 0; v < views.length; v++) views[v]!.update(c.id, c);
  };
  const warm = Math.min(2_000, events);
  for (let i = 0; i < warm; i++) apply(prepared[i]!);
  const samples: number[] = [];
  const batch = 100;
  for (let i = warm; i + batch <= events; i += batch) {
    const start = performance.now();
    for (let j = i; j < i + batch; j++) apply(prepared[j]!);
    samples.push((performance.now() - start) / batch);
  }
  samples.sort((a, b) => a - b);
  return { meanMs: samples.reduce((a, b) => a + b, 0) / samples.length, p99Ms: samples[Math.floor(samples.length * 0.99)]!, views: views.length };
}

export function benchFilter(runs = 31): FilterBench {
  const all = syntheticConversations(N);
  const users = [userId(3), userId(17), userId(4242)];
  const userSet = new Set(users);
  const channels = all
    .filter((c) => c.type === 'channel')
    .filter((_, i) => i % 700 === 0)
    .map((c) => c.id);
  const channelSet = new Set(channels);

  const cases = [
    focusCase(
      'DMs, unread, 3 people',
      all,
      { messageTypes: ['dm'], readStatus: 'unread', channels: [], users },
      (c) => {
        if (c.type !== 'dm' || !(c.unread_count_display > 0)) return false;
        for (const m of c.member_ids) if (userSet.has(m)) return true;
        return false;
      },
      runs,
    ),
    focusCase(
      `unread, ${channels.length} channels`,
      all,
      { messageTypes: [], readStatus: 'unread', channels, users: [] },
      (c) => c.unread_count_display > 0 && channelSet.has(c.id),
      runs,
    ),
    focusCase(
      'channels and threads, read, 3 people',
      all,
      { messageTypes: ['channel', 'thread'], readStatus: 'read', channels: [], users },
      (c) => {
        if (c.type !== 'channel' && c.type !== 'thread') return false;
        if (c.unread_count_display !== 0) return false;
        for (const m of c.member_ids) if (userSet.has(m)) return true;
        return false;
      },
      runs,
    ),
  ];
  const worst = cases.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const recheck = benchRecheck(all);
  return {
    evalMs: worst.evalMs,
    handMs: worst.handMs,
    ratio: worst.ratio,
    recheckMs: recheck.meanMs,
    recheckP99Ms: recheck.p99Ms,
    views: recheck.views,
    cases,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = benchFilter();
  for (const c of r.cases) {
    process.stdout.write(`${c.name}: ${c.evalMs.toFixed(3)} ms (hand-written ${c.handMs.toFixed(3)} ms, ratio ${c.ratio.toFixed(2)}, ${c.matches} match)\n`);
  }
  process.stdout.write(
    `re-check one event against ${r.views} views: mean ${(r.recheckMs * 1000).toFixed(1)} µs, p99 ${(r.recheckP99Ms * 1000).toFixed(1)} µs\n`,
  );
}
