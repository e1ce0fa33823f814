/**
 * The demo workspace generator: a believable Slack-like workspace, deterministic from a seed,
 * produced as a stream of records so that even the large size (100,000 conversations,
 * 1,000,000 messages) never sits in memory at once. Only the users, the channel names issued
 * so far and the conversation being produced are held.
 *
 * Ordering contract of {@link generateDemoWorkspace}:
 * 1. every `user` record (the member first, then the bots, then people);
 * 2. then per conversation: its `conversation` record, its `message` records in ascending ts,
 *    then its `read_mark` record (only the member's, and only where the member is a member);
 * 3. the thread conversations of a channel come right after that channel's read mark, in
 *    ascending parent ts; each thread's parent message is in the channel, with
 *    `thread_ts` = its own ts and `reply_count` = the number of the thread's messages.
 *
 * Conversations are the member's DMs first, then the channels (each followed by its threads).
 * Ids depend on the seed and the workspace id, so two workspaces never share them.
 * The stream is lazy: stop iterating at any point and nothing more is computed.
 */
import type { AiCategory, ConversationType } from '../../../model/types';
import { CURATED_CHANNELS, KIND_TRUTH, generateChannel, type ChannelBlueprint } from './channels';
import { NEVER_READ_TS, formatTs, slackId } from './ids';
import { DAY_US, HOUR_US, MINUTE_US, SECOND_US, WINDOW_US, gapUs, lagUs, layoutTimes } from './time';
import { buildPeople, demoDomain, type DemoUser, type People } from './people';
import { createRandom, exponential, hashString, intBetween, pick, seed32, type Rng } from './random';
import { demoMessageText, systemLineText, threadTitle, type DemoTextContext } from './text';
import type { ConversationRecord } from '../../store/types';

export type { DemoUser } from './people';
export { createRandom, type Rng } from './random';
export { demoMessageText, systemLineText, type DemoTextContext } from './text';
export { NEVER_READ_TS } from './ids';

export type DemoSize = 'small' | 'large';

export interface DemoSpec {
  seed: number;
  size: DemoSize;
  workspaceId: string;
  workspaceName: string;
  /** Epoch ms: the newest message is a little before it. */
  now: number;
  /** The signed-in demo member: part of nearly all conversations. */
  memberUserId: string;
}

/** A conversation as the store records it, with its topic and (always) its ground truth. */
export interface DemoConversation extends ConversationRecord {
  topic?: string;
  /** Ground truth for the AI: the category the conversation's latest messages express. */
  truth: AiCategory;
}

export interface DemoMessage {
  conversation_id: string;
  ts: string;
  user: string;
  text: string;
  subtype?: 'channel_join' | 'channel_leave';
  /** On a thread reply: the parent's ts. On a thread parent: its own ts. */
  thread_ts?: string;
  /** On a thread parent: how many replies its thread has. */
  reply_count?: number;
}

/**
 * One record of the stream. `read_mark` records are emitted for the member only: every other
 * member of a conversation is implied to have read it to the end (last_read = its latest ts).
 * A member's last_read is either a message ts, or {@link NEVER_READ_TS} when nothing was read.
 */
export type DemoRecord =
  | { kind: 'user'; user: DemoUser }
  | { kind: 'conversation'; conversation: DemoConversation }
  | { kind: 'message'; message: DemoMessage }
  | { kind: 'read_mark'; conversation_id: string; user_id: string; last_read: string };

interface SizePlan {
  users: number;
  dms: number;
  channels: number;
  /** Channels the member is not in (threads are only made in the member's channels). */
  nonMemberChannels: number;
  threads: number;
  messages: number;
  maxThreadsPerChannel: number;
  /** Members of an ordinary channel (besides the member). */
  channelMembers: readonly [number, number];
  /** Members of the occasional big channel. */
  bigChannelMembers: readonly [number, number];
}

