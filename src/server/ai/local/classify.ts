/**
 * The local triage classifier: urgent, can_wait or fyi from what a conversation's unread
 * messages say, with no network, no clock and no randomness.
 *
 * 1. Each message (not the member's own) is read as stemmed tokens; a lexicon of words and
 *    phrases gives cues: incident vocabulary, urgency, a deadline soon or later, "no rush",
 *    an ask, information only, resolved, social chatter, a joke, work handed "to you".
 *    Negations ("not urgent", "no customer impact") are phrases of their own, and a negator
 *    in front of an incident or urgency word cancels it.
 * 2. A conversation's cues are the strongest of its messages, newer ones weighing more.
 * 3. Three scores combine the cues with the context: a direct mention, a DM from a person,
 *    the member's first name, a bot author, the kind of channel (announcements, social, bot
 *    feeds, incidents). The best score wins; its margin over the next is the confidence.
 * 4. Lessons (the member's own corrections) from the same sender or channel whose words are
 *    similar lean the scores toward their category; the newest matching lesson counts most.
 */
import { GROUPS } from '../../../model/layout';
import type { AiCategory } from '../../../model/types';
import type { AiMessage, AiTrigger, Classification, ClassifyInput, Lesson } from '../types';
import { lessonWords, stem, tokens, TokenScan } from '../words';

/* ---------------------------------- cues ----------------------------------- */

const CUES = ['incident', 'urgency', 'soon', 'later', 'noRush', 'ask', 'info', 'resolved', 'social', 'joke', 'toYou'] as const;
type Cue = (typeof CUES)[number];
const CUE_INDEX = Object.fromEntries(CUES.map((c, i) => [c, i])) as Record<Cue, number>;
/** Slots after the cues: a question mark, a deadline preposition ('by Friday'). */
const QUESTION = CUES.length;
const SLOTS = CUES.length + 1;

/**
 * The lexicon: per cue, comma-separated words or phrases, `=weight` when not 1. Entries are
 * tokenized and stemmed like messages, so 'outage' also matches 'outages'.
 */
