import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Token } from '../../src/model/mrkdwn';
import type { SlackContent } from '../../src/model/slack';
import {
  attachmentColor,
  authorName,
  fileIcon,
  humanSize,
  isAppMessage,
  isExternalAuthor,
  renderContent,
  systemLine,
  type AttachmentNode,
  type ContentNames,
  type ContentNode,
} from '../../src/model/slackContent';

type Input = { text?: string; subtype?: string; user?: string } & SlackContent & Record<string, unknown>;

const names: ContentNames = {
  user: (id) => (({ U1: 'Ada Lovelace', U_DANA: 'Dana' }) as Record<string, string | undefined>)[id],
  channel: (id) => (({ C1: 'general' }) as Record<string, string | undefined>)[id],
  usergroup: (id) => (({ S1: 'oncall' }) as Record<string, string | undefined>)[id],
  emoji: (name) => (({ partyparrot: 'https://emoji.example/pp.gif', evil: 'javascript:alert(1)' }) as Record<string, string | undefined>)[name],
  timeZone: 'UTC',
  now: Date.UTC(2014, 1, 18, 16),
  me: 'U_ME',
};

const text = (t: string): Token => ({ kind: 'text', text: t });
const nl: Token = { kind: 'newline' };
const render = (m: Input) => renderContent(m, names);
const one = <K extends ContentNode['kind']>(m: Input, kind: K) => {
  const found = render(m).filter((n): n is Extract<ContentNode, { kind: K }> => n.kind === kind);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const rich = (...elements: unknown[]): Input => ({
  text: 'fallback',
  blocks: [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements }] }] as never,
});

describe('renderContent: text, deleted, edited, me_message', () => {
  it.each<[string, Input, ContentNode[]]>([
    ['plain text', { text: 'hello *there*' }, [{ kind: 'text', me: false, tokens: [text('hello '), { kind: 'bold', children: [text('there')] }] }]],
    ['me_message in italics', { text: 'waves', subtype: 'me_message' }, [{ kind: 'text', me: true, tokens: [text('waves')] }]],
    ['edited', { text: 'fixed', edited: { user: 'U1', ts: '1.2' } }, [{ kind: 'text', me: false, tokens: [text('fixed')] }, { kind: 'edited' }]],
    ['tombstone subtype', { text: 'whatever', subtype: 'tombstone', reactions: [{ name: 'tada', count: 1, users: ['U1'] }] }, [{ kind: 'deleted' }]],
    ['deleted text', { text: 'This message was deleted.' }, [{ kind: 'deleted' }]],
    ['empty', { text: '' }, []],
    ['blocks that are only a divider: the text', { text: 'fb', blocks: [{ type: 'divider' }] }, [{ kind: 'text', me: false, tokens: [text('fb')] }]],
  ])('%s', (_name, input, expected) => {
    expect(render(input)).toEqual(expected);
  });
});

