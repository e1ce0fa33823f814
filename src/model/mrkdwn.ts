/**
 * Slack message markup ("mrkdwn") to tokens, for the page to turn into React elements and for
 * plain-text renderings. Pure: no DOM, no I/O, never throws on any string.
 *
 * What it reads:
 * - `<@U1>`, `<@U1|label>` user mentions (name from the lookup, else the label, else the id);
 *   `<#C1>`, `<#C1|name>`, `<#C1|>` channel mentions (the same order); `<!here>`, `<!channel>`,
 *   `<!everyone>` broadcasts, shown as Slack shows them (@here…); `<!subteam^S1|@team>` user
 *   groups (the lookup's handle, else the label without '@', else the id), as broadcasts.
 * - `<!date^1392734382^{date_short} at {time}^https://link|fallback>`: the date in the member's
 *   time zone (`names.timeZone`) with Slack's tokens (model/slackDate), linked when the optional
 *   link is safe; the fallback when the timestamp is not a valid one.
 * - `<url>`, `<url|label>` links, only for http:, https: and mailto:. Any other scheme
 *   (javascript:, data:, vbscript:, file:…) becomes the plain text of its label, or of its target;
 *   a bracketed text that is none of these (`a < b > c`) stays as typed.
 * - `*bold*`, `_italic_`, `~strike~`: a marker opens at the start or after a non-word character and
 *   before a non-space; it closes after a non-space and before the end or a non-word character.
 *   They nest inside each other and never span lines.
 * - `` `code` `` on one line and ```` ```pre``` ```` blocks across lines: their content is shown as
 *   written (only the entities of Slack's escaping are decoded), with no further parsing.
 * - `> ` (or `&gt; `) quote lines, merged when consecutive; `>>>` quotes the rest of the text up to
 *   the next pre block.
 * - `:code:` emoji short codes, with a `::skin-tone-N:` suffix; unknown codes keep char null, and
 *   a workspace's custom emoji (`names.emoji`, an http(s) image URL, or `alias:other` resolved one
 *   level) carries its `url`.
 * - `&lt;`, `&gt;`, `&amp;` decoded once (`&amp;lt;` is the text `&lt;`).
 * Everything else is text.
 */
import { THREAD_TITLE_LENGTH } from './constants';
import { emojiChar, isSkinTone } from './emoji';
import { stripBidi } from './linkSafety';
import { formatSlackDate } from './slackDate';
import { cutText } from './text';

export type Token =
  | { kind: 'text'; text: string }
  | { kind: 'bold' | 'italic' | 'strike'; children: Token[] }
  | { kind: 'code'; text: string }
  | { kind: 'pre'; text: string }
  | { kind: 'quote'; children: Token[] }
  | { kind: 'user'; id: string; name: string }
  | { kind: 'channel'; id: string; name: string }
  | { kind: 'broadcast'; name: string }
  | { kind: 'link'; url: string; label: string }
  | { kind: 'emoji'; code: string; char: string | null; url?: string }
  | { kind: 'newline' };

/** Display names for mentions; undefined when unknown. */
export interface MrkdwnNames {
  user(id: string): string | undefined;
  channel?(id: string): string | undefined;
  /** A user group's handle, without '@'. */
  usergroup?(id: string): string | undefined;
  /** A custom emoji's image URL, or `alias:other` (Slack's emoji.list); undefined when unknown. */
  emoji?(name: string): string | undefined;
  /** The member's IANA time zone for `<!date…>`; the runtime's zone when absent or invalid. */
  timeZone?: string;
  /** Epoch ms that `{ago}` and today/yesterday count from; the clock when absent. */
  now?: number;
}

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&' };
const ENTITY = /&(?:lt|gt|amp);/g;

/** Decodes Slack's three escapes, once. */
export function decodeEntities(text: string): string {
  return text.replace(ENTITY, (m) => ENTITIES[m] ?? m);
}

/** Bidi and control characters, which can disguise a URL or a name, are removed by model/linkSafety. */
export { stripBidi };

