import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AVATAR_COLOUR_PAIRS, MEMBER_AVATARS_SHOWN, PREVIEW_LENGTH, PREVIEW_LENGTH_DETAIL_OPEN } from '../../src/model/constants';
import { avatarOf, conversationTitle, displayName, toRow } from '../../src/model/rows';
import type { ConversationSummary, UserData } from '../../src/model/types';

const ME = 'U0';

function user(id: string, real_name: string, extra: Partial<UserData> = {}): UserData {
  return { id, name: real_name.toLowerCase().split(' ')[0]!, real_name, display_name: '', ...extra };
}

/** The face a row shows for a member: initials and colour only (names come on hover). */
const faceOf = (id: string) => {
  const { initials, colour, image } = avatarOf(users.get(id), id);
  return image ? { initials, colour, image } : { initials, colour };
};

const users = new Map<string, UserData>([
  [ME, user(ME, 'Me Myself')],
  ['U1', user('U1', 'Ada Lovelace', { avatar: '/avatars/ada.png' })],
  ['U2', user('U2', 'Bob Smith')],
  ['U3', user('U3', 'Carol Jones')],
  ['U4', user('U4', 'Dan Brown')],
  ['U5', user('U5', 'Eve Adams')],
  ['U6', { id: 'U6', name: 'frank', real_name: '', display_name: 'Frankie' }],
]);

function conv(over: Partial<ConversationSummary> = {}): ConversationSummary {
  return {
    id: 'C1',
    name: 'general',
    type: 'channel',
    is_private: false,
    member_ids: [ME, 'U1', 'U2'],
    unread_count: 2,
    unread_count_display: 2,
    last_read: '1700000000.000000',
    message_count: 10,
    latest_activity: 1_700_000_100,
    latest_message: { ts: '1700000100.000000', user: 'U1', text: 'Ship it today' },
    ...over,
  };
}

describe('toRow: title', () => {
  it.each<[string, Partial<ConversationSummary>, string]>([
    ['a dm shows the other person’s real name', { type: 'dm', name: 'D-raw', dm_user: 'U2', member_ids: [ME, 'U2'] }, 'Bob Smith'],
    ['a dm falls back to display name, then name', { type: 'dm', name: 'D-raw', dm_user: 'U6', member_ids: [ME, 'U6'] }, 'Frankie'],
    ['a dm with an unknown person keeps its name', { type: 'dm', name: 'D-raw', dm_user: 'U99', member_ids: [ME, 'U99'] }, 'D-raw'],
    ['a channel keeps its name', { type: 'channel', name: 'general' }, 'general'],
    ['a thread keeps its name', { type: 'thread', id: 'C1:1700000000.000100', name: 'Release notes for…' }, 'Release notes for…'],
  ])('%s', (_label, over, title) => {
    const c = conv(over);
    expect(toRow(c, users, ME, PREVIEW_LENGTH).name).toBe(title);
    expect(conversationTitle(c, users)).toBe(title);
  });
});

describe('toRow: avatars and +N', () => {
  it.each<[string[], string[], number]>([
    // member ids, avatar ids, more
    [[ME], [], 0],
    [[ME, 'U1'], ['U1'], 0],
    [['U1', ME, 'U2', 'U3'], ['U1', 'U2', 'U3'], 0],
    [[ME, 'U1', 'U2', 'U3', 'U4'], ['U1', 'U2', 'U3'], 1],
    [['U1', 'U2', 'U3', 'U4', 'U5', 'U6', ME], ['U1', 'U2', 'U3'], 3],
    [['U1', 'U2', 'U3', 'U4'], ['U1', 'U2', 'U3'], 1],
    [[], [], 0],
  ])('members %j show %j and +%i', (member_ids, shown, more) => {
    const row = toRow(conv({ member_ids }), users, ME, PREVIEW_LENGTH);
    expect(row.avatars).toEqual(shown.map(faceOf));
    expect(row.more).toBe(more);
  });

  it('property: at most 3 avatars, never me, and avatars + more = the other members', () => {
    expect(MEMBER_AVATARS_SHOWN).toBe(3);
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(ME, 'U1', 'U2', 'U3', 'U4', 'U5', 'U6', 'U7', 'U8')), (member_ids) => {
        const row = toRow(conv({ member_ids }), users, ME, PREVIEW_LENGTH);
        const others = member_ids.filter((id) => id !== ME);
        expect(row.avatars.length).toBeLessThanOrEqual(3);
        expect(row.avatars).toEqual(others.slice(0, 3).map(faceOf));
        expect(row.more).toBe(Math.max(0, others.length - 3));
      }),
    );
  });

  it('a row avatar carries only initials, a colour in range and the picture when there is one (names come on hover)', () => {
    const [ada, bob] = toRow(conv(), users, ME, PREVIEW_LENGTH).avatars;
    expect(ada).toEqual({ initials: 'AL', colour: expect.any(Number), image: '/avatars/ada.png' });
    expect(bob).toEqual({ initials: 'BS', colour: expect.any(Number) });
    expect(bob!.image).toBeUndefined();
    for (const a of [ada!, bob!]) {
      expect(a.colour).toBeGreaterThanOrEqual(0);
      expect(a.colour).toBeLessThan(AVATAR_COLOUR_PAIRS);
    }
    expect(avatarOf(undefined, 'U42')).toMatchObject({ id: 'U42', name: 'U42', initials: 'U' });
  });

  it('displayName prefers real name, then display name, then name, then the fallback', () => {
    expect(displayName({ id: 'a', name: 'n', real_name: 'R', display_name: 'D' }, 'f')).toBe('R');
    expect(displayName({ id: 'a', name: 'n', real_name: '', display_name: 'D' }, 'f')).toBe('D');
    expect(displayName({ id: 'a', name: 'n', real_name: '', display_name: '' }, 'f')).toBe('n');
    expect(displayName({ id: 'a', name: '', real_name: '', display_name: '' }, 'f')).toBe('f');
    expect(displayName(undefined, 'f')).toBe('f');
  });
});