const LEXICON: Readonly<Record<Cue, string>> = {
  incident: `outage=3, down=1.5, is down=2.5, went down=2.5, still down=2.5, incident=2, incident declared=3, sev1=3, sev 1=3, sev2=2,
    sev0=3, p0=3, p1=2.5, p2=1.5, triggered=2, 500=2, 502=2, 503=2, 5xx=2, error=1.5, error rate=2,
    failing=2, fail=1.5, failed=1.5, failure=1.5, broken=2, broke=1.5, crash=2, crashing=2, timeout=1.5,
    not working=2, isn't working=2, can't log in=2.5, can't login=2.5, can't access=2, locked out=2, stuck=1.5, rollback=1.5,
    roll back=1.5, exhausted=1.5, data loss=3, breach=3, leak=2.5, leaked=2.5, exposed=2, compromised=3, phishing=2.5,
    security issue=2.5, security incident=3, vulnerability=2, credentials=1.5, api key=1.5, revoke=1.5, rotate=1, disk full=2,
    disk usage=1.5, latency=1, spike=1, degraded=2, escalated=2, escalating=2, escalation=2, churn=1.5, customers are blocked=2.5,
    customers can't=2.5, serving errors=2.5, on-call page=2, page=1, paging=1.5, unavailable=2, lag=1, red=0.5, status page=1,
    health check=1.5, legal=0.5, audit=0.8, backing up=1.5, backed up=1, bounced=1.5, crash looping=2.5, crashloop=2.5, expired=1.5,
    job failed=3, build failed=2.5, deploy failed=3, deployment failed=3, major outage=3, partial outage=2.5, firing=1.5`,
  urgency: `urgent=3, asap=3, as soon as possible=3, immediately=3, right now=3, right away=3, rn=2, now=1.2, emergency=3,
    critical=2, blocker=2.5, blocking=2, blocked=1.5, we're blocked=2.5, all hands=2, need eyes=2, drop everything=3,
    top priority=2.5, highest priority=2.5, highest=1, holding=1, every hour=1, war room=2, bridge=1.5, incident call=2,
    :rotating_light:=1.5, :fire:=1, :sos:=2, :x:=1, :red_circle:=1, :warning:=1, 🚨=1.5, 🔥=1, are you around=1.5, you around=1,
    call me=2, otherwise=0.8, threatening=1.5, still=0.5, need a decision=1.5, before then=1, lose=1, quickly=1.5, urgently=3, time-sensitive=2.5, time sensitive=2.5, as soon as you can=2.5`,
  soon: `today=2, tonight=2, eod=2.5, end of day=2.5, end of today=2.5, this morning=1.5, this afternoon=1.2,
    within the hour=3, in an hour=2.5, in the next=1.5, in 1 hour=2, noon=1.2, midnight=1.2, tomorrow=0.8, tomorrow morning=1.5,
    deadline=1.5, expires=0.8, goes out=0.8, go out=0.8, go-live=1, before lunch=1.5, by lunch=1.5, this evening=1.5`,
  later: `monday=1, tuesday=1, wednesday=1, thursday=1, friday=1, next week=1.5, this week=1.2, later this week=1.5,
    next month=1.5, next quarter=1.5, next sprint=1.5, end of the week=1.2, end of week=1.2, end of the month=1.5,
    end of month=1.5, in two weeks=1.5, in a few weeks=1.5, q1=1, q2=1, q3=1, q4=1, planning=1, roadmap=0.8, retro=0.8,
    agenda=1, sync=0.5, offsite=0.5, jan=0.8, feb=0.8, mar=0.8, apr=0.8, jun=0.8, jul=0.8, aug=0.8, sep=0.8, oct=0.8,
    nov=0.8, dec=0.8, january=0.8, february=0.8, march=0.8, april=0.8, june=0.8, july=0.8, august=0.8, september=0.8,
    october=0.8, november=0.8, december=0.8, next tuesday=1.5, due=0.5`,
  noRush: `no rush=3, no hurry=3, not urgent=3, non-urgent=3, non urgent=3, not blocking=2.5, not blocking anything=3,
    low priority=2.5, whenever=2.5, whenever you see this=0.5, when you get a chance=3, when you get the chance=3, when you get a sec=3,
    when you get a minute=3, when you get a moment=2, when you have a moment=2.5, when you have a minute=2.5,
    when you have a sec=2.5, when you have time=2.5, when you can=2.5, when you get to it=2.5, when convenient=2.5,
    at some point=2, sometime=2, eventually=1.5, no pressure=3, totally fine=1.5, there's time=2, can wait=2.5, anytime=2,
    when ready=2, if you have time=2, no worries if not=2, not a priority=2.5, take your time=3, happy to chat=1.5,
    before planning=1.5, when u get a sec=3, would love=1, worth a=1, thinking about=1.5, no urgency=3, no stress=2, not time-sensitive=3, not time sensitive=3, just curious=2, curious=1, low pri=2, no need to reply=3, when you have a second=2.5`,
  ask: `can you=1, could you=1, would you=1, can u=1, could u=1, will you=1, can someone=1, could someone=1, can anyone=1,
    can we=0.8, anyone=0.6, please=0.8, pls=0.8, plz=0.8, need your=1.5, need you=1.5, i need=1, we need=1, let me know=1,
    mind if=1, your review=1.5, review=1, approve=1, approval=1.2, sign off=1.2, sign-off=1.2, feedback=1, thoughts=1,
    weigh in=1.2, take a look=1, look at=0.8, check=0.6, help=0.8, input=1, estimate=1, fill in=1, vote=1, confirm=1,
    ping me=1, any chance=1, do you have=1, should we=1, what do you think=1.2, do you remember=1, small ask=1, requested=0.5,
    comments welcome=1, add anything=1, do we=0.8, would u=1, up for=0.8, can you take=1, would appreciate=1, would you mind=1, appreciate=0.5,
    reminder=1, review requested=1.5, assigned=1, submit=0.8`,
  info: `fyi=2, heads up=0.5, no action needed=4, no action required=4, nothing for you to do=4, just for context=3,
    for context=2, for your information=2, just sharing=2, sharing=1.2, announcement=2, announcing=2, :mega:=2, 📣=2,
    newsletter=2, shipped=2, released=1.5, deployed=2, rolled out=2, rollout=1, completed=2, published=2,
    merged=2, done=1, approved=1.5, passed=2, green=1.5, is out=1.5, now live=2, live=0.5, welcome=2, congrats=2.5,
    congratulations=2.5, thanks=1.5, thank you=1.5, thx=1.5, kudos=2, celebrate=2, photos=2, slides=1, recording=1.5,
    blog=1.5, til=2, wrote up=2, if you're curious=2, if anyone's curious=2, i'll be out=3, out tomorrow=2.5, ooo=2.5,
    out of office=3, covering for me=2.5, renewed=2, closed=1, signed=0.5, update=0.5,
    numbers are in=2, :tada:=1.5, 🎉=1.5, :clap:=1, :raised_hands:=1, :+1:=1, :thumbsup:=1, :100:=1, :white_check_mark:=1.5,
    ✅=1.5, :rocket:=0.8, :confetti_ball:=1, :sparkles:=0.5, :heart:=1, nice=1, great=1, love this=1.5, agreed=1,
    same here=1.5, count me in=1.5, has been fixed=2, lives in=1.5, moving to=0.8, you'll get an email=2,
    well deserved=2, joined=1, just joined=2, won't fix=2, moved from=1, for the holiday=1.5, will be closed=1.5, happy=1, just letting you know=3, letting you know=2, just so you know=2, for visibility=2, no need to respond=3, accepted your invitation=2, declined your invitation=2, submitted=1`,
  resolved: `resolved=3, auto-resolved=3, is fixed=2, been fixed=2, got fixed=2, all fixed=2, back to normal=3, no customer impact=3, no impact=3, all green=2,
    everything is green=3, recovered=2, mitigated=2, closing the incident=3, all clear=3, false alarm=3, never mind=2,
    nvm=2, postmortem=1, confirmed fixed=3, finished=1, is done=1.5, revoked=0.5, acknowledged=1.5`,
  social: `lunch=2, cake=2, coffee=1.5, pizza=1.5, taco=1.5, ramen=1.5, cat=1.5, dog=1.5, puppy=2, kitten=2, pet=1.5,
    game=1.5, match=1, movie=1.5, music=1.5, playlist=1.5, song=1.5, 10k=2, marathon=2, weekend=1, birthday=1.5,
    party=1.5, book club=2, watching=1, anyone doing=1.5, office=0.5,
    :dog:=1.5, :cat:=1.5, :coffee:=1, :cake:=1.5, :taco:=1, :running:=1, :camera_with_flash:=1, :sunny:=1, :wave:=1`,
  joke: `lol=2, haha=2, hahaha=2, lmao=2, rofl=2, jk=2, kidding=2, :joy:=2, :laughing:=2, :rofl:=2, :sweat_smile:=1,
    😂=2, 🤣=2`,
  toYou: `to you=2, assigned to you=2.5, mentioned you=2, requested your review=2, you're on call=2, you are on call=2,
    on call:=1, escalating to=1, escalated to=1, your sign-off=1, your approval=1.5, you own=1.5, you wrote=1.5, you're the=1, you're the only one=2`,
};

