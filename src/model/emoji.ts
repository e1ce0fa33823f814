/**
 * Emoji short codes to characters, from Slack's own short-code set.
 *
 * The names come from emojibase-data's `iamcal` dataset, which is the emoji-data set Slack
 * uses (`:+1:`, `:thinking_face:`, `:skin-tone-2:`, `:flag-us:`…). It maps hexcode sequences
 * to one or more short codes; the lookup table is built once, on first use.
 */
import iamcal from 'emojibase-data/en/shortcodes/iamcal.json';

const SKIN_TONES: Record<string, string> = {
  'skin-tone-2': '\u{1F3FB}',
  'skin-tone-3': '\u{1F3FC}',
  'skin-tone-4': '\u{1F3FD}',
  'skin-tone-5': '\u{1F3FE}',
  'skin-tone-6': '\u{1F3FF}',
};

const VS16 = 0xfe0f;
const EMOJI_PRESENTATION = /^\p{Emoji_Presentation}$/u;

let table: Map<string, number[]> | null = null;

function codeTable(): Map<string, number[]> {
  if (table) return table;
  const map = new Map<string, number[]>();
  for (const [hexcode, codes] of Object.entries(iamcal as Record<string, string | string[]>)) {
    const points = hexcode.split('-').map((h) => parseInt(h, 16));
    if (points.some((p) => !Number.isInteger(p) || p < 0 || p > 0x10ffff)) continue;
    for (const code of Array.isArray(codes) ? codes : [codes]) {
      if (!map.has(code)) map.set(code, points);
    }
  }
  table = map;
  return map;
}

/** Whether a skin-tone short code (`skin-tone-2` … `skin-tone-6`). */
export function isSkinTone(code: string): boolean {
  return Object.hasOwn(SKIN_TONES, code);
}

/**
 * The character for a short code without colons (`rocket` → 🚀), or null when unknown
 * (custom workspace emoji). With a skin tone (`skin-tone-2` … `skin-tone-6`) the modifier
 * follows the base character, as Slack writes `:+1::skin-tone-2:`.
 */
export function emojiChar(code: string, skinTone?: string): string | null {
  const points = codeTable().get(code);
  if (!points || points.length === 0) return null;
  const tone = skinTone !== undefined && isSkinTone(skinTone) ? SKIN_TONES[skinTone]! : '';
  const [first, ...rest] = points;
  if (tone) {
    // The modifier goes right after the base, replacing a presentation selector there.
    const tail = rest[0] === VS16 ? rest.slice(1) : rest;
    return String.fromCodePoint(first!) + tone + String.fromCodePoint(...tail);
  }
  const text = String.fromCodePoint(...points);
  // A lone character that defaults to text style (❤, ☺, ✔) gets the emoji presentation selector.
  if (points.length === 1 && !EMOJI_PRESENTATION.test(text)) return text + String.fromCodePoint(VS16);
  return text;
}

/** Text with every known `:code:` (and `:code::skin-tone-N:`) as its emoji; unknown codes stay as they are. */
export function emojify(text: string): string {
  return text.replace(/:([a-z0-9_+'-]+):(?::(skin-tone-[2-6]):)?/g, (match, code: string, tone?: string) => {
    const char = emojiChar(code, tone);
    return char ?? match;
  });
}
