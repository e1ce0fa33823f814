/**
 * A Slack message as display nodes: what the conversation view draws, as Slack's client draws it,
 * from the message as Slack sent it. Pure; never throws; the page turns nodes into elements.
 *
 * What it reads:
 * - A deleted message (subtype `tombstone`, or the text 'This message was deleted.'): one node.
 * - A system subtype (SYSTEM_SUBTYPES): one line, as Slack words it ('Dana set the channel topic: …').
 * - Block Kit blocks, else the mrkdwn `text` (a `me_message` in italics): header, section (text,
 *   fields side by side, the accessory as a static label), context (small text, images as their
 *   alt text), divider, rich_text (paragraphs, bulleted and numbered lists with indent and offset,
 *   quotes, preformatted, inline styles, links, mentions, emoji with skin tones, dates), image (alt
 *   text, linked to its http(s) URL), actions and inputs as static labels, video (its title).
 * - '(edited)' when Slack marks the message edited.
 * - Legacy attachments as cards: a colour bar only for good / warning / danger or a #rgb / #rrggbb
 *   hex, pretext, author and title (linked only to safe URLs), text and fields (mrkdwn), image as a
 *   link, blocks inside, button labels, footer and time.
 * - Files as chips (icon kind, title or name, human size, link to the permalink when safe), a
 *   huddle's room, and reactions (character, custom emoji URL, count, whether the member reacted).
 *
 * Links are http, https or mailto only (isSafeUrl); images are http or https only. Arrays are read
 * to MAX_ITEMS entries, nesting to SLACK_MAX_DEPTH and text to SLACK_TEXT_LIMIT characters in all.
 */
import { emojiChar, isSkinTone } from './emoji';
import { decodeEntities, isSafeUrl, stripBidi, tokenize, tokensToPlain, type MrkdwnNames, type Token } from './mrkdwn';
import { isSystemSubtype, type SlackContent } from './slack';
import { SLACK_MAX_DEPTH, SLACK_TEXT_LIMIT, asArray, asNumber, asRecord, asString, elementMrkdwn, richInlineMrkdwn, type Json } from './slackText';

/** Names for mentions and custom emoji, and the member's own id (their reactions). */
export interface ContentNames extends MrkdwnNames {
  me?: string;
}

export type RichPart =
  | { kind: 'paragraph'; tokens: Token[] }
  | { kind: 'list'; ordered: boolean; indent: number; start: number; items: Token[][] }
  | { kind: 'quote'; tokens: Token[] }
  | { kind: 'pre'; text: string };

export type ContextItem = { kind: 'text'; tokens: Token[] } | { kind: 'image'; alt: string };

export interface AttachmentField {
  title: string;
  value: Token[];
  short: boolean;
}

export interface AttachmentNode {
  kind: 'attachment';
  /** A validated '#rrggbb' colour for the bar. */
  color?: string;
  pretext: Token[];
  author?: { name: string; url?: string };
  title?: { text: string; url?: string };
  text: Token[];
  fields: AttachmentField[];
  image?: { alt: string; url: string };
  blocks: ContentNode[];
  /** What its legacy buttons say. */
  controls: string[];
  footer: Token[];
  /** Epoch ms. */
  time?: number;
}

export type FileIcon = 'image' | 'video' | 'audio' | 'pdf' | 'code' | 'archive' | 'doc' | 'generic';

export interface FileNode {
  kind: 'file';
  icon: FileIcon;
  title: string;
  /** '1.2 MB'. */
  size?: string;
  /** Slack's own page for the file (never a download through Sift). */
  url?: string;
  /** False for a file Slack hides or deleted. */
  available: boolean;
}

export interface ReactionItem {
  /** Short code, with '::skin-tone-N' when it has one. */
  name: string;
  char: string | null;
  /** A custom emoji's image (http or https). */
  url?: string;
  count: number;
  mine: boolean;
}

