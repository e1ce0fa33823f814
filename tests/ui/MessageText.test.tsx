import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MrkdwnNames, Token } from '../../src/model/mrkdwn';
import { MessageText } from '../../src/ui/components/MessageText';

// The real tokenizer, unless a test hands the component tokens of its own (to check that the
// component re-checks what it is given, not only what today's tokenizer produces).
const forced = vi.hoisted(() => ({ tokens: null as Token[] | null }));
vi.mock('../../src/model/mrkdwn', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/model/mrkdwn')>();
  return { ...real, tokenize: (text: string, names: MrkdwnNames) => forced.tokens ?? real.tokenize(text, names) };
});
afterEach(() => {
  forced.tokens = null;
});

const names: MrkdwnNames = {
  user: (id) => (({ U1: 'Ada Lovelace' }) as Record<string, string | undefined>)[id],
  channel: (id) => (({ C1: 'general' }) as Record<string, string | undefined>)[id],
};

function show(text: string, lookup: MrkdwnNames = names) {
  const { container } = render(<MessageText text={text} names={lookup} />);
  return container.firstElementChild as HTMLElement;
}

const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

describe('MessageText: elements', () => {
  it('renders a plain message as text in one .mrkdwn block', () => {
    const root = show('hello there');
    expect(root.className).toBe('mrkdwn');
    expect(root.textContent).toBe('hello there');
    expect(root.children).toHaveLength(0);
  });

  it('renders bold, italic and strike as strong, em and s, nested', () => {
    const root = show('*bold _both_* ~gone~');
    const strong = root.querySelector('strong')!;
    expect(strong.textContent).toBe('bold both');
    expect(strong.querySelector('em')!.textContent).toBe('both');
    expect(root.querySelector('s')!.textContent).toBe('gone');
    expect(root.textContent).toBe('bold both gone');
  });

  it('renders inline code and pre blocks verbatim', () => {
    const root = show('run `npm *test*`\n```\nif (a &lt; b) {\n  *x*\n}\n```');
    const codes = root.querySelectorAll('code');
    expect(codes[0]!.textContent).toBe('npm *test*');
    expect(codes[0]!.parentElement).toBe(root);
    const pre = root.querySelector('pre')!;
    expect(pre.querySelector('code')!.textContent).toBe('if (a < b) {\n  *x*\n}');
    expect(root.querySelector('strong')).toBeNull();
  });

  it('renders quotes as blockquote, with a line break between consecutive lines', () => {
    const root = show('&gt; first\n&gt; *second*\nafter');
    const quote = root.querySelector('blockquote')!;
    expect(quote.textContent).toBe('firstsecond');
    expect(quote.querySelectorAll('br')).toHaveLength(1);
    expect(quote.querySelector('strong')!.textContent).toBe('second');
    // No empty line after the block: the newline that ends the quote adds no <br>.
    expect(root.querySelectorAll(':scope > br')).toHaveLength(0);
    expect(root.textContent).toBe('firstsecondafter');
  });

  it('renders newlines as <br>', () => {
    const root = show('one\ntwo\n\nthree');
    expect(root.querySelectorAll('br')).toHaveLength(3);
    expect(root.textContent).toBe('onetwothree');
  });

  it('renders user, channel and broadcast mentions', () => {
    const root = show('<@U1> <@U9|carol> <#C1> <#C7|random> <!here> <!subteam^S1|@oncall>');
    const mentions = Array.from(root.querySelectorAll('span.mention')).map((el) => [el.className, el.textContent]);
    expect(mentions).toEqual([
      ['mention', '@Ada Lovelace'],
      ['mention', '@carol'],
      ['mention channel', '#general'],
      ['mention channel', '#random'],
      ['mention broadcast', '@here'],
      ['mention broadcast', '@oncall'],
    ]);
  });

  it('renders http, https and mailto links that open in a new tab without an opener', () => {
    show('<https://x.example/a?b=1&amp;c=2|the doc> <http://y.example> <mailto:a@b.example|mail me>');
    const doc = screen.getByRole('link', { name: 'the doc' });
    expect(doc.getAttribute('href')).toBe('https://x.example/a?b=1&c=2');
    expect(doc.getAttribute('target')).toBe('_blank');
    expect(doc.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('link', { name: 'http://y.example' }).getAttribute('href')).toBe('http://y.example');
    expect(screen.getByRole('link', { name: 'mail me' }).getAttribute('href')).toBe('mailto:a@b.example');
  });

  it('renders known emoji as an image role named by its code, unknown ones as the code text', () => {
    const root = show('go :rocket: :+1::skin-tone-2: :partyparrot:');
    const rocket = screen.getByRole('img', { name: ':rocket:' });
    expect(rocket.textContent).toBe('🚀');
    expect(rocket.className).toBe('emoji');
    expect(screen.getByRole('img', { name: ':+1::skin-tone-2:' }).textContent).toBe('👍🏻');
    expect(screen.queryByRole('img', { name: ':partyparrot:' })).toBeNull();
    expect(root.textContent).toBe('go 🚀 👍🏻 :partyparrot:');
  });
});

