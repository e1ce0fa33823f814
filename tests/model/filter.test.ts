import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { compileFilter, FILTER_OPERATORS, isKnownOperator, matchesFilter, matchesRule, readField } from '../../src/model/filter';
import type { FilterRule, FilterSpec } from '../../src/model/types';

/** A conversation-like record with every kind of value a rule can meet. */
const conv = {
  id: 'C1',
  name: 'Release Planning',
  type: 'channel',
  is_private: false,
  unread_count: 2,
  unread_count_display: 5,
  latest_activity: 1_700_000_000,
  ai_category: 'urgent',
  ai_confidence: 0.8,
  ai_reason: null,
  member_ids: ['U1', 'U2', 'U3'],
  tags: ['Ops', 'Deploys'],
  count_text: '42',
  participants: [
    { id: 'U1', real_name: 'Ada Lovelace', name: 'ada', emails: ['ada@x.io'] },
    { id: 'U2', real_name: 'Bob Smith', name: 'bob', emails: ['bob@x.io', 'b@x.io'] },
  ],
  latest_message: { ts: '1700000000.000100', user: 'U1', text: 'Deploy FAILED on prod', user_data: { name: 'ada' } },
};

type Row = [field: string, operator: string, value: unknown, expected: boolean];

/** The compiled predicate. */
const compileBoth = (spec: FilterSpec) => [compileFilter<unknown>(spec, () => {})];

/** Each row is checked through the interpreter and through the compiled predicate. */
function check(record: unknown, rule: FilterRule, expected: boolean) {
  expect(matchesRule(record, rule)).toBe(expected);
  expect(matchesFilter(record, { rules: [rule] })).toBe(expected);
  for (const predicate of compileBoth({ rules: [rule] })) expect(predicate(record)).toBe(expected);
}

