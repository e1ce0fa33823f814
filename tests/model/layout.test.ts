/** The flat layout of a view: headers and rows agree with positions, whatever the sizes and collapsed groups. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GROUPS, headerSlots, slotCount, slotOfPosition, slotsIn, type GroupId, type Layout } from '../../src/model/layout';

const layoutArb = fc.record({
  order: fc.constantFrom<'time' | 'ai'>('time', 'ai'),
  headers: fc.boolean(),
  collapsed: fc.subarray(GROUPS.map((g) => g.id) as GroupId[]),
  query: fc.constant(''),
});
const sizesArb = fc.tuple(fc.nat(6), fc.nat(6), fc.nat(6), fc.nat(6));

describe('layout', () => {
  it('lists every slot once: rows map back to their slot, headers sit where headerSlots says', () => {
    fc.assert(
      fc.property(sizesArb, layoutArb, (sizes, layout: Layout) => {
        const total = slotCount(sizes, layout);
        const slots = slotsIn(sizes, layout, 0, total + 3);
        expect(slots).toHaveLength(total);
        const headers: number[] = [];
        slots.forEach((slot, index) => {
          if (slot.kind === 'group') headers.push(index);
          else expect(slotOfPosition(sizes, layout, slot.position)).toBe(index);
        });
        expect(headers).toEqual(headerSlots(sizes, layout));
        // Any window equals the same slice of the whole.
        for (let start = 0; start < total; start += 2) expect(slotsIn(sizes, layout, start, start + 3)).toEqual(slots.slice(start, start + 3));
      }),
    );
  });

  it.each([
    [[2, 1, 0, 3], { order: 'ai', headers: true, collapsed: [], query: '' }, 10],
    [[2, 1, 0, 3], { order: 'ai', headers: true, collapsed: ['can_wait', 'fyi', 'none'], query: '' }, 6],
    [[2, 1, 0, 3], { order: 'ai', headers: false, collapsed: ['urgent'], query: '' }, 6],
    [[2, 1, 0, 3], { order: 'time', headers: true, collapsed: [], query: '' }, 6],
  ] as Array<[number[], Layout, number]>)('counts %j in %j as %i slots', (sizes, layout, count) => {
    expect(slotCount(sizes, layout)).toBe(count);
  });

  it('answers -1 for a position inside a collapsed group', () => {
    expect(slotOfPosition([2, 1, 0, 3], { order: 'ai', headers: true, collapsed: ['none'], query: '' }, 4)).toBe(-1);
  });
});
