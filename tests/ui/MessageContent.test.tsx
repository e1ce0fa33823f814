/**
 * MessageContent on happy-dom: each kind of Slack content as the member sees it (roles and
 * visible text), and hostile content staying inert.
 */
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContentNames, ContentNode } from '../../src/model/slackContent';
import type { Message } from '../../src/model/types';
import { MessageContent } from '../../src/ui/components/MessageContent';

// The real renderer, unless a test hands the component nodes of its own (to check that the
// component re-checks what it is given, not only what today's renderer produces).
const forced = vi.hoisted(() => ({ nodes: null as ContentNode[] | null }));
vi.mock('../../src/model/slackContent', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/model/slackContent')>();
  return { ...real, renderContent: (...args: Parameters<typeof real.renderContent>) => forced.nodes ?? real.renderContent(...args) };
});
afterEach(() => {
  forced.nodes = null;
});

const names: ContentNames = {
  user: (id) => (({ U1: 'Ada Lovelace' }) as Record<string, string | undefined>)[id],
  channel: (id) => (({ C1: 'general' }) as Record<string, string | undefined>)[id],
  usergroup: (id) => (({ S1: 'oncall' }) as Record<string, string | undefined>)[id],
  emoji: (name) => (({ partyparrot: 'https://emoji.example/pp.gif', evil: 'javascript:alert(1)' }) as Record<string, string | undefined>)[name],
  timeZone: 'UTC',
  now: Date.UTC(2014, 1, 18, 16),
  me: 'U_ME',
};

function show(over: Partial<Message>) {
  const message: Message = { ts: '1392734382.000100', channel: 'C1', text: '', ...over };
  const { container } = render(<MessageContent message={message} names={names} />);
  return container.firstElementChild as HTMLElement;
}

const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

describe('MessageContent: text', () => {
  it('renders mrkdwn text with mentions, links and emoji', () => {
    const root = show({ text: '*Hi* <@U1> see <https://x.example|the doc> in <#C1> :tada: <!subteam^S1>' });
    expect(root.textContent).toBe('Hi @Ada Lovelace see the doc in #general 🎉 @oncall');
    expect(screen.getByRole('link', { name: 'the doc' }).getAttribute('href')).toBe('https://x.example');
  });

  it("shows '(edited)' after the text, on its line", () => {
    const root = show({ text: 'fixed typo', edited: { user: 'U1', ts: '1.2' } });
    expect(root.querySelector('.mrkdwn')!.textContent).toBe('fixed typo (edited)');
  });

  it('shows a me_message in italics', () => {
    const root = show({ text: 'waves', subtype: 'me_message' });
    expect(root.querySelector('.me-message')!.textContent).toBe('waves');
  });

  it.each([{ subtype: 'tombstone', text: 'anything' }, { text: 'This message was deleted.' }])('shows a deleted message as such: %j', (over) => {
    const root = show(over);
    expect(root.textContent).toBe('This message was deleted.');
    expect(root.querySelector('.deleted-message')).not.toBeNull();
  });

  it('renders a custom emoji as an image named by its code', () => {
    show({ text: 'yay :partyparrot:' });
    const img = screen.getByRole('img', { name: ':partyparrot:' });
    expect(img.tagName).toBe('IMG');
    expect(img.getAttribute('src')).toBe('https://emoji.example/pp.gif');
  });

  it('shows a date in the member zone', () => {
    const root = show({ text: 'due <!date^1392734382^{date_short_pretty} at {time}|Feb 18>' });
    expect(root.textContent).toBe('due Today at 2:39 PM');
  });
});

