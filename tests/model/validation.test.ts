import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_LENGTH } from '../../src/model/constants';
import { isConversationId, parseThreadId, threadId, validateOutgoingMessage, type OutgoingMessage } from '../../src/model/validation';

const EMPTY = 'Message text cannot be empty';
const TOO_LONG = `Message is too long (maximum is ${MAX_MESSAGE_LENGTH} characters)`;
const NEEDS_TS = 'A thread reply requires thread_ts';
const BAD_TS = 'thread_ts is not a valid timestamp';
const NO_CHANNEL = 'channel is required';

describe('validateOutgoingMessage', () => {
  it('the length cap is the SPEC 40000', () => {
    expect(MAX_MESSAGE_LENGTH).toBe(40_000);
  });

  it.each<[string, OutgoingMessage, string[]]>([
    ['a plain message', { channel: 'C1', text: 'hello' }, []],
    ['empty text', { channel: 'C1', text: '' }, [EMPTY]],
    ['whitespace text', { channel: 'C1', text: ' \n\t ' }, [EMPTY]],
    ['missing text', { channel: 'C1' }, [EMPTY]],
    ['text not a string', { channel: 'C1', text: 42 }, [EMPTY]],
    ['exactly 40000 characters', { channel: 'C1', text: 'x'.repeat(40_000) }, []],
    ['40001 characters', { channel: 'C1', text: 'x'.repeat(40_001) }, [TOO_LONG]],
    ['missing channel', { text: 'hi' }, [NO_CHANNEL]],
    ['blank channel', { channel: '  ', text: 'hi' }, [NO_CHANNEL]],
    ['a reply with its thread ts', { channel: 'C1', text: 'hi', thread_ts: '1700000000.000100' }, []],
    ['a thread conversation with thread_ts', { channel: 'C1:1700000000.000100', text: 'hi', thread_ts: '1700000000.000100' }, []],
    ['a thread conversation without thread_ts', { channel: 'C1:1700000000.000100', text: 'hi' }, [NEEDS_TS]],
    ['a thread conversation with null thread_ts', { channel: 'C1:1700000000.000100', text: 'hi', thread_ts: null }, [NEEDS_TS]],
    ['a bad thread_ts', { channel: 'C1', text: 'hi', thread_ts: 'yesterday' }, [BAD_TS]],
    ['a numeric thread_ts', { channel: 'C1', text: 'hi', thread_ts: 1700000000.0001 }, [BAD_TS]],
    ['an empty thread_ts', { channel: 'C1', text: 'hi', thread_ts: '' }, [BAD_TS]],
    ['too many micro digits', { channel: 'C1', text: 'hi', thread_ts: '1700000000.0001000' }, [BAD_TS]],
    ['everything wrong', { text: '   ', thread_ts: 'x' }, [NO_CHANNEL, EMPTY, BAD_TS]],
  ])('%s', (_name, message, errors) => {
    expect(validateOutgoingMessage(message)).toEqual(errors);
  });

  it('property: any non-blank text up to the cap passes, anything longer fails', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 50 }).filter((s) => s.trim() !== ''),
        fc.integer({ min: 0, max: 60_000 }),
        (word, pad) => {
          const text = word + 'a'.repeat(pad);
          const errors = validateOutgoingMessage({ channel: 'C1', text });
          expect(errors).toEqual(text.length > MAX_MESSAGE_LENGTH ? [TOO_LONG] : []);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('thread ids', () => {
  it.each<[string, { parentId: string; threadTs: string } | null]>([
    ['C1:1700000000.000100', { parentId: 'C1', threadTs: '1700000000.000100' }],
    ['C1:1700000000', { parentId: 'C1', threadTs: '1700000000' }],
    ['team:C1:1700000000.000100', { parentId: 'team:C1', threadTs: '1700000000.000100' }],
    ['C1', null],
    ['', null],
    [':1700000000.000100', null],
    ['C1:', null],
    ['C1:notats', null],
    ['C1:1700000000.000100:', null],
  ])('parseThreadId(%j)', (id, parsed) => {
    expect(parseThreadId(id)).toEqual(parsed);
  });

  it('threadId joins with a colon', () => {
    expect(threadId('C1', '1700000000.000100')).toBe('C1:1700000000.000100');
  });

  it('property: parseThreadId(threadId(parent, ts)) gives them back', () => {
    const ts = fc
      .tuple(fc.integer({ min: 0, max: 999_999_999_999 }), fc.option(fc.integer({ min: 0, max: 999_999 }), { nil: undefined }))
      .map(([s, m]) => (m === undefined ? String(s) : `${s}.${String(m).padStart(6, '0')}`));
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }), ts, (parentId, threadTs) => {
        expect(parseThreadId(threadId(parentId, threadTs))).toEqual({ parentId, threadTs });
      }),
    );
  });
});

describe('isConversationId (an id from a link, issue 12)', () => {
  it.each([
    ['C024BE91L', true],
    ['D_ALICE', true],
    ['G-1', true],
    ['C1:1700000000.000100', true],
    ['', false],
    ['C1"]', false],
    ['../../api/auth/logout', false],
    ['C1 C2', false],
    ['C'.repeat(65), false],
    ['C1:yesterday', false],
    [':1700000000.000100', false],
    [42, false],
    [null, false],
  ])('%j → %s', (value, expected) => {
    expect(isConversationId(value)).toBe(expected);
  });

  it('never accepts a quote, bracket, space or slash, and never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        if (isConversationId(value)) expect(value).not.toMatch(/["'[\]\s/\\<>]/);
      }),
      { numRuns: 500 },
    );
  });
});