export type ContentNode =
  | { kind: 'text'; tokens: Token[]; me: boolean }
  | { kind: 'deleted' }
  | { kind: 'system'; text: string }
  | { kind: 'header'; tokens: Token[] }
  | { kind: 'section'; tokens: Token[]; fields: Token[][]; accessory?: string }
  | { kind: 'context'; items: ContextItem[] }
  | { kind: 'divider' }
  | { kind: 'rich_text'; parts: RichPart[] }
  | { kind: 'image'; alt: string; title?: string; url?: string }
  | { kind: 'controls'; labels: string[] }
  | { kind: 'input'; label: string }
  | { kind: 'video'; title: string; url?: string }
  | AttachmentNode
  | FileNode
  | { kind: 'huddle'; name: string; notesTitle?: string; summary?: string }
  | { kind: 'edited' }
  | { kind: 'reactions'; items: ReactionItem[] };

export const DELETED_TEXT = 'This message was deleted.';
/** At most this many entries of any array (Slack's own limits are lower: 50 blocks, 10 fields…). */
export const MAX_ITEMS = 100;

type MessageInput = { text?: string; subtype?: string; user?: string } & SlackContent;

/* ------------------------------------------------------------------------------------------ */
/* Budget and small readers                                                                    */

/** The characters still to read; every text passes through `take`. */
class Budget {
  constructor(private left: number) {}

  get spent(): boolean {
    return this.left <= 0;
  }

  take(text: string): string {
    if (this.left <= 0) return '';
    const part = text.length > this.left ? text.slice(0, this.left) : text;
    this.left -= Math.max(1, part.length);
    return part;
  }
}

interface Ctx {
  names: ContentNames;
  budget: Budget;
}

/** The first MAX_ITEMS entries, or none once the budget is spent. */
function items(value: unknown, ctx: Ctx): readonly unknown[] {
  if (ctx.budget.spent) return [];
  const list = asArray(value);
  return list.length > MAX_ITEMS ? list.slice(0, MAX_ITEMS) : list;
}

/** A URL that may become a link: http, https or mailto. */
function linkUrl(value: unknown): string | undefined {
  const url = asString(value);
  return url && isSafeUrl(url) ? url : undefined;
}

/** A URL that may be an image or a media link: http or https only. */
function httpUrl(value: unknown): string | undefined {
  const url = linkUrl(value);
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}

/** A name or label as shown: Slack's entities decoded, bidi controls removed, within the budget. */
function plainLabel(value: unknown, ctx: Ctx, decode = true): string {
  const text = ctx.budget.take(asString(value));
  return stripBidi(decode ? decodeEntities(text) : text).trim();
}

function mrkdwnTokens(value: unknown, ctx: Ctx): Token[] {
  const text = ctx.budget.take(asString(value));
  return text ? tokenize(text, ctx.names) : [];
}