describe('MessageContent: blocks', () => {
  it('header, section with fields and a static accessory, context, divider', () => {
    const root = show({
      text: 'fallback',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'New request :tada:' } },
        {
          type: 'section',
          text: { type: 'mrkdwn', text: '*Fred* wants a laptop' },
          fields: [
            { type: 'mrkdwn', text: '*Type:*\nComputer' },
            { type: 'mrkdwn', text: '*When:*\nAug 10' },
          ],
          accessory: { type: 'button', text: { type: 'plain_text', text: 'Approve' }, value: 'a' },
        },
        { type: 'divider' },
        {
          type: 'context',
          elements: [
            { type: 'image', image_url: 'https://x.example/j.png', alt_text: 'Jenkins' },
            { type: 'mrkdwn', text: 'Build #42' },
          ],
        },
      ],
    });
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe('New request 🎉');
    expect(root.querySelector('strong')!.textContent).toBe('Fred');
    const fields = root.querySelectorAll('.block-field');
    expect(Array.from(fields).map((f) => f.textContent)).toEqual(['Type:Computer', 'When:Aug 10']);
    // A static label, never a working button.
    expect(screen.getByText('Approve').tagName).toBe('SPAN');
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByRole('separator')).toBeTruthy();
    expect(root.querySelector('.block-context')!.textContent).toBe('JenkinsBuild #42');
    expect(root.textContent).not.toContain('fallback');
    expect(root.querySelector('img')).toBeNull();
  });

  it('rich_text: paragraph, lists, quote, preformatted, styles and mentions', () => {
    const root = show({
      text: 'fallback',
      blocks: [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: 'Plan ' },
                { type: 'text', text: 'now', style: { bold: true } },
                { type: 'text', text: ' ' },
                { type: 'emoji', name: 'wave', skin_tone: 3 },
              ],
            },
            { type: 'rich_text_list', style: 'bullet', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'one' }] }] },
            {
              type: 'rich_text_list',
              style: 'ordered',
              indent: 1,
              offset: 4,
              elements: [{ type: 'rich_text_section', elements: [{ type: 'user', user_id: 'U1' }] }],
            },
            { type: 'rich_text_quote', elements: [{ type: 'text', text: 'quoted', style: { italic: true } }] },
            { type: 'rich_text_preformatted', elements: [{ type: 'text', text: 'a < b && *c*' }] },
          ],
        },
      ] as never,
    });
    expect(root.querySelector('strong')!.textContent).toBe('now');
    expect(screen.getByRole('img', { name: ':wave::skin-tone-3:' }).textContent).toBe('👋🏼');
    const lists = screen.getAllByRole('list');
    expect(lists[0]!.tagName).toBe('UL');
    expect(within(lists[0]!).getByRole('listitem').textContent).toBe('one');
    expect(lists[1]!.tagName).toBe('OL');
    expect(lists[1]!.getAttribute('start')).toBe('5');
    expect(lists[1]!.getAttribute('data-indent')).toBe('1');
    expect(lists[1]!.textContent).toBe('@Ada Lovelace');
    expect(root.querySelector('blockquote em')!.textContent).toBe('quoted');
    expect(root.querySelector('pre code')!.textContent).toBe('a < b && *c*');
  });

  it('image, actions, input and video as labels and links, never controls or remote pictures', () => {
    const root = show({
      text: '',
      blocks: [
        { type: 'image', title: { type: 'plain_text', text: 'Chart' }, image_url: 'https://x.example/c.png', alt_text: 'Sales chart' },
        {
          type: 'actions',
          elements: [
            { type: 'button', text: { type: 'plain_text', text: 'Deploy' } },
            { type: 'static_select', placeholder: { type: 'plain_text', text: 'Pick env' } },
          ],
        },
        { type: 'input', label: { type: 'plain_text', text: 'Reason' }, element: { type: 'plain_text_input' } },
        { type: 'video', title: { type: 'plain_text', text: 'Demo' }, title_url: 'https://videos.example/1', video_url: 'https://videos.example/e/1' },
      ] as never,
    });
    expect(screen.getByRole('link', { name: 'Image: Sales chart' }).getAttribute('href')).toBe('https://x.example/c.png');
    expect(screen.getByText('Chart')).toBeTruthy();
    expect(screen.getByText('Deploy').tagName).toBe('SPAN');
    expect(screen.getByText('Pick env').tagName).toBe('SPAN');
    expect(screen.getByText('Reason').tagName).toBe('SPAN');
    expect(screen.getByRole('link', { name: 'Video: Demo' }).getAttribute('href')).toBe('https://videos.example/1');
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(root.querySelector('img, video, iframe')).toBeNull();
  });
});