const PLANS: Readonly<Record<DemoSize, SizePlan>> = {
  small: {
    users: 60,
    dms: 50,
    channels: 150,
    nonMemberChannels: 6,
    threads: 100,
    messages: 4_000,
    maxThreadsPerChannel: 6,
    channelMembers: [3, 14],
    bigChannelMembers: [20, 40],
  },
  large: {
    users: 5_000,
    dms: 4_800,
    channels: 60_000,
    nonMemberChannels: 2_400,
    threads: 35_200,
    messages: 1_000_000,
    maxThreadsPerChannel: 8,
    channelMembers: [3, 40],
    bigChannelMembers: [80, 400],
  },
};

/** The exact number of users, conversations and messages a size produces. */
export function demoCounts(size: DemoSize): { users: number; conversations: number; messages: number } {
  const p = PLANS[size];
  return { users: p.users, conversations: p.dms + p.channels + p.threads, messages: p.messages };
}

/* ---------------- message budget ---------------- */

/** Relative message volume per conversation type. */
const VOLUME: Readonly<Record<ConversationType, number>> = { dm: 8, channel: 12, thread: 5 };

/**
 * Hands out the exact message total across conversations as they are produced: each draw is
 * around this type's fair share of what is left, never so large that the conversations still
 * to come (and their thread parents) could not have one message each; the last takes the rest.
 */
class Budget {
  messages: number;
  left: Record<ConversationType, number>;
  /** Threads not yet given to a channel. */
  unassignedThreads: number;
  /** Member channels still to come (threads go only there). */
  memberChannelsLeft: number;

  constructor(
    plan: SizePlan,
    private readonly rng: Rng,
  ) {
    this.messages = plan.messages;
    this.left = { dm: plan.dms, channel: plan.channels, thread: plan.threads };
    this.unassignedThreads = plan.threads;
    this.memberChannelsLeft = plan.channels - plan.nonMemberChannels;
  }

  /** How many threads the next member channel gets. */
  threadsForMemberChannel(maxPerChannel: number): number {
    const channels = this.memberChannelsLeft--;
    const left = this.unassignedThreads;
    let n: number;
    if (channels <= 1) n = left;
    else {
      const mean = left / channels;
      n = Math.floor(exponential(this.rng) * mean + this.rng());
      const lowest = Math.max(0, left - (channels - 1) * maxPerChannel);
      n = Math.max(lowest, Math.min(n, maxPerChannel, left));
    }
    this.unassignedThreads -= n;
    return n;
  }

  take(type: ConversationType, min: number): number {
    const l = this.left;
    const weight = l.dm * VOLUME.dm + l.channel * VOLUME.channel + l.thread * VOLUME.thread;
    const mean = (this.messages * VOLUME[type]) / weight;
    l[type]--;
    const after = l.dm + l.channel + l.thread;
    let n: number;
    if (after === 0) n = this.messages;
    else {
      const reserve = after + this.unassignedThreads;
      n = Math.round(mean * (0.25 + 0.75 * exponential(this.rng)));
      n = Math.min(n, Math.ceil(mean * 6), this.messages - reserve);
      n = Math.max(n, min);
    }
    this.messages -= n;
    return n;
  }
}

/* ---------------- categories and reading ---------------- */

/** Mix of the messages before a conversation's tail, by the conversation's truth: [urgent, can_wait] (rest fyi). */
const BACKGROUND: Readonly<Record<AiCategory, readonly [number, number]>> = {
  urgent: [0.35, 0.25],
  can_wait: [0.04, 0.4],
  fyi: [0.03, 0.17],
};
const DM_TRUTH: readonly [number, number] = [0.14, 0.36];
const THREAD_TRUTH: readonly [number, number] = [0.15, 0.36];
/** Chance that the member has unread messages, by truth: unread skews to urgent. */
const UNREAD_CHANCE: Readonly<Record<AiCategory, number>> = { urgent: 0.55, can_wait: 0.25, fyi: 0.17 };

function category(rng: Rng, mix: readonly [number, number]): AiCategory {
  const r = rng();
  return r < mix[0] ? 'urgent' : r < mix[0] + mix[1] ? 'can_wait' : 'fyi';
}

