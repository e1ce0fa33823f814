import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AVATAR_COLOUR_PAIRS } from '../../src/model/constants';
import { colourIndex, cutText, initialsOf, plainText, type NameLookup } from '../../src/model/text';

const names: NameLookup = {
  user: (id) => (({ U1: 'Ada Lovelace', U2: 'bob' }) as Record<string, string | undefined>)[id],
};

describe('plainText', () => {
  it.each([
    // mentions
    ['hi <@U1>', 'hi @Ada Lovelace'],
    ['<@U1|bob>', '@bob'],
    ['<@U9>', '@U9'],
    ['<@U1> and <@U2>', '@Ada Lovelace and @bob'],
    ['<#C1|general>', '#general'],
    ['<#C1>', '#C1'],
    // links
    ['see <https://x.y|label>', 'see label'],
    ['<https://x.y>', 'https://x.y'],
    ['<mailto:a@b.c|mail me>', 'mail me'],
    // special mentions
    ['<!here>', '@here'],
    ['<!channel> ping', '@channel ping'],
    ['<!everyone>', '@everyone'],
    // entities
    ['a &lt; b &gt; c &amp; d', 'a < b > c & d'],
    ['&amp;lt;', '&lt;'],
    ['&quot;kept&quot;', '&quot;kept&quot;'],
    // the rest is kept as typed
    ['*bold* _it_ :tada:', '*bold* _it_ :tada:'],
    ['', ''],
    ['no markup', 'no markup'],
  ])('plainText(%j) is %j', (input, expected) => {
    expect(plainText(input, names)).toBe(expected);
  });

  const slackNames: NameLookup = {
    ...names,
    channel: (id) => (({ C7: 'incident-review' }) as Record<string, string | undefined>)[id],
    usergroup: (id) => (({ S5: 'oncall-payments' }) as Record<string, string | undefined>)[id],
  };
  it.each([
    // channel mentions Slack sends without a label are named by the lookup; a label wins
    ['<#C7>', '#incident-review'],
    ['<#C7|>', '#incident-review'],
    ['<#C7|old-name>', '#old-name'],
    ['<#C8|>', '#C8'],
    // user groups: the label, else the lookup's handle, else 'subteam'
    ['<!subteam^S5>', '@oncall-payments'],
    ['<!subteam^S5|@sre>', '@sre'],
    ['<!subteam^S9>', '@subteam'],
    ['<@U1|>', '@Ada Lovelace'],
  ])('with channel and user group names, plainText(%j) is %j', (input, expected) => {
    expect(plainText(input, slackNames)).toBe(expected);
  });

  it.each([
    // hostile inputs stay text: a link's label, never its target, and never markup
    ['<javascript:alert(1)|x>', 'x'],
    ['&lt;img src=x onerror=alert(1)&gt;', '<img src=x onerror=alert(1)>'],
    ['&lt;script&gt;alert(1)&lt;/script&gt;', '<script>alert(1)</script>'],
    ['<@U1|&lt;b&gt;x>', '@<b>x'],
    ['<https://evil.example|&lt;a href=x&gt;click&lt;/a&gt;>', '<a href=x>click</a>'],
  ])('hostile %j becomes the plain string %j', (input, expected) => {
    const out = plainText(input, names);
    expect(out).toBe(expected);
    expect(typeof out).toBe('string');
  });

  // Slack sends user-group mentions with the handle's own '@' in the label, and dates with a
  // fallback text: `<!subteam^ID|@handle>`, `<!date^epoch^{token}|fallback>`.
  // FAILS today: src/model/text.ts adds '@' before any `<!…|label>` (gives '@@imps', '@Feb 18, 2014').
  it.each([
    ['FYI <!subteam^S0TR1SJKX|@imps> test', 'FYI @imps test'],
    ['<!date^1392734382^{date_short}|Feb 18, 2014>', 'Feb 18, 2014'],
  ])('special markup with its own label: plainText(%j) is %j', (input, expected) => {
    expect(plainText(input, names)).toBe(expected);
  });

  it('property: never throws and always returns a string', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', '>', '|', '@', '#', '!', '&', 'l', 't', 'g', ';', 'a', 'm', 'p', 'U', '1', ' ') }), (s) => {
        expect(typeof plainText(s, names)).toBe('string');
      }),
    );
  });

  it('property: text without markup characters is unchanged', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/[<>&]/.test(s)),
        (s) => {
          expect(plainText(s, names)).toBe(s);
        },
      ),
    );
  });
});

