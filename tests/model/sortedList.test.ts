import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedList } from '../../src/model/sortedList';

const byNumber = (a: number, b: number) => a - b;
/** Small blocks (at most 2 × 4 items) so a few dozen operations split and empty blocks. */
const LOAD = 4;

type Op =
  | { kind: 'insert'; item: number }
  | { kind: 'remove'; item: number }
  | { kind: 'at'; index: number }
  | { kind: 'slice'; start: number; end: number }
  | { kind: 'indexOf'; item: number };

// Items from a small range so inserts meet duplicates and removes meet present items.
const item = fc.integer({ min: 0, max: 40 });
const position = fc.integer({ min: -3, max: 45 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: item.map((i) => ({ kind: 'insert' as const, item: i })) },
  { weight: 3, arbitrary: item.map((i) => ({ kind: 'remove' as const, item: i })) },
  { weight: 1, arbitrary: position.map((index) => ({ kind: 'at' as const, index })) },
  { weight: 1, arbitrary: fc.tuple(position, position).map(([start, end]) => ({ kind: 'slice' as const, start, end })) },
  { weight: 1, arbitrary: item.map((i) => ({ kind: 'indexOf' as const, item: i })) },
);

/** The plain model: a sorted array without duplicates. */
function applyToModel(model: number[], o: Op): unknown {
  switch (o.kind) {
    case 'insert': {
      if (model.includes(o.item)) return false;
      model.push(o.item);
      model.sort(byNumber);
      return true;
    }
    case 'remove': {
      const i = model.indexOf(o.item);
      if (i < 0) return false;
      model.splice(i, 1);
      return true;
    }
    case 'at':
      return o.index >= 0 ? model[o.index] : undefined;
    case 'slice':
      return model.slice(Math.max(0, o.start), Math.max(0, o.end));
    case 'indexOf':
      return model.indexOf(o.item);
  }
}

function applyToList(list: SortedList<number>, o: Op): unknown {
  switch (o.kind) {
    case 'insert':
      return list.insert(o.item);
    case 'remove':
      return list.remove(o.item);
    case 'at':
      return list.at(o.index);
    case 'slice':
      return list.slice(o.start, o.end);
    case 'indexOf':
      return list.indexOf(o.item);
  }
}

/** Reads the private blocks, to check the shape the class documents. */
function blocksOf(list: SortedList<number>): number[][] {
  return (list as unknown as { blocks: number[][] }).blocks;
}

function expectSameAs(list: SortedList<number>, model: number[]) {
  expect(list.size).toBe(model.length);
  expect(list.toArray()).toEqual(model);
  for (const block of blocksOf(list)) {
    expect(block.length).toBeGreaterThan(0);
    expect(block.length).toBeLessThanOrEqual(2 * LOAD);
  }
}

describe('SortedList against a plain sorted array', () => {
  it('property: random insert/remove/at/slice/indexOf sequences agree with the model', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const list = new SortedList<number>(byNumber, LOAD);
        const model: number[] = [];
        for (const o of ops) {
          expect(applyToList(list, o)).toEqual(applyToModel(model, o));
          expectSameAs(list, model);
        }
        // every position and every window at the end
        for (let i = -1; i <= model.length; i++) expect(list.at(i)).toBe(i >= 0 ? model[i] : undefined);
        for (const x of model) expect(list.indexOf(x)).toBe(model.indexOf(x));
      }),
      { numRuns: 300 },
    );
  });

  it('property: a list built with from() keeps agreeing with the model', () => {
    fc.assert(
      fc.property(fc.uniqueArray(item, { maxLength: 40 }), fc.array(op, { maxLength: 100 }), (initial, ops) => {
        const list = SortedList.from(initial, byNumber, LOAD);
        const model = [...initial].sort(byNumber);
        expectSameAs(list, model);
        for (const o of ops) {
          expect(applyToList(list, o)).toEqual(applyToModel(model, o));
          expectSameAs(list, model);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: from() equals inserting one by one', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: -1_000, max: 1_000 }), { maxLength: 60 }), (items) => {
        const built = SortedList.from(items, byNumber, LOAD);
        const inserted = new SortedList<number>(byNumber, LOAD);
        for (const x of items) expect(inserted.insert(x)).toBe(true);
        expect(built.toArray()).toEqual(inserted.toArray());
        expect(built.size).toBe(inserted.size);
        for (let i = 0; i < items.length; i++) expect(built.at(i)).toBe(inserted.at(i));
        expect(built.slice(3, 17)).toEqual(inserted.slice(3, 17));
      }),
    );
  });

  it('property: the windows of slice() cover the list exactly', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer(), { maxLength: 80 }), fc.integer({ min: 1, max: 10 }), (items, page) => {
        const list = SortedList.from(items, byNumber, LOAD);
        const pages: number[] = [];
        for (let start = 0; start < list.size; start += page) pages.push(...list.slice(start, start + page));
        expect(pages).toEqual([...items].sort(byNumber));
      }),
    );
  });
});