function truthOfKind(rng: Rng, blueprint: ChannelBlueprint): AiCategory {
  if (blueprint.truth) return blueprint.truth;
  const t = KIND_TRUTH[blueprint.kind];
  return category(rng, [t.urgent, t.can_wait]);
}

/**
 * The member's reading and the conversation's tail: the last `tail` messages are by others and
 * express the truth; the last `unread` of them are unread by the member (0: all read).
 */
function readingPlan(rng: Rng, n: number, truth: AiCategory, memberIn: boolean): { unread: number; tail: number } {
  let unread = 0;
  if (memberIn && rng() < UNREAD_CHANCE[truth]) {
    const u = rng();
    unread = Math.min(n, 1 + Math.floor(u * u * 5));
  }
  const tail = Math.min(n, Math.max(unread, 1 + Math.floor(rng() * 3)));
  return { unread, tail };
}

function lastRead(times: readonly number[], n: number, unread: number): string {
  return unread >= n ? NEVER_READ_TS : formatTs(times[n - 1 - unread]!);
}

/* ---------------- the workspace ---------------- */

interface World {
  spec: DemoSpec;
  plan: SizePlan;
  rng: Rng;
  budget: Budget;
  people: People;
  memberId: string;
  nowUs: number;
  idKey: number;
  /** Public curated channels, for `<#C…|name>` mentions. */
  mentionChannels: { id: string; name: string }[];
  displayName: Map<string, string>;
  nameOf: (id: string) => string | undefined;
  /** Scratch arrays reused across conversations. */
  times: number[];
  replyTimes: number[];
}

/**
 * Streams a demo workspace (see the module comment for the ordering contract). Deterministic:
 * the same spec always yields the same records. Exact totals are {@link demoCounts}.
 */
export function* generateDemoWorkspace(spec: DemoSpec): Generator<DemoRecord> {
  const plan = PLANS[spec.size];
  const rng = createRandom(spec.seed);
  const idKey = (seed32(spec.seed) ^ Math.imul(hashString(spec.workspaceId), 0x9e3779b1)) >>> 0;
  const people = buildPeople(rng, plan.users, spec.memberUserId, idKey, demoDomain(spec.workspaceName));
  for (const user of people.users) yield { kind: 'user', user };

  const displayName = new Map<string, string>();
  for (const u of people.users) displayName.set(u.id, u.display_name || u.real_name);

  const mentionChannels: { id: string; name: string }[] = [];
  CURATED_CHANNELS.forEach((c, i) => {
    if (i < plan.channels && !c.is_private) mentionChannels.push({ id: channelId(c, i, idKey), name: c.name });
  });

  const w: World = {
    spec,
    plan,
    rng,
    budget: new Budget(plan, rng),
    people,
    memberId: spec.memberUserId,
    nowUs: Math.floor(spec.now) * 1000,
    idKey,
    mentionChannels,
    displayName,
    nameOf: (id) => displayName.get(id),
    times: [],
    replyTimes: [],
  };

  // DMs: with every bot, and with most people (an exact count, chosen in user order).
  const userCount = people.users.length;
  let dmsLeft = Math.min(plan.dms, userCount - 1);
  let dmIndex = 0;
  for (let i = 1; i < userCount && dmsLeft > 0; i++) {
    const isBot = people.users[i]!.is_bot === true;
    const candidatesLeft = userCount - i;
    if (isBot || dmsLeft >= candidatesLeft || rng() < dmsLeft / candidatesLeft) {
      yield* dmRecords(w, i, dmIndex++);
      dmsLeft--;
    }
  }

  // Channels: the curated set first, then generated ones; a few without the member.
  const usedNames = new Set<string>(CURATED_CHANNELS.map((c) => c.name));
  let generatedLeft = plan.channels - Math.min(plan.channels, CURATED_CHANNELS.length);
  let nonMemberLeft = plan.nonMemberChannels;
  for (let i = 0; i < plan.channels; i++) {
    let blueprint: ChannelBlueprint;
    let memberIn = true;
    if (i < CURATED_CHANNELS.length) blueprint = CURATED_CHANNELS[i]!;
    else {
      blueprint = generateChannel(rng, usedNames, i);
      if (nonMemberLeft > 0 && rng() < nonMemberLeft / generatedLeft) {
        memberIn = false;
        nonMemberLeft--;
      }
      generatedLeft--;
    }
    yield* channelRecords(w, i, blueprint, memberIn);
  }
}

