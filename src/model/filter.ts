/**
 * Filter rules (SPEC §3): {field, operator, value}, combined with AND (default) or OR.
 *
 * - `field` may be a dotted path; a path through a list collects the values of every item.
 * - contains: case-insensitive substring on strings, membership on lists.
 * - in: the value is a list, and the field's value is one of it.
 * - An unknown operator passes everything (and is reported once per compile).
 * - For `unread_count` the displayed count (`unread_count_display`) is used first.
 *
 * `compileFilter` turns rules into a predicate once per view change; `matchesFilter` is the
 * plain interpreter the compiled form must agree with. The compiled form is a list of checks
 * chosen once per rule; no code is generated at run time (Sift's Content-Security-Policy has
 * no 'unsafe-eval', issue 12 §2).
 */
import type { FilterRule, FilterSpec } from './types';

export const FILTER_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'in', 'exists', 'not_exists'] as const;
export type KnownOperator = (typeof FILTER_OPERATORS)[number];

export function isKnownOperator(op: string): op is KnownOperator {
  return (FILTER_OPERATORS as readonly string[]).includes(op);
}

const NOTHING = Symbol('nothing');
type Resolved = unknown | typeof NOTHING;

/** Reads a dotted path. A list on the way yields the list of its items' values. */
export function readField(record: unknown, field: string): unknown {
  if (field === 'unread_count' && record !== null && typeof record === 'object') {
    const r = record as { unread_count_display?: unknown; unread_count?: unknown };
    return r.unread_count_display ?? r.unread_count;
  }
  const value = readPath(record, field.split('.'), 0);
  return value === NOTHING ? undefined : value;
}

function readPath(value: unknown, path: string[], index: number): Resolved {
  if (index === path.length) return value;
  if (value === null || value === undefined) return NOTHING;
  if (Array.isArray(value)) {
    const key = path[index]!;
    if (/^\d+$/.test(key)) return readPath(value[Number(key)], path, index + 1);
    const out: unknown[] = [];
    for (const item of value) {
      const v = readPath(item, path, index);
      if (v === NOTHING) continue;
      if (Array.isArray(v)) out.push(...v);
      else out.push(v);
    }
    // No item has the field: the path leads nowhere (so `exists` is false).
    return out.length > 0 ? out : NOTHING;
  }
  if (typeof value !== 'object') return NOTHING;
  const next = (value as Record<string, unknown>)[path[index]!];
  return next === undefined ? NOTHING : readPath(next, path, index + 1);
}

function normalise(value: unknown): unknown {
  return typeof value === 'string' ? value.toLowerCase() : value;
}

function looseEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'string' && b.trim() !== '') return a === Number(b);
  if (typeof a === 'string' && typeof b === 'number' && a.trim() !== '') return Number(a) === b;
  if (typeof a === 'boolean' && typeof b === 'string') return String(a) === b;
  if (typeof a === 'string' && typeof b === 'boolean') return a === String(b);
  return false;
}

