/** The worker store: views kept incrementally agree with a from-scratch filter and sort. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesFilter } from '../../src/model/filter';
import { tsFromMs } from '../../src/model/ts';
import type { ConversationSummary } from '../../src/model/types';
import { EngineStore } from '../../src/worker/store';
import { rowsOf } from '../fixtures/windows';
import type { Layout } from '../../src/model/layout';
import { BUILTIN_VIEWS, compareKeys } from '../../src/worker/views';
import { BUILTIN_VIEWS as BUILTIN_VIEW_RECORDS, byPosition, type CustomView } from '../../src/model/views';

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
    .sort((a, b) => compareKeys({ rank: 0, at: a.latest_activity, id: a.id }, { rank: 0, at: b.latest_activity, id: b.id }))
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
            expect(rowsOf(window).map((r) => r.id)).toEqual(expectedIds(store.conversations.values(), view.id));
            expect(window.total).toBe(rowsOf(window).length);
          }
        },
      ),
    );
  });

  it('applies channel_marked: the conversation leaves the unread inbox', () => {
    const store = new EngineStore({ warn: () => {} });
    store.replaceAll([conv(1, 100, 2), conv(2, 200, 1)]);
    expect(rowsOf(store.window('inbox', 0, 10)).map((r) => r.id)).toEqual(['C0002', 'C0001']);
    expect(store.applyMessageUpdate({ action: 'channel_marked', conversation_id: 'C0002', unread_count: 0, last_read: 'x' })).toBe(true);
    expect(rowsOf(store.window('inbox', 0, 10)).map((r) => r.id)).toEqual(['C0001']);
    expect(store.counts()).toMatchObject({ inbox: 1, conversations: 2 });
  });

  it('serves any window of a view without building the rest', () => {
    const store = new EngineStore({ warn: () => {} });
    store.replaceAll(Array.from({ length: 5_000 }, (_, i) => conv(i, i, 1)));
    const window = store.window('conversations', 2_500, 2_510);
    expect(window).toMatchObject({ start: 2_500, total: 5_000 });
    expect(rowsOf(window).map((r) => r.id)).toEqual(Array.from({ length: 10 }, (_, k) => conv(4_999 - 2_500 - k, 0, 0).id));
  });
});

describe('EngineStore layouts', () => {
  const categorised = (i: number, at: number, category?: 'urgent' | 'can_wait' | 'fyi'): ConversationSummary => ({
    ...conv(i, at, 1),
    ...(category ? { ai_category: category } : {}),
  });
  const grouped: Layout = { order: 'ai', headers: true, collapsed: ['can_wait', 'fyi', 'none'], query: '' };

  function fixture() {
    const store = new EngineStore({ warn: () => {} });
    store.replaceAll([
      categorised(1, 100, 'fyi'),
      categorised(2, 300, 'urgent'),
      categorised(3, 200, 'urgent'),
      categorised(4, 400),
      categorised(5, 50, 'can_wait'),
    ]);
    return store;
  }

  it('groups the inbox as Urgent, Can Wait, FYI, Not Categorized with counts; Urgent expanded, the others collapsed', () => {
    const window = fixture().window('inbox', 0, 50, grouped);
    expect(window.items.map((i) => (i.kind === 'group' ? `[${i.label} ${i.count}${i.collapsed ? ' +' : ''}]` : i.row.id))).toEqual([
      '[Urgent 2]',
      'C0002',
      'C0003',
      '[Can Wait 1 +]',
      '[FYI 1 +]',
      '[Not Categorized 1 +]',
    ]);
    expect(window.total).toBe(6);
    expect(window.headers).toEqual([0, 3, 4, 5]);
  });

  it('expands a group, answers slots and positions consistently, and follows a category change live', () => {
    const store = fixture();
    const open: Layout = { ...grouped, collapsed: [] };
    const ids = () => rowsOf(store.window('inbox', 0, 50, open)).map((r) => r.id);
    expect(ids()).toEqual(['C0002', 'C0003', 'C0005', 'C0001', 'C0004']);
    expect(store.slotAt('inbox', 3, open)).toEqual({ kind: 'group', group: 'can_wait' });
    expect(store.idAt('inbox', 4, open)).toBe('C0005');
    expect(store.indexOf('inbox', 'C0004', open)).toBe(8);
    expect(store.indexOf('inbox', 'C0004', grouped)).toBe(-1);
    store.applyConversationUpdate({ conversation_id: 'C0004', conversation: { id: 'C0004', ai_category: 'urgent' } });
    expect(ids()).toEqual(['C0004', 'C0002', 'C0003', 'C0005', 'C0001']);
    store.applyConversationUpdate({ conversation_id: 'C0004', conversation: { id: 'C0004', ai_category: null } as never });
    expect(ids().at(-1)).toBe('C0004');
  });

  it('orders by AI without headers when asked (the conversations page)', () => {
    const flatAi: Layout = { order: 'ai', headers: false, collapsed: [], query: '' };
    expect(rowsOf(fixture().window('conversations', 0, 50, flatAi)).map((r) => r.id)).toEqual(['C0002', 'C0003', 'C0005', 'C0001', 'C0004']);
  });

  it('filters a view by name, last message and participant names, case-insensitively, and keeps the filter live', () => {
    const store = fixture();
    store.mergeUsers({ U3: { id: 'U3', name: 'dana', real_name: 'Dana Scully', display_name: 'dana' } });
    const layout = (query: string): Layout => ({ order: 'time', headers: false, collapsed: [], query });
    expect(rowsOf(store.window('conversations', 0, 50, layout('C4'))).map((r) => r.id)).toEqual(['C0004']);
    expect(rowsOf(store.window('conversations', 0, 50, layout('M1'))).map((r) => r.id)).toEqual(['C0001']);
    expect(rowsOf(store.window('conversations', 0, 50, layout('scully'))).map((r) => r.id)).toEqual(['C0003']);
    store.put('C0005', { ...conv(5, 500, 0), name: 'scully-fans' });
    expect(rowsOf(store.window('conversations', 0, 50, layout('SCULLY'))).map((r) => r.id)).toEqual(['C0005', 'C0003']);
  });

  it('counts unread conversations per view for the tab badges', () => {
    const store = new EngineStore({ warn: () => {} });
    store.replaceAll([conv(1, 1, 2), conv(2, 2, 0), conv(3, 3, 1)]);
    expect(store.unreadCounts()).toMatchObject({ inbox: 2, conversations: 2, dms: 1, channels: 1, threads: 0 });
    store.applyMessageUpdate({ action: 'channel_marked', conversation_id: 'C0001', unread_count: 0 });
    expect(store.unreadCounts()).toMatchObject({ inbox: 1, conversations: 1 });
  });
});

describe('EngineStore holds (mark read after reply, SPEC §4.4)', () => {
  it('keeps a held conversation in place, with fresh content, until it is released', () => {
    const store = new EngineStore({ warn: () => {} });
    store.replaceAll([conv(1, 100, 2), conv(2, 200, 1)]);
    store.hold('C0001');
    // The reply: newer activity, read.
    store.put('C0001', { ...conv(1, 300, 0), latest_message: { ts: tsFromMs(300_000), text: 'my reply', user: 'U_ME' } });
    const held = rowsOf(store.window('inbox', 0, 10));
    expect(held.map((r) => r.id)).toEqual(['C0002', 'C0001']);
    expect(held[1]).toMatchObject({ unread: 0 });
    expect(store.release('C0001')).toBe(true);
    expect(rowsOf(store.window('inbox', 0, 10)).map((r) => r.id)).toEqual(['C0002']);
    expect(rowsOf(store.window('conversations', 0, 10)).map((r) => r.id)).toEqual(['C0001', 'C0002']);
    expect(store.release('C0001')).toBe(false);
  });
});

describe("EngineStore head (the local copy's first screen of every view, issue 14 §4)", () => {
  const categories = ['urgent', 'can_wait', 'fyi', undefined] as const;
  function fixture() {
    const store = new EngineStore({ warn: () => {} });
    store.me = 'U_ME';
    const all = Array.from({ length: 600 }, (_, i) => {
      const category = categories[i % 4];
      return { ...conv(i, 10_000 - i, i % 5 === 0 ? 0 : 1), ...(category ? { ai_category: category } : {}) };
    });
    const person = (id: string) => ({ id, name: id, real_name: id, display_name: id });
    store.replaceAll(all, Object.fromEntries(['U_ME', ...all.map((_, i) => `U${i}`)].map((id) => [id, person(id)])));
    return { store, all };
  }

  it('holds the first rows of every view in time order, and no more than their union', () => {
    const { store, all } = fixture();
    const head = store.head(20);
    const ids = new Set(head.conversations.map((c) => c.id));
    const expected = new Set(BUILTIN_VIEWS.flatMap((view) => expectedIds(all, view.id).slice(0, 20)));
    expect(ids).toEqual(expected);
    expect(head.conversations.length).toBe(ids.size);
  });

  it('holds the first rows of each AI group too, once the page has shown a view in AI order', () => {
    const { store } = fixture();
    const before = new Set(store.head(10).conversations.map((c) => c.id));
    const grouped: Layout = { order: 'ai', headers: true, collapsed: [], query: '' };
    store.indexFor('inbox', grouped);
    const after = store.head(10).conversations;
    // The last of each group's first ten is in the head: FYI's and Not Categorized's come far below the time order's first ten.
    for (const category of categories) {
      const group = after.filter((c) => c.ai_category === category && c.unread_count_display > 0);
      expect(group.length).toBeGreaterThanOrEqual(10);
    }
    expect(after.length).toBeGreaterThan(before.size);
  });

  it('names the people its rows show, and the member', () => {
    const { store } = fixture();
    const head = store.head(5);
    const people = new Set(head.users.map((u) => u.id));
    expect(people.has('U_ME')).toBe(true);
    for (const c of head.conversations) expect(people.has(c.latest_message!.user!)).toBe(true);
    expect(people.size).toBeLessThan(store.users.size / 10);
  });
});

describe('EngineStore clear (a new session: another member, or nobody)', () => {
  it('keeps nothing of the member: conversations, people, focus inboxes, built-in view settings, holds', () => {
    const store = new EngineStore({ warn: () => {} });
    store.me = 'U_ME';
    store.replaceAll([conv(1, 100, 1), conv(2, 200, 0)], { U1: { id: 'U1', name: 'u1', real_name: 'u1', display_name: 'u1' } });
    const focus: CustomView = {
      id: 'fi-1',
      label: 'Payments',
      parentViewId: 'conversations',
      position: 5,
      isVisible: true,
      isCustom: true,
      created_by: 'user',
      filters: [],
    };
    const hidden = { ...BUILTIN_VIEW_RECORDS[3]!, isVisible: false };
    store.setCustomViews([focus, hidden]);
    store.hold('C0001');
    store.clear();
    expect(store.conversations.size).toBe(0);
    expect(store.users.size).toBe(0);
    expect(store.listViews()).toEqual([...BUILTIN_VIEW_RECORDS].sort(byPosition));
    expect(store.release('C0001')).toBe(false);
    expect(store.me).toBe('');
  });
});