describe('MessageContent: attachments', () => {
  it('a card with a validated bar colour, author, linked title, text, fields and footer', () => {
    const root = show({
      text: 'Build finished',
      attachments: [
        {
          color: 'good',
          pretext: 'CI says:',
          author_name: 'Jenkins',
          author_link: 'https://ci.example',
          title: 'sift #42 passed',
          title_link: 'https://ci.example/42',
          text: 'All *green*',
          fields: [
            { title: 'Branch', value: 'main', short: true },
            { title: 'Time', value: '3 min', short: true },
            { title: 'Notes', value: 'long', short: false },
          ],
          footer: 'Jenkins CI',
          ts: 1392734382,
        },
      ],
    });
    const card = root.querySelector<HTMLElement>('.attachment')!;
    expect(card.className).toBe('attachment has-bar');
    expect(card.style.getPropertyValue('--bar')).toBe('#2eb886');
    expect(root.querySelector('.attachment-pretext')!.textContent).toBe('CI says:');
    expect(screen.getByRole('link', { name: 'Jenkins' }).getAttribute('href')).toBe('https://ci.example');
    const title = screen.getByRole('link', { name: 'sift #42 passed' });
    expect(title.getAttribute('href')).toBe('https://ci.example/42');
    expect(title.getAttribute('target')).toBe('_blank');
    expect(title.getAttribute('rel')).toBe('noopener noreferrer');
    expect(within(card).getByText('green').tagName).toBe('STRONG');
    const fields = card.querySelectorAll('.attachment-field');
    expect(Array.from(fields).map((f) => [f.className, f.textContent])).toEqual([
      ['attachment-field short', 'Branchmain'],
      ['attachment-field short', 'Time3 min'],
      ['attachment-field', 'Noteslong'],
    ]);
    expect(card.querySelector('.attachment-footer')!.textContent).toBe('Jenkins CI · Feb 18, 2014');
  });

  it.each(['red', 'url(javascript:alert(1))', '#12', '#zzzzzz', 'var(--danger)', '#fff; color: red'])('drops the colour %j', (color) => {
    const root = show({ text: '', attachments: [{ color, text: 'x' }] });
    const card = root.querySelector<HTMLElement>('.attachment')!;
    expect(card.className).toBe('attachment');
    expect(card.getAttribute('style')).toBeNull();
  });

  it('a javascript: title_link, author_link and image_url render no href', () => {
    const root = show({
      text: '',
      attachments: [
        {
          title: 'click me',
          title_link: 'javascript:alert(1)',
          author_name: 'evil',
          author_link: 'JaVaScRiPt:alert(2)',
          image_url: 'javascript:alert(3)',
          text: 'x',
        },
      ],
    });
    expect(screen.getByText('click me').tagName).toBe('SPAN');
    expect(screen.getByText('evil').tagName).toBe('SPAN');
    expect(screen.queryByRole('link')).toBeNull();
    expect(root.querySelector('[href], [src]')).toBeNull();
    expect(root.innerHTML).not.toMatch(/javascript/i);
  });

  it('renders a 40,000-character attachment text without throwing', () => {
    const long = `${'word *bold* <https://x.example|link> '.repeat(1_100)}`.slice(0, 40_000);
    const root = show({ text: '', attachments: [{ text: long, color: '#abc' }] });
    expect(root.querySelector('.attachment-text')!.textContent!.length).toBeGreaterThan(16_000);
    expect(root.querySelectorAll('.attachment-text a')).toHaveLength(1_081);
    expect(root.querySelector<HTMLElement>('.attachment')!.style.getPropertyValue('--bar')).toBe('#aabbcc');
  });

  it('strips bidi override characters from names and titles', () => {
    const root = show({
      text: '',
      attachments: [{ author_name: 'ad\u202Emin', title: 'in\u2066voice\u202Efdp.exe', title_link: 'https://x.example', text: 'x' }],
    });
    expect(screen.getByText('admin')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'invoicefdp.exe (x.example)' })).toBeTruthy();
    expect(root.textContent).not.toMatch(BIDI);
  });
});

describe('MessageContent: links show where they go (issue 12 §4)', () => {
  it('an attachment title, author, image and rich text link naming another host reveal the real one', () => {
    const root = show({
      text: '',
      blocks: [
        {
          type: 'rich_text',
          elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url: 'https://evil.example/r', text: 'https://good.example/r' }] }],
        },
      ],
      attachments: [
        {
          author_name: 'github.com',
          author_link: 'https://evil.example/a',
          title: 'accounts.example.com',
          title_link: 'https://xn--80ak6aa92e.com/t',
          image_url: 'https://evil.example/i.png',
          fallback: 'x',
          text: 'x',
        },
      ],
    });
    const title = screen.getByRole('link', { name: 'accounts.example.com (xn--80ak6aa92e.com)' });
    expect(title.getAttribute('title')).toBe('https://xn--80ak6aa92e.com/t');
    expect(screen.getByRole('link', { name: 'github.com (evil.example)' }).getAttribute('title')).toBe('https://evil.example/a');
    expect(screen.getByRole('link', { name: 'https://good.example/r (evil.example)' }).getAttribute('href')).toBe('https://evil.example/r');
    // The image is named by its title: it names another host, so the real one shows too.
    expect(screen.getByRole('link', { name: 'Image: accounts.example.com (evil.example)' })).toBeTruthy();
    expect(root.querySelectorAll('.link-target')).toHaveLength(4);
  });

  it('a plain title keeps its words and gets the whole target as its title', () => {
    show({ text: '', attachments: [{ title: 'sift #42 passed', title_link: 'https://ci.example/42', text: 'x' }] });
    expect(screen.getByRole('link', { name: 'sift #42 passed' }).getAttribute('title')).toBe('https://ci.example/42');
  });
});

