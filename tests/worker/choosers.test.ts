/**
 * The focus inbox's choosers in the worker (issue 14 §1): channels and people searched case- and
 * accent-insensitively and handed over a window at a time, every answer under 10 KiB.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConversationSummary, User } from '../../src/model/types';
import { CHOOSER_MAX_IDS, CHOOSER_PAGE, ChooserIndex, chooserIndex, entryOf, fold, type ChooserItem, type ChooserWindow } from '../../src/worker/choosers';
import { EngineStore } from '../../src/worker/store';

const channel = (id: string, name: string, extra: Partial<ConversationSummary> = {}): ConversationSummary => ({
  id,
  name,
  type: 'channel',
  is_private: false,
  member_ids: ['U_ME'],
  unread_count: 0,
  unread_count_display: 0,
  last_read: '',
  message_count: 1,
  latest_activity: 1,
  ...extra,
});

const person = (id: string, real_name: string, extra: Partial<User> = {}): User => ({
  id,
  name: real_name.toLowerCase().replace(/\s+/g, '.'),
  real_name,
  display_name: '',
  ...extra,
});

function storeOf(conversations: ConversationSummary[], people: User[]): EngineStore {
  const store = new EngineStore({ warn: () => undefined });
  store.me = 'U_ME';
  store.mergeUsers(Object.fromEntries(people.map((u) => [u.id, u])));
  store.addMany(conversations);
  return store;
}

const STORE = () =>
  storeOf(
    [
      channel('C1', 'general'),
      channel('C2', 'eng-backend'),
      channel('C3', 'design', { is_private: true }),
      channel('C4', 'backend-eng'),
      channel('C5', 'eng'),
      channel('C6', 'café-talk'),
      channel('D1', 'dm-with-ada', { type: 'dm' }),
      channel('T1', 'a thread', { type: 'thread' }),
    ],
    [
      person('U_ME', 'Me Myself'),
      person('U1', 'José Álvarez', { title: 'Engineer' }),
      person('U2', 'Ada Lovelace', { title: 'Designer' }),
      person('U3', 'Jo March', { display_name: 'jojo' }),
      person('U4', 'Zoë Quinn'),
    ],
  );

const labels = (w: ChooserWindow) => w.items.map((i) => i.label);

describe('fold', () => {
  it.each([
    ['José', 'jose'],
    ['ÁLVAREZ', 'alvarez'],
    ['Zoë', 'zoe'],
    ['café-talk', 'cafe-talk'],
    ['plain ascii', 'plain ascii'],
    ['Ǆemal', 'ǆemal'],
  ])('%s → %s', (text, folded) => expect(fold(text)).toBe(folded));
});

describe('chooser windows over the store', () => {
  it.each<[string, string, string[]]>([
    ['channels', '', ['#backend-eng', '#café-talk', '#design', '#eng', '#eng-backend', '#general']],
    // exact, then starts with, then contains
    ['channels', 'eng', ['#eng', '#eng-backend', '#backend-eng']],
    ['channels', '#ENG', ['#eng', '#eng-backend', '#backend-eng']],
    ['channels', 'cafe', ['#café-talk']],
    ['channels', 'CAFÉ', ['#café-talk']],
    // a detail matches after every name
    ['channels', 'priv', ['#design']],
    ['channels', 'zzz', []],
    // the member is not among the people; by any of their names, or their title
    ['people', '', ['Ada Lovelace', 'Jo March', 'José Álvarez', 'Zoë Quinn']],
    ['people', 'jose', ['José Álvarez']],
    ['people', 'JO', ['Jo March', 'José Álvarez']],
    ['people', 'jojo', ['Jo March']],
    ['people', 'zoe', ['Zoë Quinn']],
    ['people', 'engineer', ['José Álvarez']],
    ['people', 'me', []],
  ])('%s matching %j', (kind, query, expected) => {
    expect(labels(chooserIndex(STORE(), kind as 'channels' | 'people').window(query, 0, CHOOSER_PAGE))).toEqual(expected);
  });

  it('lists only the member’s channels (no DMs or threads), with private ones marked', () => {
    const window = chooserIndex(STORE(), 'channels').window('', 0, CHOOSER_PAGE);
    expect(window.total).toBe(6);
    expect(window.items.find((i) => i.id === 'C3')).toEqual({ id: 'C3', label: '#design', detail: 'Private' });
    expect(window.items.find((i) => i.id === 'C1')).toEqual({ id: 'C1', label: '#general' });
  });

  it('answers a window from an offset, its total, and how many of the matches are selected', () => {
    const index = chooserIndex(STORE(), 'channels');
    expect(index.window('', 2, 2, ['C1', 'C5', 'D1', 'nope'])).toEqual({
      total: 6,
      selected: 2,
      items: [
        { id: 'C3', label: '#design', detail: 'Private' },
        { id: 'C5', label: '#eng' },
      ],
    });
    expect(index.window('eng', 0, 1, ['C1', 'C4'])).toEqual({ total: 3, selected: 1, items: [{ id: 'C5', label: '#eng' }] });
    expect(index.window('eng', 10, 5).items).toEqual([]);
    // No more than a page, whatever is asked.
    expect(index.window('', 0, 10_000).items.length).toBeLessThanOrEqual(CHOOSER_PAGE);
  });

  it('looks up the labels of chosen ids, in their order, leaving out unknown ones', () => {
    expect(chooserIndex(STORE(), 'people').labels(['U4', 'U_GONE', 'U1'])).toEqual([
      { id: 'U4', label: 'Zoë Quinn' },
      { id: 'U1', label: 'José Álvarez', detail: 'Engineer' },
    ]);
  });

  it('follows the store: a renamed or new channel, a left one, a new person', () => {
    const store = STORE();
    expect(chooserIndex(store, 'channels').window('ops', 0, 10).total).toBe(0);
    store.put('C1', channel('C1', 'ops-general'));
    store.addMany([channel('C9', 'ops')]);
    expect(labels(chooserIndex(store, 'channels').window('ops', 0, 10))).toEqual(['#ops', '#ops-general']);
    store.put('C9', undefined);
    expect(labels(chooserIndex(store, 'channels').window('ops', 0, 10))).toEqual(['#ops-general']);
    store.mergeUsers({ U9: person('U9', 'Ola Nordmann') });
    expect(labels(chooserIndex(store, 'people').window('ola', 0, 10))).toEqual(['Ola Nordmann']);
    store.mergeUsers({ U9: person('U9', 'Kari Nordmann') });
    expect(labels(chooserIndex(store, 'people').window('nordmann', 0, 10))).toEqual(['Kari Nordmann']);
  });

  it("hands over every matching id for 'Select All', or none past CHOOSER_MAX_IDS", () => {
    const many = Array.from({ length: CHOOSER_MAX_IDS + 1 }, (_, i) => channel(`C${i}`, `team-${i}`));
    const index = chooserIndex(storeOf(many, []), 'channels');
    expect(index.ids('team-499')).toEqual({ total: 11, ids: ['C499', ...Array.from({ length: 10 }, (_, i) => `C499${i}`)] });
    expect(index.ids('')).toEqual({ total: CHOOSER_MAX_IDS + 1, ids: null });
    expect(index.ids('team-').ids).toBeNull();
  });
});

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe('the message budget', () => {
  it('a window of long, hostile names stays under 10 KiB: names are cut and the window stops early', () => {
    const long = (i: number) => `${'😀'.repeat(500)}${'é'.repeat(1000)}${i}`;
    const store = storeOf(
      Array.from({ length: 200 }, (_, i) => channel(`C${i}`, long(i), { is_private: true })),
      Array.from({ length: 200 }, (_, i) => person(`U${i}`, long(i), { title: '\u0001'.repeat(1000) })),
    );
    for (const kind of ['channels', 'people'] as const) {
      const window = chooserIndex(store, kind).window('😀', 0, CHOOSER_PAGE, []);
      expect(window.items.length).toBeGreaterThan(0);
      expect(bytes(window)).toBeLessThan(10 * 1024);
      expect([...window.items[0]!.label].length).toBeLessThanOrEqual(80);
      const all = chooserIndex(store, kind)
        .window('', 0, CHOOSER_PAGE)
        .items.map((i) => i.id);
      expect(bytes(chooserIndex(store, kind).labels([...all, ...all]))).toBeLessThan(10 * 1024);
    }
  });
});

/* ---------------- properties ---------------- */