interface Entry {
  cue: number;
  weight: number;
  /** Token count of the phrase. */
  length: number;
  /** The phrase as written, for triggers. */
  text: string;
}

/** The lexicon as a trie over stemmed tokens: no string building while reading. */
interface TrieNode {
  entry?: Entry;
  next?: Map<string, TrieNode>;
}
const TRIE = new Map<string, TrieNode>();
/**
 * A cheap pre-check before the trie: which (first character, last character, length) keys
 * start a lexicon phrase. Most words of a message fail it and are never cut or hashed.
 */
const MAY_START = new Uint8Array(1 << 16);
const startKey = (s: string, start: number, end: number): number =>
  ((s.charCodeAt(start) & 63) << 10) | ((s.charCodeAt(end - 1) & 63) << 4) | Math.min(end - start, 15);

function addEntry(cue: Cue, raw: string): void {
  const [text = '', weight = '1'] = raw.split('=');
  const words = tokens(text);
  if (words.length === 0) return;
  MAY_START[startKey(words[0]!, 0, words[0]!.length)] = 1;
  let level = TRIE;
  let node: TrieNode | undefined;
  for (const word of words) {
    node = level.get(word);
    if (node === undefined) level.set(word, (node = {}));
    level = node.next ??= new Map();
  }
  if (node!.entry !== undefined) throw new Error(`lexicon: "${text.trim()}" is listed twice`);
  node!.entry = { cue: CUE_INDEX[cue], weight: Number(weight), length: words.length, text: text.trim() };
}
for (const cue of CUES) for (const raw of LEXICON[cue].split(',')) addEntry(cue, raw.trim());

/** Words that cancel the incident or urgency word after them. */
const NEGATORS = new Set(['not', 'no', 'non', "isn't", "aren't", "wasn't", 'never', 'without']);
/** Words that turn a date after them into a deadline ('by Friday', 'before 3pm'). */
const DEADLINE_WORDS = new Set(['by', 'before', 'due', 'until', 'til', 'till']);
const CLOCK = /^\d{1,2}(?::\d\d)?(?:am|pm)$/;
const DURATION_UNITS = new Set(['min', 'mins', 'minute', 'hour', 'hr', 'hrs']);
const MAX_CUE_PER_MESSAGE = 4;