describe('toRow: preview', () => {
  it.each<[string, Partial<ConversationSummary>, string]>([
    ['a channel prefixes the author’s first name', {}, 'Ada: Ship it today'],
    ['my own message reads You', { latest_message: { ts: '1.0', user: ME, text: 'On it' } }, 'You: On it'],
    ['a thread prefixes the author too', { type: 'thread', latest_message: { ts: '1.0', user: 'U2', text: 'done' } }, 'Bob: done'],
    ['a private channel prefixes', { is_private: true, latest_message: { ts: '1.0', user: 'U3', text: 'x' } }, 'Carol: x'],
    ['an unknown author shows the id', { latest_message: { ts: '1.0', user: 'U99', text: 'x' } }, 'U99: x'],
    ['a dm has no prefix', { type: 'dm', dm_user: 'U1', latest_message: { ts: '1.0', user: 'U1', text: 'hey' } }, 'hey'],
    ['a dm has no prefix for me either', { type: 'dm', dm_user: 'U1', latest_message: { ts: '1.0', user: ME, text: 'hey' } }, 'hey'],
    ['no author, no prefix', { latest_message: { ts: '1.0', text: 'bot says' } }, 'bot says'],
    ['no latest message, empty preview', { latest_message: undefined }, ''],
    [
      'markup becomes plain text',
      { latest_message: { ts: '1.0', user: 'U1', text: 'cc <@U2> in <#C9|ops> &amp; <https://x.y|docs>' } },
      'Ada: cc @Bob Smith in #ops & docs',
    ],
    ['whitespace folds to one line', { latest_message: { ts: '1.0', user: 'U1', text: 'one\n\ntwo   three' } }, 'Ada: one two three'],
  ])('%s', (_label, over, preview) => {
    expect(toRow(conv(over), users, ME, PREVIEW_LENGTH).preview).toBe(preview);
  });

  it.each([PREVIEW_LENGTH, PREVIEW_LENGTH_DETAIL_OPEN, 10])('is cut, prefix included, to %i characters', (limit) => {
    const text = 'word '.repeat(60);
    const row = toRow(conv({ latest_message: { ts: '1.0', user: 'U1', text } }), users, ME, limit);
    expect(row.preview.length).toBeLessThanOrEqual(limit);
    expect(row.preview.length).toBeGreaterThan(limit - 6);
    expect(row.preview.startsWith('Ada: word')).toBe(true);
    expect(row.preview.endsWith('…')).toBe(true);
  });

  it('a preview that fits is not cut; one character over is', () => {
    expect('Ada: Ship it today').toHaveLength(18);
    expect(toRow(conv(), users, ME, 18).preview).toBe('Ada: Ship it today');
    expect(toRow(conv(), users, ME, 17).preview).toBe('Ada: Ship it tod…');
  });
});

describe('toRow: the other fields', () => {
  it('copies id, type, privacy, activity, category and reason, and counts the displayed unread', () => {
    const row = toRow(
      conv({ is_private: true, unread_count: 9, unread_count_display: 4, ai_category: 'can_wait', ai_reason: 'Asks for review by Friday' }),
      users,
      ME,
      PREVIEW_LENGTH,
    );
    expect(row).toMatchObject({
      id: 'C1',
      type: 'channel',
      is_private: true,
      unread: 4,
      latest_activity: 1_700_000_100,
      category: 'can_wait',
      reason: 'Asks for review by Friday',
    });
  });

  it('leaves category and reason out when there are none', () => {
    const row = toRow(conv(), users, ME, PREVIEW_LENGTH);
    expect('category' in row).toBe(false);
    expect('reason' in row).toBe(false);
  });

  it.each(['urgent', 'can_wait', 'fyi'] as const)('copies category %s', (category) => {
    expect(toRow(conv({ ai_category: category }), users, ME, PREVIEW_LENGTH).category).toBe(category);
  });
});

describe('thread titles', () => {
  it.each([
    [':package: New release v3.14.6 of ledger published', '📦 New release v3.14.6 of ledger published'],
    ['*Deploy* of <@U1> is done', 'Deploy of @Ada Lovelace is done'],
    ['x'.repeat(80), `${'x'.repeat(49)}…`],
  ])('a thread reads its parent %j as %j', (text, title) => {
    const thread = conv({ type: 'thread', name: 'raw name', parent_conversation_id: 'C1', parent_message: { ts: '1.000001', text } });
    expect(conversationTitle(thread, users)).toBe(title);
    expect(toRow(thread, users, ME, PREVIEW_LENGTH).name).toBe(title);
  });
});