function toComparable(value: unknown): number | string | undefined {
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : value;
  if (typeof value === 'string') {
    const n = Number(value);
    return value.trim() !== '' && !Number.isNaN(n) ? n : value;
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}

function compare(a: unknown, b: unknown, test: (c: number) => boolean): boolean {
  const x = toComparable(a);
  const y = toComparable(b);
  if (x === undefined || y === undefined) return false;
  if (typeof x === typeof y) return test(x < y ? -1 : x > y ? 1 : 0);
  return false;
}

/** The plain interpreter of one rule. */
export function matchesRule(record: unknown, rule: FilterRule): boolean {
  const actual = readField(record, rule.field);
  const expected = rule.value;
  switch (rule.operator) {
    case 'exists':
      return actual !== undefined && actual !== null;
    case 'not_exists':
      return actual === undefined || actual === null;
    case 'eq':
      return Array.isArray(actual) ? actual.some((v) => looseEquals(v, expected)) : looseEquals(actual, expected);
    case 'neq':
      return Array.isArray(actual) ? !actual.some((v) => looseEquals(v, expected)) : !looseEquals(actual, expected);
    case 'gt':
      return compare(actual, expected, (c) => c > 0);
    case 'gte':
      return compare(actual, expected, (c) => c >= 0);
    case 'lt':
      return compare(actual, expected, (c) => c < 0);
    case 'lte':
      return compare(actual, expected, (c) => c <= 0);
    case 'contains': {
      if (Array.isArray(actual)) {
        const needle = normalise(expected);
        return actual.some((v) => looseEquals(normalise(v), needle));
      }
      if (typeof actual === 'string' && (typeof expected === 'string' || typeof expected === 'number')) {
        return actual.toLowerCase().includes(String(expected).toLowerCase());
      }
      return false;
    }
    case 'in': {
      if (!Array.isArray(expected)) return false;
      if (Array.isArray(actual)) return actual.some((v) => expected.some((e) => looseEquals(v, e)));
      return expected.some((e) => looseEquals(actual, e));
    }
    default:
      return true;
  }
}

/** The plain interpreter: AND by default, OR when asked. No rules match everything. */
export function matchesFilter(record: unknown, filter: FilterSpec): boolean {
  if (filter.rules.length === 0) return true;
  return filter.combinator === 'or' ? filter.rules.some((rule) => matchesRule(record, rule)) : filter.rules.every((rule) => matchesRule(record, rule));
}

export type Predicate<T> = (record: T) => boolean;

/**
 * Compiles rules once into a predicate (unknown operators resolved, fast paths chosen),
 * to be evaluated per conversation.
 * `onUnknownOperator` is told once per unknown operator.
 */
export function compileFilter<T>(filter: FilterSpec, onUnknownOperator?: (operator: string) => void): Predicate<T> {
  const steps: Step[] = [];
  let unknown = false;
  let never = false;
  for (const rule of filter.rules) {
    if (!isKnownOperator(rule.operator)) {
      onUnknownOperator?.(rule.operator);
      unknown = true;
      continue;
    }
    const step = compileStep(rule);
    if (step === null) never = true;
    else steps.push(step);
  }
  const or = filter.combinator === 'or';
  if (or) {
    // An unknown operator passes, so the whole OR passes; a rule that can never pass drops out.
    if (unknown || filter.rules.length === 0) return () => true;
    if (steps.length === 0) return () => false;
  } else {
    // Under AND an unknown operator drops out, and a rule that can never pass fails the whole.
    if (never) return () => false;
    if (steps.length === 0) return () => true;
  }
  const checks = steps.map(checkOf);
  return (or ? (r: unknown) => anySteps(r, checks) : (r: unknown) => allSteps(r, checks)) as Predicate<T>;
}

/* ---------- compiled rules ----------
 * A rule becomes a step: how its field is read and how the value is tested (`kind`), both
 * chosen once. Every fast path gives exactly what matchesRule gives; what one does not
 * cover (a record that is not a plain object, a path that meets a list, an odd value) goes
 * back to readField or to the rule's general test.
 */

type Reader = (record: unknown) => unknown;
type Test = (value: unknown) => boolean;

const ALWAYS_FALSE = (): boolean => false;

/** Lists of words this short are compared one by one; longer ones go through a Set. */
const SMALL_LIST = 4;

const KIND = {
  /** test(value) */
  general: 0,
  /** The value, or an item of it, is one of a few words (eq, neq, in). */
  words: 1,
  /** The value, or an item of it, is in a set of words (in). */
  wordSet: 2,
  /** A number against a number, else test(value). */
  eq: 3,
  neq: 4,
  gt: 5,
  gte: 6,
  lt: 7,
  lte: 8,
  exists: 9,
  notExists: 10,
  /** A string contains the needle, else test(value) (a list: membership). */
  contains: 11,
} as const;
type Kind = (typeof KIND)[keyof typeof KIND];

interface Step {
  readonly field: string;
  /** readField(record, field), compiled. */
  readonly read: Reader;
  readonly kind: Kind;
  /** neq of words: the test is negated. */
  readonly negate: boolean;
  readonly words: readonly string[];
  readonly set: ReadonlySet<string>;
  /** The number compared with (number kinds). */
  readonly y: number;
  /** The lower-cased needle (contains). */
  readonly needle: string;
  /** The rule's general test: every kind falls back to it. */
  readonly test: Test;
}

const NO_WORDS: readonly string[] = [];
const NO_SET: ReadonlySet<string> = new Set();

/** The step of a rule with a known operator, or null when the rule can never pass. */
function compileStep(rule: FilterRule): Step | null {
  const { field, value } = rule;
  const operator = rule.operator as KnownOperator;
  const test = compileTest(operator, value);
  if (test === ALWAYS_FALSE) return null;
  const step: Step = {
    field,
    read: compileReader(field),
    kind: KIND.general,
    negate: false,
    words: NO_WORDS,
    set: NO_SET,
    y: 0,
    needle: '',
    test,
  };
  switch (operator) {
    case 'exists':
      return { ...step, kind: KIND.exists };
    case 'not_exists':
      return { ...step, kind: KIND.notExists };
    case 'contains':
      return typeof value === 'string' || typeof value === 'number' ? { ...step, kind: KIND.contains, needle: String(value).toLowerCase() } : step;
    default:
      break;
  }
  const words = operator === 'eq' || operator === 'neq' ? plainWords([value]) : operator === 'in' ? plainWords(value as unknown[]) : null;
  if (words) {
    const negate = operator === 'neq';
    return words.length > SMALL_LIST ? { ...step, kind: KIND.wordSet, set: new Set(words), negate } : { ...step, kind: KIND.words, words, negate };
  }
  // eq and neq compare a number as it is; the orderings, what it reads as (a numeric string, a boolean).
  const y = operator === 'eq' || operator === 'neq' ? value : toComparable(value);
  if (typeof y === 'number' && operator !== 'in') return { ...step, kind: KIND[operator], y };
  return step;
}

/**
 * The targets as strings when only a string can equal one of them, and only by ===: none
 * reads as a number (a number would equal it) or spells a boolean (a boolean would). Else null.
 */
function plainWords(targets: readonly unknown[]): string[] | null {
  for (const t of targets) {
    if (typeof t !== 'string') return null;
    if (t === 'true' || t === 'false' || (t.trim() !== '' && !Number.isNaN(Number(t)))) return null;
  }
  return targets as string[];
}

/* ---------- evaluating steps ---------- */

function allSteps(r: unknown, checks: readonly Predicate<unknown>[]): boolean {
  for (let i = 0; i < checks.length; i++) if (!checks[i]!(r)) return false;
  return true;
}

function anySteps(r: unknown, checks: readonly Predicate<unknown>[]): boolean {
  for (let i = 0; i < checks.length; i++) if (checks[i]!(r)) return true;
  return false;
}

/** A step as one predicate over a record: its reader, then its kind's test, chosen once. */
function checkOf(step: Step): Predicate<unknown> {
  const { read, test, negate, words, set, y, needle } = step;
  switch (step.kind) {
    case KIND.words:
      return (r) => inWordList(read(r), words) !== negate;
    case KIND.wordSet:
      return (r) => inWordSet(read(r), set) !== negate;
    case KIND.eq:
      return (r) => {
        const v = read(r);
        return typeof v === 'number' ? v === y : test(v);
      };
    case KIND.gt:
      return (r) => {
        const v = read(r);
        return typeof v === 'number' ? v > y : test(v);
      };
    case KIND.contains:
      return (r) => {
        const v = read(r);
        return typeof v === 'string' ? v.toLowerCase().includes(needle) : test(v);
      };
    default:
      return (r) => passes(read(r), step);
  }
}

function passes(v: unknown, step: Step): boolean {
  switch (step.kind) {
    case KIND.words:
      return inWordList(v, step.words) !== step.negate;
    case KIND.wordSet:
      return inWordSet(v, step.set) !== step.negate;
    case KIND.eq:
      return typeof v === 'number' ? v === step.y : step.test(v);
    case KIND.neq:
      return typeof v === 'number' ? v !== step.y : step.test(v);
    case KIND.gt:
      return typeof v === 'number' ? v > step.y : step.test(v);
    case KIND.gte:
      return typeof v === 'number' ? v >= step.y : step.test(v);
    case KIND.lt:
      return typeof v === 'number' ? v < step.y : step.test(v);
    case KIND.lte:
      return typeof v === 'number' ? v <= step.y : step.test(v);
    case KIND.exists:
      return v !== undefined && v !== null;
    case KIND.notExists:
      return v === undefined || v === null;
    case KIND.contains:
      return typeof v === 'string' ? v.toLowerCase().includes(step.needle) : step.test(v);
    default:
      return step.test(v);
  }
}

/** Whether a value (or an item of a list value) is one of a few words. */
function inWordList(value: unknown, words: readonly string[]): boolean {
  if (typeof value === 'string') return isWord(value, words);
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item === 'string' && isWord(item, words)) return true;
  }
  return false;
}