describe('MessageText: custom emoji', () => {
  it('renders a workspace emoji as an <img> named by its code, and an alias as what it points to', () => {
    const lookup: MrkdwnNames = {
      ...names,
      emoji: (name) =>
        (({ partyparrot: 'https://emoji.example/pp.gif', pp: 'alias:partyparrot', yes: 'alias:+1' }) as Record<string, string | undefined>)[name],
    };
    const root = show('yay :partyparrot: :pp: :yes: :nope:', lookup);
    const imgs = screen.getAllByRole('img').filter((el) => el.tagName === 'IMG');
    expect(imgs.map((img) => [img.getAttribute('alt'), img.getAttribute('src')])).toEqual([
      [':partyparrot:', 'https://emoji.example/pp.gif'],
      [':pp:', 'https://emoji.example/pp.gif'],
    ]);
    expect(screen.getByRole('img', { name: ':yes:' }).textContent).toBe('👍');
    expect(root.textContent).toBe('yay   👍 :nope:');
  });
});

describe('MessageText: hostile text stays inert', () => {
  it('a javascript: link shows its label and no link', () => {
    const root = show('<javascript:alert(1)|x>');
    expect(root.textContent).toBe('x');
    expect(root.querySelector('a')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it.each([
    '<data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;|click>',
    '<data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==|click>',
    '<vbscript:msgbox(1)|click>',
    '<file:///etc/passwd|click>',
    '<JaVaScRiPt:alert(1)|click>',
  ])('%j is no link', (text) => {
    const root = show(text);
    expect(root.querySelector('a')).toBeNull();
    expect(root.textContent).toBe('click');
  });

  it('an escaped tag is literal text, and no <img> exists', () => {
    const root = show('&lt;img src=x onerror=alert(1)&gt;');
    expect(root.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(root.querySelector('img')).toBeNull();
    expect(document.querySelector('img')).toBeNull();
  });

  it('a mention whose label is markup renders no element from it', () => {
    const root = show('<@U1|<img src=x onerror=alert(1)>>');
    expect(root.querySelector('img')).toBeNull();
    expect(document.querySelector('img')).toBeNull();
    const escaped = show('<@U9|&lt;img src=x onerror=alert(1)&gt;>');
    expect(escaped.querySelector('img')).toBeNull();
    expect(escaped.querySelector('.mention')!.textContent).toBe('@<img src=x onerror=alert(1)>');
  });

  it('entity-encoded script and styles stay text', () => {
    const root = show('&lt;script&gt;alert(1)&lt;/script&gt; &lt;style&gt;*{display:none}&lt;/style&gt;');
    expect(root.querySelector('script, style')).toBeNull();
    expect(root.textContent).toBe('<script>alert(1)</script> <style>*{display:none}</style>');
  });

  it('a right-to-left override in a link label is stripped; the href is kept exactly', () => {
    const href = 'https://evil.example/\u202Egpj.exe';
    // A URL with a bidi control is not a safe link at all.
    const bad = show(`<${href}|photo>`);
    expect(bad.querySelector('a')).toBeNull();

    const url = 'https://evil.example/download';
    show(`<${url}|invoice\u202Efdp.exe>`);
    const link = screen.getByRole('link');
    expect(link.getAttribute('href')).toBe(url);
    expect(link.textContent).toBe('invoicefdp.exe (evil.example)');
    expect(link.textContent).not.toMatch(BIDI);
  });

  it('bidi embedding, override and isolate characters are stripped from mention names', () => {
    const lookup: MrkdwnNames = { user: (id) => (id === 'U5' ? 'ad\u202Emin\u2066' : undefined), channel: () => 'gen\u202Aeral\u2069' };
    const root = show('<@U5> <#C5> <@U9|bo\u202Db>', lookup);
    const texts = Array.from(root.querySelectorAll('.mention')).map((el) => el.textContent);
    expect(texts).toEqual(['@admin', '#general', '@bob']);
    expect(root.textContent).not.toMatch(BIDI);
  });

  it('never sets innerHTML-like attributes from text', () => {
    const root = show('<https://x.example|" onmouseover="alert(1)> <@U1|" onclick="x>');
    const link = root.querySelector('a')!;
    expect(link.getAttribute('onmouseover')).toBeNull();
    expect(
      Array.from(link.attributes)
        .map((a) => a.name)
        .sort(),
    ).toEqual(['href', 'rel', 'target', 'title']);
    expect(root.querySelector('[onclick]')).toBeNull();
  });
});

describe('MessageText: a link shows where it goes (issue 12 §4)', () => {
  it.each<[string, string, string]>([
    // [markup, the link's accessible name (label, then the revealed host), title]
    ['<https://evil.example/login|accounts.example.com>', 'accounts.example.com (evil.example)', 'https://evil.example/login'],
    ['<https://evil.example/|https://good.example>', 'https://good.example (evil.example)', 'https://evil.example/'],
    ['<https://evil.example/|good.example@evil.example>', 'good.example@evil.example (evil.example)', 'https://evil.example/'],
    ['<https://good.example@evil.example/>', 'https://good.example@evil.example/ (evil.example)', 'https://good.example@evil.example/'],
    ['<https://xn--80ak6aa92e.com/|apple.com>', 'apple.com (xn--80ak6aa92e.com)', 'https://xn--80ak6aa92e.com/'],
    [
      '<https://xn--80ak6aa92e.com/|\u0430\u0440\u0440\u04CF\u0435.com>',
      '\u0430\u0440\u0440\u04CF\u0435.com (xn--80ak6aa92e.com)',
      'https://xn--80ak6aa92e.com/',
    ],
    ['<https://evil.example/|accounts\u200B.exa\uFEFFmple.com>', 'accounts.example.com (evil.example)', 'https://evil.example/'],
    ['<https://evil.example/|\u202Emoc.elgoog>', 'moc.elgoog (evil.example)', 'https://evil.example/'],
  ])('%j reads %j', (markup, name, title) => {
    const root = show(markup);
    const link = screen.getByRole('link', { name });
    expect(link.getAttribute('title')).toBe(title);
    expect(link.querySelector('.link-target')!.textContent!.trim()).toBe(name.slice(name.lastIndexOf(' (') + 1));
    expect(root.textContent).not.toMatch(/[\u200B\uFEFF\u202A-\u202E]/);
  });

  it.each<[string, string, string]>([
    ['<https://www.example.com/|example.com>', 'example.com', 'https://www.example.com/'],
    ['<https://example.com/docs|example.com/docs/>', 'example.com/docs/', 'https://example.com/docs'],
    ['<https://xn--80ak6aa92e.com/>', 'https://xn--80ak6aa92e.com/', 'https://xn--80ak6aa92e.com/'],
    ['<https://evil.example/doc|the doc>', 'the doc', 'https://evil.example/doc'],
  ])('%j is fine: %j, with the whole target as its title', (markup, name, title) => {
    const root = show(markup);
    const link = screen.getByRole('link', { name });
    expect(link.getAttribute('title')).toBe(title);
    expect(root.querySelector('.link-target')).toBeNull();
  });
});

describe('MessageText: re-checks the tokens it renders', () => {
  it('an unsafe link token never becomes an href, and bidi controls are stripped from names and labels', () => {
    forced.tokens = [
      { kind: 'link', url: 'javascript:alert(1)', label: 'x' },
      { kind: 'link', url: 'https://ok.example', label: 'ok\u202Etxt' },
      { kind: 'user', id: 'U1', name: 'ev\u202Eil' },
      { kind: 'channel', id: 'C1', name: 'ge\u2067n' },
      { kind: 'emoji', code: 'evil', char: null, url: 'javascript:alert(1)' },
      { kind: 'emoji', code: 'mail', char: null, url: 'mailto:a@b.example' },
    ];
    const root = show('ignored');
    expect(root.querySelector('img')).toBeNull();
    const links = root.querySelectorAll('a');
    expect(links).toHaveLength(1);
    expect(links[0]!.getAttribute('href')).toBe('https://ok.example');
    expect(links[0]!.textContent).toBe('oktxt');
    expect(root.textContent).toBe('xoktxt@evil#gen:evil::mail:');
  });
});