describe('MessageContent: files, huddles, reactions', () => {
  it('file chips: an icon kind, title and human size, linked to Slack only when safe', () => {
    const root = show({
      text: 'files',
      files: [
        { id: 'F1', name: 'IMG_1.png', title: 'Screenshot', mimetype: 'image/png', size: 1_258_291, permalink: 'https://x.slack.com/files/U1/F1/img_1.png' },
        { id: 'F2', name: 'report.pdf', mimetype: 'application/pdf', size: 532_000, permalink: 'javascript:alert(1)' },
        { id: 'F3', mode: 'hidden_by_limit' },
      ],
    });
    const shot = screen.getByRole('link', { name: /Screenshot/ });
    expect(shot.getAttribute('href')).toBe('https://x.slack.com/files/U1/F1/img_1.png');
    expect(shot.getAttribute('target')).toBe('_blank');
    expect(shot.textContent).toBe('ScreenshotImage · 1.2 MB');
    expect(shot.querySelector('.file-icon')!.getAttribute('data-kind')).toBe('image');
    const chips = root.querySelectorAll('.file-chip');
    expect(chips).toHaveLength(3);
    expect(chips[1]!.tagName).toBe('DIV');
    expect(chips[1]!.textContent).toBe('report.pdfPDF · 520 KB');
    expect(chips[2]!.textContent).toContain('This file is not available.');
    expect(root.querySelector('[href^="javascript"]')).toBeNull();
  });

  it('a huddle with its notes', () => {
    const root = show({ text: '', subtype: 'huddle_thread', room: { name: 'Design sync', canvas: { title: 'Notes', summary: 'Agreed on the layout' } } });
    expect(root.querySelector('.huddle-card')!.textContent).toBe('Huddle: Design syncNotesAgreed on the layout');
  });

  it('reactions: labelled for assistive technology, mine highlighted, custom emoji as images', () => {
    show({
      text: 'ship it',
      reactions: [
        { name: 'tada', count: 3, users: ['U1', 'U_ME', 'U2'] },
        { name: '+1::skin-tone-2', count: 1, users: ['U1'] },
        { name: 'partyparrot', count: 2, users: ['U1', 'U2'] },
        { name: 'evil', count: 1, users: ['U1'] },
      ],
    });
    const row = screen.getByRole('list', { name: 'Reactions' });
    const tada = within(row).getByRole('listitem', { name: ':tada: 3 reactions, including you' });
    expect(tada.className).toBe('reaction mine');
    expect(tada.textContent).toBe('🎉 3');
    const thumbs = within(row).getByRole('listitem', { name: ':+1::skin-tone-2: 1 reaction' });
    expect(thumbs.className).toBe('reaction');
    expect(thumbs.textContent).toBe('👍🏻 1');
    const parrot = within(row).getByRole('listitem', { name: ':partyparrot: 2 reactions' });
    expect(parrot.querySelector('img')!.getAttribute('src')).toBe('https://emoji.example/pp.gif');
    expect(parrot.querySelector('img')!.getAttribute('alt')).toBe(':partyparrot:');
    const evil = within(row).getByRole('listitem', { name: ':evil: 1 reaction' });
    expect(evil.querySelector('img')).toBeNull();
    expect(evil.textContent).toBe(':evil: 1');
  });
});

describe('MessageContent: re-checks the nodes it renders', () => {
  it('an unsafe URL never becomes an href or a src, and an unchecked colour never a style', () => {
    forced.nodes = [
      { kind: 'image', alt: 'pic', url: 'javascript:alert(1)' },
      { kind: 'image', alt: 'mail', url: 'mailto:a@b.example' },
      { kind: 'video', title: 'vid', url: 'data:text/html,x' },
      {
        kind: 'attachment',
        color: 'red; background: url(https://evil.example/x)',
        pretext: [],
        author: { name: 'auth', url: 'javascript:alert(2)' },
        title: { text: 'tit', url: 'vbscript:x' },
        text: [],
        fields: [],
        image: { alt: 'img', url: 'javascript:alert(3)' },
        blocks: [],
        controls: [],
        footer: [],
      },
      { kind: 'file', icon: 'generic', title: 'f', url: 'javascript:alert(4)', available: true },
      { kind: 'reactions', items: [{ name: 'x', char: null, url: 'javascript:alert(5)', count: 1, mine: false }] },
    ];
    const root = show({ text: 'ignored' });
    expect(root.querySelector('[href], [src], [style]')).toBeNull();
    expect(root.innerHTML).not.toMatch(/javascript|vbscript|data:|mailto/i);
    expect(root.textContent).toContain('Image: pic');
    expect(root.textContent).toContain('Video: vid');
  });
});