/** The longest lexicon phrase starting at token `i`, if any. */
function phraseAt(t: TokenScan, i: number): Entry | undefined {
  if (MAY_START[startKey(t.text, t.starts[i]!, t.ends[i]!)] === 0) return undefined;
  let node = TRIE.get(t.word(i));
  let best = node?.entry;
  for (let j = i + 1; node?.next !== undefined && j < t.count; j++) {
    node = node.next.get(t.word(j));
    if (node?.entry !== undefined) best = node.entry;
  }
  return best;
}

/** What one message says: cue weights (each capped) and the strongest phrase per cue. */
interface MessageCues {
  weights: number[];
  /** Per cue, its strongest phrase and that phrase's weight. */
  seen: (string | undefined)[];
  strongest: number[];
  namesMember: boolean;
}

function isDeadlineAt(t: TokenScan, i: number): boolean {
  return (i >= 1 && DEADLINE_WORDS.has(t.word(i - 1))) || (i >= 2 && DEADLINE_WORDS.has(t.word(i - 2)));
}

function addCue(out: MessageCues, cue: number, weight: number, text: string): void {
  if (out.seen[cue] === undefined || weight > out.strongest[cue]!) {
    out.seen[cue] = text;
    out.strongest[cue] = weight;
  }
  out.weights[cue] = Math.min(MAX_CUE_PER_MESSAGE, out.weights[cue]! + weight);
}

/** Times and durations not in the lexicon: '4pm', 'in 20 mins'. */
function timeCue(out: MessageCues, t: TokenScan, i: number): void {
  const first = t.firstCode(i);
  if (first < 48 || first > 57) return;
  const word = t.word(i);
  if (CLOCK.test(word)) addCue(out, CUE_INDEX.soon, isDeadlineAt(t, i) ? 1.5 : 0.4, word);
  else if (i >= 1 && t.is(i - 1, 'in') && i + 1 < t.count && DURATION_UNITS.has(t.word(i + 1)) && /^\d+$/.test(word))
    addCue(out, CUE_INDEX.soon, 2.5, `in ${word} ${t.word(i + 1)}`);
}

/** One scratch record reused for every message: allocation is most of a message's cost otherwise. */
const scratch: MessageCues = {
  weights: new Array<number>(SLOTS).fill(0),
  seen: new Array<string | undefined>(SLOTS).fill(undefined),
  strongest: new Array<number>(SLOTS).fill(0),
  namesMember: false,
};

const scan = new TokenScan();

/** Reads one message text into cues (into a scratch record, valid until the next call). */
function readMessage(text: string, memberFirstName: string): MessageCues {
  const out = scratch;
  out.weights.fill(0);
  out.seen.fill(undefined);
  out.namesMember = false;
  const t = scan.scan(text);
  for (let i = 0; i < t.count;) {
    const entry = phraseAt(t, i);
    if (entry !== undefined) {
      const negated = (entry.cue === CUE_INDEX.incident || entry.cue === CUE_INDEX.urgency) && i >= 1 && NEGATORS.has(t.word(i - 1));
      const deadline = (entry.cue === CUE_INDEX.later || entry.cue === CUE_INDEX.soon) && isDeadlineAt(t, i);
      if (!negated) addCue(out, entry.cue, entry.weight * (deadline ? 1.6 : 1), entry.text);
      i += entry.length;
      continue;
    }
    if (t.firstCode(i) === 63 /* ? */) out.weights[QUESTION] = 1;
    else if (t.is(i, memberFirstName)) out.namesMember = true;
    else timeCue(out, t, i);
    i += 1;
  }
  return out;
}

/* --------------------------------- context --------------------------------- */

type ChannelKind = 'announce' | 'social' | 'feed' | 'incident' | 'other';

const CHANNEL_WORDS: ReadonlyArray<readonly [ChannelKind, ReadonlySet<string>]> = [
  ['incident', new Set(['incident', 'incidents', 'oncall', 'on-call', 'outage', 'outages', 'sev', 'war', 'pager', 'escalations'])],
  [
    'feed',
    new Set(['deploys', 'deploy', 'deployments', 'builds', 'ci', 'github', 'jira', 'notifications', 'bots', 'bot', 'updates', 'feed', 'prs', 'commits']),
  ],
  ['announce', new Set(['announcements', 'announce', 'general', 'news', 'all', 'company', 'allhands', 'all-hands', 'townhall'])],
  [
    'social',
    new Set([
      'random',
      'social',
      'fun',
      'pets',
      'music',
      'running',
      'club',
      'food',
      'lunch',
      'coffee',
      'books',
      'gaming',
      'games',
      'memes',
      'watercooler',
      'yoga',
      'cycling',
      'climbing',
      'cooking',
      'gardening',
      'photography',
      'board-games',
      'football',
      'travel',
      'knitting',
      'parents',
      'movies',
      'hobbies',
      'kudos',
      'celebrations',
      'offtopic',
      'off-topic',
    ]),
  ],
];

