import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize, tokensToPlain, type MrkdwnNames } from '../../src/model/mrkdwn';
import type { SlackAttachment, SlackBlock, SlackContent } from '../../src/model/slack';
import { SLACK_TEXT_LIMIT, derivedText, escapeMrkdwn } from '../../src/model/slackText';

type Input = { text?: string; subtype?: string } & SlackContent;

const names: MrkdwnNames = {
  user: (id) => (({ U1: 'Ada Lovelace', U2: 'bob' }) as Record<string, string | undefined>)[id],
  channel: (id) => (({ C1: 'general' }) as Record<string, string | undefined>)[id],
};
const plain = (markup: string) => tokensToPlain(tokenize(markup, names));

/** A rich_text block of one section with these inline elements. */
const richSection = (...elements: unknown[]): SlackBlock => ({ type: 'rich_text', elements: [{ type: 'rich_text_section', elements }] }) as SlackBlock;
const blocks = (...b: unknown[]): Input => ({ text: 'fallback', blocks: b as SlackBlock[] });

describe('derivedText: rich_text inline elements', () => {
  it.each<[string, unknown, string]>([
    ['text', { type: 'text', text: 'Hello there' }, 'Hello there'],
    ['text with markup characters is escaped', { type: 'text', text: 'a < b && c > d' }, 'a &lt; b &amp;&amp; c &gt; d'],
    ['bold', { type: 'text', text: 'bold', style: { bold: true } }, '*bold*'],
    ['italic', { type: 'text', text: 'it', style: { italic: true } }, '_it_'],
    ['strike', { type: 'text', text: 'gone', style: { strike: true } }, '~gone~'],
    ['code', { type: 'text', text: 'npm test', style: { code: true } }, '`npm test`'],
    ['bold italic', { type: 'text', text: 'both', style: { bold: true, italic: true } }, '*_both_*'],
    ['markers stay off edge spaces', { type: 'text', text: ' spaced ', style: { bold: true } }, ' *spaced* '],
    ['a whitespace-only styled text is unstyled', { type: 'text', text: ' ', style: { bold: true } }, ' '],
    ['link with text', { type: 'link', url: 'https://x.example/a?b=1&c=2', text: 'the doc' }, '<https://x.example/a?b=1&amp;c=2|the doc>'],
    ['bare link', { type: 'link', url: 'https://x.example' }, '<https://x.example>'],
    ['link with a bar in its url', { type: 'link', url: 'https://x.example/a|b', text: 'x' }, '<https://x.example/a%7Cb|x>'],
    ['bold link', { type: 'link', url: 'https://x.example', text: 'x', style: { bold: true } }, '*<https://x.example|x>*'],
    ['user', { type: 'user', user_id: 'U1' }, '<@U1>'],
    ['channel', { type: 'channel', channel_id: 'C1' }, '<#C1>'],
    ['usergroup', { type: 'usergroup', usergroup_id: 'S0614TZR7' }, '<!subteam^S0614TZR7>'],
    ['broadcast here', { type: 'broadcast', range: 'here' }, '<!here>'],
    ['broadcast channel', { type: 'broadcast', range: 'channel' }, '<!channel>'],
    ['broadcast everyone', { type: 'broadcast', range: 'everyone' }, '<!everyone>'],
    ['unknown broadcast range: nothing, so the fallback', { type: 'broadcast', range: 'world' }, 'fallback'],
    ['emoji', { type: 'emoji', name: 'tada', unicode: '1f389' }, ':tada:'],
    ['emoji with skin tone', { type: 'emoji', name: 'wave', unicode: '1f44b-1f3fd', skin_tone: 4 }, ':wave::skin-tone-4:'],
    ['emoji with a bad skin tone', { type: 'emoji', name: 'wave', skin_tone: 9 }, ':wave:'],
    [
      'date',
      { type: 'date', timestamp: 1392734382, format: '{date_short} at {time}', fallback: 'Feb 18, 2014' },
      '<!date^1392734382^{date_short} at {time}|Feb 18, 2014>',
    ],
    [
      'date with a url',
      { type: 'date', timestamp: 1392734382, format: '{date}', url: 'https://x.example', fallback: 'Feb 18' },
      '<!date^1392734382^{date}^https://x.example|Feb 18>',
    ],
    ['date without timestamp shows its fallback', { type: 'date', format: '{date}', fallback: 'some day' }, 'some day'],
    ['date whose format would break the tag', { type: 'date', timestamp: 1, format: '{date}|evil>', fallback: 'x' }, 'x'],
    ['color', { type: 'color', value: '#36a64f' }, '#36a64f'],
    ['a mention id that would break the tag: nothing, so the fallback', { type: 'user', user_id: 'U1>|<https://evil.example' }, 'fallback'],
    ['unknown element with text', { type: 'team_x', text: 'kept <b>' }, 'kept &lt;b&gt;'],
  ])('%s', (_name, element, expected) => {
    expect(derivedText(blocks(richSection(element)))).toBe(expected);
  });
});

