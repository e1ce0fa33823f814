import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { THREAD_TITLE_LENGTH } from '../../src/model/constants';
import { emojiChar } from '../../src/model/emoji';
import { decodeEntities, isSafeUrl, stripBidi, threadTitle, tokenize, tokensToPlain, type MrkdwnNames, type Token } from '../../src/model/mrkdwn';

const names: MrkdwnNames = {
  user: (id) => (({ U1: 'Ada Lovelace', U2: 'bob' }) as Record<string, string | undefined>)[id],
  channel: (id) => (({ C1: 'general' }) as Record<string, string | undefined>)[id],
  timeZone: 'UTC',
};
const noNames: MrkdwnNames = { user: () => undefined };

const text = (t: string): Token => ({ kind: 'text', text: t });
const nl: Token = { kind: 'newline' };

describe('tokenize: tags', () => {
  it.each<[string, Token[]]>([
    // user mentions: lookup, else label, else id
    ['<@U1>', [{ kind: 'user', id: 'U1', name: 'Ada Lovelace' }]],
    ['<@U1|someone>', [{ kind: 'user', id: 'U1', name: 'Ada Lovelace' }]],
    ['<@U9|carol>', [{ kind: 'user', id: 'U9', name: 'carol' }]],
    ['<@U9>', [{ kind: 'user', id: 'U9', name: 'U9' }]],
    ['hi <@U2>!', [text('hi '), { kind: 'user', id: 'U2', name: 'bob' }, text('!')]],
    // channels: lookup, else label, else id
    ['<#C1>', [{ kind: 'channel', id: 'C1', name: 'general' }]],
    ['<#C7|random>', [{ kind: 'channel', id: 'C7', name: 'random' }]],
    ['<#C7>', [{ kind: 'channel', id: 'C7', name: 'C7' }]],
    ['<#C1|>', [{ kind: 'channel', id: 'C1', name: 'general' }]],
    ['<#C7|>', [{ kind: 'channel', id: 'C7', name: 'C7' }]],
    // broadcasts
    ['<!here>', [{ kind: 'broadcast', name: 'here' }]],
    ['<!channel>', [{ kind: 'broadcast', name: 'channel' }]],
    ['<!everyone>', [{ kind: 'broadcast', name: 'everyone' }]],
    ['<!here|@here>', [{ kind: 'broadcast', name: 'here' }]],
    ['<!subteam^S1|@team>', [{ kind: 'broadcast', name: 'team' }]],
    ['<!subteam^S1>', [{ kind: 'broadcast', name: 'S1' }]],
    // dates are formatted (here in UTC, see 'tokenize: dates'); a broken one shows its fallback
    ['on <!date^1392734382^{date_short}|a day>', [text('on Feb 18, 2014')]],
    ['<!date^x^{date_short}|a day>', [text('a day')]],
    ['<!date^1392734382^{date_short}>', [text('Feb 18, 2014')]],
    ['<!date^x^{date_short}>', []],
    // links
    ['<https://x.example/a?b=1|label>', [{ kind: 'link', url: 'https://x.example/a?b=1', label: 'label' }]],
    ['<https://x.example>', [{ kind: 'link', url: 'https://x.example', label: 'https://x.example' }]],
    ['<http://x.example|x>', [{ kind: 'link', url: 'http://x.example', label: 'x' }]],
    ['<HTTPS://X.EXAMPLE|x>', [{ kind: 'link', url: 'HTTPS://X.EXAMPLE', label: 'x' }]],
    ['<mailto:a@b.c|a@b.c>', [{ kind: 'link', url: 'mailto:a@b.c', label: 'a@b.c' }]],
    ['<https://x.example/?a=1&amp;b=2>', [{ kind: 'link', url: 'https://x.example/?a=1&b=2', label: 'https://x.example/?a=1&b=2' }]],
    ['<https://x.example|a &lt;b&gt;>', [{ kind: 'link', url: 'https://x.example', label: 'a <b>' }]],
    ['<https://x.example|a|b>', [{ kind: 'link', url: 'https://x.example', label: 'a|b' }]],
    // not tags
    ['a < b > c', [text('a < b > c')]],
    ['<>', [text('<>')]],
    ['<img src=x onerror=alert(1)>', [text('<img src=x onerror=alert(1)>')]],
    ['<@U1|<img src=x onerror=alert(1)>>', [text('<@U1|<img src=x onerror=alert(1)>>')]],
    ['<a <https://x.example|y>', [text('<a '), { kind: 'link', url: 'https://x.example', label: 'y' }]],
  ])('tokenize(%j)', (input, expected) => {
    expect(tokenize(input, names)).toEqual(expected);
  });

  it.each<[string, string]>([
    ['<javascript:alert(1)|x>', 'x'],
    ['<javascript:alert(1)>', 'javascript:alert(1)'],
    ['<JavaScript:alert(1)|x>', 'x'],
    ['<data:text/html,<script>|click>', 'data:text/html,'],
    ['<data:text/html;base64,PHNjcmlwdD4=|click>', 'click'],
    ['<vbscript:msgbox(1)|x>', 'x'],
    ['<file:///etc/passwd|notes>', 'notes'],
    ['< https://x.example|x>', 'x'],
    ['<https:x.example|x>', 'x'],
    ['<https://x.example/\u202Egpj.exe|x>', 'x'],
  ])('unsafe link %j is only text %j', (input, plain) => {
    const tokens = tokenize(input, names);
    expect(tokens.some((t) => t.kind === 'link')).toBe(false);
    expect(tokensToPlain(tokens)).toContain(plain);
  });

  it('strips bidi overrides and isolates from link labels and mention names', () => {
    const rlo = '\u202E';
    expect(tokenize(`<https://x.example|${rlo}exe.txt>`, names)).toEqual([{ kind: 'link', url: 'https://x.example', label: 'exe.txt' }]);
    expect(tokenize(`<@U9|\u2066ev\u202Ail\u2069>`, names)).toEqual([{ kind: 'user', id: 'U9', name: 'evil' }]);
    expect(tokenize(`<#C9|a\u202Db>`, names)).toEqual([{ kind: 'channel', id: 'C9', name: 'ab' }]);
    expect(tokenize(`<https://x.example|\u202E>`, names)).toEqual([{ kind: 'link', url: 'https://x.example', label: 'https://x.example' }]);
    expect(stripBidi('a\u202Ab\u202Bc\u202Cd\u202De\u202Ef\u2066g\u2067h\u2068i\u2069j\u200Fk\u0000l\u009Bm')).toBe('abcdefghijklm');
  });
});

