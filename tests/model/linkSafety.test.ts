/** Text that cannot lie (issue 12 §4): a link shows where it goes; controls never reach a name or a text shown outside a message. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { domainsIn, linkPresentation, linkText, stripBidi } from '../../src/model/linkSafety';
import { HIDDEN as CONTROL } from '../fixtures/hidden';

const RLO = '\u202E';

describe('linkPresentation: a label that names another address shows the real one', () => {
  it.each<[string, string | undefined, string | undefined, string, string?]>([
    // [target, label, reveal, label shown, title]
    ['https://evil.example/login', 'accounts.example.com', 'evil.example', 'accounts.example.com', 'https://evil.example/login'],
    ['https://evil.example/', 'https://good.example', 'evil.example', 'https://good.example'],
    ['https://evil.example/', 'good.example@evil.example', 'evil.example', 'good.example@evil.example'],
    ['https://good.example@evil.example/x', 'good.example', 'evil.example', 'good.example'],
    // userinfo tricks a reader even when the link is its own label
    ['https://good.example@evil.example/x', 'https://good.example@evil.example/x', 'evil.example', 'https://good.example@evil.example/x'],
    ['https://paypal-login@evil.example/x', undefined, 'evil.example', 'https://paypal-login@evil.example/x'],
    ['https://paypal:secure@evil.example/x', 'the doc', 'evil.example', 'the doc'],
    // punycode: the ASCII host, never the decoded one; a Unicode label over it is a lookalike
    ['https://xn--80ak6aa92e.com/', 'apple.com', 'xn--80ak6aa92e.com', 'apple.com'],
    ['https://xn--80ak6aa92e.com/', '\u0430\u0440\u0440\u04CF\u0435.com', 'xn--80ak6aa92e.com', '\u0430\u0440\u0440\u04CF\u0435.com'],
    [
      'https://\u0430\u0440\u0440\u04CF\u0435.com/',
      'https://\u0430\u0440\u0440\u04CF\u0435.com/',
      'xn--80ak6aa92e.com',
      'https://\u0430\u0440\u0440\u04CF\u0435.com/',
      'https://xn--80ak6aa92e.com/',
    ],
    // zero-width and bidi controls inside a label: removed before comparing, and from what is shown
    ['https://evil.example/', 'accounts\u200B.example.com', 'evil.example', 'accounts.example.com'],
    ['https://evil.example/', 'accounts.exa\u200Dmple\u2060.c\uFEFFom', 'evil.example', 'accounts.example.com'],
    ['https://evil.example/', `${RLO}moc.elgoog`, 'evil.example', 'moc.elgoog'],
    ['https://evil.example/', `invoice${RLO}fdp.exe`, 'evil.example', 'invoicefdp.exe'],
    ['https://evil.example/', 'accounts\u3002example\u3002com', 'evil.example', 'accounts\u3002example\u3002com'],
    ['https://evil.example/', 'ACCOUNTS.EXAMPLE.COM', 'evil.example', 'ACCOUNTS.EXAMPLE.COM'],
    ['https://evil.example/', 'log in at 10.0.0.1 now', 'evil.example', 'log in at 10.0.0.1 now'],
    ['https://docs.example.com/', 'example.com', 'docs.example.com', 'example.com'],
    ['https://example.com.evil.example/', 'example.com', 'example.com.evil.example', 'example.com'],
    ['https://evil.example/', 'example.com and evil.example', 'evil.example', 'example.com and evil.example'],
    // mail: the address, when the label names another
    ['mailto:mallory@evil.example', 'alice@good.example', 'mallory@evil.example', 'alice@good.example', 'mailto:mallory@evil.example'],
    ['mailto:mallory@example.com', 'alice@example.com', 'mallory@example.com', 'alice@example.com', 'mailto:mallory@example.com'],
  ])('%s under %j reveals %j', (url, label, reveal, shown, title) => {
    const p = linkPresentation(url, label);
    expect(p.reveal).toBe(reveal);
    expect(p.label).toBe(shown);
    expect(p.title).toBe(title ?? url);
  });

  it.each<[string, string | undefined, string]>([
    // a label that is its target's host or URL (scheme, trailing slash, www. aside) shows as it is
    ['https://example.com/', 'example.com', 'example.com'],
    ['https://www.example.com/', 'example.com', 'example.com'],
    ['https://example.com', 'https://www.example.com/', 'https://www.example.com/'],
    ['https://example.com/docs/a', 'example.com/docs/a', 'example.com/docs/a'],
    ['https://example.com/docs', 'http://Example.COM/docs/', 'http://Example.COM/docs/'],
    ['https://accounts.example.com/login', 'Sign in at accounts.example.com.', 'Sign in at accounts.example.com.'],
    ['https://xn--80ak6aa92e.com/', undefined, 'https://xn--80ak6aa92e.com/'],
    ['https://evil.example/', 'evil.example', 'evil.example'],
    [`https://evil.example/`, `${RLO}evil.example`, 'evil.example'],
    ['https://evil.example/', 'evil.exa\u200Bmple', 'evil.example'],
    ['mailto:bob@example.com', 'bob@example.com', 'bob@example.com'],
    ['mailto:bob@example.com?subject=hi', 'mailto:Bob@Example.com', 'mailto:Bob@Example.com'],
    // plain words are not an address: shown as they are (a joiner inside an emoji kept), with the title
    ['https://evil.example/doc', 'the doc', 'the doc'],
    ['https://evil.example/doc', 'v1.2 notes, e.g. here', 'v1.2 notes, e.g. here'],
    ['https://evil.example/doc', 'family \u{1F468}\u200D\u{1F469}\u200D\u{1F467}', 'family \u{1F468}\u200D\u{1F469}\u200D\u{1F467}'],
    ['https://evil.example/doc', '', 'https://evil.example/doc'],
    ['https://evil.example/doc', RLO, 'https://evil.example/doc'],
  ])('%s under %j is fine and shows %j', (url, label, shown) => {
    const p = linkPresentation(url, label);
    expect(p.reveal).toBeUndefined();
    expect(p.label).toBe(shown);
    expect(p.title).toBe(url.startsWith('mailto:') ? url : new URL(url).href);
  });

  it('always carries the whole target as the title (the parsed address, punycode host)', () => {
    expect(linkPresentation('https://evil.example/doc?q=1#x', 'the doc').title).toBe('https://evil.example/doc?q=1#x');
    expect(linkPresentation('https://\u0430\u0440\u0440\u04CF\u0435.com/x', 'x').title).toBe('https://xn--80ak6aa92e.com/x');
  });

  it('an address it cannot parse is revealed whole when the label names one', () => {
    expect(linkPresentation('https://[oops/', 'good.example')).toEqual({ label: 'good.example', reveal: 'https://[oops/', title: 'https://[oops/' });
    expect(linkPresentation('https://[oops/', 'the doc')).toEqual({ label: 'the doc', title: 'https://[oops/' });
  });

  it('linkText is the label with the revealed target beside it', () => {
    expect(linkText(linkPresentation('https://evil.example/', 'accounts.example.com'))).toBe('accounts.example.com (evil.example)');
    expect(linkText(linkPresentation('https://evil.example/', 'the doc'))).toBe('the doc');
  });
});

describe('domainsIn', () => {
  it.each<[string, string[]]>([
    ['see accounts.example.com/login', ['accounts.example.com']],
    ['https://www.good.example:443/a.b', ['www.good.example']],
    ['a@b.example, c.d', ['b.example']],
    ['setup.zip', ['setup.zip']],
    ['xn--80ak6aa92e.xn--p1ai', ['xn--80ak6aa92e.xn--p1ai']],
    ['1.2.3.4', ['1.2.3.4']],
    ['v1.2, e.g. 3.14, ...', []],
    ['the doc', []],
  ])('%j → %j', (text, domains) => {
    expect(domainsIn(text)).toEqual(domains);
  });

  it('is linear on 40,000 characters of hostile input', () => {
    const inputs = [
      'a.'.repeat(20_000),
      'a'.repeat(40_000),
      `${'a-'.repeat(10_000)}.${'b.'.repeat(10_000)}`,
      '.'.repeat(40_000),
      `${'x'.repeat(300)}.`.repeat(130),
    ];
    for (const text of inputs) {
      const started = performance.now();
      linkPresentation('https://evil.example/', text);
      expect(performance.now() - started).toBeLessThan(100);
    }
  });
});

describe('stripBidi: bidi controls, isolates and C0/C1 controls', () => {
  it('removes them all and keeps tab, newline and everything else', () => {
    const controls =
      '\u0000\u0001\u0007\u000B\u000C\u000D\u001B\u001F\u007F\u0080\u0085\u009B\u009F\u061C\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069';
    expect(stripBidi(`a${controls}b\tc\nd`)).toBe('ab\tc\nd');
    expect(stripBidi(`Q3 report ${RLO}gpj.exe`)).toBe('Q3 report gpj.exe');
    expect(stripBidi('שלום, émoji \u{1F468}\u200D\u{1F469}, \u200Bzw')).toBe('שלום, émoji \u{1F468}\u200D\u{1F469}, \u200Bzw');
  });

  it('leaves no control character, and changes nothing else', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const out = stripBidi(text);
        expect(CONTROL.test(out)).toBe(false);
        expect(out).toBe([...text].filter((c) => !CONTROL.test(c)).join(''));
      }),
    );
  });
});

/* ------------------------------------------------------------------------------------------ */
/* Properties                                                                                  */