describe('derivedText: rich_text blocks', () => {
  it('reads a composer message: section, bullets, numbers with offset and indent, quote, preformatted', () => {
    // The shape of Slack's WYSIWYG composer output (docs.slack.dev: rich text block / list element).
    const message = blocks({
      type: 'rich_text',
      block_id: 'Vrzsu',
      elements: [
        { type: 'rich_text_section', elements: [{ type: 'text', text: 'My favorite Slack features (in no particular order):\n' }] },
        {
          type: 'rich_text_list',
          style: 'bullet',
          indent: 0,
          border: 0,
          elements: [
            { type: 'rich_text_section', elements: [{ type: 'text', text: 'Huddles' }] },
            { type: 'rich_text_section', elements: [{ type: 'text', text: 'Canvas' }] },
          ],
        },
        { type: 'rich_text_list', style: 'bullet', indent: 1, elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'Lists' }] }] },
        {
          type: 'rich_text_list',
          style: 'ordered',
          offset: 2,
          elements: [
            { type: 'rich_text_section', elements: [{ type: 'text', text: 'third' }] },
            { type: 'rich_text_section', elements: [{ type: 'text', text: 'fourth' }] },
          ],
        },
        { type: 'rich_text_quote', elements: [{ type: 'text', text: 'What we need is good examples.\nSecond line' }] },
        {
          type: 'rich_text_preformatted',
          border: 0,
          elements: [
            { type: 'text', text: 'if (a < b) {\n  run();\n}' },
            { type: 'link', url: 'https://x.example', text: 'x' },
          ],
        },
      ],
    });
    expect(derivedText(message)).toBe(
      [
        'My favorite Slack features (in no particular order):',
        '• Huddles',
        '• Canvas',
        '    • Lists',
        '3. third',
        '4. fourth',
        '> What we need is good examples.',
        '> Second line',
        '```\nif (a &lt; b) {\n  run();\n}x\n```',
      ].join('\n'),
    );
  });

  it('is read back by the tokenizer as the member sees it', () => {
    const message = blocks(
      richSection(
        { type: 'text', text: 'Hey ' },
        { type: 'user', user_id: 'U1' },
        { type: 'text', text: ', see ' },
        { type: 'link', url: 'https://x.example', text: 'the doc' },
        { type: 'text', text: ' in ' },
        { type: 'channel', channel_id: 'C1' },
        { type: 'text', text: ' ' },
        { type: 'emoji', name: '+1', skin_tone: 2 },
        { type: 'text', text: ' a<b', style: { bold: true } },
      ),
    );
    expect(plain(derivedText(message))).toBe('Hey @Ada Lovelace, see the doc in #general 👍🏻 a<b');
  });
});

