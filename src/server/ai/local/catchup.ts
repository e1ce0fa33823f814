/**
 * The local provider's catch-up assistant (SPEC §2.9, §4.12, §7.8): a session over the
 * member's unread conversations that answers the six suggestion chips, the eight example
 * prompts and free phrasing, in plain text that reads well aloud.
 */
import { CAUGHT_UP_MESSAGE } from '../../../model/ai';
import { cutText } from '../../../model/text';
import type { AiMessage, CatchupAction, CatchupContext, CatchupConversation, CatchupReply } from '../types';
import { estimateTokens } from '../budget';
import { mentions } from './answer';
import { searchTerms, wordsOf } from '../words';
import {
  ASK,
  INCIDENTS,
  MAX_IDS,
  QUESTION,
  SNIPPET,
  THANKS,
  ago,
  catchupGreeting,
  countsText,
  detectIntent,
  duration,
  joinNames,
  label,
  latestFromOthers,
  line,
  plural,
  ranked,
  said,
  urgencyOrder,
  withPeriod,
  type CatchupIntent,
} from '../catchupText';

/* ------------------------------------------------------------------ replies */

interface Draft {
  message: string;
  conversations: CatchupConversation[];
  proposal?: CatchupAction;
}

const HELP =
  "I can tell you what's urgent, who to reply to first, surface team blockers, summarize urgent messages, " +
  'suggest replies to simple messages, clear your unread FYI messages, or find what someone said about a topic.';

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