describe('operators', () => {
  it.each<Row>([
    ['name', 'eq', 'Release Planning', true],
    ['name', 'eq', 'release planning', false],
    ['type', 'eq', 'dm', false],
    ['latest_activity', 'eq', 1_700_000_000, true],
    ['latest_activity', 'eq', 1_700_000_001, false],
    ['latest_activity', 'eq', '1700000000', true],
    ['count_text', 'eq', 42, true],
    ['count_text', 'eq', 43, false],
    ['is_private', 'eq', false, true],
    ['is_private', 'eq', 'false', true],
    ['is_private', 'eq', true, false],
    ['member_ids', 'eq', 'U2', true],
    ['member_ids', 'eq', 'U9', false],
  ])('eq: %s eq %j → %s', (field, operator, value, expected) => check(conv, { field, operator, value }, expected));

  it.each<Row>([
    ['name', 'neq', 'Release Planning', false],
    ['name', 'neq', 'Other', true],
    ['latest_activity', 'neq', '1700000000', false],
    ['member_ids', 'neq', 'U2', false],
    ['member_ids', 'neq', 'U9', true],
  ])('neq: %s neq %j → %s', (field, operator, value, expected) => check(conv, { field, operator, value }, expected));

  it.each<Row>([
    ['ai_confidence', 'gt', 0.5, true],
    ['ai_confidence', 'gt', 0.8, false],
    ['ai_confidence', 'gte', 0.8, true],
    ['ai_confidence', 'gte', 0.81, false],
    ['ai_confidence', 'lt', 0.8, false],
    ['ai_confidence', 'lt', 0.9, true],
    ['ai_confidence', 'lte', 0.8, true],
    ['ai_confidence', 'lte', 0.79, false],
    // numbers given as strings compare as numbers, not as text ('42' > '100' as text)
    ['count_text', 'lt', 100, true],
    ['count_text', 'gt', 100, false],
    ['count_text', 'gt', '9', true],
    ['latest_activity', 'gt', '999', true],
    ['latest_activity', 'lt', '999', false],
    ['latest_activity', 'gte', '1700000000', true],
    ['latest_activity', 'lte', '1700000000', true],
    // strings compare as text
    ['name', 'gt', 'Alpha', true],
    ['name', 'lt', 'Alpha', false],
    // a number is not comparable with a non-numeric string
    ['latest_activity', 'gt', 'abc', false],
    ['latest_activity', 'lt', 'abc', false],
    // nor with a missing value
    ['missing', 'gt', 0, false],
    ['missing', 'lt', 0, false],
    ['ai_reason', 'lte', 0, false],
  ])('ordering: %s %s %j → %s', (field, operator, value, expected) => check(conv, { field, operator, value }, expected));

  it.each<Row>([
    // strings: case-insensitive substring
    ['latest_message.text', 'contains', 'failed', true],
    ['latest_message.text', 'contains', 'DEPLOY fa', true],
    ['latest_message.text', 'contains', 'succeeded', false],
    ['name', 'contains', '', true],
    ['count_text', 'contains', 4, true],
    // lists: membership, case-insensitive for strings, not substring
    ['tags', 'contains', 'ops', true],
    ['tags', 'contains', 'OPS', true],
    ['tags', 'contains', 'Op', false],
    ['member_ids', 'contains', 'U3', true],
    ['member_ids', 'contains', 'U', false],
    ['participants.name', 'contains', 'BOB', true],
    ['participants.name', 'contains', 'bo', false],
    // neither string nor list
    ['latest_activity', 'contains', 1_700_000_000, false],
    ['missing', 'contains', 'x', false],
  ])('contains: %s contains %j → %s', (field, operator, value, expected) => check(conv, { field, operator, value }, expected));

  it.each<Row>([
    ['type', 'in', ['dm', 'channel'], true],
    ['type', 'in', ['dm', 'thread'], false],
    ['type', 'in', [], false],
    ['latest_activity', 'in', ['1700000000', 5], true],
    ['member_ids', 'in', ['U9', 'U3'], true],
    ['member_ids', 'in', ['U3', 'U9', 'U8', 'U7', 'U6'], true],
    ['member_ids', 'in', ['U9', 'U8', 'U7', 'U6', 'U5'], false],
    ['member_ids', 'in', ['U9'], false],
    // the value must be a list
    ['type', 'in', 'channel', false],
    ['missing', 'in', ['x'], false],
  ])('in: %s in %j → %s', (field, operator, value, expected) => check(conv, { field, operator, value }, expected));

  it.each<Row>([
    ['name', 'exists', undefined, true],
    ['is_private', 'exists', undefined, true],
    ['missing', 'exists', undefined, false],
    ['ai_reason', 'exists', undefined, false],
    ['latest_message.user', 'exists', undefined, true],
    ['latest_message.nope', 'exists', undefined, false],
    ['name', 'not_exists', undefined, false],
    ['missing', 'not_exists', undefined, true],
    ['ai_reason', 'not_exists', undefined, true],
    ['missing.deeper.still', 'not_exists', undefined, true],
  ])('exists / not_exists: %s %s → %s', (field, operator, value, expected) => check(conv, { field, operator, value }, expected));
});