describe('renderContent: system lines', () => {
  it.each<[string, Input, string]>([
    ['join', { subtype: 'channel_join', user: 'U_DANA', text: '<@U_DANA> has joined the channel' }, 'Dana joined the channel'],
    ['leave', { subtype: 'channel_leave', user: 'U_DANA', text: '<@U_DANA> has left the channel' }, 'Dana left the channel'],
    ['group join', { subtype: 'group_join', user: 'U_DANA', text: '' }, 'Dana joined the channel'],
    [
      'topic field',
      { subtype: 'channel_topic', user: 'U_DANA', text: '<@U_DANA> set the channel topic: Q3 *launch*', topic: 'Q3 *launch* in <#C1>' },
      'Dana set the channel topic: Q3 launch in #general',
    ],
    ['topic from text', { subtype: 'channel_topic', user: 'U_DANA', text: '<@U_DANA> set the channel topic: Ship it' }, 'Dana set the channel topic: Ship it'],
    ['topic cleared', { subtype: 'channel_topic', user: 'U_DANA', text: '<@U_DANA> cleared the channel topic', topic: '' }, 'Dana cleared the channel topic'],
    [
      'purpose',
      { subtype: 'channel_purpose', user: 'U_DANA', text: '<@U_DANA> set the channel purpose: Releases', purpose: 'Releases' },
      'Dana set the channel description: Releases',
    ],
    ['rename', { subtype: 'channel_name', user: 'U_DANA', text: '', old_name: 'a', name: 'b' }, 'Dana renamed the channel from "a" to "b"'],
    ['archive', { subtype: 'channel_archive', user: 'U_DANA', text: '<@U_DANA> archived the channel' }, 'Dana archived the channel'],
    ['unarchive', { subtype: 'channel_unarchive', user: 'U_DANA', text: '' }, 'Dana un-archived the channel'],
    ['pin', { subtype: 'pinned_item', user: 'U_DANA', text: '<@U_DANA> pinned a message to this channel.' }, 'Dana pinned a message'],
    ['unpin', { subtype: 'unpinned_item', user: 'U_DANA', text: '' }, 'Dana unpinned a message'],
    [
      'bot_add from bot_link',
      {
        subtype: 'bot_add',
        user: 'U_DANA',
        text: '<@U_DANA> added an integration to this channel: <https://x.slack.com/services/B1|Jenkins>',
        bot_link: '<https://x.slack.com/services/B1|Jenkins>',
      },
      'Dana added an integration to this channel: Jenkins',
    ],
    [
      'bot_add from text',
      { subtype: 'bot_add', user: 'U_DANA', text: '<@U_DANA> added an integration to this channel: <https://x.slack.com/services/B1|Jenkins>' },
      'Dana added an integration to this channel: Jenkins',
    ],
    [
      'bot_remove',
      { subtype: 'bot_remove', user: 'U_DANA', text: '<@U_DANA> removed an integration from this channel: <https://x.slack.com/services/B1|Jenkins>' },
      'Dana removed an integration from this channel: Jenkins',
    ],
    ['unknown author', { subtype: 'channel_join', user: 'U_GONE', text: '' }, 'Someone joined the channel'],
    [
      'an author name with bidi controls',
      { subtype: 'channel_join', user: 'U9', text: '', user_profile: { real_name: 'Ev\u202Eil' } },
      'Evil joined the channel',
    ],
  ])('%s', (_name, input, expected) => {
    expect(render(input)).toEqual([{ kind: 'system', text: expected }]);
    expect(systemLine(input, names)).toBe(expected);
  });
});