const SAFE_URL = /^(?:https?:\/\/[^\s]|mailto:[^\s])/i;
// eslint-disable-next-line no-control-regex -- finds C0/C1 controls in a URL on purpose
const UNSAFE_CHARS = /[\u0000-\u0020\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/** Whether a URL may become a link: http:, https: or mailto:, with no spaces or control characters. */
export function isSafeUrl(url: string): boolean {
  return SAFE_URL.test(url) && !UNSAFE_CHARS.test(url);
}

/* ------------------------------------------------------------------------------------------ */
/* Tags: <…>                                                                                   */

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const BROADCASTS = new Set(['here', 'channel', 'everyone']);

function tagToken(inner: string, names: MrkdwnNames): Token {
  const bar = inner.indexOf('|');
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const rawLabel = bar === -1 ? undefined : inner.slice(bar + 1);
  const label = rawLabel === undefined ? undefined : decodeEntities(rawLabel);
  const sigil = target[0];

  if (sigil === '@' && target.length > 1) {
    const id = target.slice(1);
    const name = stripBidi(names.user(id) || label || '') || id;
    return { kind: 'user', id, name };
  }
  if (sigil === '#' && target.length > 1) {
    const id = target.slice(1);
    const name = stripBidi(names.channel?.(id) || label || '') || id;
    return { kind: 'channel', id, name };
  }
  if (sigil === '!') {
    const [command = '', id = ''] = target.slice(1).split('^');
    if (BROADCASTS.has(command)) return { kind: 'broadcast', name: command };
    if (command === 'subteam') {
      const name = stripBidi(names.usergroup?.(id) || (label ?? '').replace(/^@/, '')) || id || 'subteam';
      return { kind: 'broadcast', name };
    }
    if (command === 'date') return dateToken(target, label ?? '', names);
    // Anything else Slack may add: the fallback text, if any.
    return { kind: 'text', text: label ?? '' };
  }
  const url = decodeEntities(target);
  if (isSafeUrl(url)) return { kind: 'link', url, label: stripBidi(label ?? '') || url };
  if (label !== undefined) return { kind: 'text', text: label };
  // A target with another scheme shows as its text; anything else was not a tag: `a < b > c`.
  return { kind: 'text', text: SCHEME.test(url) ? url : `<${url}>` };
}

/** `!date^ts^format(^link)`: the formatted date, a link when the link is safe; else the fallback. */
function dateToken(target: string, fallback: string, names: MrkdwnNames): Token {
  const [, ts = '', format = '', ...rest] = target.split('^');
  const text = formatSlackDate(ts, decodeEntities(format), { timeZone: names.timeZone, now: names.now });
  if (text === null) return { kind: 'text', text: fallback };
  const link = decodeEntities(rest.join('^'));
  return link && isSafeUrl(link) ? { kind: 'link', url: link, label: stripBidi(text) || link } : { kind: 'text', text };
}

/* ------------------------------------------------------------------------------------------ */
/* One line of inline markup                                                                   */

type Marker = '*' | '_' | '~';
const MARKER_KIND: Record<Marker, 'bold' | 'italic' | 'strike'> = { '*': 'bold', _: 'italic', '~': 'strike' };

/**
 * One unit of a line: a run of text between markers and tokens (entities already decoded), a
 * marker, or a token. A run is one atom however long, so a line of text is a few atoms, not one
 * object a character.
 */
type Atom = { t: 'text'; text: string } | { t: 'marker'; c: Marker } | { t: 'token'; token: Token };

const WORD = /^[\p{L}\p{N}]$/u;
const SPACE = /^\s$/u;
const EMOJI_CODE = /^:([A-Za-z0-9_+'-]+):/;
const ALNUM = /^[\p{L}\p{N}]$/u;

function isMarker(c: string | undefined): c is Marker {
  return c === '*' || c === '_' || c === '~';
}

/** Splits a line into atoms, left to right: tags, code spans, emoji, entities, markers, text. */
function lex(line: string, names: MrkdwnNames, emojiAt: CustomEmoji): Atom[] {
  const atoms: Atom[] = [];
  // The text read since the last marker or token: `text` (with its entities decoded), then the
  // line from `from` on.
  let text = '';
  let from = 0;
  // The first '>' after the '<' being read (line.length when none is left) and the last '<'
  // before it: found once for every '<' up to that '>', so a run of '<' is read in linear time.
  let tagEnd = -1;
  let tagStart = -1;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    let atom: Atom | null = null;
    let next = i + 1;
    if (c === '<') {
      if (tagEnd <= i) {
        const found = line.indexOf('>', i + 1);
        tagEnd = found === -1 ? line.length : found;
        tagStart = found === -1 ? -1 : line.lastIndexOf('<', found);
      }
      // A tag: a '>' after a non-empty inside with no other '<' in it.
      if (tagEnd < line.length && tagEnd > i + 1 && tagStart === i) {
        atom = { t: 'token', token: tagToken(line.slice(i + 1, tagEnd), names) };
        next = tagEnd + 1;
      }
    } else if (c === '`') {
      const close = line.indexOf('`', i + 1);
      if (close > i + 1) {
        atom = { t: 'token', token: { kind: 'code', text: decodeEntities(line.slice(i + 1, close)) } };
        next = close + 1;
      }
    } else if (c === ':') {
      const emoji = lexEmoji(line, i, emojiAt);
      if (emoji) {
        atom = { t: 'token', token: emoji.token };
        next = emoji.end;
      }
    } else if (c === '&') {
      const m = /^&(?:lt|gt|amp);/.exec(line.slice(i, i + 5));
      if (m) {
        text += line.slice(from, i) + ENTITIES[m[0]]!;
        from = i + m[0].length;
        next = from;
      }
    } else if (isMarker(c)) {
      atom = { t: 'marker', c };
    }
    if (atom) {
      text += line.slice(from, i);
      if (text) atoms.push({ t: 'text', text });
      atoms.push(atom);
      text = '';
      from = next;
    }
    i = next;
  }
  text += line.slice(from);
  if (text) atoms.push({ t: 'text', text });
  return atoms;
}

type CustomEmoji = (name: string) => { char: string } | { url: string } | null;

const HTTP_URL = /^https?:\/\//i;
const ALIAS = 'alias:';

/**
 * A workspace emoji by name: its image URL (http or https only), or through `alias:other` (one
 * level) a standard emoji's character or another custom emoji's URL.
 */
function customEmojiLookup(names: MrkdwnNames): CustomEmoji {
  const lookup = names.emoji;
  if (!lookup) return () => null;
  const image = (value: string | undefined) => (typeof value === 'string' && HTTP_URL.test(value) && isSafeUrl(value) ? { url: value } : null);
  return (name) => {
    const value = lookup(name);
    if (typeof value !== 'string' || !value.startsWith(ALIAS)) return image(value);
    const other = value.slice(ALIAS.length);
    const char = emojiChar(other);
    if (char !== null) return { char };
    const target = lookup(other);
    return typeof target === 'string' && target.startsWith(ALIAS) ? null : image(target);
  };
}

/** `:code:` at `i`, with an optional `:skin-tone-N:` right after; between non-alphanumerics. */
function lexEmoji(line: string, i: number, custom: CustomEmoji): { token: Token; end: number } | null {
  const before = line[i - 1];
  if (before !== undefined && ALNUM.test(before)) return null;
  const m = EMOJI_CODE.exec(line.slice(i, i + 102));
  if (!m) return null;
  let end = i + m[0].length;
  let code = m[1]!;
  let tone: string | undefined;
  const next = EMOJI_CODE.exec(line.slice(end, end + 16));
  if (next && isSkinTone(next[1]!) && !isSkinTone(code)) {
    tone = next[1]!;
    end += next[0].length;
  }
  const after = line[end];
  if (after !== undefined && ALNUM.test(after)) return null;
  const char = emojiChar(code, tone);
  if (tone) {
    if (char === null)
      end -= next![0].length; // an unknown base keeps its tone as its own code
    else code = `${code}::${tone}`;
  }
  if (char === null) {
    const found = custom(code);
    if (found && 'char' in found) return { token: { kind: 'emoji', code, char: found.char }, end };
    if (found) return { token: { kind: 'emoji', code, char: null, url: found.url }, end };
  }
  return { token: { kind: 'emoji', code, char }, end };
}

/** Whether the atom before a marker is text whose last character matches `re`. */
function endsWith(a: Atom | undefined, re: RegExp): boolean {
  return a !== undefined && a.t === 'text' && re.test(a.text[a.text.length - 1]!);
}

/** Whether the atom after a marker is text whose first character matches `re`. */
function startsWith(a: Atom | undefined, re: RegExp): boolean {
  return a !== undefined && a.t === 'text' && re.test(a.text[0]!);
}

function pushText(out: Token[], text: string): void {
  if (text) out.push({ kind: 'text', text });
}

/** Parses a line's atoms into tokens, with emphasis matched at word boundaries. */
function parseLine(atoms: Atom[]): Token[] {
  // Closers are fixed by their neighbours, so they are found once per line, in order.
  const closers: Record<Marker, number[]> = { '*': [], _: [], '~': [] };
  atoms.forEach((a, k) => {
    if (a.t !== 'marker' || k === 0) return;
    if (endsWith(atoms[k - 1], SPACE) || startsWith(atoms[k + 1], WORD)) return;
    closers[a.c].push(k);
  });

  /** The first closer of `c` in (from, end), or -1. */
  const nextCloser = (c: Marker, from: number, end: number): number => {
    const list = closers[c];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! <= from) lo = mid + 1;
      else hi = mid;
    }
    const k = list[lo];
    return k !== undefined && k < end ? k : -1;
  };

  const parse = (start: number, end: number): Token[] => {
    const out: Token[] = [];
    let buf = '';
    let k = start;
    while (k < end) {
      const a = atoms[k]!;
      if (a.t === 'text') {
        buf += a.text;
        k += 1;
        continue;
      }
      if (a.t === 'token' && a.token.kind === 'text') {
        buf += a.token.text;
        k += 1;
        continue;
      }
      if (a.t === 'token') {
        pushText(out, buf);
        buf = '';
        out.push(a.token);
        k += 1;
        continue;
      }
      if (a.t === 'marker') {
        const opens = !endsWith(atoms[k - 1], WORD) && k + 1 < end && !startsWith(atoms[k + 1], SPACE);
        // Not "**": an empty span is text.
        const close = opens ? nextCloser(a.c, k + 1, end) : -1;
        if (close !== -1) {
          pushText(out, buf);
          buf = '';
          out.push({ kind: MARKER_KIND[a.c], children: parse(k + 1, close) });
          k = close + 1;
          continue;
        }
      }
      buf += a.c;
      k += 1;
    }
    pushText(out, buf);
    return out;
  };

  return parse(0, atoms.length);
}