describe('tokenize: emphasis and code', () => {
  it.each<[string, Token[]]>([
    ['*bold*', [{ kind: 'bold', children: [text('bold')] }]],
    ['_it_', [{ kind: 'italic', children: [text('it')] }]],
    ['~gone~', [{ kind: 'strike', children: [text('gone')] }]],
    ['a *b c* d', [text('a '), { kind: 'bold', children: [text('b c')] }, text(' d')]],
    ['*bold _both_*', [{ kind: 'bold', children: [text('bold '), { kind: 'italic', children: [text('both')] }] }]],
    ['_*~all~*_', [{ kind: 'italic', children: [{ kind: 'bold', children: [{ kind: 'strike', children: [text('all')] }] }] }]],
    ['(*x*)', [text('('), { kind: 'bold', children: [text('x')] }, text(')')]],
    ['*<@U1>*', [{ kind: 'bold', children: [{ kind: 'user', id: 'U1', name: 'Ada Lovelace' }] }]],
    // markers inside words, before spaces, or empty are text
    ['snake_case_name', [text('snake_case_name')]],
    ['2*3*4', [text('2*3*4')]],
    ['* not bold *', [text('* not bold *')]],
    ['*not bold *', [text('*not bold *')]],
    ['**', [text('**')]],
    ['*x*y', [text('*x*y')]],
    ['a*b*', [text('a*b*')]],
    // never across lines
    ['*a\nb*', [text('*a'), nl, text('b*')]],
    // a marker inside a tag or code does not close
    ['*a <https://x.example/*|y> b*', [{ kind: 'bold', children: [text('a '), { kind: 'link', url: 'https://x.example/*', label: 'y' }, text(' b')] }]],
    ['_a `b_c` d_', [{ kind: 'italic', children: [text('a '), { kind: 'code', text: 'b_c' }, text(' d')] }]],
    // emoji names with underscores are not italic
    ['_x :white_check_mark: y_', [{ kind: 'italic', children: [text('x '), { kind: 'emoji', code: 'white_check_mark', char: '✅' }, text(' y')] }]],
    // code: verbatim, entities decoded
    ['`*not bold* <@U1>`', [{ kind: 'code', text: '*not bold* <@U1>' }]],
    ['`a &lt; b`', [{ kind: 'code', text: 'a < b' }]],
    ['``', [text('``')]],
    ['`open', [text('`open')]],
    // pre: verbatim across lines, one leading/trailing newline dropped
    ['```\nconst a = *b*;\n<@U1> _x_\n```', [{ kind: 'pre', text: 'const a = *b*;\n<@U1> _x_' }]],
    ['see ```x &amp;&amp; y``` done', [text('see '), { kind: 'pre', text: 'x && y' }, text(' done')]],
    ['```unclosed *b*', [text('```unclosed '), { kind: 'bold', children: [text('b')] }]],
  ])('tokenize(%j)', (input, expected) => {
    expect(tokenize(input, names)).toEqual(expected);
  });
});

