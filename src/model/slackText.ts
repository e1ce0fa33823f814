/**
 * Everything a member can read in a Slack message, as one text in Slack markup (mrkdwn): what
 * previews, search, notifications and the AI read (`Message.resolved_text`). Pure; never throws.
 *
 * What it reads, in this order, one part per line:
 * - Block Kit blocks: header; section text, fields and its accessory's text (a button's text, a
 *   select's chosen option or placeholder, an image's alt text); context texts and image alt texts;
 *   rich_text (sections, lists as '• ' / '1. ' lines indented by level, quotes as '> ' lines,
 *   preformatted as ```…```, and inline text, links, mentions, broadcasts, emoji with skin tones,
 *   dates); an image's title or alt text; actions' element texts; an input's label; a video's title;
 *   any other block's `text`.
 * - Slack's `text`, only when there are no blocks or the blocks give nothing (it is their fallback).
 * - Each attachment: pretext, author, title, text, fields as 'Title: value', its blocks, footer;
 *   its fallback only when it has nothing else.
 * - Files: title, else name. A huddle's room: name, then its notes' title and summary.
 *
 * plain_text objects and other plain strings of Block Kit (alt texts, rich text, file names) are
 * not markup: their `&`, `<`, `>` are escaped as Slack escapes them. mrkdwn objects and the legacy
 * attachment strings are markup already and kept as they are.
 *
 * Every field is untrusted JSON of any type: each access is guarded, nesting is read to depth 8,
 * the output stops at 40,000 characters (SLACK_TEXT_LIMIT), and the work is linear in the input.
 */
import type { SlackContent } from './slack';

export const SLACK_TEXT_LIMIT = 40_000;
/** How deep nested blocks, attachments' blocks and rich text elements are read. */
export const SLACK_MAX_DEPTH = 8;

/* ------------------------------------------------------------------------------------------ */
/* Guards over untrusted JSON                                                                  */

export type Json = Record<string, unknown>;