/** What a channel's name says about its kind ('announcements', 'random', 'deploys', 'incident-2291'). */
export function channelKind(name: string): ChannelKind {
  const parts = name.toLowerCase().split(/[-_.]/);
  for (const [kind, words] of CHANNEL_WORDS) if (parts.some((p) => words.has(p))) return kind;
  return 'other';
}

/** A conversation read as features: the cues of its messages and who they come from. */
interface Features {
  /** Per cue, the strongest over messages, newer messages weighing more. */
  cue: number[];
  seen: (string | undefined)[];
  /** A mention, a DM from a person, or the member's first name. */
  addressed: boolean;
  mentioned: boolean;
  /** Every message read is by a bot. */
  botOnly: boolean;
  /** The newest message by someone other than the member. */
  sender: AiMessage | undefined;
  kind: ChannelKind;
}

const RECENCY = 0.85;

function firstName(name: string): string {
  return (name.trim().split(/\s+/)[0] ?? '').toLowerCase();
}

function readConversation(input: ClassifyInput): Features {
  const memberFirst = stem(firstName(input.memberName));
  const f: Features = {
    cue: new Array<number>(SLOTS).fill(0),
    seen: new Array<string | undefined>(SLOTS).fill(undefined),
    addressed: false,
    mentioned: false,
    botOnly: true,
    sender: undefined,
    kind: input.type === 'dm' ? 'other' : channelKind(input.name),
  };
  let weight = 1;
  for (let i = input.messages.length - 1; i >= 0; i--) {
    const m = input.messages[i]!;
    if (m.user !== null && m.user === input.memberId) continue;
    f.sender ??= m;
    f.botOnly &&= m.isBot;
    const read = readMessage(m.text, memberFirst);
    f.mentioned ||= m.mentionsMember;
    f.addressed ||= m.mentionsMember || read.namesMember || (input.type === 'dm' && !m.isBot);
    for (let c = 0; c < SLOTS; c++) {
      const w = read.weights[c]! * weight;
      if (w > f.cue[c]!) {
        f.cue[c] = w;
        f.seen[c] = read.seen[c];
      }
    }
    weight *= RECENCY;
  }
  if (f.sender === undefined) f.botOnly = false;
  return f;
}

/* --------------------------------- scoring --------------------------------- */

interface Scores {
  urgent: number;
  can_wait: number;
  fyi: number;
}

const cueOf = (f: Features, cue: Cue): number => f.cue[CUE_INDEX[cue]]!;

/** Whether the work is the member's: addressed to them, or handed to them by a bot. */
function isForMember(f: Features): boolean {
  return f.addressed || cueOf(f, 'toYou') > 0;
}

/** Whether the conversation's time frame is now or today rather than later. */
function isSoon(f: Features): boolean {
  return cueOf(f, 'soon') + cueOf(f, 'urgency') > cueOf(f, 'later');
}

function urgentScore(f: Features, ask: number): number {
  const forMember = isForMember(f);
  const playful = cueOf(f, 'joke') > 0 || f.kind === 'social';
  const urgency = cueOf(f, 'urgency') * (playful && !f.mentioned ? 0.3 : 1);
  // A deadline today matters when someone needs the member (or clearly asks) before it.
  const soon = cueOf(f, 'soon') * (forMember ? 1 : cueOf(f, 'ask') >= 1 ? 0.6 : 0.35);
  const directAsk = forMember ? ask : 0.5 * ask;
  const evidence = cueOf(f, 'incident') + urgency + soon + (f.kind === 'incident' ? 0.5 : 0) + (isSoon(f) ? 0.6 * directAsk : 0);
  return evidence * (forMember ? 1.25 : 1) - 1.3 * cueOf(f, 'noRush') - 1.2 * cueOf(f, 'resolved') - (playful ? 0.5 : 0);
}