describe('SortedList examples', () => {
  it('rejects duplicates and changes nothing', () => {
    const list = new SortedList<number>(byNumber, LOAD);
    expect(list.insert(5)).toBe(true);
    expect(list.insert(3)).toBe(true);
    expect(list.insert(5)).toBe(false);
    expect(list.size).toBe(2);
    expect(list.toArray()).toEqual([3, 5]);
  });

  it('treats items that compare equal as duplicates (ties are broken by the comparator only)', () => {
    type Key = { t: number; id: string };
    const byT = (a: Key, b: Key) => a.t - b.t;
    const list = new SortedList<Key>(byT, LOAD);
    expect(list.insert({ t: 1, id: 'a' })).toBe(true);
    expect(list.insert({ t: 1, id: 'b' })).toBe(false);
    expect(list.indexOf({ t: 1, id: 'zzz' })).toBe(0);
    expect(list.remove({ t: 1, id: 'other' })).toBe(true);
    expect(list.size).toBe(0);
  });

  it('splits a block past 2 × load and still reads positions across blocks', () => {
    const list = new SortedList<number>(byNumber, 2);
    for (let i = 0; i < 30; i++) list.insert((i * 7) % 30);
    expect(blocksOf(list).length).toBeGreaterThan(1);
    expect(list.toArray()).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(list.at(29)).toBe(29);
    expect(list.indexOf(17)).toBe(17);
    expect(list.slice(3, 9)).toEqual([3, 4, 5, 6, 7, 8]);
  });

  it.each([
    // start, end, expected
    [-5, 2, [10, 20]],
    [1, 100, [20, 30]],
    [2, 1, []],
    [3, 5, []],
    [0, 0, []],
  ])('slice(%i, %i) clamps to %j', (start, end, expected) => {
    const list = SortedList.from([30, 10, 20], byNumber, LOAD);
    expect(list.slice(start, end)).toEqual(expected);
  });

  it('answers the empty list', () => {
    const list = new SortedList<number>(byNumber, LOAD);
    expect(list.size).toBe(0);
    expect(list.at(0)).toBeUndefined();
    expect(list.indexOf(1)).toBe(-1);
    expect(list.remove(1)).toBe(false);
    expect(list.slice(0, 10)).toEqual([]);
    expect(list.toArray()).toEqual([]);
    expect(SortedList.from([], byNumber, LOAD).toArray()).toEqual([]);
  });

  it('removes down to empty and can grow again', () => {
    const list = SortedList.from([1, 2, 3], byNumber, 1);
    expect(list.remove(2)).toBe(true);
    expect(list.remove(1)).toBe(true);
    expect(list.remove(3)).toBe(true);
    expect(list.remove(3)).toBe(false);
    expect(list.size).toBe(0);
    expect(list.insert(9)).toBe(true);
    expect(list.toArray()).toEqual([9]);
  });
});