/** The value when it is a string, else ''. */
export function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The value when it is an array, else an empty one. */
export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value when it is a plain object (not an array), else null. */
export function asRecord(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

/** A finite number, or a numeric string; else undefined. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^-?\d+(?:\.\d+)?$/.test(value.trim())) return Number(value);
  return undefined;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Plain text as Slack markup: `&`, `<`, `>` escaped, so none of it is read as a tag. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/[&<>]/g, (c) => ESCAPES[c]!);
}

/** A Block Kit text object's text as markup: mrkdwn as it is, plain_text (or a bare string) escaped. */
export function textObjectMrkdwn(value: unknown): string {
  if (typeof value === 'string') return escapeMrkdwn(value);
  const obj = asRecord(value);
  if (!obj) return '';
  const text = asString(obj.text);
  return obj.type === 'mrkdwn' ? text : escapeMrkdwn(text);
}

/* ------------------------------------------------------------------------------------------ */
/* Output with a budget                                                                        */

/** Parts of the text, stopping once the limit is reached (so huge inputs cost no more work). */
class Parts {
  readonly lines: string[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  get full(): boolean {
    return this.length >= this.limit;
  }

  push(text: string): void {
    if (!text || this.full) return;
    const room = this.limit - this.length;
    const part = text.length > room ? cutAt(text, room) : text;
    this.lines.push(part);
    this.length += part.length + 1;
  }

  text(): string {
    return this.lines.join('\n');
  }
}

/** The first `n` UTF-16 units, without a dangling high surrogate. */
function cutAt(text: string, n: number): string {
  const cut = text.slice(0, Math.max(0, n));
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/* ------------------------------------------------------------------------------------------ */
/* Rich text                                                                                   */

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const BROADCAST_RANGES = new Set(['here', 'channel', 'everyone']);
const EMOJI_NAME = /^[A-Za-z0-9_+'-]{1,100}$/;
const DATE_FORMAT_UNSAFE = /[|<>^\n]/;

/** Markers around styled text, kept off its edge spaces so mrkdwn still reads them. */
function styled(text: string, style: unknown): string {
  const s = asRecord(style);
  if (!s || !text.trim()) return text;
  // trimStart/trimEnd drop what `\s` matches; `/\s*$/` re-read a run of spaces from each start in it.
  const lead = text.slice(0, text.length - text.trimStart().length);
  const trail = text.slice(text.trimEnd().length);
  let core = text.slice(lead.length, text.length - trail.length);
  if (s.code === true) core = `\`${core}\``;
  if (s.strike === true) core = `~${core}~`;
  if (s.italic === true) core = `_${core}_`;
  if (s.bold === true) core = `*${core}*`;
  return lead + core + trail;
}

/** A link target safe inside `<…>`: escaped, with '|' percent-encoded. */
function linkTarget(url: string): string {
  return escapeMrkdwn(url).replace(/\|/g, '%7C');
}

/** One inline rich text element (text, link, mention, emoji, date…) as markup. */
export function richInlineMrkdwn(element: unknown, verbatim = false): string {
  const el = asRecord(element);
  if (!el) return '';
  const text = asString(el.text);
  switch (el.type) {
    case 'text':
      return verbatim ? escapeMrkdwn(text) : styled(escapeMrkdwn(text), el.style);
    case 'link': {
      const url = asString(el.url);
      if (verbatim || !url) return escapeMrkdwn(text || url);
      return styled(text ? `<${linkTarget(url)}|${escapeMrkdwn(text)}>` : `<${linkTarget(url)}>`, el.style);
    }
    case 'user':
      return mention('@', el.user_id);
    case 'channel':
      return mention('#', el.channel_id);
    case 'usergroup':
      return mention('!subteam^', el.usergroup_id);
    case 'broadcast': {
      const range = asString(el.range);
      return BROADCAST_RANGES.has(range) ? `<!${range}>` : '';
    }
    case 'emoji':
      return emojiCode(el);
    case 'date':
      return dateTag(el);
    case 'color':
      return escapeMrkdwn(asString(el.value));
    default:
      return escapeMrkdwn(text);
  }
}

function mention(sigil: string, id: unknown): string {
  const value = asString(id);
  return ID.test(value) ? `<${sigil}${value}>` : '';
}

/** `:name:`, with `:skin-tone-N:` after it for a tone of 2…6. */
function emojiCode(el: Json): string {
  const name = asString(el.name);
  if (!EMOJI_NAME.test(name)) return escapeMrkdwn(asString(el.unicode) ? '' : name);
  const tone = asNumber(el.skin_tone);
  return tone !== undefined && Number.isInteger(tone) && tone >= 2 && tone <= 6 ? `:${name}::skin-tone-${tone}:` : `:${name}:`;
}

/** `<!date^ts^format(^url)|fallback>`; the fallback alone when the parts would not parse. */
function dateTag(el: Json): string {
  const ts = asNumber(el.timestamp);
  const format = asString(el.format);
  const fallback = escapeMrkdwn(asString(el.fallback)).replace(/[|>]/g, ' ');
  if (ts === undefined || !Number.isInteger(ts) || !format || DATE_FORMAT_UNSAFE.test(format)) return fallback;
  const url = asString(el.url);
  const link = url && !DATE_FORMAT_UNSAFE.test(url) ? `^${linkTarget(url)}` : '';
  return `<!date^${ts}^${escapeMrkdwn(format)}${link}|${fallback}>`;
}

/** The inline elements of a section, quote or preformatted block, as one text. */
function richInlines(elements: unknown, verbatim: boolean, depth: number): string {
  let out = '';
  for (const element of asArray(elements)) {
    if (out.length >= SLACK_TEXT_LIMIT) break;
    const el = asRecord(element);
    // A block element where an inline one belongs (seen from some apps): read it as a block.
    out += el && isRichBlockType(el.type) ? richBlockMrkdwn(el, depth + 1) : richInlineMrkdwn(el, verbatim);
  }
  return out;
}

function isRichBlockType(type: unknown): boolean {
  return type === 'rich_text_section' || type === 'rich_text_list' || type === 'rich_text_quote' || type === 'rich_text_preformatted';
}

/** One line without its last newline: sections often end with one before a list or quote. */
function chompNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** A rich_text child (section, list, quote, preformatted) as markup lines. */
export function richBlockMrkdwn(element: unknown, depth = 0): string {
  const el = asRecord(element);
  if (!el || depth > SLACK_MAX_DEPTH) return '';
  switch (el.type) {
    case 'rich_text_section':
      return chompNewline(richInlines(el.elements, false, depth));
    case 'rich_text_list':
      return richListMrkdwn(el, depth);
    case 'rich_text_quote':
      return chompNewline(richInlines(el.elements, false, depth))
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n');
    case 'rich_text_preformatted': {
      const body = chompNewline(richInlines(el.elements, true, depth));
      return body ? `\`\`\`\n${body}\n\`\`\`` : '';
    }
    default:
      return escapeMrkdwn(asString(el.text));
  }
}

/** A list's items, one per line: '• ' or 'N. ' (from offset + 1), four spaces per indent level. */
function richListMrkdwn(list: Json, depth: number): string {
  const indentLevel = asNumber(list.indent);
  const indent = '    '.repeat(indentLevel !== undefined && indentLevel > 0 ? Math.min(8, Math.floor(indentLevel)) : 0);
  const offset = asNumber(list.offset);
  const first = offset !== undefined && offset > 0 ? Math.floor(offset) + 1 : 1;
  const ordered = list.style === 'ordered';
  const lines: string[] = [];
  for (const item of asArray(list.elements)) {
    const text = richBlockMrkdwn(item, depth + 1);
    if (!text) continue;
    const bullet = ordered ? `${first + lines.length}. ` : '• ';
    lines.push(`${indent}${bullet}${text}`);
  }
  return lines.join('\n');
}

/* ------------------------------------------------------------------------------------------ */
/* Blocks                                                                                      */

/**
 * What an interactive element says: a button's text, a select's chosen option or placeholder,
 * a date picker's date, an image's alt text.
 */
export function elementMrkdwn(element: unknown): string {
  const el = asRecord(element);
  if (!el) return '';
  if (el.type === 'image') return escapeMrkdwn(asString(el.alt_text));
  const text = textObjectMrkdwn(el.text);
  if (text) return text;
  const chosen = asRecord(el.initial_option);
  if (chosen) return textObjectMrkdwn(chosen.text);
  const date = asString(el.initial_date) || asString(el.initial_time);
  if (date) return escapeMrkdwn(date);
  return textObjectMrkdwn(el.placeholder);
}

function joinNonEmpty(parts: string[], separator: string): string {
  return parts.filter(Boolean).join(separator);
}

/** One block's text as markup ('' for a divider or a block that says nothing). */
export function blockMrkdwn(block: unknown, depth = 0): string {
  const b = asRecord(block);
  if (!b || depth > SLACK_MAX_DEPTH) return '';
  switch (b.type) {
    case 'header':
      return textObjectMrkdwn(b.text);
    case 'section':
      return joinNonEmpty([textObjectMrkdwn(b.text), ...asArray(b.fields).map(textObjectMrkdwn), elementMrkdwn(b.accessory)], '\n');
    case 'context':
      return joinNonEmpty(
        asArray(b.elements).map((e) => (asRecord(e)?.type === 'image' ? elementMrkdwn(e) : textObjectMrkdwn(e))),
        ' ',
      );
    case 'divider':
      return '';
    case 'rich_text':
      return joinNonEmpty(
        asArray(b.elements).map((e) => richBlockMrkdwn(e, depth + 1)),
        '\n',
      );
    case 'image':
      return textObjectMrkdwn(b.title) || escapeMrkdwn(asString(b.alt_text));
    case 'actions':
      return joinNonEmpty(asArray(b.elements).map(elementMrkdwn), ' · ');
    case 'input':
      return textObjectMrkdwn(b.label);
    case 'video':
      return textObjectMrkdwn(b.title) || escapeMrkdwn(asString(b.alt_text));
    default:
      return textObjectMrkdwn(b.text);
  }
}

function pushBlocks(blocks: unknown, parts: Parts, depth: number): void {
  for (const block of asArray(blocks)) {
    if (parts.full) return;
    parts.push(blockMrkdwn(block, depth));
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Attachments, files, huddles                                                                 */

/** A legacy field as 'Title: value' (or whichever of the two is there). */
function fieldMrkdwn(field: unknown): string {
  const f = asRecord(field);
  if (!f) return '';
  const title = asString(f.title);
  const value = asString(f.value);
  return title && value ? `${title}: ${value}` : title || value;
}

function pushAttachment(attachment: unknown, parts: Parts, depth: number): void {
  const a = asRecord(attachment);
  if (!a || depth > SLACK_MAX_DEPTH) return;
  const before = parts.lines.length;
  for (const key of ['pretext', 'author_name', 'title', 'text'] as const) parts.push(asString(a[key]));
  for (const field of asArray(a.fields)) parts.push(fieldMrkdwn(field));
  pushBlocks(a.blocks, parts, depth + 1);
  parts.push(asString(a.footer));
  if (parts.lines.length === before) parts.push(asString(a.fallback));
}

function fileMrkdwn(file: unknown): string {
  const f = asRecord(file);
  if (!f) return '';
  return escapeMrkdwn(asString(f.title) || asString(f.name));
}

function pushRoom(room: unknown, parts: Parts): void {
  const r = asRecord(room);
  if (!r) return;
  parts.push(escapeMrkdwn(asString(r.name)));
  const canvas = asRecord(r.canvas);
  if (canvas) {
    parts.push(escapeMrkdwn(asString(canvas.title)));
    parts.push(escapeMrkdwn(asString(canvas.summary)));
  }
}

/* ------------------------------------------------------------------------------------------ */

/**
 * Everything a member can read in the message as one text in Slack markup, parts joined with
 * '\n': blocks (else `text`), attachments, files, the huddle's room. Never throws; at most
 * SLACK_TEXT_LIMIT characters.
 */
export function derivedText(m: { text?: string; subtype?: string } & SlackContent): string {
  const parts = new Parts(SLACK_TEXT_LIMIT);
  try {
    const message = asRecord(m);
    if (!message) return '';
    pushBlocks(message.blocks, parts, 0);
    if (parts.lines.length === 0) parts.push(asString(message.text));
    for (const attachment of asArray(message.attachments)) {
      if (parts.full) break;
      pushAttachment(attachment, parts, 0);
    }
    for (const file of asArray(message.files)) {
      if (parts.full) break;
      parts.push(fileMrkdwn(file));
    }
    pushRoom(message.room, parts);
  } catch {
    // A hostile object (a throwing getter, a proxy) keeps what was read before it.
  }
  return parts.text();
}