describe('edges', () => {
  it.each<Row>([
    // missing field
    ['missing', 'eq', 'x', false],
    ['missing', 'neq', 'x', true],
    // null
    ['ai_reason', 'eq', 'x', false],
    ['ai_reason', 'eq', null, true],
    ['ai_reason', 'neq', 'x', true],
    ['ai_reason.deeper', 'exists', undefined, false],
    // dotted paths
    ['latest_message.user', 'eq', 'U1', true],
    ['latest_message.user_data.name', 'eq', 'ada', true],
    // into arrays of objects: every item's value
    ['participants.real_name', 'eq', 'Bob Smith', true],
    ['participants.real_name', 'contains', 'ada lovelace', true],
    ['participants.real_name', 'neq', 'Ada Lovelace', false],
    ['participants.id', 'in', ['U2'], true],
    // lists inside a list are flattened
    ['participants.emails', 'contains', 'B@X.IO', true],
    ['participants.emails', 'eq', 'zzz@x.io', false],
    // numeric index
    ['participants.0.name', 'eq', 'ada', true],
    ['participants.1.name', 'eq', 'bob', true],
    ['participants.1.name', 'eq', 'ada', false],
    ['participants.7.name', 'exists', undefined, false],
    ['member_ids.2', 'eq', 'U3', true],
    // a scalar has no fields
    ['name.length', 'exists', undefined, false],
  ])('%s %s %j → %s', (field, operator, value, expected) => check(conv, { field, operator, value }, expected));

  type Counts = { unread_count: number; unread_count_display?: number | null };
  it.each<[Counts, number, boolean, boolean]>([
    // record, rule value, gt expected, eq expected
    [{ unread_count: 2, unread_count_display: 5 }, 3, true, false],
    [{ unread_count: 2, unread_count_display: 0 }, 0, false, true],
    [{ unread_count: 7 }, 3, true, false],
    [{ unread_count: 7, unread_count_display: null }, 6, true, false],
    [{ unread_count: 0, unread_count_display: 4 }, 3, true, false],
  ])('unread_count reads unread_count_display first: %j, value %i', (record, value, gt, eqToValue) => {
    check(record, { field: 'unread_count', operator: 'gt', value }, gt);
    check(record, { field: 'unread_count', operator: 'eq', value }, eqToValue);
    const shown = record.unread_count_display ?? record.unread_count;
    check(record, { field: 'unread_count', operator: 'eq', value: shown }, true);
    check(record, { field: 'unread_count', operator: 'gt', value: String(value) }, gt);
  });

  it('readField exposes the same resolution', () => {
    expect(readField(conv, 'unread_count')).toBe(5);
    expect(readField(conv, 'participants.name')).toEqual(['ada', 'bob']);
    expect(readField(conv, 'participants.1.real_name')).toBe('Bob Smith');
    expect(readField(conv, 'missing.x')).toBeUndefined();
    expect(readField(conv, 'ai_reason')).toBeNull();
    expect(readField(null, 'name')).toBeUndefined();
  });

  it('knows exactly the ten SPEC operators', () => {
    expect([...FILTER_OPERATORS].sort()).toEqual(['contains', 'eq', 'exists', 'gt', 'gte', 'in', 'lt', 'lte', 'neq', 'not_exists'].sort());
    expect(isKnownOperator('regex')).toBe(false);
    expect(isKnownOperator('eq')).toBe(true);
  });
});

/** Values of every awkward kind: numbers and booleans as strings, NaN, blank strings, empty lists. */
const odd = {
  id: '42',
  type: 'dm',
  is_private: 'true',
  flags: [true, false],
  scores: [1, 2.5, '3'],
  unread_count: '4',
  unread_count_display: null,
  latest_activity: 'soon',
  ai_confidence: NaN,
  member_ids: [] as string[],
  latest_message: { text: null, user_data: { profile: { title: 'Lead' } } },
  parent_message: { ts: '1700000000.000100' },
  blank: '  ',
  zero: 0,
};

