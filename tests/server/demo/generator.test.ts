import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AiCategory } from '../../../src/model/types';
import {
  NEVER_READ_TS,
  createRandom,
  demoCounts,
  demoMessageText,
  generateDemoWorkspace,
  type DemoConversation,
  type DemoMessage,
  type DemoRecord,
  type DemoSpec,
  type DemoUser,
} from '../../../src/server/sources/demo/generator';
import { parseTs } from '../../../src/server/sources/demo/ids';
import { plainText, threadTitle } from '../../../src/server/sources/demo/text';
import { layoutTimes } from '../../../src/server/sources/demo/time';

const NOW = Date.UTC(2025, 5, 10, 12, 0, 0);
const SPEC: DemoSpec = {
  seed: 1234,
  size: 'small',
  workspaceId: 'T0DEMO001',
  workspaceName: 'Acme Demo',
  now: NOW,
  memberUserId: 'U0ALEXM0R',
};

const TS = /^\d{10}\.\d{6}$/;
const URGENCY =
  /urgent|asap|right now|\bnow\b|immediately|today|blocker|blocked|blocking|down|outage|incident|sev1|\bp1\b|failing|failed|:rotating_light:|:fire:|:sos:/i;
const NO_RUSH =
  /when you get a chance|no rush|whenever|this week|next week|not urgent|review|by (monday|tuesday|wednesday|thursday|friday|next|end)|planning|before (monday|tuesday|wednesday|thursday|friday|next|end)|sometime|thoughts\?/i;

interface Group {
  conversation: DemoConversation;
  messages: DemoMessage[];
  lastRead?: string;
}

interface Workspace {
  records: DemoRecord[];
  users: DemoUser[];
  groups: Group[];
  byId: Map<string, Group>;
}

function collect(spec: DemoSpec): Workspace {
  const records = [...generateDemoWorkspace(spec)];
  const users: DemoUser[] = [];
  const groups: Group[] = [];
  for (const r of records) {
    if (r.kind === 'user') users.push(r.user);
    else if (r.kind === 'conversation') groups.push({ conversation: r.conversation, messages: [] });
    else if (r.kind === 'message') groups[groups.length - 1]!.messages.push(r.message);
    else groups[groups.length - 1]!.lastRead = r.last_read;
  }
  return { records, users, groups, byId: new Map(groups.map((g) => [g.conversation.id, g])) };
}

function streamHash(spec: DemoSpec): string {
  const hash = createHash('sha256');
  for (const r of generateDemoWorkspace(spec)) hash.update(JSON.stringify(r)).update('\n');
  return hash.digest('hex');
}

/** The unread messages of the member in a conversation. */
function unreadOf(g: Group, memberId: string): number {
  if (g.lastRead === undefined) return 0;
  const mark = parseTs(g.lastRead);
  return g.messages.filter((m) => m.user !== memberId && parseTs(m.ts) > mark).length;
}

/**
 * Every structural invariant of the stream, checked with expect; returns nothing.
 * Used by the example-based tests and by the property.
 */