function channelId(blueprint: ChannelBlueprint, index: number, idKey: number): string {
  return slackId(blueprint.is_private ? 'G' : 'C', index, idKey);
}

function* dmRecords(w: World, userIndex: number, dmIndex: number): Generator<DemoRecord> {
  const { rng, memberId } = w;
  const other = w.people.users[userIndex]!;
  const isBot = other.is_bot === true;
  const truth: AiCategory = isBot ? 'fyi' : category(rng, DM_TRUTH);
  const n = w.budget.take('dm', 1);
  const { unread, tail } = readingPlan(rng, n, truth, true);
  const id = slackId('D', dmIndex, w.idKey);

  const end = w.nowUs - lagUs(rng, truth);
  const start = Math.max(w.nowUs - WINDOW_US, end - gapUs(rng, MINUTE_US, DAY_US) * (n - 1));
  const times = w.times;
  layoutTimes(rng, times, n, start, end);

  yield {
    kind: 'conversation',
    conversation: { id, name: other.real_name, type: 'dm', is_private: true, dm_user: other.id, member_ids: [memberId, other.id], truth },
  };
  const ctx: DemoTextContext = { memberId, userIds: w.people.ids, channels: w.mentionChannels, type: 'dm' };
  if (isBot) ctx.bot = other.real_name;
  for (let i = 0; i < n; i++) {
    const inTail = i >= n - tail;
    const byMember = !isBot && !inTail && rng() < 0.4;
    const cat = inTail || isBot ? truth : category(rng, BACKGROUND[truth]);
    ctx.authorId = byMember ? memberId : other.id;
    const text = demoMessageText(rng, cat, ctx);
    yield { kind: 'message', message: { conversation_id: id, ts: formatTs(times[i]!), user: ctx.authorId, text } };
  }
  yield { kind: 'read_mark', conversation_id: id, user_id: memberId, last_read: lastRead(times, n, unread) };
}

/** Picks a channel's members (user indices); the member, when in, is first. */
function channelMembers(w: World, blueprint: ChannelBlueprint, memberIn: boolean): number[] {
  const { rng, plan, people } = w;
  const set = new Set<number>();
  if (memberIn) set.add(0);
  if (blueprint.everyone) {
    set.add(0);
    for (const h of people.humans) set.add(h);
  } else {
    const [lo, hi] = rng() < 0.03 ? plan.bigChannelMembers : plan.channelMembers;
    const size = Math.min(intBetween(rng, lo, hi), people.humans.length);
    const team = blueprint.team ? people.byTeam.get(blueprint.team) : undefined;
    const target = set.size + size;
    while (set.size < target) set.add(team && team.length > 0 && rng() < 0.6 ? pick(rng, team) : pick(rng, people.humans));
  }
  if (blueprint.bot) {
    const bot = people.botIndex.get(blueprint.bot);
    if (bot !== undefined) set.add(bot);
  }
  return [...set];
}

type Subtype = 'channel_join' | 'channel_leave';