describe('renderContent: layout blocks', () => {
  it('header: plain text with emoji codes, never markup', () => {
    expect(one({ text: '', blocks: [{ type: 'header', text: { type: 'plain_text', text: 'Budget *Q3* :tada: <b>', emoji: true } }] }, 'header')).toEqual({
      kind: 'header',
      tokens: [text('Budget *Q3* '), { kind: 'emoji', code: 'tada', char: '🎉' }, text(' <b>')],
    });
  });

  it('section: text, fields side by side, the accessory as a label', () => {
    const node = one(
      {
        text: '',
        blocks: [
          {
            type: 'section',
            text: { type: 'mrkdwn', text: 'You have a new request:\n*<https://x.example/r/1|Fred Enriquez>*' },
            fields: [
              { type: 'mrkdwn', text: '*Type:*\nComputer' },
              { type: 'plain_text', text: 'When: Aug 10' },
            ],
            accessory: { type: 'button', text: { type: 'plain_text', text: 'Approve' }, value: 'v' },
          },
        ],
      },
      'section',
    );
    expect(node).toEqual({
      kind: 'section',
      tokens: [text('You have a new request:'), nl, { kind: 'bold', children: [{ kind: 'link', url: 'https://x.example/r/1', label: 'Fred Enriquez' }] }],
      fields: [[{ kind: 'bold', children: [text('Type:')] }, nl, text('Computer')], [text('When: Aug 10')]],
      accessory: 'Approve',
    });
  });

  it.each<[string, unknown, string | undefined]>([
    ['select placeholder', { type: 'static_select', placeholder: { type: 'plain_text', text: 'Select an item' } }, 'Select an item'],
    [
      'chosen option',
      { type: 'static_select', placeholder: { type: 'plain_text', text: 'Select' }, initial_option: { text: { type: 'plain_text', text: 'High' } } },
      'High',
    ],
    ['overflow', { type: 'overflow', options: [] }, undefined],
    ['image', { type: 'image', image_url: 'https://x.example/i.png', alt_text: 'cute cat' }, 'cute cat'],
    ['an escaped plain text', { type: 'button', text: { type: 'plain_text', text: 'a < b & c' } }, 'a < b & c'],
  ])('section accessory: %s', (_name, accessory, expected) => {
    const node = one({ text: '', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'x' }, accessory } as never] }, 'section');
    expect(node.accessory).toBe(expected);
  });

  it('context: small text and images as their alt text', () => {
    expect(
      one(
        {
          text: '',
          blocks: [
            {
              type: 'context',
              elements: [
                { type: 'image', image_url: 'https://x.example/j.png', alt_text: 'Jenkins' },
                { type: 'mrkdwn', text: 'by <@U1>' },
              ],
            },
          ],
        },
        'context',
      ),
    ).toEqual({
      kind: 'context',
      items: [
        { kind: 'image', alt: 'Jenkins' },
        { kind: 'text', tokens: [text('by '), { kind: 'user', id: 'U1', name: 'Ada Lovelace' }] },
      ],
    });
  });

  it.each<[string, unknown, ContentNode | null]>([
    ['divider', { type: 'divider' }, { kind: 'divider' }],
    [
      'image with title and url',
      { type: 'image', title: { type: 'plain_text', text: 'Please enjoy' }, image_url: 'https://x.example/c.jpg', alt_text: 'A kitten' },
      { kind: 'image', alt: 'A kitten', title: 'Please enjoy', url: 'https://x.example/c.jpg' },
    ],
    ['image with a javascript: url', { type: 'image', image_url: 'javascript:alert(1)', alt_text: 'A kitten' }, { kind: 'image', alt: 'A kitten' }],
    ['image with a mailto: url (not an image)', { type: 'image', image_url: 'mailto:a@b.example', alt_text: 'x' }, { kind: 'image', alt: 'x' }],
    ['image with a data: url', { type: 'image', image_url: 'data:image/png;base64,AAAA', alt_text: 'x' }, { kind: 'image', alt: 'x' }],
    [
      'actions as labels',
      {
        type: 'actions',
        elements: [
          { type: 'button', text: { type: 'plain_text', text: 'Approve' } },
          { type: 'button', text: { type: 'plain_text', text: 'Deny' } },
          { type: 'users_select', placeholder: { type: 'plain_text', text: 'Assign' } },
        ],
      },
      { kind: 'controls', labels: ['Approve', 'Deny', 'Assign'] },
    ],
    [
      'input label',
      { type: 'input', label: { type: 'plain_text', text: 'Reason' }, element: { type: 'plain_text_input' } },
      { kind: 'input', label: 'Reason' },
    ],
    [
      'video',
      {
        type: 'video',
        title: { type: 'plain_text', text: 'How to use Slack.' },
        title_url: 'https://www.youtube.com/watch?v=x',
        video_url: 'https://www.youtube.com/embed/x',
        alt_text: 'How?',
      },
      { kind: 'video', title: 'How to use Slack.', url: 'https://www.youtube.com/watch?v=x' },
    ],
    [
      'video with a javascript: url',
      { type: 'video', title: { type: 'plain_text', text: 'T' }, title_url: 'javascript:x', video_url: 'javascript:y' },
      { kind: 'video', title: 'T' },
    ],
    [
      'unknown block with text',
      { type: 'future', text: { type: 'mrkdwn', text: '*new*' } },
      { kind: 'section', tokens: [{ kind: 'bold', children: [text('new')] }], fields: [] },
    ],
    ['file block', { type: 'file', external_id: 'X', source: 'remote' }, null],
  ])('%s', (_name, block, expected) => {
    const nodes = render({ text: 'fb', blocks: [{ type: 'section', text: { type: 'plain_text', text: 'first' } }, block] as never });
    expect(nodes.slice(1)).toEqual(expected ? [expected] : []);
  });
});