describe('edges: every operator on awkward values', () => {
  it.each<Row>([
    // numbers as strings, either side
    ['id', 'eq', 42, true],
    ['id', 'neq', 42, false],
    ['scores', 'eq', '2.5', true],
    ['scores', 'eq', 3, true],
    ['scores', 'neq', 3, false],
    // a blank string is not zero, and zero is not a blank string
    ['blank', 'eq', 0, false],
    ['zero', 'eq', '', false],
    ['zero', 'eq', ' ', false],
    ['zero', 'eq', '0', true],
    // booleans as strings, either side, and in a list
    ['is_private', 'eq', true, true],
    ['is_private', 'eq', 'TRUE', false],
    ['flags', 'eq', 'false', true],
    ['flags', 'neq', 'true', false],
    // NaN equals nothing, not even NaN
    ['ai_confidence', 'eq', NaN, false],
    ['ai_confidence', 'neq', NaN, true],
    // null is a value; a missing field is not null
    ['unread_count_display', 'eq', null, true],
    ['missing', 'eq', null, false],
    ['missing', 'neq', null, true],
    // an empty list: no item equals, so neq holds; but the list itself exists
    ['member_ids', 'eq', 'U1', false],
    ['member_ids', 'neq', 'U1', true],
    ['member_ids', 'exists', undefined, true],
    ['member_ids', 'not_exists', undefined, false],
  ])('eq / neq / exists: %s %s %j → %s', (field, operator, value, expected) => check(odd, { field, operator, value }, expected));

  it.each<Row>([
    // unread_count: the displayed count is null here, so the stored one ('4') is read, as a number
    ['unread_count', 'gt', 3, true],
    ['unread_count', 'lte', '4', true],
    ['unread_count', 'lt', 4, false],
    // a non-numeric string compares with strings only
    ['latest_activity', 'gt', 0, false],
    ['latest_activity', 'gt', 'a', true],
    ['latest_activity', 'lte', 'soon', true],
    ['is_private', 'gt', 0, false],
    // booleans compare as 1 and 0
    ['zero', 'gte', false, true],
    ['zero', 'lt', true, true],
    // NaN, blank strings and lists never compare
    ['ai_confidence', 'lt', 1, false],
    ['ai_confidence', 'gte', 0, false],
    ['zero', 'gte', NaN, false],
    ['blank', 'lt', 1, false],
    ['blank', 'gte', ' ', true],
    ['scores', 'gt', 0, false],
    ['zero', 'lt', 'abc', false],
    ['missing', 'gte', 0, false],
    ['missing', 'lte', 0, false],
    ['unread_count_display', 'gte', 0, false],
    // a string timestamp compares as a number, through a dotted path
    ['parent_message.ts', 'gt', 1_600_000_000, true],
    ['parent_message.ts', 'lt', '1700000000.0001', false],
  ])('ordering: %s %s %j → %s', (field, operator, value, expected) => check(odd, { field, operator, value }, expected));

  it.each<Row>([
    // list membership compares loosely: numbers and numeric strings, booleans and their names
    ['scores', 'contains', '3', true],
    ['scores', 'contains', '2.5', true],
    ['scores', 'contains', 2.5, true],
    ['scores', 'contains', 25, false],
    ['flags', 'contains', 'TRUE', true],
    ['flags', 'contains', false, true],
    // a string contains the digits of a number
    ['id', 'contains', 4, true],
    ['id', 'contains', 5, false],
    // a boolean or null needle is not a substring; null and empty lists contain nothing
    ['is_private', 'contains', true, false],
    ['type', 'contains', null, false],
    ['latest_message.text', 'contains', '', false],
    ['member_ids', 'contains', '', false],
  ])('contains: %s %s %j → %s', (field, operator, value, expected) => check(odd, { field, operator, value }, expected));

  it.each<Row>([
    ['id', 'in', [42, 'x'], true],
    ['id', 'in', ['42.0'], false],
    ['is_private', 'in', [true], true],
    ['flags', 'in', ['false', 'x'], true],
    ['scores', 'in', ['1', 'x'], true],
    ['scores', 'in', [3, 9], true],
    ['ai_confidence', 'in', [NaN, 'NaN'], false],
    ['unread_count_display', 'in', [null], true],
    ['missing', 'in', [null], false],
    ['member_ids', 'in', ['U1', 'U2'], false],
    // the value must be a list
    ['type', 'in', null, false],
    ['type', 'in', { 0: 'dm' }, false],
    // a long list (a set) behaves as a short one
    ['type', 'in', ['a', 'b', 'c', 'd', 'e', 'f', 'dm'], true],
    ['type', 'in', ['dm', 'a', 'b', 'c', 'd', 'e'], true],
    ['type', 'neq', 'dm', false],
    ['type', 'in', ['a', 'b', 'c', 'd', 'e', 'f', 'DM'], false],
    ['id', 'in', ['a', 'b', 'c', 'd', 'e', 'f', 42], true],
  ])('in: %s in %j → %s', (field, operator, value, expected) => check(odd, { field, operator, value }, expected));

  it.each<Row>([
    // dotted paths through objects only
    ['latest_message.user_data.profile.title', 'eq', 'Lead', true],
    ['latest_message.user_data.profile.title', 'exists', undefined, true],
    ['latest_message.user_data.profile.title.x', 'exists', undefined, false],
    ['latest_message.text', 'exists', undefined, false],
    ['latest_message.text', 'not_exists', undefined, true],
    ['latest_message.text', 'eq', null, true],
    // through lists: by index, or over every item
    ['flags.0', 'eq', true, true],
    ['flags.1', 'eq', 'false', true],
    ['member_ids.0', 'exists', undefined, false],
    ['member_ids.name', 'exists', undefined, false],
    ['member_ids.name', 'not_exists', undefined, true],
    // unread_count is special only as the whole field
    ['unread_count.length', 'exists', undefined, false],
  ])('paths: %s %s %j → %s', (field, operator, value, expected) => check(odd, { field, operator, value }, expected));

  it.each<Row>([
    ['participants.real_name', 'exists', undefined, true],
    ['participants.nope', 'exists', undefined, false],
    ['participants.nope', 'not_exists', undefined, true],
    ['participants.name', 'gt', 'a', false],
    ['participants.emails', 'in', ['nobody', 'b@x.io'], true],
    ['participants.emails', 'neq', 'b@x.io', false],
    ['participants.emails', 'neq', 'c@x.io', true],
    ['participants.id', 'eq', 'U2', true],
  ])('dotted paths into lists of records: %s %s %j → %s', (field, operator, value, expected) => check(conv, { field, operator, value }, expected));

  it.each<[string, unknown, FilterRule, boolean]>([
    ['null', null, { field: 'name', operator: 'not_exists' }, true],
    ['null', null, { field: 'unread_count', operator: 'gt', value: -1 }, false],
    ['undefined', undefined, { field: 'type', operator: 'neq', value: 'dm' }, true],
    ['a string', 'Release', { field: 'length', operator: 'exists' }, false],
    ['a number', 7, { field: 'type', operator: 'in', value: ['dm', 'channel'] }, false],
  ])('a record that is %s has no fields', (_kind, record, rule, expected) => check(record, rule, expected));

  it('unread_count reads the displayed count only as the whole field, not on a path through it', () => {
    const record = { unread_count: { text: 'a' }, unread_count_display: 5 };
    check(record, { field: 'unread_count.text', operator: 'eq', value: 'a' }, true);
    check(record, { field: 'unread_count', operator: 'eq', value: 5 }, true);
  });
});

