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
 * plain interpreter the compiled form must agree with.
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
  return filter.combinator === 'or'
    ? filter.rules.some((rule) => matchesRule(record, rule))
    : filter.rules.every((rule) => matchesRule(record, rule));
}

export type Predicate<T> = (record: T) => boolean;

/**
 * Compiles rules once into a predicate (unknown operators resolved, fast paths chosen),
 * to be evaluated per conversation.
 * `onUnknownOperator` is told once per unknown operator.
 */
export function compileFilter<T>(filter: FilterSpec, onUnknownOperator?: (operator: string) => void): Predicate<T> {
  const parts: Array<Predicate<T>> = [];
  for (const rule of filter.rules) {
    if (!isKnownOperator(rule.operator)) {
      onUnknownOperator?.(rule.operator);
      parts.push(() => true);
      continue;
    }
    parts.push(compileRule<T>(rule));
  }
  if (parts.length === 0) return () => true;
  if (parts.length === 1) return parts[0]!;
  if (filter.combinator === 'or') return (record) => parts.some((p) => p(record));
  return (record) => {
    for (const p of parts) if (!p(record)) return false;
    return true;
  };
}

function compileRule<T>(rule: FilterRule): Predicate<T> {
  const value = rule.value;
  // The built-in unread views test this on every conversation: read it directly.
  if (rule.field === 'unread_count' && typeof value === 'number' && rule.operator === 'gt') {
    return (r) => {
      const x = r as { unread_count_display?: unknown; unread_count?: unknown };
      const v = x.unread_count_display ?? x.unread_count;
      return typeof v === 'number' ? v > value : matchesRule(r, rule);
    };
  }
  return (r) => matchesRule(r, rule);
}
