/**
 * Bench: the worker's cost to apply one new_message event (reduce the summary, re-file it
 * in every built-in view) at 1k, 10k and 100k conversations. Budget (DESIGN §9): each
 * ≤ 1 ms, and time at 100k ÷ time at 1k ≤ 2. The events are shaped as the server sends
 * them (a per-member summary included), at random conversations.
 */
import { createRandom } from '../src/server/sources/demo/generator';
import { tsFromMs } from '../src/model/ts';
import type { ConversationSummary, MessageUpdateData } from '../src/model/types';
import { EngineStore } from '../src/worker/store';

const ME = 'U0ME00001';
const NOW = Date.UTC(2026, 10, 20, 15, 0, 0);

export function syntheticConversations(n: number, seed = 7): ConversationSummary[] {
  const rng = createRandom(seed);
  const types = ['dm', 'channel', 'thread'] as const;
  const out: ConversationSummary[] = [];
  for (let i = 0; i < n; i++) {
    const at = NOW - Math.floor(rng() * 21 * 86_400_000);
    const ts = tsFromMs(at);
    const unread = rng() < 0.25 ? 1 + Math.floor(rng() * 5) : 0;
    out.push({
      id: `C${i.toString(36).toUpperCase().padStart(8, '0')}`,
      name: `conversation-${i}`,
      type: types[i % 3]!,
      is_private: false,
      member_ids: [ME, `U${(i % 5000).toString(36).toUpperCase().padStart(8, '0')}`, `U${((i * 7) % 5000).toString(36).toUpperCase().padStart(8, '0')}`],
      unread_count: unread,
      unread_count_display: unread,
      last_read: ts,
      message_count: 10,
      latest_activity: Math.floor(at / 1000),
      latest_message: { ts, text: 'hello there', user: ME },
    });
  }
  return out;
}

function eventFor(c: ConversationSummary, at: number): MessageUpdateData {
  const ts = tsFromMs(at);
  const message = { ts, text: 'A new message arrives', user: 'U00000001', channel: c.id };
  const unread = c.unread_count + 1;
  return {
    action: 'new_message',
    conversation_id: c.id,
    message,
    unread_count: unread,
    unread_count_display: unread,
    last_read: c.last_read,
    conversation: {
      ...c,
      unread_count: unread,
      unread_count_display: unread,
      latest_activity: Math.floor(at / 1000),
      latest_message: { ts, text: message.text, user: message.user },
      message_count: c.message_count + 1,
    },
  };
}

export function benchApply(n: number, events = 20_000): { n: number; meanMs: number; p99Ms: number } {
  const store = new EngineStore({ warn: () => {} });
  store.me = ME;
  const conversations = syntheticConversations(n);
  store.replaceAll(conversations);
  const rng = createRandom(n);
  // Events are prepared first so only the apply is timed.
  const prepared: MessageUpdateData[] = [];
  let clock = NOW;
  for (let i = 0; i < events; i++) {
    const c = conversations[Math.floor(rng() * n)]!;
    clock += 1;
    prepared.push(eventFor(store.conversations.get(c.id) ?? c, clock));
  }
  // Warm up the JIT on a separate copy of the work.
  for (let i = 0; i < Math.min(2_000, events); i++) store.applyMessageUpdate(prepared[i]!);
  const samples: number[] = [];
  const batch = 100;
  for (let i = 2_000; i + batch <= events; i += batch) {
    const start = performance.now();
    for (let j = i; j < i + batch; j++) store.applyMessageUpdate(prepared[j]!);
    samples.push((performance.now() - start) / batch);
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { n, meanMs: mean, p99Ms: samples[Math.floor(samples.length * 0.99)]! };
}