function* channelRecords(w: World, index: number, blueprint: ChannelBlueprint, memberIn: boolean): Generator<DemoRecord> {
  const { rng, memberId, people, budget, nowUs } = w;
  const id = channelId(blueprint, index, w.idKey);
  const truth = truthOfKind(rng, blueprint);
  const members = channelMembers(w, blueprint, memberIn);
  const memberSet = new Set(members);
  const humansIn = members.filter((m) => m !== 0 && people.users[m]!.is_bot !== true);
  const posters = blueprint.everyone ? Array.from({ length: 8 }, () => pick(rng, humansIn)) : humansIn.slice(0, 6);
  const botIdx = blueprint.bot ? people.botIndex.get(blueprint.bot) : undefined;
  const botChannel = blueprint.kind === 'bot' && botIdx !== undefined;

  const nThreads = memberIn ? budget.threadsForMemberChannel(w.plan.maxThreadsPerChannel) : 0;
  const n = budget.take('channel', Math.max(1, nThreads));
  const { unread, tail } = readingPlan(rng, n, truth, memberIn);

  // System lines, never in the tail.
  const subtypes: (Subtype | undefined)[] = new Array(n);
  if (n > nThreads + tail + 3 && rng() < 0.35) {
    const count = intBetween(rng, 1, 2);
    for (let k = 0; k < count; k++) subtypes[Math.floor(rng() * (n - tail))] = rng() < 0.7 ? 'channel_join' : 'channel_leave';
  }

  // Thread parents: distinct ordinary messages, mostly recent ones.
  const threadOf = new Int32Array(n).fill(-1);
  const parents: number[] = [];
  for (let t = 0; t < nThreads; t++) {
    let at = -1;
    for (let attempt = 0; attempt < 20 && at < 0; attempt++) {
      const u = rng();
      const i = Math.min(n - 1, Math.floor(n * (1 - u * u)));
      if (threadOf[i] === -1 && subtypes[i] === undefined) at = i;
    }
    for (let i = n - 1; at < 0 && i >= 0; i--) if (threadOf[i] === -1 && subtypes[i] === undefined) at = i;
    threadOf[at] = 0;
    parents.push(at);
  }
  parents.sort((a, b) => a - b);
  parents.forEach((p, t) => (threadOf[p] = t));
  const threadTruth = parents.map(() => category(rng, THREAD_TRUTH));
  const replies = parents.map(() => budget.take('thread', 1));

  const end = nowUs - lagUs(rng, truth);
  const start = Math.max(nowUs - WINDOW_US, end - gapUs(rng, 5 * MINUTE_US, 12 * HOUR_US) * (n - 1));
  const times = w.times;
  layoutTimes(rng, times, n, start, end);

  const conversation: DemoConversation = {
    id,
    name: blueprint.name,
    type: 'channel',
    is_private: blueprint.is_private,
    member_ids: members.map((m) => people.ids[m]!),
    topic: blueprint.topic,
    truth,
  };
  yield { kind: 'conversation', conversation };

  const ctx: DemoTextContext = { memberId, userIds: conversation.member_ids, channels: w.mentionChannels, type: 'channel' };
  const parentText: string[] = [];
  const parentAuthor: number[] = [];
  const parentTs: string[] = [];
  for (let i = 0; i < n; i++) {
    const ts = formatTs(times[i]!);
    const subtype = subtypes[i];
    if (subtype !== undefined) {
      let who: number;
      if (subtype === 'channel_join') who = pick(rng, posters);
      else {
        who = pick(rng, people.humans);
        for (let k = 0; k < 10 && memberSet.has(who); k++) who = pick(rng, people.humans);
        if (memberSet.has(who)) who = pick(rng, posters); // a tiny workspace: leave and come back
      }
      const user = people.ids[who]!;
      yield { kind: 'message', message: { conversation_id: id, ts, user, text: systemLineText(subtype, user), subtype } };
      continue;
    }
    const inTail = i >= n - tail;
    const t = threadOf[i]!;
    let author: number;
    if (botChannel && (inTail || rng() < 0.85)) author = botIdx!;
    else if (!inTail && memberIn && rng() < 0.08) author = 0;
    else if (botIdx !== undefined && rng() < 0.15) author = botIdx;
    else author = pick(rng, posters);
    const cat = inTail ? truth : t >= 0 ? threadTruth[t]! : category(rng, BACKGROUND[truth]);
    ctx.authorId = people.ids[author]!;
    ctx.bot = people.users[author]!.is_bot ? people.users[author]!.real_name : undefined;
    const text = demoMessageText(rng, cat, ctx);
    const message: DemoMessage = { conversation_id: id, ts, user: ctx.authorId, text };
    if (t >= 0) {
      message.thread_ts = ts;
      message.reply_count = replies[t]!;
      parentText.push(text);
      parentAuthor.push(author);
      parentTs.push(ts);
    }
    yield { kind: 'message', message };
  }
  if (memberIn) yield { kind: 'read_mark', conversation_id: id, user_id: memberId, last_read: lastRead(times, n, unread) };

  for (let t = 0; t < parents.length; t++) {
    yield* threadRecords(w, conversation, posters, {
      ts: parentTs[t]!,
      us: times[parents[t]!]!,
      text: parentText[t]!,
      author: parentAuthor[t]!,
      truth: threadTruth[t]!,
      replies: replies[t]!,
    });
  }
}

