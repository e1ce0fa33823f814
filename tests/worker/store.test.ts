/** The worker store: views kept incrementally agree with a from-scratch filter and sort. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesFilter } from '../../src/model/filter';
import { tsFromMs } from '../../src/model/ts';
import type { ConversationSummary } from '../../src/model/types';
import { EngineStore } from '../../src/worker/store';
import { BUILTIN_VIEWS, compareKeys } from '../../src/worker/views';

const conv = (i: number, at: number, unread: number): ConversationSummary => ({
  id: `C${String(i).padStart(4, '0')}`,
  name: `c${i}`,
  type: (['dm', 'channel', 'thread'] as const)[i % 3]!,
  is_private: false,
  member_ids: ['U_ME', `U${i}`],
  unread_count: unread,
  unread_count_display: unread,
  last_read: '',
  message_count: 1,
  latest_activity: at,
  latest_message: { ts: tsFromMs(at * 1000), text: `m${i}`, user: `U${i}` },
});

function expectedIds(all: Iterable<ConversationSummary>, viewId: string): string[] {
  const view = BUILTIN_VIEWS.find((v) => v.id === viewId)!;
  return [...all]
    .filter((c) => matchesFilter(c, view.filter))
    .sort((a, b) => compareKeys({ at: a.latest_activity, id: a.id }, { at: b.latest_activity, id: b.id }))
    .map((c) => c.id);
}

describe('EngineStore views', () => {
  it('stay equal to a full filter-and-sort after any sequence of live changes (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(40), fc.integer({ min: 0, max: 1000 }), fc.nat(3)), { minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(fc.nat(60), fc.integer({ min: 0, max: 2000 }), fc.nat(3), fc.boolean()), { maxLength: 60 }),
        (initial, changes) => {
          const store = new EngineStore({ warn: () => {} });
          const seed = new Map<string, ConversationSummary>();
          initial.forEach(([i, at, unread]) => seed.set(conv(i, at, unread).id, conv(i, at, unread)));
          store.replaceAll(seed.values());
          for (const [i, at, unread, remove] of changes) {
            const c = conv(i, at, unread);
            store.put(c.id, remove ? undefined : c);
          }
          for (const view of BUILTIN_VIEWS) {
            const window = store.window(view.id, 0, 1_000);
            expect(window.rows.map((r) => r.id)).toEqual(expectedIds(store.conversations.values(), view.id));
            expect(window.total).toBe(window.rows.length);
          }
        },
      ),
    );
  });

  it('applies channel_marked: the conversation leaves the unread inbox', () => {
    const store = new EngineStore({ warn: () => {} });
    store.replaceAll([conv(1, 100, 2), conv(2, 200, 1)]);
    expect(store.window('inbox', 0, 10).rows.map((r) => r.id)).toEqual(['C0002', 'C0001']);
    expect(store.applyMessageUpdate({ action: 'channel_marked', conversation_id: 'C0002', unread_count: 0, last_read: 'x' })).toBe(true);
    expect(store.window('inbox', 0, 10).rows.map((r) => r.id)).toEqual(['C0001']);
    expect(store.counts()).toMatchObject({ inbox: 1, conversations: 2 });
  });

  it('serves any window of a view without building the rest', () => {
    const store = new EngineStore({ warn: () => {} });
    store.replaceAll(Array.from({ length: 5_000 }, (_, i) => conv(i, i, 1)));
    const window = store.window('conversations', 2_500, 2_510);
    expect(window).toMatchObject({ start: 2_500, total: 5_000 });
    expect(window.rows.map((r) => r.id)).toEqual(Array.from({ length: 10 }, (_, k) => conv(4_999 - 2_500 - k, 0, 0).id));
  });
});
