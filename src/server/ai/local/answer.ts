/**
 * The local provider's answers (SPEC §3 'AI answer', §7.4): the question's content words for
 * the search index, then an extractive answer from the best sentences of what it found.
 */
import { isTs, tsToMs } from '../../../model/ts';
import type { AnswerRequest, AnswerResult, RetrievedMessage } from '../types';
import { estimateTokens } from '../budget';
import { searchTerms, wordsOf, WORD } from '../words';

/** A crude stem, so 'launch', 'launches' and 'launched' meet. */
function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 4) return w;
  return w.replace(/(?:ing|ed|es|s)$/, '');
}

/** Whether a term appears among words (whole word or same stem). */
export function mentions(words: readonly string[], term: string): boolean {
  const s = stem(term);
  return words.some((w) => w === term || stem(w) === s);
}

/* ------------------------------------------------------------------ sentences */

interface Candidate {
  source: number;
  text: string;
  words: string[];
  /** Question terms found in the sentence or its message's author and channel. */
  hits: string[];
  score: number;
}

const DAY_MS = 86_400_000;
const RECENCY_HALF_LIFE_DAYS = 7;
const QUOTE_LIMIT = 180;
const SHORT_SENTENCE_WORDS = 5;
const NEAR_DUPLICATE = 0.7;