describe('unknown operator', () => {
  it('passes everything and is reported once per compile, not per record', () => {
    const onUnknown = vi.fn();
    const spec: FilterSpec = { rules: [{ field: 'name', operator: 'regex', value: '^nothing matches$' }] };
    const predicate = compileFilter(spec, onUnknown);
    expect(onUnknown).toHaveBeenCalledTimes(1);
    expect(onUnknown).toHaveBeenCalledWith('regex');
    for (const record of [conv, {}, { name: 'zzz' }, null]) {
      expect(predicate(record)).toBe(true);
      expect(matchesFilter(record, spec)).toBe(true);
    }
    expect(onUnknown).toHaveBeenCalledTimes(1);
  });

  it('passes only itself: the other rules still decide under AND', () => {
    const onUnknown = vi.fn();
    const spec: FilterSpec = {
      rules: [
        { field: 'name', operator: 'matches', value: 'x' },
        { field: 'type', operator: 'eq', value: 'dm' },
      ],
    };
    expect(compileFilter(spec, onUnknown)(conv)).toBe(false);
    expect(matchesFilter(conv, spec)).toBe(false);
    expect(compileFilter(spec)({ type: 'dm' })).toBe(true);
    expect(onUnknown).toHaveBeenCalledTimes(1);
  });

  it('is not reported for known operators', () => {
    const onUnknown = vi.fn();
    compileFilter({ rules: FILTER_OPERATORS.map((operator) => ({ field: 'name', operator, value: 'x' })) }, onUnknown);
    expect(onUnknown).not.toHaveBeenCalled();
  });
});