const bare = (host: string) => host.toLowerCase().replace(/^www\./, '');
const INVISIBLES = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u202E', '\u202D', '\u2066', '\u2069', '\u200F', '\u0000', '\u0085'];

/** A host written as a lookalike label: a scheme, 'www.', a path, a userinfo, invisible characters in it. */
const disguised = (host: string) =>
  fc
    .record({
      scheme: fc.constantFrom('', 'https://', 'http://'),
      www: fc.boolean(),
      path: fc.constantFrom('', '/', '/login', '/a?b=c'),
      before: fc.constantFrom('', 'Sign in at ', 'user@'),
      hidden: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...INVISIBLES)), { maxLength: 4 }),
      upper: fc.boolean(),
    })
    .map(({ scheme, www, path, before, hidden, upper }) => {
      let label = `${before}${scheme}${www ? 'www.' : ''}${upper ? host.toUpperCase() : host}${path}`;
      for (const [at, c] of hidden) {
        const i = at % (label.length + 1);
        label = label.slice(0, i) + c + label.slice(i);
      }
      return label;
    });

const host = fc.domain().filter((d) => !d.startsWith('www.') && d.length < 60);

describe('linkPresentation: properties', () => {
  it('a label naming another host always reveals the real host', () => {
    const pair = fc.tuple(host, host).filter(([a, b]) => bare(a) !== bare(b));
    const cases = pair.chain(([labelHost, targetHost]) => fc.tuple(disguised(labelHost), fc.constant(targetHost), fc.constantFrom('/', '/x', '/a/b?c=d')));
    fc.assert(
      fc.property(cases, ([label, targetHost, path]) => {
        expect(linkPresentation(`https://${targetHost}${path}`, label).reveal).toBe(targetHost);
      }),
      { numRuns: 300 },
    );
  });

  it('a label naming its own host (any disguise of scheme, www., case, path, invisibles) reveals nothing', () => {
    const cases = host.chain((target) => fc.tuple(disguised(target), fc.constant(target)));
    fc.assert(
      fc.property(cases, ([label, target]) => {
        expect(linkPresentation(`https://${target}/`, label).reveal).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('never throws; shows no control character; the title is the target', () => {
    const url = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true, authoritySettings: { withUserInfo: true, withPort: true, withIPv4: true } }),
      fc.emailAddress().map((a) => `mailto:${a}`),
    );
    fc.assert(
      fc.property(url, fc.option(fc.string({ unit: 'binary' }), { nil: undefined }), (target, label) => {
        const p = linkPresentation(target, label);
        expect(CONTROL.test(p.label)).toBe(false);
        expect(p.label.length).toBeGreaterThan(0);
        if (p.reveal !== undefined) expect(CONTROL.test(p.reveal)).toBe(false);
        expect(typeof p.title).toBe('string');
      }),
    );
  });
});