function canWaitScore(f: Features, ask: number): number {
  const forMember = isForMember(f);
  const botNoise = f.botOnly && !forMember ? 0.4 : 1;
  const asks = ask * botNoise * (isSoon(f) && cueOf(f, 'soon') >= 1.5 ? 0.5 : 1);
  const later = cueOf(f, 'later') * (ask > 0 || forMember ? 1 : 0.6);
  // An app that names the member (an assignment, a review request, a reminder) hands them work.
  const handedOver = f.botOnly && f.mentioned ? 0.8 : 0;
  return 0.9 * asks + later + 1.3 * cueOf(f, 'noRush') + (forMember ? 0.8 : 0) + 0.4 * cueOf(f, 'toYou') + handedOver;
}

const CHANNEL_PRIOR: Readonly<Record<ChannelKind, number>> = { announce: 1.2, social: 1.2, feed: 0.8, incident: 0, other: 0 };

function fyiScore(f: Features): number {
  const info = cueOf(f, 'info') + 1.3 * cueOf(f, 'resolved') + cueOf(f, 'social') + 0.8 * cueOf(f, 'joke');
  // A bot's post is noise to the member unless it names them (an app relaying a review, an assignment, a question).
  return 1 + 1.1 * info + (f.botOnly && !f.mentioned ? 1.5 : 0) + CHANNEL_PRIOR[f.kind] - (isForMember(f) ? 0.8 : 0);
}

function baseScores(f: Features): Scores {
  const ask = cueOf(f, 'ask') + 0.6 * f.cue[QUESTION]!;
  return { urgent: urgentScore(f, ask), can_wait: canWaitScore(f, ask), fyi: fyiScore(f) };
}

/* --------------------------------- lessons --------------------------------- */

const lessonSets = new WeakMap<Lesson, ReadonlySet<string>>();

function wordsOf(lesson: Lesson): ReadonlySet<string> {
  let set = lessonSets.get(lesson);
  if (set === undefined) {
    set = new Set(lesson.words);
    lessonSets.set(lesson, set);
  }
  return set;
}

