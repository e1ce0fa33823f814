/**
 * The AI's word rules, provider-neutral (issue 15 §1: the AI service depends only on the provider interface):
 * the tokens the local classifier reads (words with plurals folded, `?`, emoji codes, broadcasts), the content
 * words a lesson keeps of a conversation, and a question's search terms for the retrieval. The local provider
 * and the AI service both use them; a remote model gets the same lessons and the same retrieved messages.
 */
import type { AiCategory } from '../../model/types';
import type { AiMessage, ClassifyInput, Lesson } from './types';

/* ------------------------------ the classifier's tokens ------------------------------ */

/** End of a word once plurals and possessives are folded ('outages', "Dana's"); verb forms stay apart. */
function stemEnd(s: string, start: number, end: number): number {
  if (end - start <= 3 || s.charCodeAt(end - 1) !== 115 /* s */) return end;
  const before = s.charCodeAt(end - 2);
  if (before === 39 /* ' */) return end - 2;
  return before === 115 || before === 117 || before === 105 /* ss, us, is */ ? end : end - 1;
}

export function stem(word: string): string {
  return word.slice(0, stemEnd(word, 0, word.length));
}

const isWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
const isJoiner = (c: number): boolean => c === 45 /* - */ || c === 39; /* ' */
const isEmojiCodeChar = (c: number): boolean => isWordChar(c) || c === 95 || c === 43 || c === 45 || c === 39;

/** End of the word starting at `i`: letters and digits, joined by inner hyphens or apostrophes. */
function wordEnd(s: string, i: number): number {
  let j = i + 1;
  for (;;) {
    while (j < s.length && isWordChar(s.charCodeAt(j))) j++;
    if (j + 1 < s.length && isJoiner(s.charCodeAt(j)) && isWordChar(s.charCodeAt(j + 1))) j += 2;
    else return j;
  }
}

/** End of the `:emoji_code:` starting at `i`, or -1. */
function emojiEnd(s: string, i: number): number {
  let j = i + 1;
  while (j < s.length && isEmojiCodeChar(s.charCodeAt(j))) j++;
  return j > i + 1 && s.charCodeAt(j) === 58 ? j + 1 : -1;
}

const BROADCASTS = ['@here', '@channel', '@everyone'];

/** End of the @here, @channel or @everyone starting at `i`, or -1. */
function broadcastEnd(s: string, i: number): number {
  for (const b of BROADCASTS) if (s.startsWith(b, i) && !isWordChar(s.charCodeAt(i + b.length))) return i + b.length;
  return -1;
}

/**
 * The tokens of one text as positions in its lower-case form, in buffers reused from text to
 * text; a token's string is cut only when asked for. Tokens are words (hyphenated ones whole,
 * plurals folded), `?`, `:emoji:` codes, pictographs and @here/@channel/@everyone. This runs
 * for every message of every unread conversation, hence the hand-written scanner.
 */
export class TokenScan {
  text = '';
  count = 0;
  starts = new Int32Array(256);
  ends = new Int32Array(256);
  private readonly cut: (string | undefined)[] = [];

  scan(text: string): this {
    const lower = text.toLowerCase();
    const s = (this.text = lower.includes('’') ? lower.replace(/’/g, "'") : lower);
    this.count = 0;
    this.cut.length = 0;
    for (let i = 0; i < s.length;) {
      const c = s.charCodeAt(i);
      let end = i + 1;
      if (isWordChar(c)) {
        end = wordEnd(s, i);
        this.push(i, stemEnd(s, i, end));
      } else if (c === 58 /* : */ && emojiEnd(s, i) > 0) this.push(i, (end = emojiEnd(s, i)));
      else if (c === 64 /* @ */ && broadcastEnd(s, i) > 0) this.push(i, (end = broadcastEnd(s, i)));
      else if (c === 63 /* ? */ || (c >= 0x2600 && c <= 0x27bf)) this.push(i, end);
      else if (c >= 0xd83c && c <= 0xd83e && i + 1 < s.length) this.push(i, (end = i + 2));
      i = end;
    }
    return this;
  }

  private push(start: number, end: number): void {
    if (this.count === this.starts.length) {
      const starts = new Int32Array(this.count * 2);
      const ends = new Int32Array(this.count * 2);
      starts.set(this.starts);
      ends.set(this.ends);
      this.starts = starts;
      this.ends = ends;
    }
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.count++;
  }

  /** Token `i` as a string. */
  word(i: number): string {
    return (this.cut[i] ??= this.text.slice(this.starts[i]!, this.ends[i]!));
  }

  /** The first character code of token `i`. */
  firstCode(i: number): number {
    return this.text.charCodeAt(this.starts[i]!);
  }