describe('tokenize: lines, quotes, entities, emoji', () => {
  it.each<[string, Token[]]>([
    ['a\nb', [text('a'), nl, text('b')]],
    ['a\n\nb', [text('a'), nl, nl, text('b')]],
    ['&gt; quoted', [{ kind: 'quote', children: [text('quoted')] }]],
    ['> quoted', [{ kind: 'quote', children: [text('quoted')] }]],
    ['&gt; one\n&gt; two\nafter', [{ kind: 'quote', children: [text('one'), nl, text('two')] }, nl, text('after')]],
    ['before\n&gt; *q*', [text('before'), nl, { kind: 'quote', children: [{ kind: 'bold', children: [text('q')] }] }]],
    ['&gt;&gt;&gt; all\nof this', [{ kind: 'quote', children: [text('all'), nl, text('of this')] }]],
    ['a &gt; b', [text('a > b')]],
    ['&gt;_&lt;', [text('>_<')]],
    ['a &lt; b &gt; c &amp; d', [text('a < b > c & d')]],
    ['&amp;lt;', [text('&lt;')]],
    ['&quot;kept&quot;', [text('&quot;kept&quot;')]],
    ['&lt;@U1&gt;', [text('<@U1>')]],
    ['&lt;img src=x onerror=alert(1)&gt;', [text('<img src=x onerror=alert(1)>')]],
    [':rocket:', [{ kind: 'emoji', code: 'rocket', char: '🚀' }]],
    ['go :rocket:!', [text('go '), { kind: 'emoji', code: 'rocket', char: '🚀' }, text('!')]],
    [
      ':thinking_face::tada:',
      [
        { kind: 'emoji', code: 'thinking_face', char: '🤔' },
        { kind: 'emoji', code: 'tada', char: '🎉' },
      ],
    ],
    [':+1::skin-tone-2:', [{ kind: 'emoji', code: '+1::skin-tone-2', char: '👍🏻' }]],
    [':heart:', [{ kind: 'emoji', code: 'heart', char: '\u2764\uFE0F' }]],
    [':partyparrot:', [{ kind: 'emoji', code: 'partyparrot', char: null }]],
    [
      ':partyparrot::skin-tone-3:',
      [
        { kind: 'emoji', code: 'partyparrot', char: null },
        { kind: 'emoji', code: 'skin-tone-3', char: '\u{1F3FC}' },
      ],
    ],
    ['at 10:30:45', [text('at 10:30:45')]],
    ['a:rocket:b', [text('a:rocket:b')]],
    ['::', [text('::')]],
    ['', []],
  ])('tokenize(%j)', (input, expected) => {
    expect(tokenize(input, names)).toEqual(expected);
  });

  it('emoji characters come from the package and skin tones attach to the base', () => {
    expect(emojiChar('rocket')).toBe('🚀');
    expect(emojiChar('no_such_emoji_here')).toBeNull();
    expect(emojiChar('man-facepalming', 'skin-tone-4')).toBe('\u{1F926}\u{1F3FD}\u200D\u2642\uFE0F');
  });
});

