import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareTs, isTs, maxTs, nextTs, tsAfter, tsFromMs, tsSeconds, tsToMs } from '../../src/model/ts';

const sign = (n: number) => Math.sign(n) || 0;

/** A valid Slack ts: up to 12 digits of seconds and 0–6 digits of micros. */
const tsArb = fc
  .tuple(fc.integer({ min: 0, max: 99_999_999_999 }), fc.option(fc.integer({ min: 0, max: 999_999 }), { nil: undefined }))
  .map(([s, m]) => (m === undefined ? String(s) : `${s}.${String(m).padStart(6, '0')}`));

describe('compareTs', () => {
  it.each<[string | undefined, string | undefined, -1 | 0 | 1]>([
    ['1700000000.000100', '1700000000.000100', 0],
    ['1700000000.000100', '1700000000.000200', -1],
    ['1700000000.000200', '1700000000.000100', 1],
    ['1700000001.000000', '1700000000.999999', 1],
    // differing digit counts in the seconds: numeric, not text order
    ['9.000000', '10.000000', -1],
    ['99.5', '100.1', -1],
    ['1000000000.000000', '999999999.999999', 1],
    // differing digit counts in the micros: '.5' is 500000 micros
    ['1.5', '1.000005', 1],
    ['1.5', '1.500000', 0],
    ['1.05', '1.4', -1],
    ['1', '1.000000', 0],
    ['1', '1.000001', -1],
    // beyond a double's precision: 16 significant digits
    ['1700000000.000001', '1700000000.000002', -1],
    ['1234567890123.000001', '1234567890123.000000', 1],
    // empty and missing are oldest
    ['', '1.000000', -1],
    ['1.000000', '', 1],
    ['', '', 0],
    [undefined, '0.000001', -1],
    ['0.000001', undefined, 1],
    [undefined, '', 0],
  ])('compareTs(%j, %j) has sign %i', (a, b, expected) => {
    expect(sign(compareTs(a, b))).toBe(expected);
    expect(sign(compareTs(b, a))).toBe(-expected || 0);
  });

  it('property: agrees with comparing (seconds, micros) as integers, and is antisymmetric', () => {
    fc.assert(
      fc.property(tsArb, tsArb, (a, b) => {
        const key = (t: string) => {
          const [s, m = ''] = t.split('.');
          return BigInt(s!) * 1_000_000n + BigInt(m.padEnd(6, '0') || '0');
        };
        const expected = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
        expect(sign(compareTs(a, b))).toBe(expected);
        expect(sign(compareTs(b, a))).toBe(-expected || 0);
      }),
    );
  });

  it('maxTs picks the newer, treating empty as oldest', () => {
    expect(maxTs('9.000000', '10.000000')).toBe('10.000000');
    expect(maxTs('10.000000', '9.000000')).toBe('10.000000');
    expect(maxTs(undefined, '1.000001')).toBe('1.000001');
    expect(maxTs('1.000001', undefined)).toBe('1.000001');
    expect(maxTs(undefined, undefined)).toBe('');
  });
});

describe('isTs', () => {
  it.each([
    ['1700000000.000100', true],
    ['1700000000', true],
    ['1.5', true],
    ['', false],
    ['abc', false],
    ['1.', false],
    ['.5', false],
    ['1.1234567', false],
    ['-1.000000', false],
    ['1700000000.000100 ', false],
    [1700000000, false],
    [null, false],
  ])('isTs(%j) is %s', (value, expected) => {
    expect(isTs(value)).toBe(expected);
  });
});

describe('ms conversions', () => {
  it.each([
    [0, '0.000000'],
    [1, '0.001000'],
    [999, '0.999000'],
    [1_000, '1.000000'],
    [1_700_000_000_123, '1700000000.123000'],
    [1_700_000_000_123.9, '1700000000.123000'],
  ])('tsFromMs(%d) is %s', (ms, ts) => {
    expect(tsFromMs(ms)).toBe(ts);
    expect(isTs(tsFromMs(ms))).toBe(true);
  });

  it('property: tsToMs(tsFromMs(ms)) is ms (whole milliseconds)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999_999 }), (ms) => {
        const ts = tsFromMs(ms);
        expect(isTs(ts)).toBe(true);
        expect(tsToMs(ts)).toBe(ms);
        expect(tsSeconds(ts)).toBe(Math.floor(ms / 1000));
      }),
    );
  });

  it('property: tsFromMs preserves order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9e12 }), fc.integer({ min: 0, max: 9e12 }), (a, b) => {
        expect(sign(compareTs(tsFromMs(a), tsFromMs(b)))).toBe(sign(a - b));
      }),
    );
  });

  it.each([
    ['1700000000.123456', 1_700_000_000_123],
    ['1700000000.999999', 1_700_000_000_999],
    ['1700000000', 1_700_000_000_000],
    ['5.5', 5_500],
  ])('tsToMs(%s) is %d (micros truncated)', (ts, ms) => {
    expect(tsToMs(ts)).toBe(ms);
  });
});

describe('nextTs and tsAfter', () => {
  it.each([
    ['1700000000.000100', '1700000000.000101'],
    ['1700000000.999998', '1700000000.999999'],
    ['1700000000.999999', '1700000001.000000'],
    ['9.999999', '10.000000'],
    ['5', '5.000001'],
    ['5.5', '5.500001'],
  ])('nextTs(%s) is %s', (ts, next) => {
    expect(nextTs(ts)).toBe(next);
  });

  it('property: nextTs is strictly after, and nothing lies between', () => {
    fc.assert(
      fc.property(tsArb, tsArb, (ts, other) => {
        const next = nextTs(ts);
        expect(isTs(next)).toBe(true);
        expect(compareTs(next, ts)).toBeGreaterThan(0);
        // no ts is strictly between ts and nextTs(ts)
        expect(compareTs(other, ts) > 0 && compareTs(other, next) < 0).toBe(false);
      }),
    );
  });

  it.each<[number, string | undefined, string]>([
    [2_000, undefined, '2.000000'],
    [2_000, '', '2.000000'],
    [2_000, '1.999999', '2.000000'],
    [2_000, '2.000000', '2.000001'],
    [2_000, '5.000000', '5.000001'],
    [2_000, '2.999999', '3.000000'],
  ])('tsAfter(%d, %j) is %s', (ms, after, expected) => {
    expect(tsAfter(ms, after)).toBe(expected);
  });

  it('property: tsAfter is strictly after `after`, and is the ms ts when that already is', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9e12 }), tsArb, (ms, after) => {
        const ts = tsAfter(ms, after);
        expect(isTs(ts)).toBe(true);
        expect(compareTs(ts, after)).toBeGreaterThan(0);
        if (compareTs(tsFromMs(ms), after) > 0) expect(ts).toBe(tsFromMs(ms));
        else expect(ts).toBe(nextTs(after));
      }),
    );
  });
});
