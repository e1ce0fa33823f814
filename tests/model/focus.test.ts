import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFilter, matchesFilter } from '../../src/model/filter';
import { EMPTY_FOCUS_FILTER, formToRules, rulesToForm, type FocusFilter, type ReadStatus } from '../../src/model/focus';
import type { ConversationSummary, FilterRule } from '../../src/model/types';
import { CONVERSATION_TYPES } from '../../src/model/types';

const form = (parts: Partial<FocusFilter>): FocusFilter => ({ ...EMPTY_FOCUS_FILTER, ...parts });

const TYPE_DM: FilterRule = { field: 'type', operator: 'in', value: ['dm'] };
const UNREAD: FilterRule = { field: 'unread_count', operator: 'gt', value: 0 };
const READ: FilterRule = { field: 'unread_count', operator: 'eq', value: 0 };

describe('formToRules', () => {
  it.each<[string, FocusFilter, FilterRule[]]>([
    ['the empty form: no rules (everything passes)', EMPTY_FOCUS_FILTER, []],
    ['one message type', form({ messageTypes: ['dm'] }), [TYPE_DM]],
    ['two message types', form({ messageTypes: ['channel', 'thread'] }), [{ field: 'type', operator: 'in', value: ['channel', 'thread'] }]],
    [
      'all three types, given in any order, come out in CONVERSATION_TYPES order',
      form({ messageTypes: ['thread', 'dm', 'channel'] }),
      [{ field: 'type', operator: 'in', value: ['dm', 'channel', 'thread'] }],
    ],
    ['read status all: no rule', form({ readStatus: 'all' }), []],
    ['read status unread: a displayed count above zero', form({ readStatus: 'unread' }), [UNREAD]],
    ['read status read: a displayed count of zero', form({ readStatus: 'read' }), [READ]],
    [
      'channels: the conversation id is one of them, in the order given',
      form({ channels: ['C2', 'C1'] }),
      [{ field: 'id', operator: 'in', value: ['C2', 'C1'] }],
    ],
    ['users: one of them is a member', form({ users: ['U1', 'U7'] }), [{ field: 'member_ids', operator: 'in', value: ['U1', 'U7'] }]],
    [
      'every part: type, read status, channels, users, in that order',
      { messageTypes: ['dm'], readStatus: 'unread', channels: ['C1'], users: ['U1', 'U2', 'U3'] },
      [TYPE_DM, UNREAD, { field: 'id', operator: 'in', value: ['C1'] }, { field: 'member_ids', operator: 'in', value: ['U1', 'U2', 'U3'] }],
    ],
  ])('%s', (_name, input, rules) => {
    expect(formToRules(input)).toEqual(rules);
  });

  it('copies the lists: changing the form afterwards leaves the rules alone', () => {
    const input = form({ channels: ['C1'], users: ['U1'] });
    const rules = formToRules(input);
    input.channels.push('C2');
    input.users.length = 0;
    expect(rules).toEqual([
      { field: 'id', operator: 'in', value: ['C1'] },
      { field: 'member_ids', operator: 'in', value: ['U1'] },
    ]);
  });
});