describe('combinators', () => {
  const isChannel: FilterRule = { field: 'type', operator: 'eq', value: 'channel' };
  const isDm: FilterRule = { field: 'type', operator: 'eq', value: 'dm' };
  const isUrgent: FilterRule = { field: 'ai_category', operator: 'eq', value: 'urgent' };

  it.each<[string, FilterSpec, boolean]>([
    ['AND by default: both true', { rules: [isChannel, isUrgent] }, true],
    ['AND by default: one false', { rules: [isDm, isUrgent] }, false],
    ['explicit AND: one false', { rules: [isUrgent, isDm], combinator: 'and' }, false],
    ['OR: one true', { rules: [isDm, isUrgent], combinator: 'or' }, true],
    ['OR: none true', { rules: [isDm, { field: 'ai_category', operator: 'eq', value: 'fyi' }], combinator: 'or' }, false],
    ['OR: single false rule', { rules: [isDm], combinator: 'or' }, false],
    ['AND with zero rules matches everything', { rules: [] }, true],
    ['explicit AND with zero rules matches everything', { rules: [], combinator: 'and' }, true],
    ['OR with zero rules matches everything', { rules: [], combinator: 'or' }, true],
  ])('%s', (_name, spec, expected) => {
    expect(matchesFilter(conv, spec)).toBe(expected);
    for (const predicate of compileBoth(spec)) expect(predicate(conv)).toBe(expected);
  });

  it('OR with an unknown operator passes everything; AND of unknown operators alone too', () => {
    const regex: FilterRule = { field: 'name', operator: 'regex', value: 'x' };
    for (const spec of [{ rules: [isDm, regex], combinator: 'or' }, { rules: [regex] }, { rules: [regex, regex], combinator: 'and' }] as FilterSpec[]) {
      for (const record of [conv, {}, null]) {
        expect(matchesFilter(record, spec)).toBe(true);
        for (const predicate of compileBoth(spec)) expect(predicate(record)).toBe(true);
      }
    }
  });

  it.each<[string, FilterSpec, boolean]>([
    ['OR of four: the last one true', { rules: [isDm, isDm, isDm, isUrgent], combinator: 'or' }, true],
    ['OR of four: none true', { rules: [isDm, isDm, isDm, isDm], combinator: 'or' }, false],
    ['OR: a rule that can never pass drops out', { rules: [{ field: 'type', operator: 'in', value: [] }, isUrgent], combinator: 'or' }, true],
    ['OR: only rules that can never pass', { rules: [{ field: 'type', operator: 'in', value: 'x' }], combinator: 'or' }, false],
    ['AND of four: all true', { rules: [isChannel, isUrgent, isChannel, isUrgent] }, true],
    ['AND of four: the last one false', { rules: [isChannel, isUrgent, isChannel, isDm] }, false],
    ['AND: a rule that can never pass fails the whole', { rules: [isChannel, { field: 'ai_confidence', operator: 'gt', value: null }] }, false],
  ])('%s', (_name, spec, expected) => {
    expect(matchesFilter(conv, spec)).toBe(expected);
    for (const predicate of compileBoth(spec)) expect(predicate(conv)).toBe(expected);
  });

  it('zero rules match even an empty record', () => {
    expect(matchesFilter({}, { rules: [], combinator: 'or' })).toBe(true);
    expect(compileFilter({ rules: [], combinator: 'or' })({})).toBe(true);
  });
});

