/**
 * Text that cannot lie (issue 12 §4). Pure: no DOM, no I/O, never throws, linear in its input.
 *
 * - `stripBidi`: the one cleaner for names and texts shown outside a message (mention names, link
 *   labels, group DM names, AI reasons and answers, notifications, toasts): removes bidi
 *   embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the marks U+200E, U+200F
 *   and U+061C, C0 controls but tab and newline, DEL and C1 controls (U+0080–U+009F). An RLO in
 *   'invoice‮fdp.exe' can no longer make it read 'invoiceexe.pdf'.
 * - `linkPresentation(url, label)`: how a link is shown. When its label names an address (a URL, a
 *   domain, an e-mail address or an IPv4 address, found after removing zero-width characters and
 *   bidi controls, with the ideographic and full-width dots read as dots) other than its target's
 *   host, or the target hides its host behind a `user@`, the real host is revealed beside the
 *   label, as the browser will go there: punycode, never decoded (a Unicode label over a punycode
 *   target is a lookalike). A label that is its target's host or URL (scheme, `www.`, case, path
 *   aside) shows as it is, and so does a label of plain words. Every link carries its whole target
 *   as a title. A `mailto:` link reveals its address when the label names another.
 */

/** WHATWG URL: present wherever Sift runs (browser, worker, Node); typed here as the model's lib is ES only. */
declare const URL: new (url: string) => { protocol: string; hostname: string; username: string; password: string; href: string };

/** Bidi embeddings, overrides, isolates and marks; C0 controls but \t and \n; DEL; C1 controls. */
// eslint-disable-next-line no-control-regex -- strips C0/C1 controls on purpose
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** A name or text without bidi controls and C0/C1 control characters (tab and newline kept). */
export function stripBidi(text: string): string {
  return text.replace(CONTROLS, '');
}

/** Characters that draw nothing: soft hyphen, joiners, zero-width space, word joiner, BOM… */
// eslint-disable-next-line no-misleading-character-class -- a set of single invisible code points, each removed alone (joiners included)
const INVISIBLE = /[\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200D\u2060-\u2064\u3164\uFEFF\uFFA0]/g;
/** Characters a reader (or IDNA) takes for a dot between the parts of a domain. */
const DOT_LIKE = /[\u00B7\u0387\u06D4\u0701\u0702\u2024\u2027\u2E31\u3002\u30FB\uA4F8\uFE52\uFF0E\uFF61\uFF65]/g;
/** What separates possible domains in a text: anything but letters, digits, marks, '.' and '-'. */
const SEPARATOR = /[^\p{L}\p{N}\p{M}.-]+/u;
const NAME_PART = /^[\p{L}\p{N}\p{M}-]{1,63}$/u;
const TOP_LEVEL = /^(?:[\p{L}\p{M}]{2,63}|xn--[a-z0-9-]{1,59})$/iu;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const MAX_DOMAIN = 253;

/** `text` without bidi controls, control characters and zero-width characters. */
function visible(text: string): string {
  return stripBidi(text).replace(INVISIBLE, '');
}

/** Trims dots and hyphens from both ends (loops, not a regex: a token may be long). */
function trimDots(token: string): string {
  let start = 0;
  let end = token.length;
  while (start < end && (token[start] === '.' || token[start] === '-')) start += 1;
  while (end > start && (token[end - 1] === '.' || token[end - 1] === '-')) end -= 1;
  return token.slice(start, end);
}

function isDomain(token: string): boolean {
  if (IPV4.test(token)) return true;
  const parts = token.split('.');
  return parts.length >= 2 && parts.every((p) => NAME_PART.test(p)) && TOP_LEVEL.test(parts[parts.length - 1]!);
}

/**
 * The domains (and IPv4 addresses) a text names, as written. A dotted run longer than any domain
 * counts too: nothing but an address hides in one. Expects text already cleaned by `visible`.
 */
export function domainsIn(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.replace(DOT_LIKE, '.').split(SEPARATOR)) {
    if (raw.length > MAX_DOMAIN + 2) {
      if (raw.includes('.')) out.push(raw);
      continue;
    }
    const token = trimDots(raw);
    if (token && isDomain(token)) out.push(token);
  }
  return out;
}

/** A host compared as a reader reads it: lower case, without a final dot or a leading `www.`. */
function sameHost(a: string, b: string): boolean {
  const norm = (h: string) =>
    h
      .toLowerCase()
      .replace(/\.$/, '')
      .replace(/^www\./, '');
  return norm(a) === norm(b);
}

type Target = { kind: 'web'; host: string; userinfo: boolean; href: string } | { kind: 'mail'; address: string } | { kind: 'other' };

function targetOf(url: string): Target {
  if (/^mailto:/i.test(url)) {
    try {
      return { kind: 'mail', address: decodeURIComponent(url.slice('mailto:'.length).split('?')[0]!).toLowerCase() };
    } catch {
      return { kind: 'other' };
    }
  }
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { kind: 'other' };
    return { kind: 'web', host: parsed.hostname.replace(/\.$/, ''), userinfo: Boolean(parsed.username || parsed.password), href: parsed.href };
  } catch {
    return { kind: 'other' };
  }
}

export interface LinkPresentation {
  /** The label as shown: controls removed, and zero-width characters too when it names an address. */
  label: string;
  /** The real target, shown beside the label when the label names another: its host (punycode) or mail address. */
  reveal?: string;
  /** The whole target, for the link's title. */
  title: string;
}

/** How a link to `url` labelled `label` (its URL when absent or empty) is shown; see the module comment. */
export function linkPresentation(url: string, label?: string): LinkPresentation {
  const cleaned = stripBidi(label ?? '');
  const text = cleaned.trim() ? cleaned : stripBidi(url);
  const bare = visible(text);
  const named = domainsIn(bare);
  const shown = named.length > 0 ? bare : text;
  const target = targetOf(url);
  if (target.kind === 'web') {
    const lies = target.userinfo || named.some((d) => !sameHost(d, target.host));
    return lies ? { label: shown, reveal: target.host, title: target.href } : { label: shown, title: target.href };
  }
  if (target.kind === 'mail') {
    const says = bare
      .trim()
      .toLowerCase()
      .replace(/^mailto:/, '');
    const lies = named.length > 0 && says !== target.address;
    return lies ? { label: shown, reveal: stripBidi(target.address), title: url } : { label: shown, title: url };
  }
  return named.length > 0 && bare !== url ? { label: shown, reveal: stripBidi(url), title: url } : { label: shown, title: url };
}

/** A link as plain text (a notification): its label, and the revealed target in parentheses. */
export function linkText(p: LinkPresentation): string {
  return p.reveal === undefined ? p.label : `${p.label} (${p.reveal})`;
}