describe('cutText', () => {
  it.each([
    ['short', 10, 'short'],
    ['exactly10!', 10, 'exactly10!'],
    ['eleven chars', 11, 'eleven chars'.slice(0, 10) + '…'],
    ['hello world again', 8, 'hello w…'],
    // a cut that ends on a space drops the space before the ellipsis
    ['hello world', 7, 'hello…'],
    // whitespace folds to single spaces on one line
    ['  a\n\nb\t\tc  ', 10, 'a b c'],
    ['line one\nline two', 100, 'line one line two'],
    ['', 5, ''],
    ['   ', 5, ''],
    ['abc', 1, '…'],
  ])('cutText(%j, %i) is %j', (text, limit, expected) => {
    expect(cutText(text, limit)).toBe(expected);
  });

  it('property: one line, never longer than the limit, ellipsis only when cut', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 150 }), (text, limit) => {
        const out = cutText(text, limit);
        const folded = text.replace(/\s+/g, ' ').trim();
        expect(out.length).toBeLessThanOrEqual(limit);
        expect(out).not.toMatch(/[\n\r\t]|\s{2}/);
        if (folded.length <= limit) expect(out).toBe(folded);
        else {
          expect(out.endsWith('…')).toBe(true);
          expect(folded.startsWith(out.slice(0, -1))).toBe(true);
        }
      }),
    );
  });
});

describe('initialsOf', () => {
  it.each([
    ['Ada Lovelace', 'AL'],
    ['ada lovelace', 'AL'],
    ['Grace Brewster Murray Hopper', 'GH'],
    ['Cher', 'C'],
    ['  bob   smith  ', 'BS'],
    ['', '?'],
    ['   ', '?'],
  ])('initialsOf(%j) is %j', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });

  // FAILS today: charAt(0) takes half of a surrogate pair, leaving an ill-formed string.
  it.each([
    ['😀 Smile', '😀S'],
    ['Ada 🦊', 'A🦊'],
  ])('initialsOf(%j) keeps whole characters: %j', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });

  it('property: never leaves a lone surrogate (FAILS today, as above)', () => {
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }), { maxLength: 4 }), (words) => {
        expect(initialsOf(words.join(' '))).not.toMatch(loneSurrogate);
      }),
    );
  });
});

describe('colourIndex', () => {
  it('is stable for one id and spreads over ids', () => {
    expect(colourIndex('U123', AVATAR_COLOUR_PAIRS)).toBe(colourIndex('U123', AVATAR_COLOUR_PAIRS));
    const seen = new Set(Array.from({ length: 200 }, (_, i) => colourIndex(`U${i}`, AVATAR_COLOUR_PAIRS)));
    expect(seen.size).toBeGreaterThan(10);
  });

  it('property: an integer in [0, pairs)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 50 }), fc.integer({ min: 1, max: 100 }), (id, pairs) => {
        const i = colourIndex(id, pairs);
        expect(Number.isInteger(i)).toBe(true);
        expect(i).toBeGreaterThanOrEqual(0);
        expect(i).toBeLessThan(pairs);
      }),
    );
  });

  it('stays in range where the hash overflows to the most negative 32-bit integer', () => {
    // Each of these hashes (h * 31 + c, 32-bit) to exactly -2^31, where a 32-bit abs() stays negative.
    for (const id of ['polygenelubricants', 'GydZG_', 'DESIGNING WORKHOUSES']) {
      const i = colourIndex(id, AVATAR_COLOUR_PAIRS);
      expect(i).toBeGreaterThanOrEqual(0);
      expect(i).toBeLessThan(AVATAR_COLOUR_PAIRS);
    }
  });
});