function checkInvariants(spec: DemoSpec, ws: Workspace): void {
  const { records, users, groups } = ws;
  const memberId = spec.memberUserId;
  const nowUs = spec.now * 1000;

  // Users first, the member is user #0; ids unique and Slack-shaped.
  const firstNonUser = records.findIndex((r) => r.kind !== 'user');
  expect(firstNonUser).toBe(users.length);
  expect(records.slice(firstNonUser).some((r) => r.kind === 'user')).toBe(false);
  expect(users[0]!.id).toBe(memberId);
  expect(users[0]!.real_name).toBe('Alex Morgan');
  const userIds = new Set(users.map((u) => u.id));
  expect(userIds.size).toBe(users.length);
  for (const u of users.slice(1)) expect(u.id).toMatch(/^U[0-9A-Z]{8}$/);
  expect(new Set(users.map((u) => u.name)).size).toBe(users.length);

  // Each conversation: its record, then its messages, then at most one read mark (the member's).
  let expectThreadsOf: string | undefined;
  const seenIds = new Set<string>();
  for (let i = firstNonUser, g = -1; i < records.length; i++) {
    const r = records[i]!;
    if (r.kind === 'conversation') {
      g++;
      const c = r.conversation;
      if (c.type === 'thread') expect(c.parent_conversation_id).toBe(expectThreadsOf);
      else expectThreadsOf = c.type === 'channel' ? c.id : undefined;
    } else if (r.kind === 'message') {
      expect(r.message.conversation_id).toBe(groups[g]!.conversation.id);
      expect(records[i - 1]!.kind === 'conversation' || records[i - 1]!.kind === 'message').toBe(true);
    } else if (r.kind === 'read_mark') {
      expect(r.conversation_id).toBe(groups[g]!.conversation.id);
      expect(r.user_id).toBe(memberId);
      expect(records[i - 1]!.kind).toBe('message');
    }
  }

  const threadsSeen = new Map<string, number>();
  for (const g of groups) {
    const c = g.conversation;
    expect(seenIds.has(c.id)).toBe(false);
    seenIds.add(c.id);
    expect(new Set(c.member_ids).size).toBe(c.member_ids.length);
    for (const m of c.member_ids) expect(userIds.has(m)).toBe(true);
    expect(['urgent', 'can_wait', 'fyi']).toContain(c.truth);
    expect(g.messages.length).toBeGreaterThan(0);

    // ts: Slack-shaped, strictly increasing, before now, within the last ~3 weeks.
    let prev = -Infinity;
    for (const m of g.messages) {
      expect(m.ts).toMatch(TS);
      const us = parseTs(m.ts);
      expect(us).toBeGreaterThan(prev);
      expect(us).toBeLessThan(nowUs);
      expect(us).toBeGreaterThan(nowUs - 22 * 86_400_000_000);
      prev = us;
      expect(userIds.has(m.user)).toBe(true);
      if (m.subtype !== 'channel_leave') expect(c.member_ids).toContain(m.user);
      if (m.subtype) expect(m.text).toContain(`<@${m.user}>`);
    }

    const memberIn = c.member_ids.includes(memberId);
    expect(g.lastRead !== undefined).toBe(memberIn);
    if (g.lastRead !== undefined && g.lastRead !== NEVER_READ_TS) {
      expect(g.messages.some((m) => m.ts === g.lastRead)).toBe(true);
    }

    if (c.type === 'dm') {
      expect(c.id).toMatch(/^D[0-9A-Z]{8}$/);
      expect(c.is_private).toBe(true);
      expect(c.member_ids).toHaveLength(2);
      expect(c.member_ids[0]).toBe(memberId);
      expect(c.member_ids[1]).toBe(c.dm_user);
    } else if (c.type === 'channel') {
      expect(c.id).toMatch(c.is_private ? /^G[0-9A-Z]{8}$/ : /^C[0-9A-Z]{8}$/);
      for (const m of g.messages) {
        if (m.thread_ts !== undefined) {
          expect(m.thread_ts).toBe(m.ts);
          expect(m.subtype).toBeUndefined();
          threadsSeen.set(`${c.id}:${m.ts}`, m.reply_count!);
        } else expect(m.reply_count).toBeUndefined();
      }
    } else {
      // A thread: its parent is in the parent channel, with the matching reply count.
      expect(c.id).toBe(`${c.parent_conversation_id}:${c.thread_ts}`);
      expect(c.member_ids).toContain(memberId);
      const parentChannel = ws.byId.get(c.parent_conversation_id!)!;
      expect(parentChannel.conversation.type).toBe('channel');
      expect(c.is_private).toBe(parentChannel.conversation.is_private);
      const parent = parentChannel.messages.find((m) => m.ts === c.thread_ts);
      expect(parent).toBeDefined();
      expect(parent!.thread_ts).toBe(parent!.ts);
      expect(parent!.reply_count).toBe(g.messages.length);
      expect(c.member_ids).toContain(parent!.user);
      for (const m of g.messages) {
        expect(m.thread_ts).toBe(c.thread_ts);
        expect(parseTs(m.ts)).toBeGreaterThan(parseTs(c.thread_ts!));
      }
      expect(c.name).toBe(threadTitle(parent!.text, (id) => users.find((u) => u.id === id)?.display_name));
      threadsSeen.delete(c.id);
    }
  }
  // Every parent message has its thread conversation.
  expect([...threadsSeen.keys()]).toEqual([]);

  // Threads come in ascending parent ts right after their channel.
  for (let i = 1; i < groups.length; i++) {
    const a = groups[i - 1]!.conversation;
    const b = groups[i]!.conversation;
    if (a.type === 'thread' && b.type === 'thread' && a.parent_conversation_id === b.parent_conversation_id) {
      expect(parseTs(b.thread_ts!)).toBeGreaterThan(parseTs(a.thread_ts!));
    }
  }

  // Counts are exactly the advertised ones.
  const counts = demoCounts(spec.size);
  expect(users.length).toBe(counts.users);
  expect(groups.length).toBe(counts.conversations);
  expect(groups.reduce((n, g) => n + g.messages.length, 0)).toBe(counts.messages);

  // Every user mention names an existing user; every channel mention an existing channel.
  for (const g of groups) {
    for (const m of g.messages) {
      for (const [, id] of m.text.matchAll(/<@([^>|]+)>/g)) expect(userIds.has(id!)).toBe(true);
      for (const [, id, name] of m.text.matchAll(/<#([^>|]+)\|([^>]+)>/g)) {
        const ch = ws.byId.get(id!);
        expect(ch?.conversation.type).toBe('channel');
        expect(ch?.conversation.name).toBe(name);
      }
    }
  }
}

describe('generateDemoWorkspace (small)', () => {
  const ws = collect(SPEC);

  it('holds every structural invariant', () => {
    checkInvariants(SPEC, ws);
  });

  it('is deterministic: the same spec gives the same stream, another seed another', () => {
    const a = streamHash(SPEC);
    expect(streamHash({ ...SPEC })).toBe(a);
    expect(streamHash({ ...SPEC, seed: SPEC.seed + 1 })).not.toBe(a);
    expect(streamHash({ ...SPEC, workspaceId: 'T0OTHER01' })).not.toBe(a);
  });

  it('has the stated size, within the stated ranges', () => {
    const counts = demoCounts('small');
    expect(counts.users).toBeGreaterThanOrEqual(50);
    expect(counts.users).toBeLessThanOrEqual(70);
    expect(counts.conversations).toBeGreaterThanOrEqual(250);
    expect(counts.conversations).toBeLessThanOrEqual(350);
    expect(counts.messages).toBeGreaterThanOrEqual(3500);
    expect(counts.messages).toBeLessThanOrEqual(4500);
    const types = { dm: 0, channel: 0, thread: 0 };
    for (const g of ws.groups) types[g.conversation.type]++;
    expect(types.dm).toBeGreaterThanOrEqual(ws.users.length * 0.7); // DMs with most users
    expect(types.channel).toBeGreaterThan(100);
    expect(types.thread).toBeGreaterThan(50);
    expect(ws.groups.some((g) => g.conversation.type === 'channel' && g.conversation.is_private)).toBe(true);
    expect(ws.groups.some((g) => g.conversation.type === 'channel' && !g.conversation.is_private)).toBe(true);
  });

  it('puts the member in every DM and thread, and nearly every channel', () => {
    const channels = ws.groups.filter((g) => g.conversation.type === 'channel');
    const withMember = channels.filter((g) => g.conversation.member_ids.includes(SPEC.memberUserId));
    expect(withMember.length / channels.length).toBeGreaterThan(0.9);
    expect(withMember.length).toBeLessThan(channels.length); // "nearly": a few without
    for (const g of ws.groups) {
      if (g.conversation.type !== 'channel') expect(g.conversation.member_ids).toContain(SPEC.memberUserId);
    }
  });

  it('has believable people: varied names, teams, titles, bots and local avatars', () => {
    const [member, ...rest] = ws.users;
    expect(member).toMatchObject({ real_name: 'Alex Morgan', title: 'Engineering Manager', team: 'Engineering' });
    const bots = rest.filter((u) => u.is_bot);
    expect(bots.map((b) => b.real_name)).toEqual(expect.arrayContaining(['deploybot', 'PagerBot', 'Jira']));
    const people = rest.filter((u) => !u.is_bot);
    expect(new Set(people.map((u) => u.team)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(people.map((u) => u.real_name.split(' ')[1])).size).toBeGreaterThan(30);
    for (const u of people) {
      expect(u.title).toBeTruthy();
      expect(u.display_name).toBeTruthy();
      expect(u.email).toMatch(/^[a-z0-9.]+@acmedemo\.example\.com$/);
    }
    for (const u of ws.users) {
      expect(u.avatar).toMatch(/^data:image\/svg\+xml/);
      const svg = decodeURIComponent(u.avatar!.slice(u.avatar!.indexOf(',') + 1));
      expect(svg.replace('xmlns="http://www.w3.org/2000/svg"', '')).not.toMatch(/https?:|href/);
    }
  });

  it('writes Slack markup: user and channel mentions, links, emoji, bold, code, multi-line', () => {
    const texts = ws.groups.flatMap((g) => g.messages.map((m) => m.text));
    const share = (re: RegExp) => texts.filter((t) => re.test(t)).length / texts.length;
    expect(share(/<@U[0-9A-Z]+>/)).toBeGreaterThan(0.05);
    expect(share(/<#C[0-9A-Z]+\|[a-z0-9-]+>/)).toBeGreaterThan(0.005);
    expect(share(/<https:\/\/[^|>]+\|[^>]+>/)).toBeGreaterThan(0.05);
    expect(share(/:[a-z_]+:/)).toBeGreaterThan(0.2);
    expect(share(/\*[^*\n]+\*/)).toBeGreaterThan(0.01);
    expect(share(/`[^`]+`/)).toBeGreaterThan(0.05);
    expect(share(/\n/)).toBeGreaterThan(0.005);
    expect(new Set(texts).size / texts.length).toBeGreaterThan(0.7);
    const system = ws.groups.flatMap((g) => g.messages).filter((m) => m.subtype);
    expect(system.some((m) => m.subtype === 'channel_join')).toBe(true);
    expect(system.some((m) => m.subtype === 'channel_leave')).toBe(true);
  });

  it('mixes ground-truth categories about 15% urgent, 35% can wait, 50% FYI', () => {
    const share = (cat: AiCategory) => ws.groups.filter((g) => g.conversation.truth === cat).length / ws.groups.length;
    expect(share('urgent')).toBeGreaterThan(0.09);
    expect(share('urgent')).toBeLessThan(0.22);
    expect(share('can_wait')).toBeGreaterThan(0.27);
    expect(share('can_wait')).toBeLessThan(0.43);
    expect(share('fyi')).toBeGreaterThan(0.4);
    expect(share('fyi')).toBeLessThan(0.6);
    // DMs with bots are FYI.
    const botIds = new Set(ws.users.filter((u) => u.is_bot).map((u) => u.id));
    const botDms = ws.groups.filter((g) => g.conversation.type === 'dm' && botIds.has(g.conversation.dm_user!));
    expect(botDms.length).toBeGreaterThan(0);
    for (const g of botDms) expect(g.conversation.truth).toBe('fyi');
  });

  it("expresses each conversation's truth in its latest message", () => {
    const last = (cat: AiCategory) => ws.groups.filter((g) => g.conversation.truth === cat).map((g) => g.messages[g.messages.length - 1]!.text);
    const rate = (texts: string[], re: RegExp) => texts.filter((t) => re.test(t)).length / texts.length;
    const urgent = last('urgent');
    const canWait = last('can_wait');
    const fyi = last('fyi');
    expect(rate(urgent, URGENCY)).toBeGreaterThan(0.85);
    expect(rate(canWait, URGENCY)).toBeLessThan(0.25);
    expect(rate(fyi, URGENCY)).toBeLessThan(0.25);
    expect(rate(canWait, NO_RUSH)).toBeGreaterThan(0.6);
    expect(rate(canWait, NO_RUSH)).toBeGreaterThan(rate(fyi, NO_RUSH) + 0.3);
    // The latest message is by someone else than the member.
    for (const g of ws.groups) expect(g.messages[g.messages.length - 1]!.user).not.toBe(SPEC.memberUserId);
  });

  it('leaves about a quarter of conversations with 1–5 unread messages, skewed to urgent', () => {
    const mine = ws.groups.filter((g) => g.lastRead !== undefined);
    const unread = mine.map((g) => unreadOf(g, SPEC.memberUserId));
    const withUnread = unread.filter((n) => n > 0).length / mine.length;
    expect(withUnread).toBeGreaterThan(0.15);
    expect(withUnread).toBeLessThan(0.35);
    for (const n of unread) expect(n).toBeLessThanOrEqual(5);
    // Unread messages are exactly the ones after last_read: none of them is the member's.
    for (const g of mine) {
      const mark = parseTs(g.lastRead!);
      for (const m of g.messages) if (parseTs(m.ts) > mark) expect(m.user).not.toBe(SPEC.memberUserId);
    }
    const unreadShare = (cat: AiCategory) => {
      const gs = mine.filter((g) => g.conversation.truth === cat);
      return gs.filter((g) => unreadOf(g, SPEC.memberUserId) > 0).length / gs.length;
    };
    expect(unreadShare('urgent')).toBeGreaterThan(unreadShare('fyi') + 0.15);
  });

  it('spreads messages over ~3 weeks with more activity recently, the newest just before now', () => {
    const times = ws.groups.flatMap((g) => g.messages.map((m) => parseTs(m.ts) / 1000));
    const newest = Math.max(...times);
    expect(NOW - newest).toBeLessThan(10 * 60_000);
    const day = 86_400_000;
    const lastWeek = times.filter((t) => t > NOW - 7 * day).length;
    const firstWeek = times.filter((t) => t <= NOW - 14 * day).length;
    expect(Math.min(...times)).toBeLessThan(NOW - 12 * day);
    expect(lastWeek).toBeGreaterThan(firstWeek * 1.5);
  });

  it('names channels believably and uniquely, threads after their parent message', () => {
    const channels = ws.groups.filter((g) => g.conversation.type === 'channel').map((g) => g.conversation);
    const names = channels.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(names).toEqual(expect.arrayContaining(['announcements', 'random', 'eng-backend', 'incident-2291']));
    const threads = ws.groups.filter((g) => g.conversation.type === 'thread').map((g) => g.conversation);
    for (const t of threads) {
      expect(t.name.length).toBeGreaterThan(0);
      expect(t.name.length).toBeLessThanOrEqual(50);
      expect(t.name).not.toMatch(/<[@#]/);
    }
  });
});

describe('generateDemoWorkspace (property)', () => {
  it('holds its invariants for random seeds', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }), fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }), (seed, nowSeconds) => {
        const spec: DemoSpec = { ...SPEC, seed, now: nowSeconds * 1000 + (seed & 999), workspaceId: `T${seed}` };
        checkInvariants(spec, collect(spec));
      }),
      { numRuns: 3 },
    );
  });
});

describe('createRandom', () => {
  it('is deterministic per seed, in [0, 1), and differs between seeds', () => {
    const a = createRandom(7);
    const b = createRandom(7);
    const c = createRandom(8);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 1000 }, () => c())).not.toEqual(xs);
    for (const x of xs) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.05);
  });
});

describe('layoutTimes', () => {
  it('gives strictly increasing integer times ending at end, even in a tiny span', () => {
    const rng = createRandom(9);
    const out: number[] = [];
    for (const [n, start, end] of [
      [1, 0, 5e9],
      [50, 1e15, 1e15 + 10],
      [50, 1e15, 1e15],
      [200, 1e15, 1e15 + 86_400e6],
    ] as const) {
      layoutTimes(rng, out, n, start, end);
      expect(out).toHaveLength(n);
      expect(out[n - 1]).toBe(end);
      for (let i = 1; i < n; i++) {
        expect(Number.isInteger(out[i])).toBe(true);
        expect(out[i]!).toBeGreaterThan(out[i - 1]!);
      }
    }
  });
});

describe('demoMessageText', () => {
  it('is deterministic from the rng and works without any context', () => {
    for (const cat of ['urgent', 'can_wait', 'fyi'] as const) {
      const a = createRandom(3);
      const b = createRandom(3);
      for (let i = 0; i < 50; i++) {
        const text = demoMessageText(a, cat);
        expect(text).toBe(demoMessageText(b, cat));
        expect(text.trim().length).toBeGreaterThan(1);
        expect(text).not.toMatch(/undefined|<@>|<#\|/);
      }
    }
  });

  it('mentions only the users and channels it is given, and addresses the member in channels', () => {
    const rng = createRandom(11);
    const ctx = { memberId: 'UMEMBER01', userIds: ['UAAAAAAA1', 'UBBBBBBB2'], channels: [{ id: 'CCHAN0001', name: 'eng-backend' }], type: 'channel' as const };
    const texts = Array.from({ length: 400 }, (_, i) => demoMessageText(rng, (['urgent', 'can_wait', 'fyi'] as const)[i % 3]!, ctx));
    for (const t of texts) {
      for (const [, id] of t.matchAll(/<@([^>]+)>/g)) expect(['UMEMBER01', 'UAAAAAAA1', 'UBBBBBBB2']).toContain(id);
      for (const [, id] of t.matchAll(/<#([^|>]+)\|/g)) expect(id).toBe('CCHAN0001');
    }
    expect(texts.some((t) => t.includes('<@UMEMBER01>'))).toBe(true);
    expect(texts.some((t) => t.includes('<#CCHAN0001|eng-backend>'))).toBe(true);
    // In a DM the member is spoken to directly, not mentioned.
    const dm = Array.from({ length: 200 }, () => demoMessageText(rng, 'can_wait', { ...ctx, type: 'dm' }));
    expect(dm.some((t) => t.includes('<@UMEMBER01>'))).toBe(false);
  });

  it('recognises a bot by its name or its handle (user.name is lower case)', () => {
    const texts = (bot: string) => Array.from({ length: 30 }, (_, i) => demoMessageText(createRandom(i), 'urgent', { bot }));
    expect(texts('pagerbot')).toEqual(texts('PagerBot'));
    expect(texts('jira')).toEqual(texts('Jira'));
    expect(texts('jira')).not.toEqual(texts('deploybot'));
  });

  it('gives each category its own vocabulary, for people and bots', () => {
    const rng = createRandom(5);
    const sample = (cat: AiCategory, bot?: string) => Array.from({ length: 300 }, () => demoMessageText(rng, cat, { memberId: 'UMEMBER01', bot }));
    const rate = (texts: string[], re: RegExp) => texts.filter((t) => re.test(t)).length / texts.length;
    for (const bot of [undefined, 'deploybot', 'PagerBot', 'Jira', 'GitHub', 'pagerbot', 'github']) {
      expect(rate(sample('urgent', bot), URGENCY)).toBeGreaterThan(0.85);
      expect(rate(sample('fyi', bot), URGENCY)).toBeLessThan(0.3);
      expect(rate(sample('can_wait', bot), URGENCY)).toBeLessThan(0.3);
    }
  });
});

describe('plainText and threadTitle', () => {
  const names = (id: string) => ({ U1: 'Priya' })[id];
  it('renders markup as words', () => {
    expect(plainText('*Hey* <@U1> see <#C9|eng-backend> and <https://x.example.com|the doc> `code` _now_', names)).toBe(
      'Hey @Priya see #eng-backend and the doc code now',
    );
    expect(plainText(':rotating_light: ok', names)).toBe(':rotating_light: ok');
  });
  it('cuts long titles at a word, within 50 characters', () => {
    const title = threadTitle('The quick brown fox jumps over the lazy dog and keeps running far away', names);
    expect(title.length).toBeLessThanOrEqual(50);
    expect(title.endsWith('…')).toBe(true);
    expect('The quick brown fox jumps over the lazy dog and keeps'.startsWith(title.slice(0, -1))).toBe(true);
    expect(threadTitle('Short one', names)).toBe('Short one');
  });
});