const word = fc.constantFrom('eng', 'Éng', 'ops', 'café', 'cafe', 'zoë', 'zoe', 'a', 'b-c', 'José', 'ß', 'x', 'ne', 'fe');
const label = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join('-'));
const items = fc.uniqueArray(fc.record({ id: fc.string({ minLength: 1, maxLength: 6 }), label, detail: fc.option(label, { nil: undefined }) }), {
  selector: (i) => i.id,
  maxLength: 60,
});

/** A plain reading of 'matches': the folded label or detail contains the folded query. */
const matchesPlain = (item: ChooserItem, query: string) => {
  const q = fold(query.trim());
  return fold(item.label).includes(q) || (item.detail !== undefined && fold(item.detail).includes(q));
};

describe('chooser properties', () => {
  it('every item matches the query, a window is at most its limit, and paging gives the same list as one window', () => {
    fc.assert(
      fc.property(items, fc.oneof(word, fc.constant('')), fc.integer({ min: 1, max: 12 }), (all, query, limit) => {
        const source = all.map((i) => (i.detail === undefined ? { id: i.id, label: i.label } : i));
        const index = new ChooserIndex(source.map((i) => entryOf(i)));
        const whole = index.window(query, 0, CHOOSER_PAGE);
        expect(whole.total).toBe(source.filter((i) => matchesPlain(i, query)).length);
        const paged: ChooserItem[] = [];
        for (let offset = 0; offset < whole.total; offset += limit) {
          const page = index.window(query, offset, limit);
          expect(page.items.length).toBeLessThanOrEqual(limit);
          expect(page.total).toBe(whole.total);
          for (const item of page.items) expect(matchesPlain(item, query)).toBe(true);
          paged.push(...page.items);
        }
        expect(paged).toEqual(index.window(query, 0, CHOOSER_PAGE).items.concat(paged.slice(CHOOSER_PAGE)));
        expect(paged.slice(0, CHOOSER_PAGE)).toEqual(whole.items);
        // The same answer however it was reached: typed one character at a time (each search narrowing the last), or after another query.
        const typed = new ChooserIndex(source.map((i) => entryOf(i)));
        for (let n = 1; n <= query.length; n++) typed.window(query.slice(0, n), 0, limit);
        expect(typed.window(query, 0, CHOOSER_PAGE)).toEqual(whole);
        index.window('zzzz', 0, limit);
        expect(index.window(query, 0, CHOOSER_PAGE)).toEqual(whole);
      }),
    );
  });
});