describe('derivedText: layout blocks', () => {
  it.each<[string, unknown[], string]>([
    [
      'header (plain_text escaped)',
      [{ type: 'header', text: { type: 'plain_text', text: 'Budget <Q3> & more', emoji: true } }],
      'Budget &lt;Q3&gt; &amp; more',
    ],
    [
      'section mrkdwn kept as markup',
      [{ type: 'section', text: { type: 'mrkdwn', text: '*Deploy* to <https://x.example|prod> &amp; done' } }],
      '*Deploy* to <https://x.example|prod> &amp; done',
    ],
    [
      'section with fields and a button accessory',
      [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'You have a new request:\n*<https://x.example/req/1|Fred Enriquez - New device request>*' },
          fields: [
            { type: 'mrkdwn', text: '*Type:*\nComputer (laptop)' },
            { type: 'plain_text', text: 'When: Submitted Aug 10' },
          ],
          accessory: { type: 'button', text: { type: 'plain_text', text: 'Approve' }, value: 'click_me_123', action_id: 'approve' },
        },
      ],
      'You have a new request:\n*<https://x.example/req/1|Fred Enriquez - New device request>*\n*Type:*\nComputer (laptop)\nWhen: Submitted Aug 10\nApprove',
    ],
    [
      'section with a static select accessory: its placeholder',
      [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'Pick an item' },
          accessory: { type: 'static_select', placeholder: { type: 'plain_text', text: 'Select an item' }, options: [] },
        },
      ],
      'Pick an item\nSelect an item',
    ],
    [
      'section with a select accessory and a chosen option',
      [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'Priority' },
          accessory: {
            type: 'static_select',
            placeholder: { type: 'plain_text', text: 'Select' },
            initial_option: { text: { type: 'plain_text', text: 'High' }, value: 'h' },
          },
        },
      ],
      'Priority\nHigh',
    ],
    [
      'section with an overflow accessory says nothing of it',
      [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'Menu' },
          accessory: { type: 'overflow', options: [{ text: { type: 'plain_text', text: 'Option 1' }, value: 'v1' }] },
        },
      ],
      'Menu',
    ],
    [
      'section with an image accessory: its alt text',
      [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'Hotel' },
          accessory: { type: 'image', image_url: 'https://x.example/h.png', alt_text: 'Haunted hotel' },
        },
      ],
      'Hotel\nHaunted hotel',
    ],
    [
      'context: text and image alt text on one line',
      [
        {
          type: 'context',
          elements: [
            { type: 'image', image_url: 'https://x.example/a.png', alt_text: 'Jenkins' },
            { type: 'mrkdwn', text: 'Build *#42* by <@U1>' },
            { type: 'plain_text', text: '3 min' },
          ],
        },
      ],
      'Jenkins Build *#42* by <@U1> 3 min',
    ],
    ['divider', [{ type: 'divider' }, { type: 'section', text: { type: 'mrkdwn', text: 'after' } }], 'after'],
    [
      'image with title',
      [{ type: 'image', title: { type: 'plain_text', text: 'Please enjoy' }, image_url: 'https://x.example/c.jpg', alt_text: 'An incredibly cute kitten.' }],
      'Please enjoy',
    ],
    ['image without title: its alt text', [{ type: 'image', image_url: 'https://x.example/c.jpg', alt_text: 'A cat <3' }], 'A cat &lt;3'],
    [
      'actions: button texts and a select placeholder',
      [
        {
          type: 'actions',
          block_id: 'actionblock789',
          elements: [
            { type: 'button', text: { type: 'plain_text', text: 'Approve' }, style: 'primary', value: 'a' },
            { type: 'button', text: { type: 'plain_text', text: 'Deny' }, style: 'danger', value: 'd' },
            { type: 'datepicker', initial_date: '1990-04-28', placeholder: { type: 'plain_text', text: 'Select a date' } },
            { type: 'users_select', placeholder: { type: 'plain_text', text: 'Assign to' } },
          ],
        },
      ],
      'Approve · Deny · 1990-04-28 · Assign to',
    ],
    ['input: its label', [{ type: 'input', label: { type: 'plain_text', text: 'Reason' }, element: { type: 'plain_text_input', action_id: 'r' } }], 'Reason'],
    [
      'video: its title',
      [
        {
          type: 'video',
          title: { type: 'plain_text', text: 'How to use Slack.' },
          video_url: 'https://www.youtube.com/embed/x',
          thumbnail_url: 'https://i.ytimg.com/x.jpg',
          alt_text: 'How to use Slack?',
        },
      ],
      'How to use Slack.',
    ],
    ['unknown block with a text object', [{ type: 'future_block', text: { type: 'mrkdwn', text: '*new*' } }], '*new*'],
    ['a file block says nothing', [{ type: 'file', external_id: 'ABCD1', source: 'remote' }], 'fallback'],
  ])('%s', (_name, input, expected) => {
    expect(derivedText(blocks(...input))).toBe(expected);
  });

  it('uses Slack text when there are no blocks, or the blocks give nothing', () => {
    expect(derivedText({ text: 'just text' })).toBe('just text');
    expect(derivedText({ text: 'fallback', blocks: [] })).toBe('fallback');
    expect(derivedText({ text: 'fallback', blocks: [{ type: 'divider' }] })).toBe('fallback');
    expect(derivedText({ text: 'fallback', blocks: [{ type: 'header', text: { type: 'plain_text', text: 'Hi' } }] })).toBe('Hi');
    expect(derivedText({})).toBe('');
  });
});