  /** Whether token `i` is `word` (compared in place, nothing cut). */
  is(i: number, word: string): boolean {
    const start = this.starts[i]!;
    return this.ends[i]! - start === word.length && this.text.startsWith(word, start);
  }
}

/** All tokens of a text as strings. */
export function tokens(text: string): string[] {
  const t = new TokenScan().scan(text);
  return Array.from({ length: t.count }, (_, i) => t.word(i));
}

/* ------------------------------ lessons ------------------------------ */

/** Words too common to tell conversations apart. */
const LESSON_STOP_WORDS = new Set(
  `a an the and or but if then so to of in on at by for from with about as into over after before is are was were be been
  being am it it's its this that these those there here i i'm i've i'll me my we we're our you you're your u he she they them
  their his her what which who whom when where why how all any some no not can could would should will just do does did done
  have has had get got go going up out off than too very also still now let let's pls please hey hi hello ok okay yes yeah
  thanks thank ? one two`
    .split(/\s+/)
    .filter((w) => w !== '')
    .map(stem),
);
const MAX_LESSON_WORDS = 40;

/**
 * The content words a Lesson stores for a conversation: stemmed, lower case, without stop
 * words and bare numbers, newest messages first, at most 40.
 */
export function lessonWords(messages: readonly AiMessage[]): string[] {
  const words = new Set<string>();
  for (let i = messages.length - 1; i >= 0 && words.size < MAX_LESSON_WORDS; i--) {
    for (const w of tokens(messages[i]!.text)) {
      if (w.length < 2 || LESSON_STOP_WORDS.has(w) || /^\d+$/.test(w)) continue;
      words.add(w);
      if (words.size >= MAX_LESSON_WORDS) break;
    }
  }
  return [...words];
}

/** A lesson from a conversation the member moved to `category` by hand, at epoch ms `at`. */
export function lessonFor(input: ClassifyInput, category: AiCategory, at: number): Lesson {
  let sender: AiMessage | undefined;
  for (let i = input.messages.length - 1; i >= 0 && sender === undefined; i--) {
    const m = input.messages[i]!;
    if (m.user !== input.memberId) sender = m;
  }
  return {
    category,
    conversationId: input.conversationId,
    conversationName: input.name,
    type: input.type,
    senderId: sender?.user ?? null,
    senderName: sender?.author ?? null,
    words: lessonWords(input.messages),
    at,
  };
}

/* ------------------------------ a question's search terms ------------------------------ */

const QUESTION_STOP_WORDS = new Set(
  `a an the and or but if of to in on at by for with about from into over after before between than then so too
  very not no yes is are was were be been being am do does did done doing have has had having i me my mine myself
  we us our ours you your yours he him his she her hers they them their theirs it its this that these those there
  here what which who whom whose when where why how whats what's who's where's when's how's whos any anything some
  something all each every say said says tell told know knew mention mentioned mentions talk talked discuss
  discussed please can could would should will shall may might must just get got give show find let lets let's up
  out also again still now anyone someone anybody somebody thing things going go goes went happening happened
  latest recent recently message messages im i'm ive i've youre you're dont don't doesnt doesn't didnt didn't
  isnt isn't arent aren't right new much many more most other such only own same as like via per one
  summarize summarise summary recap missed miss catch coming come`.split(/\s+/),
);

/** A word of a text: a #channel, an @name, a ticket id (OPS-1234), or letters and digits. */
export const WORD = /#[\p{L}\p{N}_-]+|@[\p{L}\p{N}._-]+|\b[A-Za-z]+-\d+\b|[\p{L}\p{N}][\p{L}\p{N}'’_]*/gu;

/** What a word never ends with. */
const TRAILING = new Set(["'", '’', '.', '_', '-']);

/**
 * The word without its trailing apostrophes, dots, underscores and hyphens. A loop: the pattern
 * `['’._-]+$` retried the run from each of its characters, quadratic on "a'''…'x" (issue 12 §4).
 */
function withoutTrailing(word: string): string {
  let end = word.length;
  while (end > 0 && TRAILING.has(word[end - 1]!)) end -= 1;
  return word.slice(0, end);
}

/** Lower-case words of a text, with '#'/'@' and possessive 's removed (stop words kept). */
export function wordsOf(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => withoutTrailing(w.replace(/^[#@]/, '').replace(/['’]s$/i, '')).toLowerCase()).filter(Boolean);
}

/**
 * The content words of a question, for the search index: lower case, in order, without
 * duplicates, stop words or question words. Names, ticket ids ('ops-1234') and channel names
 * (without '#') are kept. Empty when the question has no content word.
 */
export function searchTerms(question: string): string[] {
  const seen = new Set<string>();
  for (const word of wordsOf(question)) {
    if (word.length < 2 || QUESTION_STOP_WORDS.has(word)) continue;
    seen.add(word);
  }
  return [...seen];
}