describe('renderContent: rich_text', () => {
  it.each<[string, unknown, Token[]]>([
    [
      'styles',
      { type: 'text', text: 'b', style: { bold: true, italic: true, strike: true } },
      [{ kind: 'bold', children: [{ kind: 'italic', children: [{ kind: 'strike', children: [text('b')] }] }] }],
    ],
    ['inline code is verbatim', { type: 'text', text: '*x* <@U1>', style: { code: true } }, [{ kind: 'code', text: '*x* <@U1>' }]],
    ['text is never markup', { type: 'text', text: '*not bold* <https://x.example|y> &amp;' }, [text('*not bold* <https://x.example|y> &amp;')]],
    ['newlines', { type: 'text', text: 'a\nb' }, [text('a'), nl, text('b')]],
    ['link', { type: 'link', url: 'https://x.example', text: 'site' }, [{ kind: 'link', url: 'https://x.example', label: 'site' }]],
    [
      'bold link',
      { type: 'link', url: 'https://x.example', style: { bold: true } },
      [{ kind: 'bold', children: [{ kind: 'link', url: 'https://x.example', label: 'https://x.example' }] }],
    ],
    ['javascript: link is text', { type: 'link', url: 'javascript:alert(1)', text: 'click' }, [text('click')]],
    [
      'link label bidi stripped',
      { type: 'link', url: 'https://x.example', text: 'inv\u202Efdp.exe' },
      [{ kind: 'link', url: 'https://x.example', label: 'invfdp.exe' }],
    ],
    ['user', { type: 'user', user_id: 'U1' }, [{ kind: 'user', id: 'U1', name: 'Ada Lovelace' }]],
    ['channel', { type: 'channel', channel_id: 'C1' }, [{ kind: 'channel', id: 'C1', name: 'general' }]],
    ['usergroup', { type: 'usergroup', usergroup_id: 'S1' }, [{ kind: 'broadcast', name: 'oncall' }]],
    ['broadcast', { type: 'broadcast', range: 'here' }, [{ kind: 'broadcast', name: 'here' }]],
    ['emoji', { type: 'emoji', name: 'tada', unicode: '1f389' }, [{ kind: 'emoji', code: 'tada', char: '🎉' }]],
    ['emoji with skin tone', { type: 'emoji', name: 'wave', unicode: '1f44b-1f3fd', skin_tone: 4 }, [{ kind: 'emoji', code: 'wave::skin-tone-4', char: '👋🏽' }]],
    ['custom emoji', { type: 'emoji', name: 'partyparrot' }, [{ kind: 'emoji', code: 'partyparrot', char: null, url: 'https://emoji.example/pp.gif' }]],
    [
      'unknown name with its unicode',
      { type: 'emoji', name: 'some_new_face', unicode: '1fae8' },
      [{ kind: 'emoji', code: 'some_new_face', char: '\u{1FAE8}' }],
    ],
    [
      'date in the member zone',
      { type: 'date', timestamp: 1392734382, format: '{date_short_pretty} at {time}', fallback: 'Feb 18' },
      [text('Today at 2:39 PM')],
    ],
    ['date without a timestamp', { type: 'date', format: '{date}', fallback: 'Feb 18' }, [text('Feb 18')]],
  ])('%s', (_name, element, expected) => {
    expect(one(rich(element), 'rich_text').parts).toEqual([{ kind: 'paragraph', tokens: expected }]);
  });

  it('reads a composer message: paragraph, lists with indent and offset, quote, preformatted', () => {
    const node = one(
      {
        text: 'fallback',
        blocks: [
          {
            type: 'rich_text',
            elements: [
              { type: 'rich_text_section', elements: [{ type: 'text', text: 'Features:\n' }] },
              {
                type: 'rich_text_list',
                style: 'bullet',
                indent: 0,
                elements: [
                  { type: 'rich_text_section', elements: [{ type: 'text', text: 'Huddles' }] },
                  { type: 'rich_text_section', elements: [{ type: 'text', text: 'Canvas' }] },
                ],
              },
              { type: 'rich_text_list', style: 'bullet', indent: 1, elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'Lists' }] }] },
              { type: 'rich_text_list', style: 'ordered', offset: 2, elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'third' }] }] },
              {
                type: 'rich_text_quote',
                elements: [
                  { type: 'text', text: 'Quoted ' },
                  { type: 'user', user_id: 'U1' },
                ],
              },
              {
                type: 'rich_text_preformatted',
                elements: [
                  { type: 'text', text: 'if (a < b) {\n  *x*\n}' },
                  { type: 'link', url: 'https://x.example' },
                ],
              },
            ],
          },
        ] as never,
      },
      'rich_text',
    );
    expect(node.parts).toEqual([
      { kind: 'paragraph', tokens: [text('Features:')] },
      { kind: 'list', ordered: false, indent: 0, start: 1, items: [[text('Huddles')], [text('Canvas')]] },
      { kind: 'list', ordered: false, indent: 1, start: 1, items: [[text('Lists')]] },
      { kind: 'list', ordered: true, indent: 0, start: 3, items: [[text('third')]] },
      { kind: 'quote', tokens: [text('Quoted '), { kind: 'user', id: 'U1', name: 'Ada Lovelace' }] },
      { kind: 'pre', text: 'if (a < b) {\n  *x*\n}https://x.example' },
    ]);
  });

  it('shows the blocks, not the text, when both are there', () => {
    expect(render(rich({ type: 'text', text: 'from blocks' }))).toEqual([{ kind: 'rich_text', parts: [{ kind: 'paragraph', tokens: [text('from blocks')] }] }]);
  });
});