describe('rulesToForm', () => {
  it.each<[string, FilterRule[], FocusFilter]>([
    ['no rules: the empty form', [], EMPTY_FOCUS_FILTER],
    ['type in', [TYPE_DM], form({ messageTypes: ['dm'] })],
    ['type in, out of order: CONVERSATION_TYPES order', [{ field: 'type', operator: 'in', value: ['thread', 'dm'] }], form({ messageTypes: ['dm', 'thread'] })],
    ['type in, all three', [{ field: 'type', operator: 'in', value: ['dm', 'channel', 'thread'] }], form({ messageTypes: ['dm', 'channel', 'thread'] })],
    ['type eq (the built-in sub-views say it so)', [{ field: 'type', operator: 'eq', value: 'channel' }], form({ messageTypes: ['channel'] })],
    ['unread', [UNREAD], form({ readStatus: 'unread' })],
    ['read', [READ], form({ readStatus: 'read' })],
    ['channels', [{ field: 'id', operator: 'in', value: ['C9', 'C1'] }], form({ channels: ['C9', 'C1'] })],
    ['users', [{ field: 'member_ids', operator: 'in', value: ['U1'] }], form({ users: ['U1'] })],
    [
      'every part, in any order',
      [
        { field: 'member_ids', operator: 'in', value: ['U1'] },
        READ,
        { field: 'id', operator: 'in', value: ['C1'] },
        { field: 'type', operator: 'in', value: ['channel'] },
      ],
      { messageTypes: ['channel'], readStatus: 'read', channels: ['C1'], users: ['U1'] },
    ],
  ])('%s', (_name, rules, expected) => {
    expect(rulesToForm(rules)).toEqual(expected);
  });

  it('an OR of one rule (or none) is a form; the combinator means nothing there', () => {
    expect(rulesToForm([UNREAD], 'or')).toEqual(form({ readStatus: 'unread' }));
    expect(rulesToForm([], 'or')).toEqual(EMPTY_FOCUS_FILTER);
  });

  it('copies the lists out of the rules', () => {
    const types = ['dm'];
    const channels = ['C1'];
    const users = ['U1'];
    const result = rulesToForm([
      { field: 'type', operator: 'in', value: types },
      { field: 'id', operator: 'in', value: channels },
      { field: 'member_ids', operator: 'in', value: users },
    ])!;
    types.push('thread');
    channels.push('C2');
    users.push('U2');
    expect(result).toEqual({ messageTypes: ['dm'], readStatus: 'all', channels: ['C1'], users: ['U1'] });
  });

  it.each<[string, FilterRule[], ('and' | 'or')?]>([
    // fields the form has no part for
    ['an unknown field', [{ field: 'name', operator: 'eq', value: 'general' }]],
    ['a dotted field', [{ field: 'latest_message.user', operator: 'in', value: ['U1'] }]],
    ['ai_category', [{ field: 'ai_category', operator: 'in', value: ['urgent'] }]],
    // other operators on the form's fields
    ['type neq', [{ field: 'type', operator: 'neq', value: 'dm' }]],
    ['type contains', [{ field: 'type', operator: 'contains', value: 'dm' }]],
    ['unread_count gte 1', [{ field: 'unread_count', operator: 'gte', value: 1 }]],
    ['unread_count lt 1', [{ field: 'unread_count', operator: 'lt', value: 1 }]],
    ['unread_count gt 1', [{ field: 'unread_count', operator: 'gt', value: 1 }]],
    ['unread_count gt "0" (a string)', [{ field: 'unread_count', operator: 'gt', value: '0' }]],
    ['unread_count eq 2', [{ field: 'unread_count', operator: 'eq', value: 2 }]],
    ['id eq', [{ field: 'id', operator: 'eq', value: 'C1' }]],
    ['member_ids contains', [{ field: 'member_ids', operator: 'contains', value: 'U1' }]],
    ['member_ids exists', [{ field: 'member_ids', operator: 'exists' }]],
    ['an unknown operator', [{ field: 'type', operator: 'regex', value: 'dm' }]],
    // values the form cannot hold
    ['an unknown conversation type in a list', [{ field: 'type', operator: 'in', value: ['dm', 'group'] }]],
    ['an unknown conversation type', [{ field: 'type', operator: 'eq', value: 'group' }]],
    ['type in, not a list', [{ field: 'type', operator: 'in', value: 'dm' }]],
    ['channel ids that are not strings', [{ field: 'id', operator: 'in', value: ['C1', 2] }]],
    ['user ids that are not a list', [{ field: 'member_ids', operator: 'in', value: 'U1' }]],
    // empty in-lists (they match nothing; the form's empty part matches everything)
    ['an empty type list', [{ field: 'type', operator: 'in', value: [] }]],
    ['an empty channel list', [{ field: 'id', operator: 'in', value: [] }]],
    ['an empty user list', [{ field: 'member_ids', operator: 'in', value: [] }]],
    // one field twice
    ['two type rules', [TYPE_DM, { field: 'type', operator: 'in', value: ['channel'] }]],
    ['type in and type eq', [TYPE_DM, { field: 'type', operator: 'eq', value: 'dm' }]],
    ['unread and read', [UNREAD, READ]],
    ['the same unread rule twice', [UNREAD, UNREAD]],
    [
      'two channel rules',
      [
        { field: 'id', operator: 'in', value: ['C1'] },
        { field: 'id', operator: 'in', value: ['C2'] },
      ],
    ],
    // OR of several rules: the form can only say AND
    ['OR of two rules', [TYPE_DM, UNREAD], 'or'],
    ['OR of four rules', formToRules({ messageTypes: ['dm'], readStatus: 'read', channels: ['C1'], users: ['U1'] }), 'or'],
  ])('null for %s', (_name, rules, combinator) => {
    expect(rulesToForm(rules, combinator)).toBeNull();
  });
});

