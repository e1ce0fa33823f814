/**
 * The local provider's catch-up assistant (SPEC §2.9, §4.12, §7.8): a session over the
 * member's unread conversations that answers the six suggestion chips, the eight example
 * prompts and free phrasing, in plain text that reads well aloud.
 */
import { CAUGHT_UP_MESSAGE } from '../../../model/ai';
import { cutText } from '../../../model/text';
import type { AiMessage, CatchupAction, CatchupContext, CatchupConversation, CatchupReply } from '../types';
import { estimateTokens } from '../budget';
import { mentions, searchTerms, wordsOf } from './answer';

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

const SHORT_ANSWER_WORDS = 6;
const DECLINE = /^(?:no|nope|nah|cancel|don't|do not|stop|never ?mind|not now|not yet|leave (?:them|it)|keep them|skip it)\b/;
const CONFIRM = /^(?:yes|yeah|yep|yup|y|sure|ok|okay|do it|go ahead|confirm|please do|sounds good|absolutely|of course|go for it)\b/;

const SUMMARY = /\b(?:summar\w*|recap|tl ?dr|digest|brief me|what did i miss|what i missed|catch me up|fill me in|overview)\b/;
const URGENT_WORDS = /\b(?:urgent\w*|important|critical|priorit\w*)\b/;
const DM_WORDS = /\b(?:dms?|direct messages?|private messages?)\b/;

/** Whether a text matches. */
type Matcher = (text: string) => boolean;

const matches =
  (re: RegExp): Matcher =>
  (text) =>
    re.test(text);

/**
 * `first.*then` over one line, without its backtracking (issue 12 §4): the pattern retried `.*`
 * to the end of the text from every match of `first`, quadratic on 'who who who …'. Here `first`
 * is found once, and `then` is looked for from where that match ends (word alternatives end at
 * their word's end, so the first match ends first). Both are global, for lastIndex.
 */
const inOrder =
  (first: RegExp, then: RegExp): Matcher =>
  (text) => {
    first.lastIndex = 0;
    const m = first.exec(text);
    if (!m) return false;
    then.lastIndex = m.index + m[0].length;
    return then.test(text);
  };

const anyOf =
  (...matchers: Matcher[]): Matcher =>
  (text) =>
    matchers.some((m) => m(text));

const INTENTS: ReadonlyArray<readonly [CatchupIntent, Matcher]> = [
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

function normalize(message: string): string {
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

const QUESTION = /\?\s*$/;
const ASK = /\b(?:can you|could you|would you|please|need you|let me know|thoughts|review|approve)\b/i;
const THANKS = /\b(?:thanks|thank you|thx|appreciate)\b/i;
const INCIDENTS =
  /\b(?:incident|outage|sev ?[0-3]|p0|p1|down|degraded|5xx|500s|errors?|failing|failed|rollback|roll back|alert|paged|pagerduty|on fire|broken|crash\w*)\b/i;

const CATEGORY_RANK: Record<string, number> = { urgent: 0, can_wait: 1, fyi: 2 };
const UNSORTED_RANK = 1.5;
const MAX_IDS = 10;
const SNIPPET = 90;

function rank(c: CatchupConversation): number {
  return c.category ? (CATEGORY_RANK[c.category] ?? UNSORTED_RANK) : UNSORTED_RANK;
}

function isDirect(c: CatchupConversation): boolean {
  return c.type === 'dm' || c.messages.some((m) => m.mentionsMember);
}

/** How pressing a conversation is within its category: direct, an incident, an ask, its age. */
function pressure(c: CatchupConversation, now: number): number {
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
function urgencyOrder(now: number): (a: CatchupConversation, b: CatchupConversation) => number {
  return (a, b) =>
    rank(a) - rank(b) || pressure(b, now) - pressure(a, now) || a.latestActivity - b.latestActivity || a.conversationId.localeCompare(b.conversationId);
}

function ranked(context: CatchupContext): CatchupConversation[] {
  return [...context.conversations].sort(urgencyOrder(context.now));
}

/** The newest message not written by the member. */
function latestFromOthers(c: CatchupConversation, memberId: string): AiMessage | undefined {
  return [...c.messages].reverse().find((m) => m.user !== memberId);
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** '1 minute', '3 hours', '2 days'; null under a minute. */
function duration(epochSeconds: number, now: number): string | null {
  const s = Math.max(0, Math.floor(now / 1000) - epochSeconds);
  if (s < 60) return null;
  if (s < 3_600) return plural(Math.floor(s / 60), 'minute');
  if (s < 86_400) return plural(Math.floor(s / 3_600), 'hour');
  return plural(Math.floor(s / 86_400), 'day');
}

/** 'just now', '12 minutes ago', '3 hours ago', '2 days ago'. */
function ago(epochSeconds: number, now: number): string {
  const d = duration(epochSeconds, now);
  return d ? `${d} ago` : 'just now';
}

/** '#incidents', 'Sam Lee (DM)', or with a note: 'Sam Lee (DM, 1 unread)', '#incidents (3 unread)'. */
function label(c: CatchupConversation, note?: string): string {
  const notes = [c.type === 'dm' ? 'DM' : '', note ?? ''].filter(Boolean).join(', ');
  return notes ? `${c.title} (${notes})` : c.title;
}

/** '"Checkout is down"' with its author unless the DM's own person wrote it. */
function said(c: CatchupConversation, m: AiMessage): string {
  const who = c.type === 'dm' && m.author === c.title ? '' : `${m.author}: `;
  return `${who}"${cutText(m.text, SNIPPET)}"`;
}

/** '• #incidents — Dana Reyes: "Checkout is down" (12 minutes ago)'. */
function line(c: CatchupConversation, context: CatchupContext, m = latestFromOthers(c, context.memberId)): string {
  const what = m ? said(c, m) : (c.reason ?? plural(c.unreadCount, 'unread message'));
  return `• ${label(c)} — ${what} (${ago(c.latestActivity, context.now)})`;
}

function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

function withPeriod(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/* ------------------------------------------------------------------ replies */

interface Draft {
  message: string;
  conversations: CatchupConversation[];
  proposal?: CatchupAction;
}

const HELP =
  "I can tell you what's urgent, who to reply to first, surface team blockers, summarize urgent messages, " +
  'suggest replies to simple messages, clear your unread FYI messages, or find what someone said about a topic.';

function countsText(context: CatchupContext): string {
  const count = (category: string | null) => context.conversations.filter((c) => c.category === category).length;
  const parts = [
    count('urgent') > 0 ? `${count('urgent')} urgent` : '',
    count('can_wait') > 0 ? `${count('can_wait')} that can wait` : '',
    count('fyi') > 0 ? `${count('fyi')} FYI` : '',
    count(null) > 0 ? `${count(null)} not sorted yet` : '',
  ].filter(Boolean);
  return `${plural(context.conversations.length, 'unread conversation')}: ${joinNames(parts)}`;
}

function urgentReply(context: CatchupContext, message: string): Draft {
  const brief = /\b(?:\d+|five|few|couple of) (?:minutes?|mins?)\b|\bquick/i.test(message);
  const all = ranked(context);
  const urgent = all.filter((c) => c.category === 'urgent');
  const shown = (urgent.length > 0 ? urgent : all).slice(0, brief ? 3 : 5);
  const first = shown[0]!;
  const head =
    urgent.length > 0
      ? `${plural(urgent.length, 'urgent conversation')} need${urgent.length === 1 ? 's' : ''} you${urgent.length > shown.length ? `; the top ${shown.length}` : ''}:`
      : 'Nothing is urgent right now. Next up:';
  const start = `Start with ${label(first)}${first.reason ? `: ${withPeriod(first.reason)}` : '.'}`;
  return { message: [head, ...shown.map((c) => line(c, context)), start].join('\n'), conversations: shown };
}

/** Why a conversation waits on the member, and how strongly. */
function waitingOn(c: CatchupConversation, context: CatchupContext): { score: number; why: string[] } | null {
  const m = latestFromOthers(c, context.memberId);
  const last = c.messages[c.messages.length - 1];
  if (!m || last?.user === context.memberId) return null;
  if (THANKS.test(m.text) && !QUESTION.test(m.text) && !ASK.test(m.text)) return null;
  const signals: Array<[boolean, number, string]> = [
    [c.type === 'dm', 3, 'direct message'],
    [c.messages.some((x) => x.mentionsMember), 3, 'mentions you'],
    [QUESTION.test(m.text), 2, 'asks a question'],
    [!QUESTION.test(m.text) && ASK.test(m.text), 1, 'asks you for something'],
    [c.category === 'urgent', 3, 'marked urgent'],
  ];
  const hit = signals.filter(([on]) => on);
  if (!hit.some(([, , why]) => why !== 'marked urgent')) return null;
  const hours = Math.max(0, context.now / 1000 - c.latestActivity) / 3_600;
  const score = hit.reduce((s, [, w]) => s + w, 0) + Math.min(2, hours / 12) - (c.category === 'fyi' ? 2 : 0);
  const waited = duration(c.latestActivity, context.now);
  return { score, why: [...hit.map(([, , why]) => why), ...(waited ? [`waiting ${waited}`] : [])] };
}

function replyFirstReply(context: CatchupContext): Draft {
  const waiting = context.conversations
    .map((c) => ({ c, w: waitingOn(c, context) }))
    .filter((x): x is { c: CatchupConversation; w: { score: number; why: string[] } } => x.w !== null)
    .sort((a, b) => b.w.score - a.w.score || urgencyOrder(context.now)(a.c, b.c))
    .slice(0, 5);
  if (waiting.length === 0) return { message: 'No one is waiting on a reply from you right now.', conversations: [] };
  const lines = waiting.map(({ c, w }) => {
    const m = latestFromOthers(c, context.memberId)!;
    return `• ${label(c)} — ${w.why.join(', ')}: ${said(c, m)}`;
  });
  const first = waiting[0]!.c;
  return {
    message: ['Reply to these first:', ...lines, `Start with ${label(first)}.`].join('\n'),
    conversations: waiting.map((x) => x.c),
  };
}

/** Per conversation, its newest message matching a vocabulary, most pressing first. */
function matching(context: CatchupContext, vocabulary: RegExp): Array<{ c: CatchupConversation; m: AiMessage }> {
  return ranked(context).flatMap((c) => {
    const m = [...c.messages].reverse().find((x) => x.user !== context.memberId && vocabulary.test(x.text));
    return m ? [{ c, m }] : [];
  });
}

function vocabularyReply(context: CatchupContext, vocabulary: RegExp, found: (n: number) => string, none: string): Draft {
  const hits = matching(context, vocabulary).slice(0, MAX_IDS);
  if (hits.length === 0) return { message: none, conversations: [] };
  const lines = hits.map(({ c, m }) => line(c, context, m));
  return { message: [found(hits.length), ...lines].join('\n'), conversations: hits.map((h) => h.c) };
}

const BLOCKERS =
  /\b(?:blocked|blocker|blockers|blocking|stuck|waiting on|waiting for|can'?t proceed|cannot proceed|can'?t move forward|unable to|on hold|held up|depends on)\b/i;
const REVIEWS = /\b(?:review|reviews|reviewing|pr|prs|pull request|approve|approval|lgtm|take a look|have a look|feedback on)\b/i;
const DEADLINES =
  /\b(?:deadline|due|by (?:mon|tues|wednes|thurs|fri|satur|sun)day|by (?:eod|eow|end of (?:the )?(?:day|week))|eod|eow|tomorrow|tonight|this week|next week|cut-?off|by \d{1,2}(?::\d{2})?\s?(?:am|pm)?)\b/i;

function summarizeUrgentReply(context: CatchupContext): Draft {
  const urgent = ranked(context).filter((c) => c.category === 'urgent');
  if (urgent.length === 0) return { message: `Nothing is marked urgent. You have ${countsText(context)}.`, conversations: [] };
  const lines = urgent.slice(0, MAX_IDS).map((c) => {
    const m = latestFromOthers(c, context.memberId);
    const why = c.reason ? `${withPeriod(c.reason)} ` : '';
    return `• ${label(c, `${c.unreadCount} unread`)}: ${why}${m ? said(c, m) : ''}`.trimEnd();
  });
  return { message: [`${plural(urgent.length, 'urgent conversation')}:`, ...lines].join('\n'), conversations: urgent.slice(0, MAX_IDS) };
}

/** Conversations a message names: '#engineering', or a person or channel by one of its words. */
function named(context: CatchupContext, message: string): { target: string; found: CatchupConversation[] } | null {
  const channel = /#[\p{L}\p{N}_-]+/u.exec(message)?.[0];
  if (channel) {
    const found = context.conversations.filter((c) => c.title.toLowerCase().includes(channel.toLowerCase()));
    return { target: channel, found };
  }
  const words = wordsOf(message);
  const found = context.conversations.filter((c) =>
    wordsOf(c.title.replace(/^Thread in /, '').split(':')[0] ?? '').some((w) => w.length >= 3 && words.includes(w)),
  );
  return found.length > 0 ? { target: found.map((c) => c.title).join(', '), found } : null;
}

function summarizeReply(context: CatchupContext, message: string): Draft {
  const target = named(context, message);
  if (target && target.found.length === 0) return { message: `There's nothing unread in ${target.target}.`, conversations: [] };
  const convs = (target ? target.found : ranked(context)).slice(0, target ? 5 : 8);
  const lines = convs.flatMap((c) => {
    const others = c.messages.filter((m) => m.user !== context.memberId).slice(-3);
    const authors = [...new Set(others.map((m) => m.author))];
    const head = `• ${label(c)}: ${plural(c.unreadCount, 'unread message')}${authors.length ? ` from ${joinNames(authors)}` : ''}.`;
    return target ? [head, ...others.map((m) => `   ${m.author}: "${cutText(m.text, SNIPPET)}"`)] : [line(c, context)];
  });
  const head = target ? `Here's what you missed in ${target.target}:` : `You have ${countsText(context)}. In short:`;
  return { message: [head, ...lines].join('\n'), conversations: convs };
}

function dmsReply(context: CatchupContext): Draft {
  const dms = ranked(context)
    .filter((c) => c.type === 'dm')
    .slice(0, MAX_IDS);
  if (dms.length === 0) return { message: 'You have no unread direct messages.', conversations: [] };
  const lines = dms.map((c) => {
    const m = latestFromOthers(c, context.memberId);
    return `• ${label(c, `${c.unreadCount} unread`)} — ${m ? said(c, m) : (c.reason ?? '')} (${ago(c.latestActivity, context.now)})`;
  });
  return { message: [`${plural(dms.length, 'unread direct message')}:`, ...lines].join('\n'), conversations: dms };
}

const SIMPLE_MESSAGE_WORDS = 30;

function withoutLeadingMention(text: string, name: string): string {
  const mention = `@${name}`;
  return text.toLowerCase().startsWith(mention.toLowerCase()) ? text.slice(mention.length).replace(/^[,:]?\s*/, '') : text;
}
const WHEN = /\b(?:before|by) (\d{1,2}(?::\d{2})?\s?(?:am|pm)|noon|eod|end of (?:the )?day|tomorrow|tonight|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b/i;

/**
 * A short proposed reply to a simple message (thanks, a review, scheduling, a status
 * question, a request, a yes/no question), or null when it is not a short ask. A leading
 * '@Member Name' is ignored; a 'before 3pm' in the ask is echoed instead of 'today'.
 */
export function suggestReply(text: string, memberName: string): string | null {
  const t = withoutLeadingMention(text.trim(), memberName);
  if (t.split(/\s+/).length > SIMPLE_MESSAGE_WORDS) return null;
  const when = WHEN.exec(t)?.[0] ?? 'today';
  const question = QUESTION.test(t);
  if (THANKS.test(t) && !question) return "You're welcome, happy to help!";
  if (REVIEWS.test(t)) return `Thanks, I'll take a look ${when}.`;
  if (/\b(?:meet|meeting|call|sync|available|free|calendar|slot|reschedule|time works)\b/i.test(t) && question)
    return 'That works for me. Send over an invite.';
  if (/\b(?:status|update|eta|progress|how's it going|how is it going|any news)\b/i.test(t)) return "Still on it. I'll send an update by end of day.";
  if (/^(?:can|could|would|will) (?:you|someone|anyone)\b/i.test(t) || (ASK.test(t) && !question)) return `Sure, I'll take care of it ${when}.`;
  if (/^(?:is|are|do|does|did|should|has|have|will|would)\b/i.test(t) && question)
    return /\b(?:work|ok|okay|fine|good|alright)\b/i.test(t) ? 'Yes, that works for me.' : "Let me check and I'll confirm shortly.";
  if (question) return 'Good question. Let me check and get back to you.';
  return null;
}

function repliesReply(context: CatchupContext): Draft {
  const simple = ranked(context)
    .filter((c) => c.category !== 'fyi')
    .flatMap((c) => {
      const m = latestFromOthers(c, context.memberId);
      const last = c.messages[c.messages.length - 1];
      const reply = m && !m.isBot && last?.user !== context.memberId ? suggestReply(m.text, context.memberName) : null;
      return m && reply ? [{ c, m, reply }] : [];
    })
    .slice(0, 5);
  if (simple.length === 0) return { message: "I didn't find simple messages that need a quick reply.", conversations: [] };
  const lines = simple.map(({ c, m, reply }) => `• ${label(c)} — ${said(c, m)}\n   Reply: "${reply}"`);
  return {
    message: [`Suggested replies for ${plural(simple.length, 'simple message')}:`, ...lines].join('\n'),
    conversations: simple.map((s) => s.c),
  };
}

function clearFyiReply(context: CatchupContext): Draft {
  const fyi = ranked(context).filter((c) => c.category === 'fyi');
  if (fyi.length === 0) return { message: 'You have no unread FYI conversations to clear.', conversations: [] };
  const what = plural(fyi.length, 'FYI conversation');
  const names = fyi.slice(0, 3).map((c) => label(c));
  const list = fyi.length > 3 ? `${names.join(', ')} and ${fyi.length - 3} more` : joinNames(names);
  const proposal: CatchupAction = { type: 'mark_read', conversationIds: fyi.map((c) => c.conversationId), description: `Mark ${what} as read` };
  return { message: `Mark ${what} as read? That's ${list}. Say yes to confirm.`, conversations: fyi, proposal };
}

/** A yes or a no reaches the provider only when nothing is pending (the service answers the others). */
function confirmReply(): Draft {
  return { message: `There's nothing waiting for a yes right now. ${HELP}`, conversations: [] };
}

function declineReply(): Draft {
  return { message: `OK. ${HELP}`, conversations: [] };
}

/** Unread messages that share words with the message (text, author or conversation title). */
function searchReply(context: CatchupContext, message: string): Draft {
  const terms = searchTerms(message);
  const scored = context.conversations.flatMap((c) =>
    c.messages.map((m) => {
      const words = wordsOf(m.text);
      const about = wordsOf(`${m.author} ${c.title}`);
      const hits = terms.filter((t) => mentions(words, t) || mentions(about, t)).length;
      return { c, m, hits };
    }),
  );
  const most = Math.max(0, ...scored.map((x) => x.hits));
  const best = scored
    .filter((x) => x.hits > 0 && x.hits >= Math.ceil(most * 0.75))
    .sort((a, b) => b.hits - a.hits || Number(b.m.ts) - Number(a.m.ts))
    .filter((x, i, all) => all.findIndex((y) => y.c === x.c) === i)
    .slice(0, 5);
  if (best.length === 0) return { message: `I couldn't find that in your unread messages. ${HELP}`, conversations: [] };
  const lines = best.map(({ c, m }) => line(c, context, m));
  return { message: ["Here's what I found in your unread messages:", ...lines].join('\n'), conversations: best.map((x) => x.c) };
}

function thanksReply(context: CatchupContext): Draft {
  const left = context.conversations.length;
  return { message: `You're welcome! ${left > 0 ? `You still have ${plural(left, 'unread conversation')}.` : "You're all caught up."}`, conversations: [] };
}

function draft(intent: CatchupIntent, context: CatchupContext, message: string): Draft {
  switch (intent) {
    case 'confirm':
      return confirmReply();
    case 'decline':
      return declineReply();
    case 'help':
      return { message: HELP, conversations: [] };
    case 'thanks':
      return thanksReply(context);
    default:
      break;
  }
  if (context.conversations.length === 0) return { message: CAUGHT_UP_MESSAGE, conversations: [] };
  switch (intent) {
    case 'clear_fyi':
      return clearFyiReply(context);
    case 'replies':
      return repliesReply(context);
    case 'summarize_urgent':
      return summarizeUrgentReply(context);
    case 'summarize':
      return summarizeReply(context, message);
    case 'dms':
      return dmsReply(context);
    case 'reviews':
      return vocabularyReply(
        context,
        REVIEWS,
        (n) => `${plural(n, 'review request')} in your unread messages:`,
        'No reviews are waiting on you in your unread messages.',
      );
    case 'reply_first':
      return replyFirstReply(context);
    case 'blockers':
      return vocabularyReply(context, BLOCKERS, (n) => `${plural(n, 'conversation')} with blockers:`, "I don't see any blockers in your unread messages.");
    case 'incidents':
      return vocabularyReply(context, INCIDENTS, (n) => `${plural(n, 'conversation')} about incidents:`, 'No incidents in your unread messages.');
    case 'deadlines':
      return vocabularyReply(context, DEADLINES, (n) => `${plural(n, 'conversation')} with deadlines:`, "I don't see any deadlines in your unread messages.");
    case 'urgent':
      return urgentReply(context, message);
    case 'greeting':
      return { message: catchupGreeting(context), conversations: ranked(context).slice(0, 1) };
    default:
      return searchReply(context, message);
  }
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

/**
 * The assistant's reply to one message of a catch-up session, from the session's context:
 * the intent (detectIntent) answered over the unread conversations. Clearing FYI messages
 * is only proposed: the service keeps the proposal and carries it out on the member's own yes.
 */
export function catchupReplyLocally(context: CatchupContext, message: string): CatchupReply {
  const d = draft(detectIntent(message), context, message);
  const conversations = d.conversations.slice(0, MAX_IDS);
  const read = conversations.flatMap((c) => c.messages.map((m) => m.text));
  return {
    message: d.message,
    conversationIds: conversations.map((c) => c.conversationId),
    ...(d.proposal ? { proposal: d.proposal } : {}),
    tokensUsed: estimateTokens(message, d.message, ...read),
  };
}