/* ------------------------------------------------------------------------------------------ */
/* Lines and blocks                                                                            */

const QUOTE_LINE = /^(?:>|&gt;)(?: |$)/;
const QUOTE_REST = /^(?:>>>|&gt;&gt;&gt;)(?: |$)?/;

/** Text outside pre blocks: lines, quotes and newlines. */
function parseSegment(segment: string, names: MrkdwnNames, emojiAt: CustomEmoji, out: Token[]): void {
  let restQuoted = false;
  const lines = segment.split('\n').map((line) => {
    if (restQuoted) return { quoted: true, line };
    const rest = QUOTE_REST.exec(line);
    if (rest) {
      restQuoted = true;
      return { quoted: true, line: line.slice(rest[0].length) };
    }
    const one = QUOTE_LINE.exec(line);
    return one ? { quoted: true, line: line.slice(one[0].length) } : { quoted: false, line };
  });
  let quote: Token[] | null = null;
  lines.forEach(({ quoted, line }, n) => {
    const tokens = line ? parseLine(lex(line, names, emojiAt)) : [];
    if (!quoted) {
      quote = null;
      out.push(...tokens);
    } else if (quote) {
      // Consecutive quote lines are one quote; the newline between them is inside it.
      quote.push({ kind: 'newline' }, ...tokens);
    } else {
      quote = tokens;
      out.push({ kind: 'quote', children: quote });
    }
    const next = lines[n + 1];
    if (next && !(quoted && next.quoted)) out.push({ kind: 'newline' });
  });
}