describe('no code at run time', () => {
  it('takes field names and words as data', () => {
    const hostile = 'x"]; throw new Error("injected"); //';
    const odd = "\\ ' ` ${1} \u2028 \u2029 </script>";
    const record = { [hostile]: odd, [odd]: [hostile], nested: { [hostile]: { [odd]: 1 } } };
    check(record, { field: hostile, operator: 'eq', value: odd }, true);
    check(record, { field: hostile, operator: 'neq', value: odd }, false);
    check(record, { field: odd, operator: 'in', value: ['a', hostile] }, true);
    check(record, { field: odd, operator: 'in', value: ['a', 'b', 'c', 'd', 'e', hostile] }, true);
    check(record, { field: odd, operator: 'contains', value: hostile.toUpperCase() }, true);
    check(record, { field: `nested.${hostile}`, operator: 'exists' }, true);
    check(record, { field: hostile, operator: 'eq', value: hostile }, false);
  });

  it("never asks for eval (Sift's Content-Security-Policy has no unsafe-eval): compiling works with Function refused", () => {
    const spec: FilterSpec = {
      rules: [
        { field: 'type', operator: 'in', value: ['channel', 'dm'] },
        { field: 'unread_count', operator: 'gt', value: 3 },
      ],
    };
    let asked = 0;
    vi.stubGlobal('Function', function refused() {
      asked++;
      throw new EvalError('Refused to evaluate a string as JavaScript');
    });
    let predicate: (record: unknown) => boolean;
    try {
      predicate = compileFilter(spec);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(asked).toBe(0);
    expect(predicate(conv)).toBe(true);
    expect(predicate({ ...conv, unread_count_display: 3 })).toBe(false);
    expect(predicate({ ...conv, type: 'thread' })).toBe(false);
  });
});

describe('property: the compiled predicate agrees with the interpreter', () => {
  const FIELDS = [
    'name',
    'type',
    'is_private',
    'unread_count',
    'unread_count_display',
    'latest_activity',
    'ai_category',
    'ai_confidence',
    'member_ids',
    'member_ids.0',
    'participants.real_name',
    'participants.0.name',
    'participants.name',
    'latest_message.text',
    'latest_message.user_data.name',
    'missing',
    'missing.deep',
  ];
  const OPERATORS = [...FILTER_OPERATORS, 'regex'];
  const WORDS = ['', 'a', 'Ada', 'ada', 'bob', 'dm', 'channel', 'urgent', 'fyi', 'U1', '3', '0', '1.5', ' ', 'true'];

  const scalar = fc.oneof(
    fc.constantFrom(...WORDS),
    fc.string({ maxLength: 4 }),
    fc.integer({ min: -3, max: 10 }),
    fc.double({ noDefaultInfinity: false }),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
  );
  const value = fc.oneof({ weight: 4, arbitrary: scalar }, { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) });

  const rule: fc.Arbitrary<FilterRule> = fc.record({
    field: fc.constantFrom(...FIELDS),
    operator: fc.constantFrom(...OPERATORS),
    value,
  });
  // The built-in unread views take a fast path: generate it often.
  const unreadRule: fc.Arbitrary<FilterRule> = fc.record({
    field: fc.constant('unread_count'),
    operator: fc.constantFrom('gt', 'gte', 'eq'),
    value: fc.oneof(fc.integer({ min: -1, max: 5 }), fc.double(), fc.constantFrom('2', 'x')),
  });
  const spec: fc.Arbitrary<FilterSpec> = fc.record(
    {
      rules: fc.array(fc.oneof(rule, unreadRule), { maxLength: 4 }),
      combinator: fc.constantFrom('and' as const, 'or' as const),
    },
    { requiredKeys: ['rules'] },
  );

  const person = fc.record({ real_name: fc.constantFrom(...WORDS), name: fc.oneof(fc.constantFrom(...WORDS), fc.constant(null)) }, { requiredKeys: [] });
  const count = fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constant(null), fc.constantFrom('2', ''), fc.double());
  const record = fc.record(
    {
      name: fc.constantFrom(...WORDS),
      type: fc.constantFrom('dm', 'channel', 'thread'),
      is_private: fc.boolean(),
      unread_count: count,
      unread_count_display: count,
      latest_activity: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constantFrom('3', '1.5')),
      ai_category: fc.constantFrom('urgent', 'can_wait', 'fyi', undefined),
      ai_confidence: fc.double({ min: 0, max: 1, noNaN: true }),
      member_ids: fc.array(fc.constantFrom('U1', 'U2', 'u1', '3'), { maxLength: 3 }),
      participants: fc.array(person, { maxLength: 3 }),
      latest_message: fc.record({ text: fc.constantFrom(...WORDS), user_data: fc.record({ name: fc.constantFrom(...WORDS) }) }, { requiredKeys: [] }),
    },
    { requiredKeys: [] },
  );

  it('compileFilter(spec)(record) === matchesFilter(record, spec)', () => {
    fc.assert(
      fc.property(spec, fc.array(record, { minLength: 1, maxLength: 5 }), (s, records) => {
        for (const predicate of compileBoth(s)) for (const r of records) expect(predicate(r)).toBe(matchesFilter(r, s));
      }),
      { numRuns: 2_000 },
    );
  });

  it('onUnknownOperator is told about every unknown operator, and only about those', () => {
    fc.assert(
      fc.property(spec, (s) => {
        const told: string[] = [];
        compileFilter(s, (op) => told.push(op));
        const unknown = s.rules.filter((r) => !isKnownOperator(r.operator)).map((r) => r.operator);
        expect(new Set(told)).toEqual(new Set(unknown));
        expect(told.length).toBeLessThanOrEqual(unknown.length);
      }),
    );
  });
});