/* ---------- properties ---------- */

const CHANNEL_IDS = ['C1', 'C2', 'C3', 'D1', 'C1:1700000000.000100'];
const USER_IDS = ['U1', 'U2', 'U3', 'U4', 'U5'];

const readStatus: fc.Arbitrary<ReadStatus> = fc.constantFrom('all', 'unread', 'read');

/** Any form: types a subset in CONVERSATION_TYPES order, ids unique. */
const anyForm: fc.Arbitrary<FocusFilter> = fc.record({
  messageTypes: fc.subarray([...CONVERSATION_TYPES]),
  readStatus,
  channels: fc.uniqueArray(fc.oneof(fc.constantFrom(...CHANNEL_IDS), fc.string({ maxLength: 6 })), { maxLength: 6 }),
  users: fc.uniqueArray(fc.oneof(fc.constantFrom(...USER_IDS), fc.string({ maxLength: 6 })), { maxLength: 6 }),
});

/** A form over the ids the summaries below use, so that its parts match some and not others. */
const smallForm: fc.Arbitrary<FocusFilter> = fc.record({
  messageTypes: fc.subarray([...CONVERSATION_TYPES]),
  readStatus,
  channels: fc.subarray(CHANNEL_IDS),
  users: fc.subarray(USER_IDS),
});

const count = fc.integer({ min: 0, max: 3 });
const summary: fc.Arbitrary<ConversationSummary> = fc
  .record({
    id: fc.constantFrom(...CHANNEL_IDS),
    type: fc.constantFrom(...CONVERSATION_TYPES),
    member_ids: fc.uniqueArray(fc.constantFrom(...USER_IDS), { maxLength: 3 }),
    // The stored and the displayed counts differ on purpose: the displayed one decides.
    unread_count: count,
    unread_count_display: count,
    latest_activity: fc.integer({ min: 0, max: 2_000_000_000 }),
  })
  .map((c) => ({ ...c, name: c.id, is_private: false, last_read: '0', message_count: 1 }));

/** What the form means, said directly (SPEC §2.7). */
function formMeans(f: FocusFilter, c: ConversationSummary): boolean {
  if (f.messageTypes.length > 0 && !f.messageTypes.includes(c.type)) return false;
  if (f.readStatus === 'unread' && !(c.unread_count_display > 0)) return false;
  if (f.readStatus === 'read' && c.unread_count_display !== 0) return false;
  if (f.channels.length > 0 && !f.channels.includes(c.id)) return false;
  if (f.users.length > 0 && !c.member_ids.some((m) => f.users.includes(m))) return false;
  return true;
}

describe('properties', () => {
  it('rulesToForm(formToRules(form)) gives the form back', () => {
    fc.assert(
      fc.property(anyForm, (f) => {
        expect(rulesToForm(formToRules(f))).toEqual(f);
      }),
      { numRuns: 1_000 },
    );
  });

  it('under OR, a form of one part round-trips and a form of more parts cannot be said', () => {
    fc.assert(
      fc.property(anyForm, (f) => {
        const rules = formToRules(f);
        if (rules.length <= 1) expect(rulesToForm(rules, 'or')).toEqual(f);
        else expect(rulesToForm(rules, 'or')).toBeNull();
      }),
    );
  });

  it('the compiled rules of a form select exactly what the form means', () => {
    fc.assert(
      fc.property(smallForm, fc.array(summary, { minLength: 1, maxLength: 12 }), (f, conversations) => {
        const rules = formToRules(f);
        const predicate = compileFilter<ConversationSummary>({ rules }, () => {
          throw new Error('formToRules made an unknown operator');
        });
        for (const c of conversations) {
          const expected = formMeans(f, c);
          expect(predicate(c)).toBe(expected);
          expect(matchesFilter(c, { rules })).toBe(expected);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