/** Slack message markup as tokens. Never throws. */
export function tokenize(text: string, names: MrkdwnNames): Token[] {
  const out: Token[] = [];
  const emojiAt = customEmojiLookup(names);
  const source = typeof text === 'string' ? text : '';
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf('```', i);
    const close = open === -1 ? -1 : source.indexOf('```', open + 3);
    if (close === -1) {
      parseSegment(source.slice(i), names, emojiAt, out);
      break;
    }
    if (open > i) parseSegment(source.slice(i, open), names, emojiAt, out);
    let body = source.slice(open + 3, close);
    if (body.startsWith('\n')) body = body.slice(1);
    if (body.endsWith('\n')) body = body.slice(0, -1);
    out.push({ kind: 'pre', text: decodeEntities(body) });
    i = close + 3;
  }
  return out;
}

/**
 * Tokens as plain text: emphasis without its markers, mentions as @name and #name, links as their
 * label, emoji as their character (or `:code:` when unknown), newlines kept.
 */
export function tokensToPlain(tokens: Token[]): string {
  let out = '';
  for (const t of tokens) {
    switch (t.kind) {
      case 'text':
      case 'code':
      case 'pre':
        out += t.text;
        break;
      case 'bold':
      case 'italic':
      case 'strike':
      case 'quote':
        out += tokensToPlain(t.children);
        break;
      case 'user':
      case 'broadcast':
        out += `@${t.name}`;
        break;
      case 'channel':
        out += `#${t.name}`;
        break;
      case 'link':
        out += t.label;
        break;
      case 'emoji':
        out += t.char ?? `:${t.code}:`;
        break;
      case 'newline':
        out += '\n';
        break;
    }
  }
  return out;
}

/** A thread's title: its parent's plain text on one line, cut to `limit` with an ellipsis. */
export function threadTitle(text: string, names: MrkdwnNames, limit: number = THREAD_TITLE_LENGTH): string {
  return cutText(tokensToPlain(tokenize(text, names)), limit);
}