interface ThreadSeed {
  ts: string;
  us: number;
  text: string;
  author: number;
  truth: AiCategory;
  replies: number;
}

function* threadRecords(w: World, channel: DemoConversation, posters: readonly number[], p: ThreadSeed): Generator<DemoRecord> {
  const { rng, memberId, people, nowUs } = w;
  const id = `${channel.id}:${p.ts}`;
  const n = p.replies;
  const truth = p.truth;

  // Who talks: the parent's author (unless a bot or the member) and one to three posters.
  const others: number[] = [];
  if (p.author !== 0 && people.users[p.author]!.is_bot !== true) others.push(p.author);
  const extra = intBetween(rng, 1, 3);
  for (let k = 0; k < extra * 2 && others.length < extra + 1; k++) {
    const c = pick(rng, posters);
    if (!others.includes(c)) others.push(c);
  }
  const memberIds = [memberId];
  for (const m of [p.author, ...others]) {
    const uid = people.ids[m]!;
    if (!memberIds.includes(uid)) memberIds.push(uid);
  }
  const { unread, tail } = readingPlan(rng, n, truth, true);

  // Replies follow the parent; open questions may still be going on now.
  const gap = gapUs(rng, 30 * SECOND_US, 2 * HOUR_US);
  const span = gap * n * (0.5 + rng());
  const latest = nowUs - SECOND_US * (1 + rng() * 20);
  let end = p.us + span;
  if (truth !== 'fyi' && rng() < 0.7) end = Math.max(end, nowUs - lagUs(rng, truth));
  if (end > latest) end = latest;
  if (end <= p.us + n) end = p.us + (nowUs - p.us) * 0.9;
  let start = Math.max(p.us + Math.min(5 * SECOND_US, (end - p.us) / 4), end - span);
  if (start >= end) start = p.us + (end - p.us) / 4;
  const times = w.replyTimes;
  layoutTimes(rng, times, n, start, end);

  yield {
    kind: 'conversation',
    conversation: {
      id,
      name: threadTitle(p.text, w.nameOf),
      type: 'thread',
      is_private: channel.is_private,
      member_ids: memberIds,
      parent_conversation_id: channel.id,
      thread_ts: p.ts,
      truth,
    },
  };
  const ctx: DemoTextContext = { memberId, userIds: channel.member_ids, channels: w.mentionChannels, type: 'thread' };
  for (let i = 0; i < n; i++) {
    const inTail = i >= n - tail;
    const author = !inTail && rng() < 0.15 ? 0 : pick(rng, others);
    const cat = inTail ? truth : category(rng, BACKGROUND[truth]);
    ctx.authorId = people.ids[author]!;
    const text = demoMessageText(rng, cat, ctx);
    yield { kind: 'message', message: { conversation_id: id, ts: formatTs(times[i]!), user: ctx.authorId, text, thread_ts: p.ts } };
  }
  yield { kind: 'read_mark', conversation_id: id, user_id: memberId, last_read: lastRead(times, n, unread) };
}