/** Cosine similarity of two word sets (1: the same words). */
function similarity(a: readonly string[], b: ReadonlySet<string>): number {
  if (a.length === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / Math.sqrt(a.length * b.size);
}

/** Below this similarity a lesson says nothing about a conversation. */
const MIN_SIMILARITY = 0.2;
/** Similarity at which a lesson leans with full strength. */
const FULL_SIMILARITY = 0.5;
/** How much a full-strength lesson adds to its category's score. */
const LESSON_WEIGHT = 7;
/** Each newer matching lesson makes an older one count this much less. */
const LESSON_AGE_DECAY = 0.6;

/** A lesson that applies, with its strength (0..1). */
interface Lean {
  lesson: Lesson;
  strength: number;
  bySender: boolean;
}

function sameChannel(lesson: Lesson, input: ClassifyInput): boolean {
  return lesson.conversationName === input.name && (lesson.type === 'dm') === (input.type === 'dm');
}

/** The strongest applicable lesson: same sender or channel, similar words, newer ones first. */
function strongestLean(input: ClassifyInput, sender: AiMessage | undefined, lessons: readonly Lesson[]): Lean | undefined {
  const senderId = sender?.user ?? null;
  let words: string[] | undefined;
  const candidates: Lean[] = [];
  for (const lesson of lessons) {
    const bySender = senderId !== null && lesson.senderId === senderId;
    const byChannel = sameChannel(lesson, input);
    if (!bySender && !byChannel) continue;
    words ??= lessonWords(input.messages);
    const sim = similarity(words, wordsOf(lesson));
    if (sim < MIN_SIMILARITY) continue;
    const strength = Math.min(1, (sim - MIN_SIMILARITY / 2) / (FULL_SIMILARITY - MIN_SIMILARITY / 2)) * (bySender && byChannel ? 1 : 0.85);
    candidates.push({ lesson, strength, bySender });
  }
  candidates.sort((a, b) => b.lesson.at - a.lesson.at);
  let best: Lean | undefined;
  candidates.forEach((c, rank) => {
    const aged = c.strength * LESSON_AGE_DECAY ** rank;
    if (best === undefined || aged > best.strength) best = { ...c, strength: aged };
  });
  return best;
}

/* ------------------------------ the explanation ------------------------------ */

const LABEL: Readonly<Record<AiCategory, string>> = Object.fromEntries(GROUPS.map((g) => [g.id, g.label])) as Record<AiCategory, string>;

function who(f: Features): string {
  return f.sender?.author || 'Someone';
}

function where(input: ClassifyInput): string {
  return input.type === 'dm' ? '' : ` in #${input.name}`;
}

/** 'You marked similar messages from Dana as Urgent' (a sender match) or '… in #releases as …'. */
function lessonReason(lean: Lean, input: ClassifyInput): string {
  const l = lean.lesson;
  const person = lean.bySender ? l.senderName : input.type === 'dm' ? l.conversationName : null;
  const target = person ? `from ${person.split(/\s+/)[0]}` : `in #${l.conversationName}`;
  return `You marked similar messages ${target} as ${LABEL[l.category]}`;
}

/** A day, month or quarter as written in a sentence ('Friday', 'next Monday', 'Q2'). */
function dated(phrase: string): string {
  return phrase
    .replace(
      /\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/g,
      (w) => w.charAt(0).toUpperCase() + w.slice(1),
    )
    .replace(/\bq([1-4])\b/g, 'Q$1');
}

/** How a soon cue reads after 'a deadline' (' today', ' at 2pm', ' by end of day'), '' when it is no time. */
const SOON_WORDING: Readonly<Record<string, string>> = {
  eod: 'by end of day',
  'end of day': 'by end of day',
  'end of today': 'by end of day',
  noon: 'at noon',
  midnight: 'by midnight',
  deadline: '',
  expires: '',
  'goes out': '',
  'go out': '',
  'go-live': '',
  'in the next': '',
};

function soonWording(seen: string | undefined): string {
  if (seen === undefined) return '';
  const wording = SOON_WORDING[seen] ?? (CLOCK.test(seen) ? `at ${seen}` : seen);
  return wording === '' ? '' : ` ${wording}`;
}

/** Later cues that are dates ('Friday', 'next week'), not just planning words ('retro', 'agenda'). */
function laterWording(seen: string | undefined): string | undefined {
  if (seen === undefined || ['planning', 'roadmap', 'retro', 'agenda', 'sync', 'offsite', 'due'].includes(seen)) return undefined;
  return seen.startsWith('in ') ? `due ${seen}` : `for ${dated(seen)}`;
}

function urgentReason(f: Features, input: ClassifyInput): string {
  const name = who(f);
  if (f.botOnly) return `${name} alert${isForMember(f) ? ' for you' : ''}${where(input)}: ${cueOf(f, 'incident') > 0 ? 'an incident' : 'needs action now'}`;
  const directly = f.mentioned || input.type === 'dm' ? ' directly' : '';
  if (cueOf(f, 'incident') >= 1.5)
    return f.addressed ? `${name} needs you${directly} on an incident${where(input)}` : `${name} reports an incident${where(input)}`;
  if (cueOf(f, 'soon') > 0) {
    const when = soonWording(f.seen[CUE_INDEX.soon]);
    return f.addressed ? `${name} asks you${directly}${where(input)} about a deadline${when}` : `${name} raises a deadline${when}${where(input)}`;
  }
  return `${name} flags something urgent${f.addressed ? ' for you' : ''}${where(input)}`;
}

function canWaitReason(f: Features, input: ClassifyInput): string {
  const name = who(f);
  if (f.botOnly) return `${name} has something for you${where(input)}, no rush`;
  const asks = f.addressed ? `${name} asks you${f.mentioned || input.type === 'dm' ? ' directly' : ''}` : `${name} asks`;
  const later = laterWording(f.seen[CUE_INDEX.later]);
  if (later !== undefined) return `${asks}${where(input)} about something ${later}`;
  if (cueOf(f, 'noRush') > 0) return `${asks}${where(input)} about something that can wait`;
  const what = f.cue[QUESTION]! > 0 ? 'a question' : 'a request';
  return f.addressed ? `${name} has ${what} for you${where(input)} that can wait` : `${name} has ${what}${where(input)} that can wait`;
}

function fyiReason(f: Features, input: ClassifyInput): string {
  if (f.botOnly) return `Bot notification from ${who(f)}${where(input)}`;
  if (cueOf(f, 'resolved') >= 1.5) return `${who(f)} says it is resolved${where(input)}, nothing to do`;
  if (f.kind === 'announce') return `Announcement in #${input.name}`;
  if (f.kind === 'social' || cueOf(f, 'joke') > 0 || cueOf(f, 'social') >= 1.5)
    return input.type === 'dm' ? `Social chat with ${who(f)}` : `Social chatter in #${input.name}`;
  return `${who(f)} shares an update${where(input)}, no action needed`;
}

const REASONS: Readonly<Record<AiCategory, (f: Features, input: ClassifyInput) => string>> = {
  urgent: urgentReason,
  can_wait: canWaitReason,
  fyi: fyiReason,
};

/** A cue this strong is worth showing as a trigger. */
const TRIGGER_MIN = 1;

/** Trigger candidates per category, best first: [applies, why]. */
function triggerCandidates(f: Features, input: ClassifyInput, category: AiCategory): Array<[boolean, () => string]> {
  const shows = (cue: Cue) => cueOf(f, cue) >= TRIGGER_MIN;
  const seen = (cue: Cue) => f.seen[CUE_INDEX[cue]] ?? '';
  const context: Array<[boolean, () => string]> = [
    [f.mentioned, () => 'Mentions you directly'],
    [input.type === 'dm' && !f.botOnly, () => `Direct message from ${who(f)}`],
    [shows('toYou') && !f.mentioned, () => `Addressed to you: "${seen('toYou')}"`],
  ];
  if (category === 'urgent')
    return [
      [shows('incident'), () => `Incident words: "${seen('incident')}"`],
      [shows('urgency'), () => `Urgency: "${seen('urgency')}"`],
      [shows('soon'), () => `Deadline soon: "${seen('soon')}"`],
      ...context,
      [f.kind === 'incident', () => `Incident channel #${input.name}`],
    ];
  if (category === 'can_wait')
    return [
      ...context,
      [shows('noRush'), () => `No rush: "${seen('noRush')}"`],
      [shows('later'), () => `Later date: "${dated(seen('later'))}"`],
      [f.cue[QUESTION]! > 0 || shows('ask'), () => (f.cue[QUESTION]! > 0 ? 'Asks a question' : `A request: "${seen('ask')}"`)],
    ];
  const social: Cue = cueOf(f, 'joke') >= cueOf(f, 'social') ? 'joke' : 'social';
  return [
    [f.botOnly, () => `Bot author: ${who(f)}`],
    [
      f.kind === 'announce' || f.kind === 'social' || f.kind === 'feed',
      () => `${f.kind === 'feed' ? 'Notification' : f.kind === 'announce' ? 'Announcement' : 'Social'} channel #${input.name}`,
    ],
    [shows('resolved'), () => `Resolved: "${seen('resolved')}"`],
    [shows('info'), () => `Informational: "${seen('info')}"`],
    [shows(social), () => `Social tone: "${seen(social)}"`],
    [!isForMember(f), () => 'Not addressed to you'],
  ];
}

function triggersOf(f: Features, input: ClassifyInput, category: AiCategory, lean: Lean | undefined): AiTrigger[] {
  const triggers: AiTrigger[] = [];
  if (lean !== undefined && lean.lesson.category === category) triggers.push({ why: `Learned: ${lessonReason(lean, input)}` });
  for (const [applies, why] of triggerCandidates(f, input, category)) {
    if (triggers.length >= 4) break;
    if (applies) triggers.push({ why: why() });
  }
  if (triggers.length === 0) triggers.push({ why: category === 'fyi' ? 'Nothing asks for action' : `Reads as ${LABEL[category]}` });
  return triggers;
}

/* ----------------------------------- API ----------------------------------- */

const ORDER: readonly AiCategory[] = ['urgent', 'can_wait', 'fyi'];

/** 0..1 from the winner's margin over the runner-up (about 0.4 at a tie, near 1 for a clear win). */
function confidenceOf(scores: Scores, winner: AiCategory): number {
  let second = -Infinity;
  for (const c of ORDER) if (c !== winner && scores[c] > second) second = scores[c];
  const margin = Math.max(0, scores[winner] - second);
  return Math.round((0.4 + 0.58 * (1 - Math.exp(-margin / 1.5))) * 100) / 100;
}

/**
 * Classifies one unread conversation as urgent, can_wait or fyi, with a one-sentence reason,
 * 1–4 triggers and a confidence. `lessons` are the member's corrections (any order).
 * Pure and deterministic.
 */
export function classifyLocally(input: ClassifyInput, lessons: readonly Lesson[]): Classification {
  const f = readConversation(input);
  const scores = baseScores(f);
  const lean = lessons.length > 0 ? strongestLean(input, f.sender, lessons) : undefined;
  if (lean !== undefined) scores[lean.lesson.category] += LESSON_WEIGHT * lean.strength;
  let category: AiCategory = 'fyi';
  for (const c of ORDER) if (scores[c] > scores[category]) category = c;
  const learned = lean !== undefined && lean.lesson.category === category;
  return {
    category,
    reason: learned ? lessonReason(lean, input) : REASONS[category](f, input),
    triggers: triggersOf(f, input, category, lean),
    confidence: confidenceOf(scores, category),
  };
}