describe('tokenize: user groups', () => {
  const withGroups: MrkdwnNames = { ...names, usergroup: (id) => (({ S1: 'oncall', S2: 'x\u202Ey' }) as Record<string, string | undefined>)[id] };
  it.each<[string, Token[]]>([
    ['<!subteam^S1>', [{ kind: 'broadcast', name: 'oncall' }]],
    ['<!subteam^S1|@old-handle>', [{ kind: 'broadcast', name: 'oncall' }]],
    ['<!subteam^S9|@design>', [{ kind: 'broadcast', name: 'design' }]],
    ['<!subteam^S9>', [{ kind: 'broadcast', name: 'S9' }]],
    ['<!subteam^S2>', [{ kind: 'broadcast', name: 'xy' }]],
  ])('tokenize(%j)', (input, expected) => {
    expect(tokenize(input, withGroups)).toEqual(expected);
  });

  it('reads as Slack shows them: @here, @channel, @everyone, @handle', () => {
    expect(tokensToPlain(tokenize('<!here> <!channel> <!everyone> <!subteam^S1>', withGroups))).toBe('@here @channel @everyone @oncall');
  });
});

describe('tokenize: dates', () => {
  /** 2014-02-18 14:39:42 UTC, a Tuesday. */
  const TS = 1392734382;
  const at = (timeZone: string, now = Date.UTC(2014, 1, 18, 16, 0, 0)): MrkdwnNames => ({ ...names, timeZone, now });
  const date = (format: string, fallback = 'fallback') => `<!date^${TS}^${format}|${fallback}>`;

  it.each<[string, string, string]>([
    ['{date_num}', 'UTC', '2014-02-18'],
    ['{date_slash}', 'UTC', '18/02/2014'],
    ['{date}', 'UTC', 'February 18th, 2014'],
    ['{date_short}', 'UTC', 'Feb 18, 2014'],
    ['{date_long}', 'UTC', 'Tuesday, February 18th, 2014'],
    ['{date_long_full}', 'UTC', 'February 18, 2014'],
    ['{time}', 'UTC', '2:39 PM'],
    ['{time_secs}', 'UTC', '2:39:42 PM'],
    ['{date_short} at {time}', 'UTC', 'Feb 18, 2014 at 2:39 PM'],
    // the member's zone moves the clock and, past midnight, the day
    ['{time}', 'America/New_York', '9:39 AM'],
    ['{date_short} at {time}', 'Asia/Tokyo', 'Feb 18, 2014 at 11:39 PM'],
    ['{date_short} at {time}', 'Pacific/Kiritimati', 'Feb 19, 2014 at 4:39 AM'],
    ['{date_long}', 'Pacific/Kiritimati', 'Wednesday, February 19th, 2014'],
    // pretty forms: today, yesterday, tomorrow in the zone; capitalised at the start
    ['{date_pretty}', 'UTC', 'Today'],
    ['Posted {date_pretty}', 'UTC', 'Posted today'],
    ['{date_short_pretty} at {time}', 'UTC', 'Today at 2:39 PM'],
    // at 16:00 UTC it is already the 19th in Tokyo
    ['{date_long_pretty}', 'Asia/Tokyo', 'Yesterday'],
    ['{day_divider_pretty}', 'UTC', 'Today'],
    ['{ago}', 'UTC', '1 hour ago'],
    // unknown tokens and plain words stay as written
    ['{nope} {date_num}', 'UTC', '{nope} 2014-02-18'],
    // an unknown zone is the runtime's (UTC here), never an error
    ['{date_num}', 'Mars/Olympus_Mons', '2014-02-18'],
  ])('%s in %s is %j', (format, zone, expected) => {
    expect(tokensToPlain(tokenize(date(format), at(zone)))).toBe(expected);
  });

  it.each<[string, number, string]>([
    ['{date_pretty}', Date.UTC(2014, 1, 19, 10), 'Yesterday'],
    ['{date_pretty}', Date.UTC(2014, 1, 20, 10), 'February 18th, 2014'],
    ['{date_short_pretty}', Date.UTC(2014, 1, 17, 10), 'Tomorrow'],
    ['{date_long_pretty}', Date.UTC(2014, 2, 1), 'Tuesday, February 18th, 2014'],
    ['{day_divider_pretty}', Date.UTC(2014, 5, 1), 'Tuesday, February 18th'],
    ['{day_divider_pretty}', Date.UTC(2016, 5, 1), 'Tuesday, February 18th, 2014'],
    ['{ago}', Date.UTC(2014, 1, 21, 14), '3 days ago'],
    ['{ago}', Date.UTC(2014, 1, 18, 14, 0), 'in 40 minutes'],
  ])('%s with now %s is %j', (format, now, expected) => {
    expect(tokensToPlain(tokenize(date(format), at('UTC', now)))).toBe(expected);
  });

  it.each<[string, Token[]]>([
    ['<!date^1392734382^{date_num}^https://x.example/e|fallback>', [{ kind: 'link', url: 'https://x.example/e', label: '2014-02-18' }]],
    ['<!date^1392734382^{date_num}^javascript:alert(1)|fallback>', [text('2014-02-18')]],
    ['<!date^abc^{date_num}|Feb 18>', [text('Feb 18')]],
    ['<!date^1.5^{date_num}|Feb 18>', [text('Feb 18')]],
    ['<!date^99999999999999999^{date_num}|far>', [text('far')]],
    ['<!date^1392734382|only fallback>', [text('only fallback')]],
    ['<!date^1392734382^{date_num} &amp; more|x>', [text('2014-02-18 & more')]],
  ])('tokenize(%j)', (input, expected) => {
    expect(tokenize(input, names)).toEqual(expected);
  });
});