describe('renderContent: attachments', () => {
  const reference = {
    mrkdwn_in: ['text'],
    color: '#36a64f',
    pretext: 'Optional *pre-text*',
    author_name: 'author_name',
    author_link: 'http://flickr.com/bobby/',
    author_icon: 'https://placeimg.com/16/16/people',
    title: 'title &amp; more',
    title_link: 'https://api.slack.com/',
    text: 'Optional `text`',
    fields: [
      { title: "A field's title", value: "This field's value", short: false },
      { title: 'Short', value: '*v*', short: true },
    ],
    image_url: 'https://x.example/big.png',
    footer: 'footer',
    footer_icon: 'https://platform.slack-edge.com/img/default_application_icon.png',
    ts: 123456789,
    actions: [{ type: 'button', text: 'Acknowledge', url: 'https://pd.example/ack' }],
    fallback: 'never shown',
  };

  it("reads Slack's reference attachment", () => {
    expect(one({ text: '', attachments: [reference as never] }, 'attachment')).toEqual({
      kind: 'attachment',
      color: '#36a64f',
      pretext: [text('Optional '), { kind: 'bold', children: [text('pre-text')] }],
      author: { name: 'author_name', url: 'http://flickr.com/bobby/' },
      title: { text: 'title & more', url: 'https://api.slack.com/' },
      text: [text('Optional '), { kind: 'code', text: 'text' }],
      fields: [
        { title: "A field's title", value: [text("This field's value")], short: false },
        { title: 'Short', value: [{ kind: 'bold', children: [text('v')] }], short: true },
      ],
      image: { alt: 'title & more', url: 'https://x.example/big.png' },
      blocks: [],
      controls: ['Acknowledge'],
      footer: [text('footer')],
      time: 123456789000,
    } satisfies AttachmentNode);
  });

  it('links only to safe URLs', () => {
    const node = one(
      {
        text: '',
        attachments: [{ title: 't', title_link: 'javascript:alert(1)', author_name: 'a', author_link: 'data:text/html,x', image_url: 'javascript:x' }],
      },
      'attachment',
    );
    expect(node.title).toEqual({ text: 't' });
    expect(node.author).toEqual({ name: 'a' });
    expect(node.image).toBeUndefined();
  });

  it.each<[unknown, string | undefined]>([
    ['good', '#2eb886'],
    ['warning', '#daa038'],
    ['danger', '#a30200'],
    ['#36a64f', '#36a64f'],
    ['#ABC', '#aabbcc'],
    ['439FE0', '#439fe0'],
    ['red', undefined],
    ['#12345', undefined],
    ['#1234567', undefined],
    ['#abc;background:url(x)', undefined],
    ['var(--x)', undefined],
    ['rgb(1,2,3)', undefined],
    [42, undefined],
    [null, undefined],
  ])('colour %j is %j', (color, expected) => {
    expect(attachmentColor(color)).toBe(expected);
  });

  it.each<[string, unknown, Partial<AttachmentNode> | null]>([
    ['fallback only when nothing else', { fallback: 'Summary', color: 'danger' }, { color: '#a30200', text: [text('Summary')] }],
    [
      'blocks inside',
      { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Triggered*' } }], fallback: 'x' },
      { blocks: [{ kind: 'section', tokens: [{ kind: 'bold', children: [text('Triggered')] }], fields: [] }] },
    ],
    ['a string ts', { title: 't', ts: '1392734382' }, { time: 1392734382000 }],
    ['a bad ts', { title: 't', ts: 'soon' }, { time: undefined }],
    ['nothing at all', { color: 'good' }, null],
  ])('%s', (_name, attachment, expected) => {
    const nodes = render({ text: '', attachments: [attachment as never] });
    if (expected === null) expect(nodes).toEqual([]);
    else for (const [key, value] of Object.entries(expected)) expect((nodes[0] as unknown as Record<string, unknown>)[key]).toEqual(value);
  });
});

describe('renderContent: files, huddles, reactions', () => {
  it.each<[unknown, Partial<ContentNode>]>([
    [
      {
        id: 'F1',
        name: 'IMG_1.png',
        title: 'Screenshot',
        mimetype: 'image/png',
        filetype: 'png',
        size: 1_258_291,
        permalink: 'https://x.slack.com/files/U1/F1/img_1.png',
      },
      { icon: 'image', title: 'Screenshot', size: '1.2 MB', url: 'https://x.slack.com/files/U1/F1/img_1.png', available: true },
    ],
    [
      { id: 'F2', name: 'report.pdf', mimetype: 'application/pdf', filetype: 'pdf', size: 532_000 },
      { icon: 'pdf', title: 'report.pdf', size: '520 KB' },
    ],
    [
      { id: 'F3', name: 'snippet.txt', mimetype: 'text/plain', filetype: 'text', mode: 'snippet', size: 12 },
      { icon: 'code', size: '12 B' },
    ],
    [{ id: 'F4', name: 'a.zip', mimetype: 'application/zip', filetype: 'zip' }, { icon: 'archive' }],
    [{ id: 'F5', name: 'a.docx', mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', filetype: 'docx' }, { icon: 'doc' }],
    [{ id: 'F6', name: 'a.mp4', mimetype: 'video/mp4' }, { icon: 'video' }],
    [{ id: 'F7', name: 'a.m4a', mimetype: 'audio/mp4' }, { icon: 'audio' }],
    [
      { id: 'F8', name: 'a.bin', mimetype: 'application/octet-stream', permalink: 'javascript:alert(1)' },
      { icon: 'generic', url: undefined },
    ],
    [
      { id: 'F9', mode: 'hidden_by_limit' },
      { title: 'This file is not available.', available: false },
    ],
    [
      { id: 'F10', mode: 'tombstone' },
      { title: 'This file was deleted.', available: false },
    ],
    [{ id: 'F11', name: 'bi\u202Edi.exe' }, { title: 'bidi.exe' }],
  ])('file %j', (file, expected) => {
    const node = one({ text: 'x', files: [file as never] }, 'file') as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(expected)) expect(node[key]).toEqual(value);
  });

  it('a huddle room with notes', () => {
    expect(one({ text: '', room: { name: 'Design sync', canvas: { title: 'Notes', summary: 'Agreed' } } }, 'huddle')).toEqual({
      kind: 'huddle',
      name: 'Design sync',
      notesTitle: 'Notes',
      summary: 'Agreed',
    });
  });

  it('reactions: characters with skin tones, custom emoji, counts, mine', () => {
    const node = one(
      {
        text: 'x',
        reactions: [
          { name: 'tada', count: 3, users: ['U1', 'U_ME', 'U2'] },
          { name: '+1::skin-tone-2', count: 1, users: ['U1'] },
          { name: 'partyparrot', count: 2, users: ['U1', 'U2'] },
          { name: 'evil', count: 1, users: ['U_ME'] },
          { name: 'zero', count: 0, users: [] },
          { name: '<script>', count: 1, users: [] },
        ],
      },
      'reactions',
    );
    expect(node.items).toEqual([
      { name: 'tada', char: '🎉', count: 3, mine: true },
      { name: '+1::skin-tone-2', char: '👍🏻', count: 1, mine: false },
      { name: 'partyparrot', char: null, url: 'https://emoji.example/pp.gif', count: 2, mine: false },
      { name: 'evil', char: null, count: 1, mine: true },
    ]);
  });

  it.each<[number, string | undefined]>([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [10 * 1024 * 1024, '10 MB'],
    [3 * 1024 ** 3, '3 GB'],
    [-1, undefined],
    [NaN, undefined],
  ])('humanSize(%s) is %j', (bytes, expected) => {
    expect(humanSize(bytes)).toBe(expected);
  });

  it('fileIcon reads the filetype when the MIME type says nothing', () => {
    expect(fileIcon('', 'pdf')).toBe('pdf');
    expect(fileIcon('application/octet-stream', 'python')).toBe('code');
    expect(fileIcon('', '')).toBe('generic');
  });
});

describe('authors', () => {
  it.each<[string, Input, string | undefined]>([
    ['the user record first', { user: 'U1', bot_profile: { name: 'Bot' }, username: 'hook' }, 'Ada Lovelace'],
    ['the bot profile', { user: 'U_BOT', bot_id: 'B1', bot_profile: { name: 'Jenkins' }, username: 'hook' }, 'Jenkins'],
    ['the webhook username', { bot_id: 'B1', subtype: 'bot_message', username: 'deploy-bot' }, 'deploy-bot'],
    ['the external profile', { user: 'U_EXT', user_team: 'T2', user_profile: { real_name: 'Erin External', display_name: 'erin' } }, 'Erin External'],
    ['the external display name', { user: 'U_EXT', user_profile: { real_name: '', display_name: 'erin' } }, 'erin'],
    ['nothing', { user: 'U_GONE' }, undefined],
    ['hostile types', { user: 5, bot_profile: 'x', username: {} } as never, undefined],
  ])('%s', (_name, input, expected) => {
    expect(authorName(input, names)).toBe(expected);
  });

  it('app and external markers', () => {
    expect(isAppMessage({ bot_id: 'B1' })).toBe(true);
    expect(isAppMessage({ subtype: 'bot_message' })).toBe(true);
    expect(isAppMessage({ user: 'U1' })).toBe(false);
    expect(isExternalAuthor({ user_team: 'T2' }, true, 'T1')).toBe(true);
    expect(isExternalAuthor({ user_team: 'T1' }, true, 'T1')).toBe(false);
    expect(isExternalAuthor({ user_team: 'T2', team: 'T1' }, true)).toBe(true);
    expect(isExternalAuthor({ user_team: 'T2' }, true)).toBe(false);
    expect(isExternalAuthor({ user_profile: { real_name: 'E' } }, false)).toBe(true);
    expect(isExternalAuthor({ user_profile: { real_name: 'E' } }, true)).toBe(false);
  });
});

describe('renderContent: hostile input', () => {
  it('renders a 40,000-character attachment text quickly and within the budget', () => {
    const long = '*a _b ~c <'.repeat(4_000);
    const started = performance.now();
    const nodes = render({ text: long, attachments: [{ text: long, fields: [{ title: long, value: long }] }, { text: long }] });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(nodes.length).toBeGreaterThan(0);
  });

  it('survives a throwing getter and cycles', () => {
    const cyclic: Record<string, unknown> = { type: 'rich_text_section' };
    cyclic.elements = [cyclic];
    const trap = {
      get text(): never {
        throw new Error('boom');
      },
    };
    expect(() => render({ text: 'x', blocks: [{ type: 'rich_text', elements: [cyclic] }] as never })).not.toThrow();
    expect(render({ text: 'kept', attachments: [trap as never] })).toEqual([{ kind: 'text', me: false, tokens: [text('kept')] }]);
  });

  it('never throws on arbitrary JSON, and every href and image is safe', () => {
    const typed = fc.record(
      {
        type: fc.constantFrom(
          'rich_text',
          'rich_text_section',
          'rich_text_list',
          'rich_text_quote',
          'rich_text_preformatted',
          'section',
          'context',
          'actions',
          'image',
          'video',
          'header',
          'text',
          'link',
          'emoji',
          'date',
          'user',
        ),
        elements: fc.anything(),
        text: fc.oneof(fc.anything(), fc.record({ type: fc.constantFrom('mrkdwn', 'plain_text'), text: fc.string() })),
        url: fc.constantFrom('javascript:alert(1)', 'https://ok.example', 'data:x', 'mailto:a@b.c'),
        image_url: fc.constantFrom('javascript:alert(1)', 'https://ok.example/i.png', 'mailto:a@b.c'),
        style: fc.anything(),
      },
      { requiredKeys: ['type'] },
    );
    const item = fc.oneof(fc.jsonValue({ maxDepth: 5 }), fc.anything(), typed, fc.record({ type: fc.constant('rich_text'), elements: fc.array(typed) }));
    const list = fc.oneof(fc.array(item, { maxLength: 6 }), item);
    const message = fc.record(
      {
        text: fc.anything(),
        subtype: fc.oneof(fc.constantFrom('me_message', 'channel_topic', 'bot_add', 'tombstone', 'bot_message'), fc.anything()),
        blocks: list,
        attachments: list,
        files: list,
        reactions: list,
        room: item,
        edited: item,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(message, (m) => {
        const nodes = renderContent(m as Input, names);
        expect(Array.isArray(nodes)).toBe(true);
        const json = JSON.stringify(nodes);
        expect(json).not.toMatch(/"url":"(?!https?:|mailto:)/i);
      }),
      { numRuns: 400 },
    );
  });
});