describe('derivedText: attachments', () => {
  const jenkins: SlackAttachment = {
    mrkdwn_in: ['text'],
    color: '#36a64f',
    pretext: 'Optional pre-text that appears above the attachment block',
    author_name: 'author_name',
    author_link: 'http://flickr.com/bobby/',
    author_icon: 'https://placeimg.com/16/16/people',
    title: 'title',
    title_link: 'https://api.slack.com/',
    text: 'Optional `text` that appears within the attachment',
    fields: [
      { title: "A field's title", value: "This field's value", short: false },
      { title: "A short field's title", value: "A short field's value", short: true },
    ],
    thumb_url: 'http://placekitten.com/g/200/200',
    footer: 'footer',
    footer_icon: 'https://platform.slack-edge.com/img/default_application_icon.png',
    ts: 123456789,
    fallback: 'never shown: the attachment has content',
  };

  it.each<[string, Input, string]>([
    [
      "Slack's reference attachment: pretext, author, title, text, fields, footer",
      { text: '', attachments: [jenkins] },
      [
        'Optional pre-text that appears above the attachment block',
        'author_name',
        'title',
        'Optional `text` that appears within the attachment',
        "A field's title: This field's value",
        "A short field's title: A short field's value",
        'footer',
      ].join('\n'),
    ],
    [
      'message text first, then the attachment',
      { text: 'Build finished', attachments: [{ color: 'good', title: 'sift #42 passed' }] },
      'Build finished\nsift #42 passed',
    ],
    [
      'fallback only when nothing else',
      { text: '', attachments: [{ fallback: 'Required plain-text summary', color: 'danger' }] },
      'Required plain-text summary',
    ],
    [
      'a field with only a value or a title',
      { text: '', attachments: [{ fields: [{ value: 'only value' }, { title: 'only title' }] }] },
      'only value\nonly title',
    ],
    [
      'blocks inside an attachment',
      {
        text: 'PagerDuty',
        attachments: [
          {
            color: '#FF0000',
            blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Triggered* <https://pd.example/i/1|#1234 DB down>' } }],
            fallback: 'x',
          },
        ],
      },
      'PagerDuty\n*Triggered* <https://pd.example/i/1|#1234 DB down>',
    ],
    [
      'a link unfurl',
      {
        text: '<https://github.com/o/r/pull/1>',
        attachments: [
          {
            service_name: 'GitHub',
            title: 'Fix the build by ada · Pull Request #1',
            title_link: 'https://github.com/o/r/pull/1',
            text: 'Fixes the flaky test',
            fallback: 'GitHub: Fix…',
          },
        ],
      },
      '<https://github.com/o/r/pull/1>\nFix the build by ada · Pull Request #1\nFixes the flaky test',
    ],
    ['two attachments in order', { text: '', attachments: [{ title: 'one' }, { title: 'two' }] }, 'one\ntwo'],
  ])('%s', (_name, input, expected) => {
    expect(derivedText(input)).toBe(expected);
  });
});

describe('derivedText: files and huddles', () => {
  it.each<[string, Input, string]>([
    ['a file with title', { text: 'here', files: [{ id: 'F1', name: 'report.pdf', title: 'Q3 report', mimetype: 'application/pdf' }] }, 'here\nQ3 report'],
    ['a file with only a name', { text: '', files: [{ id: 'F1', name: 'a<b>.png' }] }, 'a&lt;b&gt;.png'],
    ['a hidden file stub says nothing', { text: 'x', files: [{ id: 'F1', mode: 'hidden_by_limit' }] }, 'x'],
    [
      'a huddle with notes',
      {
        text: 'A huddle happened',
        subtype: 'huddle_thread',
        room: { id: 'R1', name: 'Design sync', canvas: { title: 'Huddle notes', summary: 'Agreed on the <new> layout' } },
      },
      'A huddle happened\nDesign sync\nHuddle notes\nAgreed on the &lt;new&gt; layout',
    ],
    ['a huddle without notes', { text: '', room: { id: 'R1', name: 'Standup' } }, 'Standup'],
  ])('%s', (_name, input, expected) => {
    expect(derivedText(input)).toBe(expected);
  });
});