describe('property: the fast paths agree with the interpreter on awkward records', () => {
  // Top-level fields read by name (the summary's) and by key (others), dotted paths through
  // objects, lists and neither, and unread_count with its own reading.
  const TOP = [
    'id',
    'type',
    'name',
    'is_private',
    'member_ids',
    'unread_count',
    'unread_count_display',
    'latest_activity',
    'ai_category',
    'ai_confidence',
    'extra',
    '0',
  ];
  const FIELDS = [
    ...TOP,
    'constructor',
    'latest_message',
    'latest_message.text',
    'latest_message.user_data',
    'latest_message.user_data.name',
    'latest_message.user_data.name.x',
    'extra.text',
    'unread_count.text',
    'member_ids.0',
    'member_ids.text',
    'length',
  ];
  const WORDS = ['dm', 'channel', 'thread', 'U1', 'u1', 'C1', 'x'];
  const atom = fc.oneof(
    fc.constantFrom(...WORDS, '3', '3.0', ' 3 ', '', '  ', 'true', 'false', 'TRUE', 'NaN', 'Infinity', '1e1', '-0', '0x1'),
    fc.integer({ min: -3, max: 10 }),
    fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 2.5, 1e1),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
  );
  const inner = fc.record(
    { text: atom, user_data: fc.oneof(fc.record({ name: atom }, { requiredKeys: [] }), fc.array(fc.record({ name: atom }), { maxLength: 2 }), atom) },
    { requiredKeys: [] },
  );
  const fieldValue = fc.oneof({ weight: 4, arbitrary: atom }, { weight: 2, arbitrary: fc.array(atom, { maxLength: 4 }) }, { weight: 1, arbitrary: inner });
  const plain = fc.dictionary(fc.constantFrom(...TOP, 'latest_message'), fieldValue);
  const record = fc.oneof(
    { weight: 12, arbitrary: plain },
    { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.constant(undefined), atom, fc.array(plain, { maxLength: 2 })) },
  );
  const ruleValue = fc.oneof(
    { weight: 4, arbitrary: atom },
    { weight: 2, arbitrary: fc.array(atom, { maxLength: 6 }) },
    // lists of plain words, short (scanned) and long (a set)
    { weight: 2, arbitrary: fc.array(fc.constantFrom(...WORDS, 'a', 'b', 'c', 'd'), { maxLength: 8 }) },
  );
  const rule: fc.Arbitrary<FilterRule> = fc.record({
    field: fc.constantFrom(...FIELDS),
    operator: fc.constantFrom(...FILTER_OPERATORS, 'regex'),
    value: ruleValue,
  });
  const spec: fc.Arbitrary<FilterSpec> = fc.record(
    { rules: fc.array(rule, { maxLength: 5 }), combinator: fc.constantFrom('and' as const, 'or' as const) },
    { requiredKeys: ['rules'] },
  );

  it('compileFilter(spec)(record) === matchesFilter(record, spec)', () => {
    fc.assert(
      fc.property(spec, fc.array(record, { minLength: 1, maxLength: 6 }), (s, records) => {
        for (const predicate of compileBoth(s)) for (const r of records) expect(predicate(r)).toBe(matchesFilter(r, s));
      }),
      { numRuns: 2_000 },
    );
  });

  it('each rule alone, compiled, agrees with matchesRule', () => {
    fc.assert(
      fc.property(rule, fc.array(record, { minLength: 1, maxLength: 6 }), (ru, records) => {
        for (const predicate of compileBoth({ rules: [ru] })) {
          for (const r of records) expect(predicate(r)).toBe(isKnownOperator(ru.operator) ? matchesRule(r, ru) : true);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
