/**
 * The body of a desktop notification for a message (SPEC §5, "Notification body formatting").
 *
 * Built on the mrkdwn tokens, so it reads the markup exactly as the message view does:
 * - a ```pre``` block becomes `[code block]`; inline code keeps its text without the backticks;
 * - emphasis (`*bold*`, `_italic_`, `~strike~`) keeps its text without the markers; markers that
 *   are not emphasis by Slack's rules (`snake_case`, `2*3`) stay as typed;
 * - a user mention becomes `@name` (the lookup, else the mention's own label, else `@user`);
 *   a channel mention `#name` (the lookup, else the label, else `#channel`);
 *   `<!here>`, `<!channel>`, `<!everyone>` and user groups stay as `@here` … `@team`;
 * - other tags are removed: a link with a label keeps only the label (with the real host beside it
 *   when the label names another address, as model/linkSafety shows links), a bare `<https://…>`
 *   link is removed whole, `<!date^…|fallback>` keeps its fallback; links of other schemes keep
 *   their label;
 * - emoji short codes become their character (unknown ones stay `:code:`), quotes lose their `>`;
 * - entities decoded once, bidi and control characters removed (stripBidi), whitespace folded to
 *   single spaces, trimmed;
 * - longer than 100 characters (NOTIFICATION_TEXT_LIMIT, counted in code points so an emoji is
 *   never split): the first 97 and '...';
 * - an empty result is 'New message'.
 * The title, '{author} in {conversation}', is cleaned the same way (`notificationTitle`).
 */
import { NOTIFICATION_TEXT_LIMIT } from './constants';
import { linkPresentation, linkText, stripBidi } from './linkSafety';
import { tokenize, type MrkdwnNames, type Token } from './mrkdwn';

export const NOTIFICATION_EMPTY_BODY = 'New message';
const CODE_BLOCK = '[code block]';
const ELLIPSIS = '...';

function render(tokens: Token[], names: MrkdwnNames): string {
  let out = '';
  for (const t of tokens) {
    switch (t.kind) {
      case 'text':
      case 'code':
        out += t.text;
        break;
      case 'pre':
        out += ` ${CODE_BLOCK} `;
        break;
      case 'bold':
      case 'italic':
      case 'strike':
      case 'quote':
        out += render(t.children, names);
        break;
      case 'user': {
        // The token's name falls back to the id; a notification says '@user' instead.
        const known = Boolean(names.user(t.id)) || t.name !== t.id;
        out += `@${known ? t.name : 'user'}`;
        break;
      }
      case 'channel': {
        const known = Boolean(names.channel?.(t.id)) || t.name !== t.id;
        out += `#${known ? t.name : 'channel'}`;
        break;
      }
      case 'broadcast':
        out += `@${t.name}`;
        break;
      case 'link':
        // A labelled link keeps its label; a bare link (label = its URL) is a tag, and removed.
        if (t.label !== t.url) out += linkText(linkPresentation(t.url, t.label));
        break;
      case 'emoji':
        out += t.char ?? `:${t.code}:`;
        break;
      case 'newline':
        out += ' ';
        break;
    }
  }
  return out;
}

/** Text for a notification: no bidi or control characters, whitespace folded, trimmed. */
function oneLine(text: string): string {
  return stripBidi(text).replace(/\s+/g, ' ').trim();
}

/** A notification's title: '{author} in {conversation}', each name on one line without bidi or control characters. */
export function notificationTitle(author: string, conversation: string): string {
  return `${oneLine(author)} in ${oneLine(conversation)}`;
}

/** A message's text as a notification body: plain, one line, at most 100 characters. */
export function notificationBody(text: string, names: MrkdwnNames): string {
  const body = oneLine(render(tokenize(text, names), names));
  if (!body) return NOTIFICATION_EMPTY_BODY;
  const chars = Array.from(body);
  if (chars.length <= NOTIFICATION_TEXT_LIMIT) return body;
  return chars.slice(0, NOTIFICATION_TEXT_LIMIT - ELLIPSIS.length).join('') + ELLIPSIS;
}