function isWord(value: string, words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) if (words[i] === value) return true;
  return false;
}

/** Whether a value (or an item of a list value) is in a set of words. */
function inWordSet(value: unknown, words: ReadonlySet<string>): boolean {
  if (typeof value === 'string') return words.has(value);
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item === 'string' && words.has(item)) return true;
  }
  return false;
}

type Summary = Record<'type' | 'id' | 'member_ids' | 'name' | 'category' | 'unread_count', unknown>;
const plainObject = (r: unknown): r is Summary => typeof r === 'object' && r !== null && !Array.isArray(r);

/**
 * Readers of the fields focus inboxes filter on, each a function literal of its own: V8 keeps
 * inline caches per function literal, so each property load stays monomorphic over the
 * summaries however many views are compiled (a shared closure would go megamorphic). No code is
 * generated at run time: Sift's Content-Security-Policy has no 'unsafe-eval'.
 */
const FIELD_READERS: Readonly<Record<string, Reader>> = {
  type: (r) => (plainObject(r) ? r.type : readField(r, 'type')),
  id: (r) => (plainObject(r) ? r.id : readField(r, 'id')),
  member_ids: (r) => (plainObject(r) ? r.member_ids : readField(r, 'member_ids')),
  name: (r) => (plainObject(r) ? r.name : readField(r, 'name')),
  category: (r) => (plainObject(r) ? r.category : readField(r, 'category')),
};