describe('tokenize: custom emoji', () => {
  const emoji: Record<string, string> = {
    partyparrot: 'https://emoji.slack-edge.com/T1/partyparrot/abc.gif',
    pp: 'alias:partyparrot',
    thumbs: 'alias:+1',
    loopy: 'alias:loopier',
    loopier: 'alias:loopy',
    evil: 'javascript:alert(1)',
    plain: 'http://emoji.example/p.png',
    spaced: 'https://emoji.example/a b.png',
    rocket: 'https://emoji.example/not-the-standard-one.png',
  };
  const withEmoji: MrkdwnNames = { ...names, emoji: (name) => emoji[name] };

  it.each<[string, Token[]]>([
    [':partyparrot:', [{ kind: 'emoji', code: 'partyparrot', char: null, url: emoji.partyparrot }]],
    [':plain:', [{ kind: 'emoji', code: 'plain', char: null, url: emoji.plain }]],
    // an alias: one level, to a custom or a standard emoji
    [':pp:', [{ kind: 'emoji', code: 'pp', char: null, url: emoji.partyparrot }]],
    [':thumbs:', [{ kind: 'emoji', code: 'thumbs', char: '👍' }]],
    [':loopy:', [{ kind: 'emoji', code: 'loopy', char: null }]],
    // only http(s) images, with no spaces or controls
    [':evil:', [{ kind: 'emoji', code: 'evil', char: null }]],
    [':spaced:', [{ kind: 'emoji', code: 'spaced', char: null }]],
    [':unknown:', [{ kind: 'emoji', code: 'unknown', char: null }]],
    // a standard emoji stays standard
    [':rocket:', [{ kind: 'emoji', code: 'rocket', char: '🚀' }]],
  ])('tokenize(%j)', (input, expected) => {
    expect(tokenize(input, withEmoji)).toEqual(expected);
  });

  it('keeps :code: in plain text for a custom emoji', () => {
    expect(tokensToPlain(tokenize('yay :partyparrot:', withEmoji))).toBe('yay :partyparrot:');
  });
});