describe('derivedText: limits and hostile input', () => {
  it('escapes plain text', () => {
    expect(escapeMrkdwn('<a href="x">&</a>')).toBe('&lt;a href="x"&gt;&amp;&lt;/a&gt;');
  });

  it('stops at SLACK_TEXT_LIMIT characters', () => {
    const big = 'x'.repeat(30_000);
    const text = derivedText({ text: big, attachments: [{ text: big }, { text: big }], files: [{ id: 'F', title: big }] });
    expect(text.length).toBeLessThanOrEqual(SLACK_TEXT_LIMIT);
    expect(text.startsWith(big)).toBe(true);
  });

  it('never cuts a surrogate pair in half', () => {
    const text = derivedText({ text: `${'x'.repeat(SLACK_TEXT_LIMIT - 1)}👍` });
    expect(text.length).toBe(SLACK_TEXT_LIMIT - 1);
  });

  it('reads nesting only to depth 8', () => {
    let element: unknown = { type: 'text', text: 'deep' };
    for (let i = 0; i < 50; i++) element = { type: 'rich_text_section', elements: [element] };
    expect(derivedText(blocks({ type: 'rich_text', elements: [element] }))).toBe('fallback');
    let shallow: unknown = { type: 'text', text: 'shallow' };
    for (let i = 0; i < 3; i++) shallow = { type: 'rich_text_section', elements: [shallow] };
    expect(derivedText(blocks({ type: 'rich_text', elements: [shallow] }))).toBe('shallow');
  });

  it('survives a cycle and a throwing getter', () => {
    const cyclic: Record<string, unknown> = { type: 'rich_text_section' };
    cyclic.elements = [cyclic, { type: 'text', text: 'end' }];
    expect(() => derivedText(blocks({ type: 'rich_text', elements: [cyclic] }))).not.toThrow();
    const trap = {
      type: 'section',
      get text(): never {
        throw new Error('boom');
      },
    };
    expect(derivedText({ text: 'x', blocks: [{ type: 'header', text: { type: 'plain_text', text: 'before' } }, trap] as never })).toBe('before');
  });

  it.each<[string, unknown]>([
    ['blocks not an array', { text: 't', blocks: 'nope' }],
    ['null entries', { text: 't', blocks: [null, 1, 'x', []], attachments: [null, 2], files: [null, 'f'] }],
    ['text objects of the wrong type', { text: 't', blocks: [{ type: 'section', text: 5, fields: 'x', accessory: [] }] }],
    ['text not a string', { text: 42 }],
  ])('ignores malformed fields: %s', (_name, input) => {
    expect(() => derivedText(input as Input)).not.toThrow();
    expect(typeof derivedText(input as Input)).toBe('string');
  });

  it('is linear on a 40,000-character hostile input', () => {
    const hostile = '<'.repeat(10_000) + '&'.repeat(10_000) + '*_'.repeat(10_000);
    const many = Array.from({ length: 20_000 }, () => ({ type: 'text', text: '<&>', style: { bold: true } }));
    const started = performance.now();
    derivedText({
      text: hostile,
      blocks: [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: many }] }],
      attachments: [{ text: hostile, fields: [{ title: hostile, value: hostile }] }],
    });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('styles a text with a long run of spaces inside (markers off its edge spaces, no backtracking)', () => {
    const inner = `x${' '.repeat(39_990)}y`;
    expect(derivedText(blocks(richSection({ type: 'text', text: `\t${inner} `, style: { bold: true } })))).toBe(`\t*${inner}* `);
  });

  it('never throws on arbitrary JSON in any position', () => {
    const anyJson = fc.jsonValue({ maxDepth: 6 });
    const typed = fc.record(
      {
        type: fc.constantFrom(
          'rich_text',
          'rich_text_section',
          'rich_text_list',
          'section',
          'context',
          'actions',
          'image',
          'text',
          'link',
          'emoji',
          'date',
          'user',
        ),
        elements: fc.anything(),
        text: fc.anything(),
        style: fc.anything(),
      },
      { requiredKeys: ['type'] },
    );
    const item = fc.oneof(anyJson, fc.anything(), typed, fc.record({ type: fc.constant('rich_text'), elements: fc.array(typed) }));
    fc.assert(
      fc.property(
        fc.record(
          {
            text: fc.anything(),
            blocks: fc.oneof(fc.array(item), item),
            attachments: fc.oneof(fc.array(item), item),
            files: fc.oneof(fc.array(item), item),
            room: item,
          },
          { requiredKeys: [] },
        ),
        (m) => {
          const text = derivedText(m as Input);
          expect(typeof text).toBe('string');
          expect(text.length).toBeLessThanOrEqual(SLACK_TEXT_LIMIT);
          expect(typeof plain(text)).toBe('string');
        },
      ),
      { numRuns: 400 },
    );
  });
});