function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** 1 for a message from now (or the future), halving every week back. */
function recency(ts: string, now: number): number {
  if (!isTs(ts)) return 0;
  const ageDays = Math.max(0, now - tsToMs(ts)) / DAY_MS;
  return 0.5 ** (ageDays / RECENCY_HALF_LIFE_DAYS);
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

/** Every sentence of every message, scored by the question terms it covers, relevance and age. */
function candidates(retrieved: readonly RetrievedMessage[], terms: readonly string[], now: number): Candidate[] {
  return retrieved.flatMap((msg, source) => {
    const about = wordsOf(`${msg.author} ${msg.channel}`);
    const sentences = sentencesOf(msg.text);
    return sentences.map((sentence, i) => {
      const short = sentence.split(/\s+/).length < SHORT_SENTENCE_WORDS && i + 1 < sentences.length;
      const text = short ? `${sentence} ${sentences[i + 1]}` : sentence;
      const words = wordsOf(text);
      const hits = terms.filter((t) => mentions(words, t) || mentions(about, t));
      const coverage = terms.length > 0 ? hits.length / terms.length : 0;
      const score = 0.6 * coverage + 0.25 * clamp01(msg.score) + 0.15 * recency(msg.ts, now);
      return { source, text, words, hits, score };
    });
  });
}

function jaccard(a: readonly string[], b: readonly string[]): number {
  const sa = new Set(a);
  const sb = new Set(b);
  const inter = [...sa].filter((w) => sb.has(w)).length;
  const union = new Set([...sa, ...sb]).size;
  return union === 0 ? 1 : inter / union;
}

/** The best sentence per message (the shorter of equals), best first, without near-duplicates, at most `limit`. */
function pick(all: Candidate[], limit: number): Candidate[] {
  const anyHit = all.some((c) => c.hits.length > 0);
  const ranked = [...all].sort((a, b) => b.score - a.score || a.source - b.source || a.words.length - b.words.length);
  const picked: Candidate[] = [];
  for (const c of ranked) {
    if (picked.length >= limit) break;
    if (anyHit && c.hits.length === 0) continue;
    if (picked.some((p) => p.source === c.source || jaccard(p.words, c.words) >= NEAR_DUPLICATE)) continue;
    picked.push(c);
  }
  return picked;
}

/* ------------------------------------------------------------------ wording */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'today', 'yesterday', 'Nov 20' or 'Nov 20, 2025' (UTC days), or '' for a bad ts. */
export function dayLabel(ts: string, now: number): string {
  if (!isTs(ts)) return '';
  const ms = tsToMs(ts);
  const days = Math.floor(now / DAY_MS) - Math.floor(ms / DAY_MS);
  if (days === 0) return 'today';
  if (days === 1) return 'yesterday';
  const d = new Date(ms);
  const year = d.getUTCFullYear() === new Date(now).getUTCFullYear() ? '' : `, ${d.getUTCFullYear()}`;
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}${year}`;
}

/** 'in #incidents', 'in a thread in #general', 'in a DM' or 'in a DM with Sam Lee'. */
function place(msg: RetrievedMessage): string {
  if (msg.channel.startsWith('#')) return `in ${msg.channel}`;
  const thread = /^Thread in (.+)$/.exec(msg.channel);
  if (thread) return `in a thread in ${thread[1]}`;
  return msg.channel === msg.author ? 'in a DM' : `in a DM with ${msg.channel}`;
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= QUOTE_LIMIT ? line : `${line.slice(0, QUOTE_LIMIT - 1).trimEnd()}…`;
}

function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

const ABOUT = /\b(?:about|regarding)\s+/gi;
const PHRASE_END = /[\s?.!]/;
/** What `.` does not match. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * The rest of the question after its first 'about' or 'regarding' (and the spaces after it) on
 * its last line, without the spaces, '?', '.' and '!' that end it; undefined when there is none.
 * What `\b(?:about|regarding)\s+(.+?)[\s?.!]*$` captured whenever that held a letter or digit,
 * in linear time: the pattern tried every end of `.+?` against the rest of the line, from every
 * 'about', quadratic on 'about about …' or on a long run of spaces (issue 12 §4).
 */
export function aboutPhrase(question: string): string | undefined {
  let end = question.length;
  while (end > 0 && PHRASE_END.test(question[end - 1]!)) end -= 1;
  let lineStart = end;
  while (lineStart > 0 && !LINE_BREAK.test(question[lineStart - 1]!)) lineStart -= 1;
  ABOUT.lastIndex = 0;
  while (ABOUT.exec(question)) {
    const start = ABOUT.lastIndex;
    if (start >= end) return undefined;
    if (start >= lineStart) return question.slice(start, end);
  }
  return undefined;
}

/** What the question is about: its 'about …' phrase, else its content words as typed. */
function topicOf(question: string, terms: readonly string[]): string {
  const about = aboutPhrase(question);
  if (about && searchTerms(about).length > 0) return about;
  const typed = (question.match(WORD) ?? []).filter((w) => terms.includes(wordsOf(w)[0] ?? ''));
  return joinWords([...new Set(typed)]);
}

function sourceLine(c: Candidate, n: number, request: AnswerRequest): string {
  const msg = request.retrieved[c.source]!;
  const who = msg.author === request.memberName ? 'You' : msg.author;
  const day = dayLabel(msg.ts, request.now);
  return `• ${who} ${place(msg)}${day ? ` (${day})` : ''}: "${quote(c.text)}" [${n}]`;
}

const NOT_FOUND = "I couldn't find anything about that in your messages.";
const CONFIDENT = 0.45;

function confidenceOf(picked: readonly Candidate[], request: AnswerRequest, terms: readonly string[]): number {
  if (picked.length === 0) return 0;
  const covered = new Set(picked.flatMap((c) => c.hits)).size;
  const coverage = terms.length > 0 ? covered / terms.length : 0.5;
  const relevance = picked.reduce((sum, c) => sum + clamp01(request.retrieved[c.source]!.score), 0) / picked.length;
  const support = Math.min(1, picked.length / 3);
  return Math.round(clamp01(0.55 * coverage + 0.3 * relevance + 0.15 * support) * 100) / 100;
}

/**
 * An extractive answer: the retrieved messages' sentences scored by the question terms they
 * cover (a message's author and channel count), the retrieval score and recency against
 * `now`; the best sentence of each message, near-duplicates dropped, best first, at most
 * `maxSources`, each line numbered as its place in `sourceIndexes`. Confidence is 0 when
 * nothing was retrieved. `temperature` is ignored: the local engine is deterministic.
 * `tokensUsed` estimates the question, the retrieved texts and the answer.
 */
export function composeAnswer(request: AnswerRequest): Omit<AnswerResult, 'model'> {
  const terms = searchTerms(request.question);
  const limit = Math.max(0, Math.floor(request.maxSources));
  const picked = pick(candidates(request.retrieved, terms, request.now), limit);
  const confidence = confidenceOf(picked, request, terms);
  const topic = topicOf(request.question, terms);
  const header =
    confidence >= CONFIDENT
      ? `Here is what I found${topic ? ` about ${topic}` : ''}:`
      : `I'm not certain, but these messages look related${topic ? ` to ${topic}` : ''}:`;
  const answer = picked.length === 0 ? NOT_FOUND : [header, ...picked.map((c, i) => sourceLine(c, i + 1, request))].join('\n');
  return {
    answer,
    sourceIndexes: picked.map((c) => c.source),
    confidence,
    tokensUsed: estimateTokens(request.question, ...request.retrieved.map((m) => m.text), answer),
  };
}
