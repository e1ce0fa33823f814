/**
 * The local provider's refinement engine (SPEC §2.6, §4.7): deterministic rewrites of a draft
 * in five modes, with Slack markup kept byte for byte.
 *
 * Markup (`<@U1>`, `<#C1|name>`, `<https://…|label>`, bare URLs, `:emoji:`, `` `code` `` and
 * ``` blocks) is swapped for one private-use character per distinct token before any rule
 * runs, so no rule can see, split or change it, and swapped back at the end.
 */
import type { RefineMode } from '../../../model/ai';

/* ------------------------------------------------------------------ markup protection */

const MARKUP = /```[\s\S]*?```|`[^`\n]+`|<[^<>\n]+>|https?:\/\/[^\s<>]*[^\s<>.,!?;:)'"]|:[a-z0-9_+-]+:|[\uE000-\uF8FF]/gi;
const PLACEHOLDER_BASE = 0xe000;
const PLACEHOLDER_COUNT = 0xf8ff - 0xe000 + 1;
/** One placeholder character, in a regex character class. */
const PH = '\\uE000-\\uF8FF';
const PLACEHOLDER = new RegExp(`[${PH}]`, 'g');
const IS_PLACEHOLDER = new RegExp(`^[${PH}]$`);

interface Protected {
  text: string;
  tokens: string[];
}

/** Replaces each markup token with a placeholder; null when there are too many distinct tokens. */
function protect(text: string): Protected | null {
  const index = new Map<string, number>();
  const tokens: string[] = [];
  const out = text.replace(MARKUP, (token) => {
    let i = index.get(token);
    if (i === undefined) {
      i = tokens.length;
      index.set(token, i);
      tokens.push(token);
    }
    return String.fromCharCode(PLACEHOLDER_BASE + i);
  });
  return tokens.length > PLACEHOLDER_COUNT ? null : { text: out, tokens };
}

function restore(text: string, tokens: readonly string[]): string {
  return text.replace(PLACEHOLDER, (ch) => tokens[ch.charCodeAt(0) - PLACEHOLDER_BASE] ?? ch);
}

/** Whether a placeholder stands for markup a sentence may end with a period after (`<…>`). */
function isAngleToken(ch: string, tokens: readonly string[]): boolean {
  return tokens[ch.charCodeAt(0) - PLACEHOLDER_BASE]?.startsWith('<') ?? false;
}

/* ------------------------------------------------------------------ word tables */

type Rule = readonly [RegExp, string];

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A phrase of a table as a whole-word, case-insensitive pattern (spaces match any run of spaces). */
function wholeWords(body: string): RegExp {
  return new RegExp(`(?<![\\w'./-])(?:${body})(?![\\w'/-]|\\.\\w)`, 'gi');
}

/** Whole-word, case-insensitive rules from a phrase table, applied one after another. */
function rules(table: Record<string, string>): Rule[] {
  return Object.entries(table).map(([from, to]) => [wholeWords(escapeRegex(from).replace(/ /g, '\\s+')), to] as const);
}

/**
 * Single words to replace, in one pattern: one pass per line instead of one per word (polish
 * reads every line; 40,000 short lines took 0.7 s with a pass per word). The same result as
 * `rules` for single words whose replacements are no other word of the table.
 */
function wordReplacer(table: Record<string, string>): (text: string) => string {
  const to = new Map(Object.entries(table));
  const re = wholeWords([...to.keys()].map(escapeRegex).join('|'));
  return (text) => text.replace(re, (found) => matchCase(found, to.get(found.toLowerCase()) ?? found));
}

/** Keeps a capital first letter of the replaced text. */
function matchCase(found: string, replacement: string): string {
  const first = found.charAt(0);
  if (replacement && first !== first.toLowerCase()) return replacement.charAt(0).toUpperCase() + replacement.slice(1);
  return replacement;
}

function applyRules(text: string, table: readonly Rule[]): string {
  return table.reduce((acc, [re, to]) => acc.replace(re, (found) => matchCase(found, to)), text);
}

const fixSpelling = wordReplacer({
  teh: 'the',
  recieve: 'receive',
  recieved: 'received',
  definately: 'definitely',
  seperate: 'separate',
  occured: 'occurred',
  untill: 'until',
  alot: 'a lot',
  thier: 'their',
  wich: 'which',
  becuase: 'because',
  becasue: 'because',
  tommorow: 'tomorrow',
  tomorow: 'tomorrow',
  accomodate: 'accommodate',
  adress: 'address',
  beleive: 'believe',
  calender: 'calendar',
  enviroment: 'environment',
  goverment: 'government',
  reccomend: 'recommend',
  recomend: 'recommend',
  wierd: 'weird',
  acheive: 'achieve',
  truely: 'truly',
  begining: 'beginning',
  buisness: 'business',
  comming: 'coming',
  finaly: 'finally',
  freind: 'friend',
  immediatly: 'immediately',
  neccessary: 'necessary',
  necessery: 'necessary',
  noticable: 'noticeable',
  realy: 'really',
  sucess: 'success',
  suprise: 'surprise',
  wether: 'whether',
  writting: 'writing',
  dont: "don't",
  cant: "can't",
  wont: "won't",
  didnt: "didn't",
  doesnt: "doesn't",
  isnt: "isn't",
  wasnt: "wasn't",
  werent: "weren't",
  arent: "aren't",
  havent: "haven't",
  hasnt: "hasn't",
  shouldnt: "shouldn't",
  wouldnt: "wouldn't",
  couldnt: "couldn't",
  im: "I'm",
  ive: "I've",
  youre: "you're",
  youll: "you'll",
  youve: "you've",
  theyre: "they're",
  thats: "that's",
  whats: "what's",
  theres: "there's",
});

/** A lone 'i' (also in i'm, i'll), but not the one of 'i.e.'. */
const LONE_I = /(?<![\w'’./-])i(?=$|[^\w./-]|\.(?!\w))/g;

const CASUAL = rules({
  'r u': 'are you',
  gonna: 'going to',
  wanna: 'want to',
  gotta: 'have to',
  kinda: 'kind of',
  sorta: 'sort of',
  dunno: "don't know",
  lemme: 'let me',
  gimme: 'give me',
  "y'all": 'everyone',
  u: 'you',
  ur: 'your',
  ya: 'you',
  pls: 'please',
  plz: 'please',
  thx: 'thank you',
  thnx: 'thank you',
  thanx: 'thank you',
  ty: 'thank you',
  tmrw: 'tomorrow',
  tmr: 'tomorrow',
  asap: 'as soon as possible',
  btw: 'by the way',
  imo: 'in my opinion',
  imho: 'in my opinion',
  idk: "I don't know",
  np: 'no problem',
  yeah: 'yes',
  yep: 'yes',
  yup: 'yes',
  nope: 'no',
  ok: 'OK',
  okay: 'OK',
  cuz: 'because',
  coz: 'because',
  tho: 'though',
  thru: 'through',
  b4: 'before',
  msg: 'message',
  convo: 'conversation',
  info: 'information',
  awesome: 'great',
  stuff: 'things',
  "ain't": "isn't",
  guys: 'everyone',
});

/**
 * Laughter and text emoticons, with the spaces before them. A match starts only where a run of
 * spaces starts (`(?<!\s)`): tried inside the run, each start re-read the rest of it (40,000
 * spaces took seconds).
 */
const LAUGHTER = /(?<!\s)\s*(?<![\w'])(?:lol|lmao|lmfao|rofl|omg|ugh|ha(?:ha)+h?|he(?:he)+|xd)(?![\w'])|(?:^|(?<!\s)\s+)[:;]-?[)(DPp](?=\s|$)/gim;
/** A text emoticon at the end of a line (':)', ';-P'): no period after it. */
const ENDS_IN_EMOTICON = /[:;]-?[)(DPp]$/;

const REDUNDANT = rules({
  'in order to': 'to',
  'due to the fact that': 'because',
  'at this point in time': 'now',
  'at the present time': 'now',
  'in the event that': 'if',
  'for the purpose of': 'for',
  'with regards to': 'about',
  'with regard to': 'about',
  'in regards to': 'about',
  'in regard to': 'about',
  'a large number of': 'many',
  'the majority of': 'most',
  'in spite of the fact that': 'although',
  'despite the fact that': 'although',
  'is able to': 'can',
  'are able to': 'can',
  'make a decision': 'decide',
  'take into consideration': 'consider',
  'each and every': 'every',
  'first and foremost': 'first',
  'end result': 'result',
  'past history': 'history',
  'future plans': 'plans',
  'free of charge': 'free',
  'until such time as': 'until',
  'in the near future': 'soon',
  'on a daily basis': 'daily',
  'on a weekly basis': 'weekly',
  'prior to': 'before',
  'subsequent to': 'after',
  'at the end of the day': 'ultimately',
  'in close proximity to': 'near',
  'the reason why is because': 'because',
});

const PLAIN_WORDS = rules({
  utilize: 'use',
  utilizes: 'uses',
  utilized: 'used',
  utilizing: 'using',
  utilise: 'use',
  utilises: 'uses',
  utilised: 'used',
  utilising: 'using',
  utilization: 'use',
  leverage: 'use',
  leverages: 'uses',
  leveraging: 'using',
  facilitate: 'help',
  facilitates: 'helps',
  approximately: 'about',
  commence: 'start',
  commences: 'starts',
  terminate: 'end',
  terminates: 'ends',
  endeavor: 'try',
  endeavour: 'try',
  ascertain: 'find out',
  demonstrate: 'show',
  demonstrates: 'shows',
  sufficient: 'enough',
  additional: 'more',
  numerous: 'many',
  assistance: 'help',
  purchase: 'buy',
  regarding: 'about',
  subsequently: 'later',
  individuals: 'people',
  initiate: 'start',
  initiates: 'starts',
  modify: 'change',
  modifies: 'changes',
  obtain: 'get',
  obtains: 'gets',
  require: 'need',
  requires: 'needs',
  indicate: 'show',
  indicates: 'shows',
  inquire: 'ask',
  optimal: 'best',
  'however,': 'but',
  however: 'but',
  'therefore,': 'so',
  therefore: 'so',
  nevertheless: 'still',
  'consequently,': 'so',
  consequently: 'so',
  furthermore: 'also',
  additionally: 'also',
  'in addition': 'also',
  'a majority of': 'most',
});

/* ------------------------------------------------------------------ filler (shorter) */

/** Closing pleasantries and hedges that carry no content: removed with their punctuation. */
const CLOSERS: readonly RegExp[] = [
  /(?:please\s+)?(?:do\s+)?let me know if (?:you have any questions|you have questions|you need anything(?: else)?|there(?:'s| is) anything else|anything changes|that works|you need (?:more|any) (?:info|information|help|details))[.!]*/gi,
  /feel free to (?:reach out|ping me|let me know)[^.!?\n\uE000-\uF8FF]*[.!]*/gi,
  /(?:i )?hope (?:this|that) helps[.!]*/gi,
  /sorry to bother you[,.!]*/gi,
  /(?:it is important to note|it should be noted|please note|needless to say) that[,]?/gi,
  /needless to say,?/gi,
];

const HEDGES = rules({
  'i think that': '',
  'i think': '',
  'i feel like': '',
  'i believe that': '',
  'i guess': '',
  'in my opinion,': '',
  'in my opinion': '',
  'to be honest,': '',
  'to be honest': '',
  'i just wanted to let you know that': '',
  'i just wanted to let you know': '',
  'i wanted to let you know that': '',
  'i wanted to let you know': '',
  'just wanted to let you know that': '',
  'i just wanted to say that': '',
  'i just wanted to mention that': '',
  'i wanted to mention that': '',
  'what i mean is': '',
  'thanks in advance': 'thanks',
  'a little bit': 'a bit',
  'kind of': '',
  'sort of': '',
  'you know,': '',
  'i mean,': '',
  'pretty sure': 'sure',
  'pretty much': '',
  honestly: '',
  basically: '',
  actually: '',
  literally: '',
  totally: '',
  really: '',
  very: '',
  quite: '',
  just: '',
  um: '',
  umm: '',
  uh: '',
});

/** Openers of a sentence that add nothing ('So, …', 'Well, …', 'Anyway, …'). */
const OPENERS = /(^|[.!?]\s+|\n)(?:so,|well,|anyways?,?|ok so,?|okay so,?)\s+(?=\S)/gi;

/** The text without the run of `marks` at its end (a loop: `[…]+$` re-reads the run from each start). */
function trimTrailing(text: string, marks: string): string {
  let end = text.length;
  while (end > 0 && marks.includes(text.charAt(end - 1))) end--;
  return text.slice(0, end);
}

/** A polite ask, at the start of the sentence or after a ', ' (group 1: could, can or would). */
const ASKS = [
  /(?:^|, )i (?:was|am|were) (?:just )?wondering if you (could|can|would) /gi,
  /(?:^|, )i (?:just )?wanted to (?:ask|check) if you (could|can|would) /gi,
];
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * The ask whose rest holds no '?' (once the closing marks are dropped): the first one after
 * a ', ', else the one the sentence opens with. The same choice as
 * `^(.*?, )?<ask>([^?]*?)[.!?]*$`, found in one pass where that pattern backtracked.
 */
function findAsk(body: string, ask: RegExp): { prefix: string; verb: string; rest: string } | null {
  const lastQuestion = body.lastIndexOf('?');
  const lineBreak = body.search(LINE_BREAK);
  let opening: RegExpExecArray | null = null;
  ask.lastIndex = 0;
  for (let m = ask.exec(body); m; m = ask.exec(body)) {
    const end = m.index + m[0].length;
    if (m.index > 0 && lineBreak >= 0 && lineBreak < m.index) break;
    if (end <= lastQuestion) continue;
    if (m.index > 0) return { prefix: body.slice(0, m.index + 2), verb: m[1] ?? '', rest: body.slice(end) };
    opening = m;
  }
  return opening ? { prefix: '', verb: opening[1] ?? '', rest: body.slice(opening[0].length) } : null;
}

/** 'I was wondering if you could send it.' → 'Could you send it?' */
function rewriteWondering(sentence: string): string {
  const body = trimTrailing(sentence, '.!?');
  const ask = findAsk(body, ASKS[0]!) ?? findAsk(body, ASKS[1]!);
  if (ask) return `${ask.prefix}${ask.verb} you ${ask.rest}?`;
  return sentence.replace(/^i (?:was|am) (?:just )?wondering if /i, 'wondering if ');
}

/* ------------------------------------------------------------------ sentences and lines */

const ABBREVIATIONS = /(?:\b(?:e\.g|i\.e|etc|vs|approx|mr|mrs|ms|dr)\.)$/i;
/** The longest abbreviation ('approx.') and the character before it, for its `\b`. */
const ABBREVIATION_WINDOW = 8;

/** Whether `text` ends in an abbreviation at `end`, reading only the last few characters before it. */
function endsInAbbreviation(text: string, end: number, start = 0): boolean {
  return ABBREVIATIONS.test(text.slice(Math.max(start, end - ABBREVIATION_WINDOW), end));
}

/** Splits a line into sentences at '.', '!' or '?' followed by space (not after e.g., i.e., …). */
function splitSentences(line: string): string[] {
  const out: string[] = [];
  let start = 0;
  // A run of marks is matched from its first one: from each mark inside it, '!!!…' was re-read.
  const re = /(?<![.!?])[.!?]+\s+/g;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const end = m.index + m[0].trimEnd().length;
    if (endsInAbbreviation(line, end, start)) continue;
    out.push(line.slice(start, end));
    start = m.index + m[0].length;
  }
  out.push(line.slice(start));
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

const BULLET = /^(?:[-*•]|\d+[.)])\s+/;

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/* ------------------------------------------------------------------ polish */

/** Spaces: single, none before punctuation, one after a comma or semicolon, none at the ends. */
function fixSpacing(line: string): string {
  const spaced = line
    .replace(/[ \t\u00a0]+/g, ' ')
    .trim()
    .replace(/(?<! ) +([,.;:!?])(?![-)(DPp/\\|3*])/g, '$1')
    .replace(/^[,;]\s*/, '')
    .replace(/([,;])\s*([.!?])/g, '$2');
  return trimTrailing(spaced, ',;')
    .replace(/([,;])(?=[A-Za-z])/g, '$1 ')
    .replace(/([!?])(?=[A-Za-z])/g, '$1 ')
    .replace(/(\b[a-z]{2,}\.)(?=[A-Z][a-z])/g, '$1 ')
    .trim();
}

function fixRepeats(line: string): string {
  let out = line
    .replace(/([!?])\1+/g, '$1')
    .replace(/,{2,}/g, ',')
    .replace(/\.{4,}/g, '...')
    .replace(/(?<!\.)\.\.(?!\.)/g, '.');
  for (let before = ''; before !== out;) {
    before = out;
    // A word repeated, matched from the start of its run of letters and apostrophes (from a
    // '\b' inside "a'a'a'…" each start re-read the rest of the run).
    out = out.replace(/(?<![\w'])('?)([A-Za-z][A-Za-z']*)\s+\2\b/gi, (m, quote: string, word: string) => (/^(?:had|that)$/i.test(word) ? m : quote + word));
  }
  return out;
}

function capitalizeWord(word: string): string {
  return /^[a-z][a-z']*$/.test(word) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

/** Capitalises the first word of the line (after a bullet marker) and of each sentence. */
function sentenceCase(line: string): string {
  const withFirst = line.replace(/^((?:[-*•]|\d+[.)])?\s*["'(*_~]*)([a-z][\w']*)/, (_m, lead: string, word: string) => lead + capitalizeWord(word));
  return withFirst.replace(/([.!?]\s+["'(*_~]*)([a-z][\w']*)/g, (m, lead: string, word: string, at: number) => {
    if (endsInAbbreviation(withFirst, at + 1)) return m;
    return lead + capitalizeWord(word);
  });
}

const QUESTION_WORD = /^(?:who|what|when|where|why|how|which|whose|anyone|anybody|any (?:update|updates|news|thoughts|ideas|chance|luck|progress|eta)\b)/i;
const SUBJECT = 'you|we|i|they|he|she|anyone|someone|somebody|everyone|the|your|my|our|these|those';
const QUESTION_AUX = new RegExp(
  `^(?:(?:do|don't) (?:${SUBJECT})|(?:can|could|would|will|should|shall|does|did|is|are|am|was|were|have|has|may|might|isn't|aren't|doesn't|didn't|won't|can't|wouldn't|couldn't|shouldn't) (?:${SUBJECT}|it|this|that|there))\\b`,
  'i',
);

function isQuestion(sentence: string): boolean {
  const s = sentence.replace(/^["'(*_~]+/, '');
  return QUESTION_WORD.test(s) || QUESTION_AUX.test(s);
}

/** Adds a final '.' or '?' to a line that ends in a word (or a `<…>` token). */
function endPunctuation(line: string, tokens: readonly string[]): string {
  if (BULLET.test(line)) return line;
  const last = line.slice(-1);
  const endsInWord = /[\p{L}\p{N})"']/u.test(last) || (IS_PLACEHOLDER.test(last) && isAngleToken(last, tokens));
  if (!endsInWord || ENDS_IN_EMOTICON.test(line)) return line;
  const sentences = splitSentences(line);
  return line + (isQuestion(sentences[sentences.length - 1] ?? '') ? '?' : '.');
}

/** The polish rules on one protected line: spacing, repeats, spelling, casing, end punctuation. */
function polishLine(line: string, tokens: readonly string[], endMark = true): string {
  if (line.trim() === '') return '';
  // Repeats are removed after spelling too: a fixed typo can make one ('the teh' → 'the the').
  const fixed = sentenceCase(fixRepeats(fixSpelling(fixRepeats(fixSpacing(line)))).replace(LONE_I, 'I'));
  return endMark && fixed ? endPunctuation(fixed, tokens) : fixed;
}

/** Applies `f` to each line, dropping blank runs to a single blank line and trimming the ends. */
function mapLines(text: string, f: (line: string) => string): string {
  const lines = text.split(/\r?\n/).map(f);
  const kept = lines.filter((line, i) => line !== '' || (i > 0 && lines[i - 1] !== ''));
  return kept.join('\n').trim();
}

function polish(text: string, tokens: readonly string[]): string {
  return mapLines(text, (line) => polishLine(line, tokens));
}

/* ------------------------------------------------------------------ modes */

function professional(text: string, tokens: readonly string[]): string {
  const casual = text
    .replace(/^(\s*)(?:hey|hi|hello|yo)\s+(?:guys|folks|y'all|gang|people|all|everyone)\b,?/i, '$1Hi all,')
    .replace(/^(\s*)(?:hey|yo|hiya|sup|heya)\b/i, '$1Hi')
    .replace(LAUGHTER, '');
  const polished = polish(applyRules(casual, CASUAL), tokens).replace(/\?!+|(?<!!)!+\?/g, '?');
  let seen = false;
  return polished.replace(/!/g, () => (seen ? '.' : ((seen = true), '!')));
}

/** One sentence after another, one space apart, per line. */
function normalizeSentences(text: string, f: (sentence: string) => string = (s) => s): string {
  return mapLines(text, (line) => splitSentences(line).map(f).join(' '));
}

function removeFiller(text: string): string {
  const closed = CLOSERS.reduce((acc, re) => acc.replace(re, ''), text);
  const rewritten = normalizeSentences(closed, rewriteWondering);
  return applyRules(applyRules(rewritten, HEDGES), REDUNDANT).replace(OPENERS, '$1');
}

function shorter(text: string, tokens: readonly string[]): string {
  const trimmed = removeFiller(text);
  if (trimmed === normalizeSentences(text)) return polish(text, tokens);
  const polished = polish(trimmed, tokens);
  if (polished.length < text.trim().length) return polished;
  return mapLines(trimmed, (line) => sentenceCase(fixSpacing(line)));
}

const SPLIT_AT = /,\s+(and|but|so)\s+|;\s+/i;
const LONG_SENTENCE_WORDS = 14;
const MIN_PART_WORDS = 4;

/** Splits a long sentence at ', and' / ', but' / ', so' / ';' into sentences of its own. */
function splitLong(sentence: string): string[] {
  if (wordCount(sentence) <= LONG_SENTENCE_WORDS) return [sentence];
  const m = SPLIT_AT.exec(sentence);
  if (!m) return [sentence];
  const head = sentence.slice(0, m.index);
  const conj = (m[1] ?? '').toLowerCase();
  const tail = (conj === 'and' || conj === '' ? '' : `${conj} `) + sentence.slice(m.index + m[0].length);
  if (wordCount(head) < MIN_PART_WORDS || wordCount(tail) < MIN_PART_WORDS) return [sentence];
  return [`${head}.`, ...splitLong(tail)];
}

function simplify(text: string, tokens: readonly string[]): string {
  const plain = applyRules(applyRules(text, REDUNDANT), PLAIN_WORDS);
  const split = mapLines(plain, (line) => splitSentences(fixSpacing(line)).flatMap(splitLong).join(' '));
  return polish(split, tokens);
}

/** Splits one sentence into enumerated items: 'a, b and c' → [a, b, c]; 'x and y' → [x, y]. */
function enumerate(sentence: string): string[] {
  // The spaces before a ',' or ';' are trimmed off the part: a leading `\s*` in the separator
  // re-read a run of spaces from each start in it.
  const parts = sentence.split(/[;,]\s+/).map((part) => part.trimEnd());
  if (parts.length === 1) return sentence.split(/(?<!\s)\s+and\s+/i);
  const last = parts.pop() ?? '';
  if (parts.length < 2 && !/\b(?:and|or)\s/i.test(last)) return [sentence];
  return [...parts, ...last.replace(/^(?:and|or)\s+/i, '').split(/(?<!\s)\s+(?:and|or)\s+/i)];
}

function listItem(item: string, tokens: readonly string[]): string {
  const bare = trimTrailing(item.replace(BULLET, '').replace(/^(?:and|or|then|also)\s+/i, ''), '.,;:').trim();
  return polishLine(bare, tokens, false);
}

/** The lead-in ('We need:') and the text of the items, when the text opens with one. */
function leadIn(text: string): { lead: string; rest: string } | null {
  const m = /^([^:\n.!?]{3,}?):\s+([\s\S]+)$/.exec(text);
  return m ? { lead: `${m[1]}:`, rest: m[2] ?? '' } : null;
}

function itemsOf(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length > 1) return lines;
  const sentences = splitSentences(lines[0] ?? '');
  return sentences.length > 1 ? sentences : enumerate(sentences[0] ?? '');
}

function list(text: string, tokens: readonly string[]): string {
  const trimmed = text.trim();
  const found = leadIn(trimmed);
  const items = itemsOf(found ? found.rest : trimmed)
    .map((item) => listItem(item, tokens))
    .filter(Boolean);
  const bullets = (items.length > 0 ? items : [polishLine(trimmed, tokens, false)]).map((item) => `• ${item}`);
  const lead = found ? polishLine(found.lead, tokens, false) : '';
  return [lead, ...bullets].filter(Boolean).join('\n');
}

const MODES: Record<RefineMode, (text: string, tokens: readonly string[]) => string> = {
  polish,
  professional,
  shorter,
  simplify,
  list,
};

function hasContent(text: string): boolean {
  return /[\p{L}\p{N}\uE000-\uF8FF]/u.test(text);
}

/**
 * The draft rewritten in `mode`: polish (casing, spacing, punctuation, spelling), professional
 * (polish plus formal words, no laughter or exclamation spam), shorter (filler and hedges
 * dropped), simplify (plain words, long sentences split), list (bullet lines, '• ').
 * Slack markup is never changed. Never empty for a non-blank draft.
 */
export function refineLocally(text: string, mode: RefineMode): string {
  if (text.trim() === '') return '';
  const safe = protect(text);
  if (!safe) return text.trim();
  const out = MODES[mode](safe.text, safe.tokens);
  if (hasContent(out)) return restore(out, safe.tokens);
  const fallback = polish(safe.text, safe.tokens);
  return restore(fallback.trim() ? fallback : safe.text.trim(), safe.tokens);
}

const CHUNK_CHARS = 8;

/**
 * Streaming chunks of a text: each word with the whitespace after it (leading whitespace
 * alone); a word longer than 8 characters in even pieces of at most 8. Joined, they are `text`.
 */
export function chunkText(text: string): string[] {
  const pieces = text.match(/^\s+|\S+\s*/g) ?? [];
  return pieces.flatMap((piece) => {
    const word = piece.trimEnd();
    if (word.length <= CHUNK_CHARS) return [piece];
    const chars = Array.from(word);
    const size = Math.ceil(chars.length / Math.ceil(chars.length / CHUNK_CHARS));
    const out: string[] = [];
    for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
    out[out.length - 1] += piece.slice(word.length);
    return out;
  });
}
