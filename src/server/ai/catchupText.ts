/**
 * The catch-up assistant's provider-neutral words (issue 15 §1: the AI service depends only on the provider
 * interface): what a member's message asks for (its intent), how the unread conversations are ranked and named,
 * and the greeting that opens a session. The local provider's replies and the service both use them.
 */
import { CAUGHT_UP_MESSAGE } from '../../model/ai';
import { cutText } from '../../model/text';
import type { AiMessage, CatchupContext, CatchupConversation } from './types';

/* ------------------------------------------------------------------ intents */

/** What a catch-up message asks for. */
export type CatchupIntent =
  | 'confirm'
  | 'decline'
  | 'clear_fyi'
  | 'replies'
  | 'summarize_urgent'
  | 'summarize'
  | 'dms'
  | 'reviews'
  | 'reply_first'
  | 'blockers'
  | 'incidents'
  | 'deadlines'
  | 'urgent'
  | 'help'
  | 'thanks'
  | 'greeting'
  | 'search';

export const SHORT_ANSWER_WORDS = 6;
export const DECLINE = /^(?:no|nope|nah|cancel|don't|do not|stop|never ?mind|not now|not yet|leave (?:them|it)|keep them|skip it)\b/;
export const CONFIRM = /^(?:yes|yeah|yep|yup|y|sure|ok|okay|do it|go ahead|confirm|please do|sounds good|absolutely|of course|go for it)\b/;

export const SUMMARY = /\b(?:summar\w*|recap|tl ?dr|digest|brief me|what did i miss|what i missed|catch me up|fill me in|overview)\b/;
export const URGENT_WORDS = /\b(?:urgent\w*|important|critical|priorit\w*)\b/;
export const DM_WORDS = /\b(?:dms?|direct messages?|private messages?)\b/;

/** Whether a text matches. */
export type Matcher = (text: string) => boolean;

export const matches =
  (re: RegExp): Matcher =>
  (text) =>
    re.test(text);

/**
 * `first.*then` over one line, without its backtracking (issue 12 §4): the pattern retried `.*`
 * to the end of the text from every match of `first`, quadratic on 'who who who …'. Here `first`
 * is found once, and `then` is looked for from where that match ends (word alternatives end at
 * their word's end, so the first match ends first). Both are global, for lastIndex.
 */
export const inOrder =
  (first: RegExp, then: RegExp): Matcher =>
  (text) => {
    first.lastIndex = 0;
    const m = first.exec(text);
    if (!m) return false;
    then.lastIndex = m.index + m[0].length;
    return then.test(text);
  };

export const anyOf =
  (...matchers: Matcher[]): Matcher =>
  (text) =>
    matchers.some((m) => m(text));

export const INTENTS: ReadonlyArray<readonly [CatchupIntent, Matcher]> = [
  [
    'clear_fyi',
    anyOf(
      inOrder(/\b(?:clear|mark|dismiss|archive|clean|remove|read|get rid of)\b/g, /\bfyis?\b/g),
      inOrder(/\bfyis?\b/g, /\b(?:as read|clear|dismiss|archive)\b/g),
    ),
  ],
  [
    'replies',
    anyOf(
      inOrder(/\b(?:suggest\w*|craft\w*|draft\w*|write|compose|propos\w*|quick)\b/g, /\b(?:repl\w*|respon\w*|answers?)\b/g),
      matches(/\bwhat (?:should|do|can) i (?:say|reply|answer|respond)\b/),
    ),
  ],
  ['reviews', matches(/\b(?:reviews?|pull requests?|prs?|approv\w*|lgtm)\b/)],
  [
    'reply_first',
    anyOf(
      inOrder(/\bwho\b/g, /\b(?:reply|respond|answer|waiting|wait|needs?|get back|ping\w*|ask\w*|owe)\b/g),
      matches(/\bwaiting (?:on|for) (?:me|my|a reply|a response|an answer)\b|\breply to first\b/),
    ),
  ],
  ['blockers', matches(/\b(?:blockers?|blocked|blocking|stuck|impediments?|held up|on hold)\b/)],
  ['incidents', matches(/\b(?:incidents?|outages?|sev ?[0-3]|p[0-2]|down|paged|alerts?|postmortems?|emergenc\w*|broken)\b/)],
  ['deadlines', matches(/\b(?:deadlines?|due|cut ?off|eod|eow|end of (?:the )?(?:day|week)|this week|next week)\b/)],
  ['dms', matches(DM_WORDS)],
  ['urgent', matches(/\b(?:urgent\w*|important|priorit\w*|on fire|fires?|asap|focus|attention|critical|pressing|matters?|minutes?|mins?|quick\w*|top)\b/)],
  ['help', matches(/\b(?:help|what can you do|how does this work|commands)\b/)],
  ['thanks', matches(/^(?:thanks|thank you|thx|ty|cheers|great|perfect|awesome|nice|cool|got it)\b/)],
  ['greeting', matches(/^(?:hi|hello|hey|good (?:morning|afternoon|evening)|morning|yo)\b/)],
];

export function normalize(message: string): string {
  return message
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^\p{L}\p{N}#@'\s-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The intent of a catch-up message, robust to case, punctuation and wording: a short yes/no
 * first, then summaries, then the first matching topic (clear FYI, replies, reviews, who to
 * reply to, blockers, incidents, deadlines, DMs, urgent, help, thanks, greeting); else 'search'.
 * normalize leaves one line (every space run is one ' '), so an in-order check equals the `.*`
 * patterns it replaced.
 */
export function detectIntent(message: string): CatchupIntent {
  const text = normalize(message);
  if (text.split(' ').length <= SHORT_ANSWER_WORDS) {
    if (DECLINE.test(text)) return 'decline';
    if (CONFIRM.test(text)) return 'confirm';
  }
  if (SUMMARY.test(text) && !/\bfyi/.test(text)) {
    if (URGENT_WORDS.test(text)) return 'summarize_urgent';
    return DM_WORDS.test(text) ? 'dms' : 'summarize';
  }
  return INTENTS.find(([, matcher]) => matcher(text))?.[0] ?? 'search';
}

/* ------------------------------------------------------------------ conversations */

export const QUESTION = /\?\s*$/;
export const ASK = /\b(?:can you|could you|would you|please|need you|let me know|thoughts|review|approve)\b/i;
export const THANKS = /\b(?:thanks|thank you|thx|appreciate)\b/i;
export const INCIDENTS =
  /\b(?:incident|outage|sev ?[0-3]|p0|p1|down|degraded|5xx|500s|errors?|failing|failed|rollback|roll back|alert|paged|pagerduty|on fire|broken|crash\w*)\b/i;

export const CATEGORY_RANK: Record<string, number> = { urgent: 0, can_wait: 1, fyi: 2 };
export const UNSORTED_RANK = 1.5;
export const MAX_IDS = 10;
export const SNIPPET = 90;

export function rank(c: CatchupConversation): number {
  return c.category ? (CATEGORY_RANK[c.category] ?? UNSORTED_RANK) : UNSORTED_RANK;
}

export function isDirect(c: CatchupConversation): boolean {
  return c.type === 'dm' || c.messages.some((m) => m.mentionsMember);
}

/** How pressing a conversation is within its category: direct, an incident, an ask, its age. */
export function pressure(c: CatchupConversation, now: number): number {
  const texts = c.messages.map((m) => m.text);
  const hours = Math.max(0, now / 1000 - c.latestActivity) / 3_600;
  return (
    (isDirect(c) ? 2 : 0) +
    (texts.some((t) => INCIDENTS.test(t)) ? 2 : 0) +
    (texts.some((t) => QUESTION.test(t) || ASK.test(t)) ? 1 : 0) +
    Math.min(2, hours / 12)
  );
}

/** Most pressing first: category, then pressure, then the longest waiting. */
export function urgencyOrder(now: number): (a: CatchupConversation, b: CatchupConversation) => number {
  return (a, b) =>
    rank(a) - rank(b) || pressure(b, now) - pressure(a, now) || a.latestActivity - b.latestActivity || a.conversationId.localeCompare(b.conversationId);
}

export function ranked(context: CatchupContext): CatchupConversation[] {
  return [...context.conversations].sort(urgencyOrder(context.now));
}

/** The newest message not written by the member. */
export function latestFromOthers(c: CatchupConversation, memberId: string): AiMessage | undefined {
  return [...c.messages].reverse().find((m) => m.user !== memberId);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** '1 minute', '3 hours', '2 days'; null under a minute. */
export function duration(epochSeconds: number, now: number): string | null {
  const s = Math.max(0, Math.floor(now / 1000) - epochSeconds);
  if (s < 60) return null;
  if (s < 3_600) return plural(Math.floor(s / 60), 'minute');
  if (s < 86_400) return plural(Math.floor(s / 3_600), 'hour');
  return plural(Math.floor(s / 86_400), 'day');
}

/** 'just now', '12 minutes ago', '3 hours ago', '2 days ago'. */
export function ago(epochSeconds: number, now: number): string {
  const d = duration(epochSeconds, now);
  return d ? `${d} ago` : 'just now';
}

/** '#incidents', 'Sam Lee (DM)', or with a note: 'Sam Lee (DM, 1 unread)', '#incidents (3 unread)'. */
export function label(c: CatchupConversation, note?: string): string {
  const notes = [c.type === 'dm' ? 'DM' : '', note ?? ''].filter(Boolean).join(', ');
  return notes ? `${c.title} (${notes})` : c.title;
}

/** '"Checkout is down"' with its author unless the DM's own person wrote it. */
export function said(c: CatchupConversation, m: AiMessage): string {
  const who = c.type === 'dm' && m.author === c.title ? '' : `${m.author}: `;
  return `${who}"${cutText(m.text, SNIPPET)}"`;
}

/** '• #incidents — Dana Reyes: "Checkout is down" (12 minutes ago)'. */
export function line(c: CatchupConversation, context: CatchupContext, m = latestFromOthers(c, context.memberId)): string {
  const what = m ? said(c, m) : (c.reason ?? plural(c.unreadCount, 'unread message'));
  return `• ${label(c)} — ${what} (${ago(c.latestActivity, context.now)})`;
}

export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

export function withPeriod(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

export function countsText(context: CatchupContext): string {
  const count = (category: string | null) => context.conversations.filter((c) => c.category === category).length;
  const parts = [
    count('urgent') > 0 ? `${count('urgent')} urgent` : '',
    count('can_wait') > 0 ? `${count('can_wait')} that can wait` : '',
    count('fyi') > 0 ? `${count('fyi')} FYI` : '',
    count(null) > 0 ? `${count(null)} not sorted yet` : '',
  ].filter(Boolean);
  return `${plural(context.conversations.length, 'unread conversation')}: ${joinNames(parts)}`;
}

/**
 * The catch-up session's opening message: the unread counts by category and the single
 * most pressing conversation; "You're all caught up!" with nothing unread.
 */
export function catchupGreeting(context: CatchupContext): string {
  const top = ranked(context)[0];
  if (!top) return CAUGHT_UP_MESSAGE;
  const m = latestFromOthers(top, context.memberId);
  const what = top.reason ? `: ${top.reason}` : m ? `, ${said(top, m)}` : '';
  return [
    `You have ${countsText(context)}.`,
    `The most pressing is ${label(top)}${what} (${ago(top.latestActivity, context.now)}).`,
    "Ask me what's urgent, who to reply to first, or to clear your FYI messages.",
  ].join(' ');
}