const PLAIN_EMOJI = /:([A-Za-z0-9_+'-]{1,100}):(?::(skin-tone-[2-6]):)?/g;

/** Plain text (not markup): lines, and `:emoji:` codes as Slack shows them in plain_text. */
function plainTokens(value: unknown, ctx: Ctx): Token[] {
  const text = ctx.budget.take(asString(value));
  const out: Token[] = [];
  text.split('\n').forEach((line, n) => {
    if (n > 0) out.push({ kind: 'newline' });
    let last = 0;
    for (const m of line.matchAll(PLAIN_EMOJI)) {
      const emoji = emojiToken(m[1]!, m[2], ctx.names);
      if (emoji.char === null && emoji.url === undefined) continue;
      if (m.index > last) out.push({ kind: 'text', text: line.slice(last, m.index) });
      out.push(emoji);
      last = m.index + m[0].length;
    }
    if (last < line.length) out.push({ kind: 'text', text: line.slice(last) });
  });
  return out;
}

/** A text object's tokens: mrkdwn parsed, plain_text (or a bare string) as plain text. */
function textObjectTokens(value: unknown, ctx: Ctx): Token[] {
  if (typeof value === 'string') return plainTokens(value, ctx);
  const obj = asRecord(value);
  if (!obj) return [];
  return obj.type === 'mrkdwn' ? mrkdwnTokens(obj.text, ctx) : plainTokens(obj.text, ctx);
}

/** What an element says, as one plain label (a button's text, a select's placeholder…). */
function elementLabel(element: unknown, ctx: Ctx): string {
  return stripBidi(tokensToPlain(tokenize(ctx.budget.take(elementMrkdwn(element)), ctx.names))).trim();
}

/** An emoji by short code and optional tone: its character, else a custom emoji's URL. */
function emojiToken(code: string, tone: string | undefined, names: MrkdwnNames): Extract<Token, { kind: 'emoji' }> {
  const toned = tone !== undefined && isSkinTone(tone) ? tone : undefined;
  const char = emojiChar(code, toned);
  if (char !== null) return { kind: 'emoji', code: toned ? `${code}::${toned}` : code, char };
  const [custom] = tokenize(`:${code}:`, names);
  if (custom?.kind === 'emoji' && (custom.char !== null || custom.url !== undefined)) return { ...custom, code };
  return { kind: 'emoji', code, char: null };
}

/* ------------------------------------------------------------------------------------------ */
/* Rich text                                                                                   */

const UNICODE_SEQUENCE = /^[0-9a-f]{1,6}(?:-[0-9a-f]{1,6}){0,9}$/i;

function lineTokens(text: string): Token[] {
  const out: Token[] = [];
  text.split('\n').forEach((line, n) => {
    if (n > 0) out.push({ kind: 'newline' });
    if (line) out.push({ kind: 'text', text: line });
  });
  return out;
}

/** Tokens wrapped in a rich text element's style: code, then strike, italic, bold outermost. */
function styledTokens(tokens: Token[], style: unknown): Token[] {
  const s = asRecord(style);
  if (!s || tokens.length === 0) return tokens;
  let out = s.code === true ? [{ kind: 'code', text: tokensToPlain(tokens) } as Token] : tokens;
  if (s.strike === true) out = [{ kind: 'strike', children: out }];
  if (s.italic === true) out = [{ kind: 'italic', children: out }];
  if (s.bold === true) out = [{ kind: 'bold', children: out }];
  return out;
}

function richLink(el: Json, ctx: Ctx): Token {
  const text = stripBidi(ctx.budget.take(asString(el.text)));
  const url = linkUrl(el.url);
  if (!url) return { kind: 'text', text: text || ctx.budget.take(asString(el.url)) };
  return { kind: 'link', url, label: text || url };
}

/** A rich emoji element: its name, else the code points Slack sends with it. */
function richEmoji(el: Json, ctx: Ctx): Token {
  const name = asString(el.name);
  const tone = asNumber(el.skin_tone);
  const token = emojiToken(name, tone === undefined ? undefined : `skin-tone-${tone}`, ctx.names);
  const unicode = asString(el.unicode);
  if (token.char === null && token.url === undefined && UNICODE_SEQUENCE.test(unicode)) {
    const points = unicode.split('-').map((h) => parseInt(h, 16));
    if (points.every((p) => p <= 0x10ffff)) return { kind: 'emoji', code: name || unicode, char: String.fromCodePoint(...points) };
  }
  return name ? token : { kind: 'text', text: '' };
}

function isRichBlock(type: unknown): boolean {
  return type === 'rich_text_section' || type === 'rich_text_list' || type === 'rich_text_quote' || type === 'rich_text_preformatted';
}

/** The inline elements of a section or quote as tokens. */
function richInlineTokens(elements: unknown, ctx: Ctx, depth: number): Token[] {
  const out: Token[] = [];
  if (depth > SLACK_MAX_DEPTH) return out;
  for (const element of items(elements, ctx)) {
    const el = asRecord(element);
    if (!el) continue;
    if (el.type === 'text') out.push(...styledTokens(lineTokens(ctx.budget.take(asString(el.text))), el.style));
    else if (el.type === 'link') out.push(...styledTokens([richLink(el, ctx)], el.style));
    else if (el.type === 'emoji') out.push(richEmoji(el, ctx));
    else if (isRichBlock(el.type)) out.push(...richInlineTokens(el.elements, ctx, depth + 1));
    else out.push(...tokenize(ctx.budget.take(richInlineMrkdwn(el)), ctx.names));
  }
  return dropEmptyText(out);
}

function dropEmptyText(tokens: Token[]): Token[] {
  return tokens.filter((t) => t.kind !== 'text' || t.text !== '');
}

/** A preformatted block's text: its elements' words as written, links as their text. */
function richPreText(elements: unknown, ctx: Ctx, depth: number): string {
  let out = '';
  if (depth > SLACK_MAX_DEPTH) return out;
  for (const element of items(elements, ctx)) {
    const el = asRecord(element);
    if (!el) continue;
    if (el.type === 'text') out += ctx.budget.take(asString(el.text));
    else if (el.type === 'link') out += ctx.budget.take(asString(el.text) || asString(el.url));
    else if (isRichBlock(el.type)) out += richPreText(el.elements, ctx, depth + 1);
    else out += tokensToPlain(tokenize(ctx.budget.take(richInlineMrkdwn(el)), ctx.names));
  }
  return out;
}

/** A section's tokens without the trailing newline Slack's composer leaves before a list. */
function trimTrailingNewline(tokens: Token[]): Token[] {
  return tokens[tokens.length - 1]?.kind === 'newline' ? tokens.slice(0, -1) : tokens;
}

function richPart(element: unknown, ctx: Ctx, depth: number): RichPart | null {
  const el = asRecord(element);
  if (!el) return null;
  switch (el.type) {
    case 'rich_text_section': {
      const tokens = trimTrailingNewline(richInlineTokens(el.elements, ctx, depth + 1));
      return tokens.length ? { kind: 'paragraph', tokens } : null;
    }
    case 'rich_text_quote': {
      const tokens = trimTrailingNewline(richInlineTokens(el.elements, ctx, depth + 1));
      return tokens.length ? { kind: 'quote', tokens } : null;
    }
    case 'rich_text_preformatted': {
      const text = richPreText(el.elements, ctx, depth + 1).replace(/\n$/, '');
      return text ? { kind: 'pre', text } : null;
    }
    case 'rich_text_list':
      return richList(el, ctx, depth);
    default:
      return null;
  }
}

function richList(el: Json, ctx: Ctx, depth: number): RichPart | null {
  const listItems = items(el.elements, ctx)
    .map((item) => trimTrailingNewline(richInlineTokens(asRecord(item)?.elements, ctx, depth + 1)))
    .filter((tokens) => tokens.length > 0);
  if (listItems.length === 0) return null;
  const indent = asNumber(el.indent);
  const offset = asNumber(el.offset);
  return {
    kind: 'list',
    ordered: el.style === 'ordered',
    indent: indent !== undefined && indent > 0 ? Math.min(8, Math.floor(indent)) : 0,
    start: offset !== undefined && offset > 0 ? Math.min(1e6, Math.floor(offset)) + 1 : 1,
    items: listItems,
  };
}

/* ------------------------------------------------------------------------------------------ */
/* Blocks                                                                                      */

function blockNode(block: unknown, ctx: Ctx, depth: number): ContentNode | null {
  const b = asRecord(block);
  if (!b || depth > SLACK_MAX_DEPTH) return null;
  switch (b.type) {
    case 'header': {
      const tokens = textObjectTokens(b.text, ctx);
      return tokens.length ? { kind: 'header', tokens } : null;
    }
    case 'section':
      return sectionNode(b, ctx);
    case 'context':
      return contextNode(b, ctx);
    case 'divider':
      return { kind: 'divider' };
    case 'rich_text': {
      const parts = items(b.elements, ctx)
        .map((e) => richPart(e, ctx, depth + 1))
        .filter((p): p is RichPart => p !== null);
      return parts.length ? { kind: 'rich_text', parts } : null;
    }
    case 'image':
      return imageNode(b, ctx);
    case 'actions': {
      const labels = items(b.elements, ctx)
        .map((e) => elementLabel(e, ctx))
        .filter(Boolean);
      return labels.length ? { kind: 'controls', labels } : null;
    }
    case 'input': {
      const label = stripBidi(tokensToPlain(textObjectTokens(b.label, ctx))).trim();
      return label ? { kind: 'input', label } : null;
    }
    case 'video': {
      const title = stripBidi(tokensToPlain(textObjectTokens(b.title, ctx))).trim() || plainLabel(b.alt_text, ctx, false);
      const url = httpUrl(b.title_url) ?? httpUrl(b.video_url);
      return title ? { kind: 'video', title, ...(url ? { url } : {}) } : null;
    }
    default: {
      // A block type Slack adds later: whatever text it carries.
      const tokens = textObjectTokens(b.text, ctx);
      return tokens.length ? { kind: 'section', tokens, fields: [] } : null;
    }
  }
}

function sectionNode(b: Json, ctx: Ctx): ContentNode | null {
  const tokens = textObjectTokens(b.text, ctx);
  const fields = items(b.fields, ctx)
    .map((f) => textObjectTokens(f, ctx))
    .filter((f) => f.length > 0);
  const accessory = elementLabel(b.accessory, ctx);
  if (!tokens.length && !fields.length && !accessory) return null;
  return { kind: 'section', tokens, fields, ...(accessory ? { accessory } : {}) };
}

function contextNode(b: Json, ctx: Ctx): ContentNode | null {
  const contextItems: ContextItem[] = [];
  for (const element of items(b.elements, ctx)) {
    const el = asRecord(element);
    if (el?.type === 'image') {
      const alt = plainLabel(el.alt_text, ctx, false);
      if (alt) contextItems.push({ kind: 'image', alt });
      continue;
    }
    const tokens = textObjectTokens(el, ctx);
    if (tokens.length) contextItems.push({ kind: 'text', tokens });
  }
  return contextItems.length ? { kind: 'context', items: contextItems } : null;
}

function imageNode(b: Json, ctx: Ctx): ContentNode | null {
  const alt = plainLabel(b.alt_text, ctx, false);
  const title = stripBidi(tokensToPlain(textObjectTokens(b.title, ctx))).trim();
  const url = httpUrl(b.image_url);
  if (!alt && !title && !url) return null;
  return { kind: 'image', alt: alt || title || 'Image', ...(title ? { title } : {}), ...(url ? { url } : {}) };
}

function blockNodes(blocks: unknown, ctx: Ctx, depth: number): ContentNode[] {
  return items(blocks, ctx)
    .map((b) => blockNode(b, ctx, depth))
    .filter((n): n is ContentNode => n !== null);
}

/* ------------------------------------------------------------------------------------------ */
/* Attachments                                                                                 */

/** Slack's colours for its three names. */
const NAMED_COLORS: Record<string, string> = { good: '#2eb886', warning: '#daa038', danger: '#a30200' };
const HEX_COLOR = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** An attachment's bar colour as '#rrggbb': good, warning, danger or a hex; anything else undefined. */
export function attachmentColor(value: unknown): string | undefined {
  const color = asString(value).trim();
  if (Object.hasOwn(NAMED_COLORS, color)) return NAMED_COLORS[color];
  const hex = HEX_COLOR.exec(color)?.[1];
  if (!hex) return undefined;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return `#${full.toLowerCase()}`;
}

/** A legacy attachment's ts (epoch seconds, number or string) as epoch ms. */
function attachmentTime(value: unknown): number | undefined {
  const seconds = asNumber(value);
  return seconds !== undefined && seconds > 0 && seconds < 1e11 ? Math.round(seconds * 1000) : undefined;
}

function attachmentNode(attachment: unknown, ctx: Ctx, depth: number): ContentNode | null {
  const a = asRecord(attachment);
  if (!a || depth > SLACK_MAX_DEPTH) return null;
  const authorName = plainLabel(a.author_name, ctx);
  const authorUrl = linkUrl(a.author_link);
  const titleText = plainLabel(a.title, ctx);
  const titleUrl = linkUrl(a.title_link);
  const imageUrl = httpUrl(a.image_url);
  const color = attachmentColor(a.color);
  const time = attachmentTime(a.ts);
  const node: AttachmentNode = {
    kind: 'attachment',
    ...(color ? { color } : {}),
    pretext: mrkdwnTokens(a.pretext, ctx),
    ...(authorName ? { author: { name: authorName, ...(authorUrl ? { url: authorUrl } : {}) } } : {}),
    ...(titleText ? { title: { text: titleText, ...(titleUrl ? { url: titleUrl } : {}) } } : {}),
    text: mrkdwnTokens(a.text, ctx),
    fields: attachmentFields(a.fields, ctx),
    ...(imageUrl ? { image: { alt: titleText || 'Image', url: imageUrl } } : {}),
    blocks: blockNodes(a.blocks, ctx, depth + 1),
    controls: items(a.actions, ctx)
      .map((action) => plainLabel(asRecord(action)?.text, ctx))
      .filter(Boolean),
    footer: mrkdwnTokens(a.footer, ctx),
    ...(time !== undefined ? { time } : {}),
  };
  const empty =
    !node.pretext.length &&
    !node.author &&
    !node.title &&
    !node.text.length &&
    !node.fields.length &&
    !node.image &&
    !node.blocks.length &&
    !node.controls.length &&
    !node.footer.length;
  if (empty) node.text = mrkdwnTokens(a.fallback, ctx);
  return node.text.length || !empty ? node : null;
}

function attachmentFields(fields: unknown, ctx: Ctx): AttachmentField[] {
  const out: AttachmentField[] = [];
  for (const field of items(fields, ctx)) {
    const f = asRecord(field);
    if (!f) continue;
    const title = plainLabel(f.title, ctx);
    const value = mrkdwnTokens(f.value, ctx);
    if (title || value.length) out.push({ title, value, short: f.short === true });
  }
  return out;
}

/* ------------------------------------------------------------------------------------------ */
/* Files, huddles, reactions                                                                   */

const ARCHIVE_TYPES = new Set(['zip', 'gzip', 'gz', 'tar', 'tgz', 'rar', '7z', 'bz2', 'xz']);
const DOC_TYPES = new Set([
  'doc',
  'docx',
  'odt',
  'rtf',
  'gdoc',
  'gsheet',
  'gpres',
  'xls',
  'xlsx',
  'ods',
  'csv',
  'ppt',
  'pptx',
  'odp',
  'pages',
  'numbers',
  'key',
  'quip',
  'canvas',
  'post',
  'space',
  'email',
]);
const CODE_TYPES = new Set([
  'text',
  'javascript',
  'typescript',
  'python',
  'java',
  'c',
  'cpp',
  'csharp',
  'go',
  'rust',
  'ruby',
  'php',
  'shell',
  'bash',
  'sql',
  'json',
  'yaml',
  'xml',
  'html',
  'css',
  'markdown',
  'diff',
  'kotlin',
  'swift',
  'scala',
]);

/** The icon kind of a file, from its MIME type, else Slack's filetype and mode. */
export function fileIcon(mimetype: string, filetype: string, mode = ''): FileIcon {
  const mime = mimetype.toLowerCase();
  const type = filetype.toLowerCase();
  if (mode === 'snippet') return 'code';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime === 'application/pdf' || type === 'pdf') return 'pdf';
  if (/(zip|tar|rar|7z|compressed|gzip|bzip)/.test(mime) || ARCHIVE_TYPES.has(type)) return 'archive';
  if (/(msword|officedocument|opendocument|spreadsheet|presentation|rtf|csv)/.test(mime) || DOC_TYPES.has(type)) return 'doc';
  if (CODE_TYPES.has(type) || /^text\/|json|javascript|xml|x-sh/.test(mime)) return 'code';
  if (['png', 'jpg', 'jpeg', 'gif', 'webp', 'heic', 'svg'].includes(type)) return 'image';
  if (['mp4', 'mov', 'webm', 'mkv'].includes(type)) return 'video';
  if (['mp3', 'm4a', 'wav', 'ogg', 'flac'].includes(type)) return 'audio';
  return 'generic';
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Bytes as people read them: '532 B', '1.2 MB', '12 MB' (1 KB = 1,024 B). */
export function humanSize(bytes: number): string | undefined {
  if (!Number.isFinite(bytes) || bytes < 0) return undefined;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 || value >= 10 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${SIZE_UNITS[unit]}`;
}

const HIDDEN_FILE_MODES = new Set(['hidden_by_limit', 'tombstone']);

function fileNode(file: unknown, ctx: Ctx): ContentNode | null {
  const f = asRecord(file);
  if (!f) return null;
  const mode = asString(f.mode);
  if (HIDDEN_FILE_MODES.has(mode) || (asString(f.file_access) !== '' && asString(f.file_access) !== 'visible')) {
    const title = mode === 'tombstone' ? 'This file was deleted.' : 'This file is not available.';
    return { kind: 'file', icon: 'generic', title, available: false };
  }
  const title = plainLabel(f.title, ctx, false) || plainLabel(f.name, ctx, false) || 'Untitled file';
  const size = humanSize(asNumber(f.size) ?? NaN);
  const url = linkUrl(f.permalink);
  return {
    kind: 'file',
    icon: fileIcon(asString(f.mimetype), asString(f.filetype), mode),
    title,
    ...(size ? { size } : {}),
    ...(url ? { url } : {}),
    available: true,
  };
}

function huddleNode(room: unknown, ctx: Ctx): ContentNode | null {
  const r = asRecord(room);
  if (!r) return null;
  const canvas = asRecord(r.canvas);
  const name = plainLabel(r.name, ctx, false) || 'Huddle';
  const notesTitle = plainLabel(canvas?.title, ctx, false);
  const summary = plainLabel(canvas?.summary, ctx, false);
  return { kind: 'huddle', name, ...(notesTitle ? { notesTitle } : {}), ...(summary ? { summary } : {}) };
}

const REACTION_NAME = /^[A-Za-z0-9_+'-]{1,100}(?:::skin-tone-[2-6])?$/;

function reactionItem(reaction: unknown, names: ContentNames): ReactionItem | null {
  const r = asRecord(reaction);
  const name = asString(r?.name);
  if (!r || !REACTION_NAME.test(name)) return null;
  const [code = '', tone] = name.split('::');
  const emoji = emojiToken(code, tone, names);
  const count = asNumber(r.count);
  const users = asArray(r.users);
  const mine = names.me !== undefined && users.includes(names.me);
  return {
    name: emoji.char !== null ? emoji.code : name,
    char: emoji.char,
    ...(emoji.url ? { url: emoji.url } : {}),
    count: count !== undefined && count >= 0 ? Math.floor(count) : users.length,
    mine,
  };
}

/* ------------------------------------------------------------------------------------------ */
/* Authors and system lines                                                                    */

/**
 * Who wrote the message, by name: the user record (`names.user`), else the app's bot profile,
 * else the name an app or webhook posted under, else the external person's profile. Undefined
 * when none is there.
 */
export function authorName(m: MessageInput, names: MrkdwnNames): string | undefined {
  try {
    const uid = asString(m.user);
    const candidates = [
      uid ? names.user(uid) : undefined,
      asString(asRecord(m.bot_profile)?.name),
      asString(m.username),
      asString(asRecord(m.user_profile)?.real_name),
      asString(asRecord(m.user_profile)?.display_name),
      asString(asRecord(m.user_profile)?.name),
    ];
    for (const candidate of candidates) {
      const name = stripBidi(candidate ?? '').trim();
      if (name) return name;
    }
  } catch {
    // A hostile message has no name.
  }
  return undefined;
}

/** Whether an app or integration posted the message. */
export function isAppMessage(m: MessageInput): boolean {
  return asString(m.bot_id) !== '' || m.subtype === 'bot_message';
}

/**
 * Whether the author is outside the workspace (Slack Connect): their team differs from the
 * workspace's (or, when that is not known, from the message's `team`), or Slack sent their profile
 * while the workspace does not know them.
 */
export function isExternalAuthor(m: MessageInput & { team?: unknown }, knownUser: boolean, workspaceTeam?: string): boolean {
  const userTeam = asString(m.user_team);
  const home = workspaceTeam || asString(m.team);
  if (userTeam && home && userTeam !== home) return true;
  return !knownUser && asRecord(m.user_profile) !== null && !isAppMessage(m);
}

/** The plain text of a system message's detail after 'set the channel topic: ' in Slack's text. */
function afterColon(text: string, lead: RegExp): string {
  const m = lead.exec(text);
  return m ? text.slice(m.index + m[0].length) : '';
}

function plainOf(markup: string, names: MrkdwnNames): string {
  return stripBidi(tokensToPlain(tokenize(markup.slice(0, 2_000), names)))
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A system message as the one line Slack shows: 'Dana joined the channel', 'Dana set the channel
 * topic: …', 'Dana renamed the channel from "a" to "b"', 'Dana pinned a message'… (group_* as
 * channel_*).
 */
export function systemLine(message: MessageInput, names: MrkdwnNames): string {
  // Slack's system messages carry their own fields (topic, purpose, old_name, bot_link…).
  const m: Json = asRecord(message) ?? {};
  const who = authorName(message, names) ?? 'Someone';
  const text = asString(m.text);
  const kind = asString(m.subtype).replace(/^group_/, 'channel_');
  switch (kind) {
    case 'channel_join':
      return `${who} joined the channel`;
    case 'channel_leave':
      return `${who} left the channel`;
    case 'channel_topic': {
      const topic = plainOf(typeof m.topic === 'string' ? m.topic : afterColon(text, /set the channel topic:\s*/), names);
      return topic ? `${who} set the channel topic: ${topic}` : `${who} cleared the channel topic`;
    }
    case 'channel_purpose': {
      const purpose = plainOf(typeof m.purpose === 'string' ? m.purpose : afterColon(text, /set the channel (?:purpose|description):\s*/), names);
      return purpose ? `${who} set the channel description: ${purpose}` : `${who} cleared the channel description`;
    }
    case 'channel_name': {
      const from = plainOf(asString(m.old_name), names);
      const to = plainOf(asString(m.name), names);
      return from && to ? `${who} renamed the channel from "${from}" to "${to}"` : `${who} renamed the channel`;
    }
    case 'channel_archive':
      return `${who} archived the channel`;
    case 'channel_unarchive':
      return `${who} un-archived the channel`;
    case 'pinned_item':
      return `${who} pinned a message`;
    case 'unpinned_item':
      return `${who} unpinned a message`;
    case 'bot_add':
    case 'bot_remove': {
      const bot = plainOf(asString(m.bot_link) || afterColon(text, /this channel:\s*/), names);
      const verb = kind === 'bot_add' ? 'added an integration to this channel' : 'removed an integration from this channel';
      return bot ? `${who} ${verb}: ${bot}` : `${who} ${verb}`;
    }
    default:
      return plainOf(text, names) || who;
  }
}

/* ------------------------------------------------------------------------------------------ */

/** Whether the message was deleted and only its tombstone remains. */
export function isDeleted(m: { text?: unknown; subtype?: unknown }): boolean {
  return m.subtype === 'tombstone' || m.text === DELETED_TEXT;
}

function bodyNodes(m: Json, ctx: Ctx): ContentNode[] {
  const blocks = blockNodes(m.blocks, ctx, 0);
  if (blocks.some((n) => n.kind !== 'divider')) return blocks;
  const tokens = mrkdwnTokens(m.text, ctx);
  return tokens.length ? [{ kind: 'text', tokens, me: m.subtype === 'me_message' }] : [];
}

function pushAll(out: ContentNode[], list: unknown, ctx: Ctx, read: (item: unknown) => ContentNode | null): void {
  for (const item of items(list, ctx)) {
    const node = read(item);
    if (node) out.push(node);
  }
}

/**
 * The display nodes of a message: its body (blocks, else text), '(edited)', attachments, files,
 * huddle, reactions; or the one node of a deleted message or a system line. Never throws.
 */
export function renderContent(message: MessageInput, names: ContentNames): ContentNode[] {
  const out: ContentNode[] = [];
  const ctx: Ctx = { names, budget: new Budget(SLACK_TEXT_LIMIT) };
  try {
    const m = asRecord(message);
    if (!m) return out;
    if (isDeleted(m)) return [{ kind: 'deleted' }];
    if (isSystemSubtype(asString(m.subtype))) return [{ kind: 'system', text: systemLine(message, names) }];
    out.push(...bodyNodes(m, ctx));
    if (asRecord(m.edited)) out.push({ kind: 'edited' });
    pushAll(out, m.attachments, ctx, (a) => attachmentNode(a, ctx, 0));
    pushAll(out, m.files, ctx, (f) => fileNode(f, ctx));
    const huddle = huddleNode(m.room, ctx);
    if (huddle) out.push(huddle);
    const reactions = asArray(m.reactions)
      .slice(0, MAX_ITEMS)
      .map((r) => reactionItem(r, names))
      .filter((r): r is ReactionItem => r !== null && r.count > 0);
    if (reactions.length) out.push({ kind: 'reactions', items: reactions });
  } catch {
    // A hostile object (a throwing getter, a proxy): what was read so far.
  }
  return out;
}