describe('tokensToPlain and threadTitle', () => {
  it.each([
    ['*Hi* <@U1>, see <https://x.example|the doc> in <#C1> :rocket: :custom:', 'Hi @Ada Lovelace, see the doc in #general 🚀 :custom:'],
    ['&gt; quoted\n```code```', 'quoted\ncode'],
    ['<!here> `x`', '@here x'],
  ])('tokensToPlain(tokenize(%j)) is %j', (input, expected) => {
    expect(tokensToPlain(tokenize(input, names))).toBe(expected);
  });

  it('threadTitle is the plain text on one line, cut to THREAD_TITLE_LENGTH with an ellipsis', () => {
    expect(THREAD_TITLE_LENGTH).toBe(50);
    expect(threadTitle('*Release* plan for\n<@U1>', names)).toBe('Release plan for @Ada Lovelace');
    const long = `${'word '.repeat(20)}end`;
    const title = threadTitle(long, names);
    expect(title.length).toBeLessThanOrEqual(50);
    expect(title.endsWith('…')).toBe(true);
    expect(threadTitle('x'.repeat(50), names)).toBe('x'.repeat(50));
    expect(threadTitle('x'.repeat(51), names)).toBe(`${'x'.repeat(49)}…`);
    expect(threadTitle('abcdef', names, 4)).toBe('abc…');
  });
});

describe('helpers', () => {
  it.each([
    ['https://a.b', true],
    ['http://a.b', true],
    ['mailto:a@b.c', true],
    ['javascript:alert(1)', false],
    ['data:text/html,x', false],
    ['//a.b', false],
    ['https://a.b/\u0000', false],
    ['https://a.b c', false],
    ['', false],
  ])('isSafeUrl(%j) is %j', (url, ok) => {
    expect(isSafeUrl(url)).toBe(ok);
  });

  it('decodes entities once', () => {
    expect(decodeEntities('&amp;amp; &lt;&gt;')).toBe('&amp; <>');
  });
});

/** The characters of tokens in source order, with emoji as their `:code:`. */
function sourceText(tokens: Token[]): string {
  return tokens
    .map((t) => {
      if (t.kind === 'emoji') return `:${t.code}:`;
      if (t.kind === 'bold' || t.kind === 'italic' || t.kind === 'strike' || t.kind === 'quote') return sourceText(t.children);
      return tokensToPlain([t]);
    })
    .join('');
}

function allTokens(tokens: Token[]): Token[] {
  return tokens.flatMap((t) => ('children' in t ? [t, ...allTokens(t.children)] : [t]));
}