/** A reader that returns exactly readField(record, field). */
function compileReader(field: string): Reader {
  if (field === 'unread_count') {
    return (r) => {
      if (typeof r !== 'object' || r === null) return undefined;
      const x = r as { unread_count_display?: unknown; unread_count?: unknown };
      return x.unread_count_display ?? x.unread_count;
    };
  }
  const known = FIELD_READERS[field];
  if (known && Object.hasOwn(FIELD_READERS, field)) return known;
  const path = field.split('.');
  return (r) => {
    let value: unknown = r;
    for (let i = 0; i < path.length; i++) {
      if (typeof value !== 'object' || value === null) return undefined;
      if (Array.isArray(value)) return readField(r, field);
      value = (value as Record<string, unknown>)[path[i]!];
    }
    return value;
  };
}

/** Applies a scalar test to a value, or to each item of a list value (any item passing). */
function overItems(test: Test): Test {
  return (value) => {
    if (!Array.isArray(value)) return test(value);
    for (let i = 0; i < value.length; i++) if (test(value[i])) return true;
    return false;
  };
}

function compileTest(operator: KnownOperator, expected: unknown): Test {
  switch (operator) {
    case 'exists':
      return (v) => v !== undefined && v !== null;
    case 'not_exists':
      return (v) => v === undefined || v === null;
    case 'eq':
      return overItems(equalsTest(expected));
    case 'neq': {
      const eq = overItems(equalsTest(expected));
      return (v) => !eq(v);
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return orderTest(operator, expected);
    case 'contains':
      return containsTest(expected);
    case 'in':
      if (!Array.isArray(expected) || expected.length === 0) return ALWAYS_FALSE;
      return overItems(expected.length === 1 ? equalsTest(expected[0]) : memberTest(expected));
  }
}

/** (a) => looseEquals(a, expected), with the expected side worked out once. */
function equalsTest(expected: unknown): Test {
  if (typeof expected === 'string') {
    const n = expected.trim() !== '' ? Number(expected) : NaN;
    const bool = expected === 'true' ? true : expected === 'false' ? false : undefined;
    return (a) => a === expected || (typeof a === 'number' ? a === n : bool !== undefined && a === bool);
  }
  if (typeof expected === 'number') {
    return (a) => a === expected || (typeof a === 'string' && a.trim() !== '' && Number(a) === expected);
  }
  if (typeof expected === 'boolean') {
    const text = String(expected);
    return (a) => a === expected || a === text;
  }
  return (a) => a === expected;
}

/** (a) => list.some((e) => looseEquals(a, e)), through sets. */
function memberTest(list: readonly unknown[]): Test {
  /** Strict equality (NaN left out: a Set would find it, === does not). */
  const same = new Set<unknown>();
  /** A number equals a numeric string of the list. */
  const fromStrings = new Set<number>();
  /** A string equals a number of the list when it reads as that number. */
  const numbers = new Set<number>();
  /** A string equals a boolean of the list when it spells it. */
  const spelled = new Set<string>();
  for (const e of list) {
    if (typeof e === 'number' && Number.isNaN(e)) continue;
    same.add(e);
    if (typeof e === 'number') numbers.add(e);
    else if (typeof e === 'boolean') spelled.add(String(e));
    else if (typeof e === 'string' && e.trim() !== '' && !Number.isNaN(Number(e))) fromStrings.add(Number(e));
  }
  const hasNumbers = numbers.size > 0;
  const hasSpelled = spelled.size > 0;
  const hasFromStrings = fromStrings.size > 0;
  const hasWords = same.has('true') || same.has('false');
  return (a) => {
    if (same.has(a)) return true;
    switch (typeof a) {
      case 'string':
        return (hasSpelled && spelled.has(a)) || (hasNumbers && a.trim() !== '' && numbers.has(Number(a)));
      case 'number':
        return hasFromStrings && fromStrings.has(a);
      case 'boolean':
        return hasWords && same.has(String(a));
      default:
        return false;
    }
  };
}

/** compare() with the expected side worked out once: both numbers, or both strings. */
function orderTest(operator: 'gt' | 'gte' | 'lt' | 'lte', expected: unknown): Test {
  const y = toComparable(expected);
  if (y === undefined) return ALWAYS_FALSE;
  if (typeof y === 'number') {
    const num = (a: unknown): number | undefined => {
      if (typeof a === 'number') return a;
      const x = toComparable(a);
      return typeof x === 'number' ? x : undefined;
    };
    // NaN and undefined fail every comparison, as compare() fails them.
    switch (operator) {
      case 'gt':
        return (a) => (num(a) as number) > y;
      case 'gte':
        return (a) => (num(a) as number) >= y;
      case 'lt':
        return (a) => (num(a) as number) < y;
      case 'lte':
        return (a) => (num(a) as number) <= y;
    }
  }
  const text = (a: unknown): string | undefined => {
    if (typeof a !== 'string') return undefined;
    const x = toComparable(a);
    return typeof x === 'string' ? x : undefined;
  };
  switch (operator) {
    case 'gt':
      return (a) => {
        const x = text(a);
        return x !== undefined && x > y;
      };
    case 'gte':
      return (a) => {
        const x = text(a);
        return x !== undefined && x >= y;
      };
    case 'lt':
      return (a) => {
        const x = text(a);
        return x !== undefined && x < y;
      };
    case 'lte':
      return (a) => {
        const x = text(a);
        return x !== undefined && x <= y;
      };
  }
}

/** contains: case-insensitive substring of a string, case-insensitive membership of a list. */
function containsTest(expected: unknown): Test {
  const item = equalsTest(normalise(expected));
  const inList = (list: unknown[]): boolean => {
    for (let i = 0; i < list.length; i++) if (item(normalise(list[i]))) return true;
    return false;
  };
  if (typeof expected === 'string' || typeof expected === 'number') {
    const needle = String(expected).toLowerCase();
    return (a) => (typeof a === 'string' ? a.toLowerCase().includes(needle) : Array.isArray(a) && inList(a));
  }
  return (a) => Array.isArray(a) && inList(a);
}
