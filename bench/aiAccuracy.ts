/**
 * Bench (AI issue): the local triage classifier's accuracy and speed.
 *   - demo: the small demo workspace's unread conversations against the generator's ground
 *     truth, built exactly as the classify-unread route builds them (classifyCandidates),
 *     over seeds 42, 1, 2 and 3 (goal ≥ 90 %);
 *   - handWritten: the 72 hand-written conversations of tests/fixtures/triage (goal ≥ 80 %),
 *     and the 24 written later as a check (handWrittenLater; see HAND_WRITTEN_BLIND);
 *   - learning: the 24 later conversations of the learning set, before and after the member's
 *     10 corrections;
 *   - perConversationUs: median time to classify one conversation of 10 real messages with
 *     the 10 lessons (budget about 50 µs).
 */
import { classifyCandidates } from '../src/server/ai/inputs';
import { classifyLocally } from '../src/server/ai/local/classify';
import { lessonFor } from '../src/server/ai/words';
import type { ClassifyInput, Lesson } from '../src/server/ai/types';
import { AI_CATEGORIES, type AiCategory } from '../src/model/types';
import { APP_POST_MEMBER, APP_POST_WORKSPACE, loadAppPosts } from '../tests/fixtures/appPostWorkspace';
import { DemoSource } from '../src/server/sources/demoSource';
import { SqliteStore } from '../src/server/store/sqlite';
import { HAND_WRITTEN, HAND_WRITTEN_BLIND, LEARNING } from '../tests/fixtures/triage/messages';

const FIXED_NOW = Date.UTC(2026, 10, 20, 15, 0, 0);
const DEMO_SEEDS = [42, 1, 2, 3];

interface Labelled {
  input: ClassifyInput;
  truth: AiCategory;
}

export interface AiAccuracyResult {
  /** All seeds together, and each seed. */
  demo: { n: number; accuracy: number; seeds: Array<{ seed: number; n: number; accuracy: number }> };
  handWritten: { n: number; accuracy: number };
  handWrittenLater: { n: number; accuracy: number };
  learning: { n: number; before: number; after: number; corrections: number };
  /** The labelled app posts of tests/fixtures/slackAppPosts.ts, stored through the Slack mapping (issue 11). */
  appPosts: { n: number; accuracy: number; byCategory: Record<AiCategory, number> };
  perConversationUs: number;
}

function accuracy(cases: readonly Labelled[], lessons: readonly Lesson[] = []): number {
  if (cases.length === 0) return 0;
  return cases.filter((c) => classifyLocally(c.input, lessons).category === c.truth).length / cases.length;
}

/** The small demo workspace of `seed`: its unread conversations with their ground truth. */
async function demoCases(seed: number): Promise<Labelled[]> {
  const store = new SqliteStore(':memory:');
  try {
    await new DemoSource({ seed, size: 'small', now: () => FIXED_NOW }).prepare(store);
    const candidates = await classifyCandidates(store, 'T0ACMEC01', 'U0SIFTME1', { includeLabelled: true });
    return candidates.flatMap((c) => (c.truth ? [{ input: c.input, truth: c.truth }] : []));
  } finally {
    await store.close();
  }
}

/** The labelled app posts, each an unread channel of its own, as a Slack sync stores them. */
async function appPostCases(): Promise<Labelled[]> {
  const store = new SqliteStore(':memory:');
  try {
    await loadAppPosts(store);
    const candidates = await classifyCandidates(store, APP_POST_WORKSPACE, APP_POST_MEMBER, { includeLabelled: true });
    return candidates.flatMap((c) => (c.truth ? [{ input: c.input, truth: c.truth }] : []));
  } finally {
    await store.close();
  }
}

/** Conversations of 10 real messages each, drawn in turn from the demo and hand-written texts. */
function tenMessageConversations(inputs: readonly ClassifyInput[], count: number): ClassifyInput[] {
  const pool = inputs.flatMap((i) => i.messages);
  return Array.from({ length: count }, (_, k) => ({
    ...inputs[k % inputs.length]!,
    unreadCount: 10,
    messages: Array.from({ length: 10 }, (_, j) => pool[(k * 10 + j) % pool.length]!),
  }));
}

/** Median over rounds of the mean time per conversation, in µs. */
function timePerConversation(conversations: readonly ClassifyInput[], lessons: readonly Lesson[], rounds = 9): number {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (const c of conversations) classifyLocally(c, lessons);
    times.push(((performance.now() - start) * 1000) / conversations.length);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export async function benchAiAccuracy(): Promise<AiAccuracyResult> {
  const seeds: AiAccuracyResult['demo']['seeds'] = [];
  const allDemo: Labelled[] = [];
  for (const seed of DEMO_SEEDS) {
    const cases = await demoCases(seed);
    seeds.push({ seed, n: cases.length, accuracy: accuracy(cases) });
    allDemo.push(...cases);
  }
  const hand = HAND_WRITTEN.map((c) => ({ input: c.input, truth: c.label }));
  const handLater = HAND_WRITTEN_BLIND.map((c) => ({ input: c.input, truth: c.label }));
  const later = LEARNING.later.map((c) => ({ input: c.input, truth: c.label }));
  const lessons = LEARNING.corrections.map((c, i) => lessonFor(c.input, c.label, FIXED_NOW + i * 60_000));
  const apps = await appPostCases();
  const byCategory = Object.fromEntries(AI_CATEGORIES.map((k) => [k, accuracy(apps.filter((c) => c.truth === k))])) as Record<AiCategory, number>;
  const timed = tenMessageConversations([...allDemo.map((c) => c.input), ...hand.map((c) => c.input)], 2_000);
  timePerConversation(timed, lessons, 3); // warm up
  return {
    demo: { n: allDemo.length, accuracy: accuracy(allDemo), seeds },
    handWritten: { n: hand.length, accuracy: accuracy(hand) },
    handWrittenLater: { n: handLater.length, accuracy: accuracy(handLater) },
    learning: { n: later.length, before: accuracy(later), after: accuracy(later, lessons), corrections: lessons.length },
    appPosts: { n: apps.length, accuracy: accuracy(apps), byCategory },
    perConversationUs: timePerConversation(timed, lessons),
  };
}