describe('properties', () => {
  const markupish = fc.string({
    unit: fc.constantFrom(
      'a',
      'b',
      ' ',
      '\n',
      '*',
      '_',
      '~',
      '`',
      '>',
      ':',
      '<',
      '|',
      '@',
      '#',
      '!',
      '&',
      'lt;',
      'gt;',
      'amp;',
      'U1',
      'https://',
      'javascript:',
      'data:',
      'rocket',
      'skin-tone-2',
      '\u202E',
      'é',
      '👍',
    ),
    maxLength: 60,
  });

  it('never throws, and every link is http, https or mailto with no bidi controls in its label', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.string({ maxLength: 80 }), markupish), (s) => {
        const tokens = tokenize(s, names);
        expect(typeof tokensToPlain(tokens)).toBe('string');
        for (const t of allTokens(tokens)) {
          if (t.kind === 'link') {
            expect(t.url).toMatch(/^(https?:\/\/|mailto:)/i);
            expect(t.label).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
          }
          if (t.kind === 'text') expect(t.text).not.toBe('');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every non-markup character, in order, when there are no tags or entities', () => {
    const noTags = fc.string({
      unit: fc.constantFrom('a', 'b', 'x', '1', ' ', '\n', '*', '_', '~', '`', '>', ':', '|', '@', '#', '!', ';', 'rocket', 'skin-tone-2', '+', 'é', '👍'),
      maxLength: 60,
    });
    const strip = (s: string) => s.replace(/[*_~`>:\s]/g, '');
    fc.assert(
      fc.property(noTags, (s) => {
        expect(strip(sourceText(tokenize(s, noNames)))).toBe(strip(s));
      }),
      { numRuns: 500 },
    );
  });

  it('plain text without markup characters comes back unchanged', () => {
    const plain = fc.string({ unit: fc.constantFrom('a', 'Z', '9', ' ', '\n', '.', ',', '?', '(', ')', 'é', '👍', '-', '/'), maxLength: 80 });
    fc.assert(
      fc.property(plain, (s) => {
        expect(tokensToPlain(tokenize(s, noNames))).toBe(s);
      }),
    );
  });

  it('formats 40,000 characters of date tags quickly', () => {
    const line = Array.from({ length: 1_100 }, (_, i) => `<!date^${1392734382 + i * 977}^{date_long} {ago}|x>`)
      .join(' ')
      .slice(0, 40_000);
    const started = performance.now();
    const tokens = tokenize(line, { ...names, timeZone: 'Europe/Paris', now: 1392734382000 });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(tokensToPlain(tokens)).toContain('Tuesday, February 18th, 2014');
  });

  it('is fast on long hostile lines (no quadratic blow-up)', () => {
    const line = '*a _b ~c '.repeat(4_000) + '<'.repeat(5_000) + ':x'.repeat(5_000);
    const started = performance.now();
    tokenize(line, names);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('tokenize on hostile 40,000-character lines (issue 12 §4)', () => {
  // Each '<' used to look for its '>' through the rest of the line: quadratic on a run of '<'.
  // A line is lexed into runs of text, not one object a character. These assert the output; the
  // time is measured in the bench (bench/hostileText.ts).
  const N = 40_000;
  it.each<[string, string, Token[]]>([
    ["a run of '<' with no '>'", `a${'<'.repeat(N - 3)}x(`, [text(`a${'<'.repeat(N - 3)}x(`)]],
    ["a run of '<' before a mention", `${'<'.repeat(N - 5)}<@U1>`, [text('<'.repeat(N - 5)), { kind: 'user', id: 'U1', name: 'Ada Lovelace' }]],
    [
      "a run of '<' before a link far away",
      `${'<'.repeat(N / 2)}${' '.repeat(N / 2 - 26)}<https://example.com|site>`,
      [text(`${'<'.repeat(N / 2)}${' '.repeat(N / 2 - 26)}`), { kind: 'link', url: 'https://example.com', label: 'site' }],
    ],
    ["'<' then a long text, then one '>'", `${'<'.repeat(N / 2)}${'x'.repeat(N / 2 - 1)}>`, [text(`${'<'.repeat(N / 2)}${'x'.repeat(N / 2 - 1)}>`)]],
    ["'<x>' repeated", '<x>'.repeat(N / 4), [text('<x>'.repeat(N / 4))]],
    ['a run of line breaks', `x${'\n'.repeat(N - 1)}`, [text('x'), ...Array<Token>(N - 1).fill(nl)]],
    ['a run of spaces between bold words', `*a${' '.repeat(N - 4)}b*`, [{ kind: 'bold', children: [text(`a${' '.repeat(N - 4)}b`)] }]],
  ])('%s', (_, line, tokens) => {
    expect(tokenize(line, names)).toEqual(tokens);
  });
});
