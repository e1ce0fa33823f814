import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TEXT_LIMIT } from '../../src/model/constants';
import type { MrkdwnNames } from '../../src/model/mrkdwn';
import { NOTIFICATION_EMPTY_BODY, notificationBody, notificationTitle } from '../../src/model/notification';

const names: MrkdwnNames = {
  user: (id) => (({ U1: 'Ada Lovelace', U2: 'bob' }) as Record<string, string | undefined>)[id],
  channel: (id) => (({ C1: 'general' }) as Record<string, string | undefined>)[id],
};

describe('notificationBody (SPEC §5)', () => {
  it.each([
    // code blocks
    ['```const x = 1;```', '[code block]'],
    ['look:\n```\nconst x = *1*;\n```\nthanks', 'look: [code block] thanks'],
    ['a```x```b', 'a [code block] b'],
    // emphasis stripped, inline code keeps its text
    ['*bold* _italic_ ~strike~', 'bold italic strike'],
    ['*nested _both_*', 'nested both'],
    ['run `npm test` now', 'run npm test now'],
    // markers that are not emphasis stay
    ['snake_case and 2*3', 'snake_case and 2*3'],
    // user mentions: lookup, else the label, else @user
    ['hi <@U1>', 'hi @Ada Lovelace'],
    ['<@U2|robert> ok', '@bob ok'],
    ['<@U9|carol>', '@carol'],
    ['ping <@U9>', 'ping @user'],
    // channel mentions: lookup, else label, else #channel
    ['see <#C1>', 'see #general'],
    ['see <#C7|random>', 'see #random'],
    ['see <#C7>', 'see #channel'],
    // broadcasts and user groups stay mentions
    ['<!here> deploy', '@here deploy'],
    ['<!subteam^S1|@oncall> help', '@oncall help'],
    // tags removed: a link keeps its label, a bare link goes whole
    ['read <https://x.example/doc|the doc> please', 'read the doc please'],
    ['read <https://x.example/doc> please', 'read please'],
    ['<javascript:alert(1)|click>', 'click'],
    ['on <!date^1392734382^{date_short}|Feb 18, 2014>', 'on Feb 18, 2014'],
    // entities decoded once
    ['a &lt; b &amp;&amp; c &gt; d', 'a < b && c > d'],
    ['&amp;lt;', '&lt;'],
    // quotes, newlines and whitespace folded
    ['&gt; quoted\nreply', 'quoted reply'],
    ['  lots   of\n\n\tspace  ', 'lots of space'],
    // emoji
    ['ship it :rocket: :partyparrot:', 'ship it 🚀 :partyparrot:'],
    // empty results
    ['', NOTIFICATION_EMPTY_BODY],
    ['   \n ', NOTIFICATION_EMPTY_BODY],
    ['<https://x.example>', NOTIFICATION_EMPTY_BODY],
    ['**', '**'],
  ])('notificationBody(%j) is %j', (input, expected) => {
    expect(notificationBody(input, names)).toBe(expected);
  });

  it('the empty body is "New message"', () => {
    expect(NOTIFICATION_EMPTY_BODY).toBe('New message');
  });

  it('keeps exactly 100 characters, and cuts 101 to 97 plus "..."', () => {
    expect(NOTIFICATION_TEXT_LIMIT).toBe(100);
    const hundred = 'a'.repeat(100);
    expect(notificationBody(hundred, names)).toBe(hundred);
    const cut = notificationBody('b'.repeat(101), names);
    expect(cut).toBe(`${'b'.repeat(97)}...`);
    expect(cut).toHaveLength(100);
    expect(notificationBody('c'.repeat(99), names)).toBe('c'.repeat(99));
  });

  it('counts the limit after formatting, not on the raw text', () => {
    // 102 raw characters, 98 after the markers go: not cut.
    const text = `*${'x'.repeat(48)}* _${'y'.repeat(49)}_`;
    expect(text).toHaveLength(102);
    expect(notificationBody(text, names)).toBe(`${'x'.repeat(48)} ${'y'.repeat(49)}`);
    expect(notificationBody(`<@U1> ${'z'.repeat(90)}`, names)).toBe(`@Ada Lovelace ${'z'.repeat(83)}...`);
  });

  it('never splits an emoji when cutting', () => {
    const body = notificationBody(`${'a'.repeat(96)}👍👍👍👍👍`, names);
    expect(body).toBe(`${'a'.repeat(96)}👍...`);
  });

  it('never throws, and always gives a non-empty single line of at most 100 characters', () => {
    const markupish = fc.string({
      unit: fc.constantFrom('a', ' ', '\n', '*', '_', '~', '`', '```', '&gt; ', '<', '>', '|', '@U1', '#C1', '!here', 'https://x', '&amp;', ':rocket:', '👍'),
      maxLength: 80,
    });
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 150 }), markupish), (s) => {
        const body = notificationBody(s, names);
        expect(body.length).toBeGreaterThan(0);
        expect(Array.from(body).length).toBeLessThanOrEqual(NOTIFICATION_TEXT_LIMIT);
        expect(body).not.toMatch(/\n|\s\s|^\s|\s$/);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    // a right-to-left override would make 'gpj.exe' read 'exe.jpg'
    ['your photo \u202Egpj.exe', 'your photo gpj.exe'],
    ['<@U9|\u2066ev\u202Ail\u2069> sent a file', '@evil sent a file'],
    ['bell\u0007 esc\u001B[31m nel\u0085 csi\u009B lrm\u200E alm\u061C', 'bell esc[31m nel csi lrm alm'],
    // a link whose label names another address shows the real host, as the message view does
    ['sign in at <https://evil.example/login|accounts.example.com>', 'sign in at accounts.example.com (evil.example)'],
    ['<https://xn--80ak6aa92e.com/|\u0430\u0440\u0440\u04CF\u0435.com>', '\u0430\u0440\u0440\u04CF\u0435.com (xn--80ak6aa92e.com)'],
  ])('a hostile body %j reads %j', (input, expected) => {
    expect(notificationBody(input, names)).toBe(expected);
  });

  it('never leaves a bidi or control character in a body', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (s) => {
        // eslint-disable-next-line no-control-regex -- a body keeps no C0/C1 control, not even a newline
        expect(notificationBody(s, names)).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
      }),
    );
  });
});

describe('notificationTitle', () => {
  it.each([
    ['Dana Scully', 'Dana Scully', 'Dana Scully in Dana Scully'],
    ['ev\u202Eil', 'Dana\u2066, Bob\u2069', 'evil in Dana, Bob'],
    ['Mallory\n\u0000', '#general\u200F\t x', 'Mallory in #general x'],
  ])('%j in %j reads %j', (author, conversation, expected) => {
    expect(notificationTitle(author, conversation)).toBe(expected);
  });
});
