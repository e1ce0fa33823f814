/**
 * The local triage classifier: its features one by one, the shape of its answers, its
 * invariants (fast-check), its lessons, and its accuracy on the hand-written fixtures.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AI_CATEGORIES, type AiCategory, type ConversationType } from '../../../src/model/types';
import { classifyLocally } from '../../../src/server/ai/local/classify';
import { lessonFor, lessonWords } from '../../../src/server/ai/words';
import type { AiMessage, ClassifyInput, Lesson } from '../../../src/server/ai/types';
import { HAND_WRITTEN, HAND_WRITTEN_BLIND, LEARNING, MEMBER_ID, MEMBER_NAME, type TriageCase } from '../../fixtures/triage/messages';

const PEOPLE: Record<string, { name: string; bot?: boolean }> = {
  U_DANA: { name: 'Dana Reyes' },
  U_LEO: { name: 'Leo Fischer' },
  U_PRIYA: { name: 'Priya Shah' },
  B_DEPLOY: { name: 'deploybot', bot: true },
  B_PAGER: { name: 'PagerDuty', bot: true },
};

function msg(user: string, text: string, index = 0): AiMessage {
  return {
    ts: `1795000${String(index).padStart(3, '0')}.000100`,
    user,
    author: PEOPLE[user]?.name ?? MEMBER_NAME,
    isBot: PEOPLE[user]?.bot === true,
    text,
    mentionsMember: text.includes(`@${MEMBER_NAME}`),
  };
}

/** A conversation: `where` is 'dm:U_DANA', '#general' or 'thread:#general'. */
function convo(where: string, ...messages: Array<[string, string]>): ClassifyInput {
  const [type, name, dmUser]: [ConversationType, string, string | undefined] = where.startsWith('dm:')
    ? ['dm', PEOPLE[where.slice(3)]!.name, where.slice(3)]
    : where.startsWith('thread:#')
      ? ['thread', where.slice(8), undefined]
      : ['channel', where.slice(1), undefined];
  const input: ClassifyInput = {
    conversationId: `C_${where}`,
    type,
    name,
    isPrivate: type === 'dm',
    memberId: MEMBER_ID,
    memberName: MEMBER_NAME,
    unreadCount: messages.length,
    messages: messages.map(([user, text], i) => msg(user, text, i)),
  };
  if (dmUser) input.dmUser = dmUser;
  return input;
}

const ME = `@${MEMBER_NAME}`;

describe('features', () => {
  const cases: Array<[string, ClassifyInput, AiCategory]> = [
    ['a mention with incident words', convo('#eng-backend', ['U_PRIYA', `${ME} checkout is returning 502s for everyone, can you look?`]), 'urgent'],
    ['a DM from a person with a deadline today', convo('dm:U_DANA', ['U_DANA', 'can you send me the budget numbers before 3pm today?']), 'urgent'],
    ['a DM asking for something now', convo('dm:U_DANA', ['U_DANA', 'are you around? need you to approve the refund right now']), 'urgent'],
    ['a short deadline in minutes', convo('dm:U_LEO', ['U_LEO', 'the customer call starts in 15 mins, can you join?']), 'urgent'],
    ['incident words without a mention', convo('#ops', ['U_LEO', 'Outage: the login page is down for all customers']), 'urgent'],
    ['a bot page addressed to the member', convo('#oncall', ['B_PAGER', `[Triggered] api latency p1, assigned to ${ME}. Acknowledge`]), 'urgent'],
    ['a question addressed to the member, no time', convo('#eng-backend', ['U_LEO', `${ME} do you know why we pinned the redis client?`]), 'can_wait'],
    ['a request with a later deadline', convo('dm:U_DANA', ['U_DANA', 'could you review the hiring plan by Friday?']), 'can_wait'],
    ['"not urgent" is not urgent', convo('dm:U_LEO', ['U_LEO', 'not urgent, but can you look at my PR?']), 'can_wait'],
    ['"no rush" with a request', convo('thread:#design', ['U_PRIYA', `${ME} no rush, any thoughts on the new icons?`]), 'can_wait'],
    ['a bot notification', convo('#deploys', ['B_DEPLOY', 'Deployed web v2.3.1 to production. All checks passed']), 'fyi'],
    ['an announcement', convo('#announcements', ['U_DANA', 'The office is closed on Monday for the holiday']), 'fyi'],
    ['"urgent" as a joke in a social channel', convo('#random', ['U_LEO', 'URGENT: who took my lunch from the fridge lol :joy:']), 'fyi'],
    ['a resolved incident', convo('#incidents', ['U_PRIYA', 'Resolved: the checkout errors were a bad config, rolled back. No customer impact.']), 'fyi'],
    ['thanks and congratulations', convo('thread:#general', ['U_DANA', 'Congrats on the launch everyone :tada:'], ['U_LEO', 'thanks!']), 'fyi'],
    ['a negated incident word', convo('#ops', ['U_LEO', 'fyi the site is not down, that was my VPN'], ['U_PRIYA', 'haha ok']), 'fyi'],
    ['a bot relaying an ask to someone else', convo('#web', ['B_DEPLOY', "New comment on WEB-221 from Priya: 'can you check this later today?'"]), 'fyi'],
    ['an urgent ask to anyone in a social channel', convo('#random', ['U_LEO', 'urgent: anyone have a phone charger I can borrow asap?']), 'fyi'],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(classifyLocally(input, []).category).toBe(expected);
  });

  it('cancels an incident word after a negation', () => {
    expect(classifyLocally(convo('#ops', ['U_LEO', 'checkout is down, just slow for me']), []).category).toBe('urgent');
    expect(classifyLocally(convo('#ops', ['U_LEO', 'checkout is not down, just slow for me']), []).category).not.toBe('urgent');
  });

  it('reads the newest messages first: a later resolution outweighs an earlier alarm', () => {
    const input = convo('#ops', ['U_LEO', 'checkout is down!'], ['U_LEO', 'false alarm, all clear, it was my VPN']);
    expect(classifyLocally(input, []).category).toBe('fyi');
  });

  it("skips the member's own messages", () => {
    const input = convo('dm:U_DANA', [MEMBER_ID, 'prod is down, urgent!!'], ['U_DANA', 'thanks for the lunch tip :taco:']);
    expect(classifyLocally(input, []).category).toBe('fyi');
  });
});

describe('reasons and triggers', () => {
  it('names the person and says why', () => {
    const r = classifyLocally(convo('dm:U_DANA', ['U_DANA', 'can you send me the numbers today?']), []);
    expect(r.reason).toBe('Dana Reyes asks you directly about a deadline today');
    expect(r.triggers).toContainEqual({ why: 'Direct message from Dana Reyes' });
    expect(r.triggers).toContainEqual({ why: 'Deadline soon: "today"' });
  });

  it('names the channel of an announcement and the bot of a notification', () => {
    expect(classifyLocally(convo('#general', ['U_DANA', 'Welcome Priya to the team!']), []).reason).toBe('Announcement in #general');
    expect(classifyLocally(convo('#deploys', ['B_DEPLOY', 'Deployed api v1.2.0 to production']), []).reason).toBe(
      'Bot notification from deploybot in #deploys',
    );
  });

  it('says when the member is mentioned', () => {
    const r = classifyLocally(convo('#incidents', ['U_PRIYA', `${ME} outage on checkout, please join the bridge`]), []);
    expect(r.reason).toBe('Priya Shah needs you directly on an incident in #incidents');
    expect(r.triggers[0]).toEqual({ why: 'Incident words: "outage"' });
    expect(r.triggers).toContainEqual({ why: 'Mentions you directly' });
  });

  it('gives 1 to 4 non-empty triggers and a one-line reason for every hand-written case', () => {
    for (const c of HAND_WRITTEN) {
      const r = classifyLocally(c.input, []);
      expect(r.triggers.length).toBeGreaterThanOrEqual(1);
      expect(r.triggers.length).toBeLessThanOrEqual(4);
      for (const t of r.triggers) expect(t.why.trim()).not.toBe('');
      expect(r.reason).toMatch(/^[A-Z#@].{8,140}$/);
    }
  });

  it('is more confident about a clear case than a borderline one', () => {
    const clear = classifyLocally(convo('#incidents', ['U_PRIYA', `${ME} sev1 outage, checkout down for everyone, join the bridge asap`]), []);
    const borderline = classifyLocally(convo('#eng', ['U_LEO', 'anyone know if the build is slow today?']), []);
    expect(clear.confidence).toBeGreaterThan(0.9);
    expect(borderline.confidence).toBeLessThan(clear.confidence - 0.2);
  });
});

describe('invariants', () => {
  const message = fc.record({
    user: fc.constantFrom<string | null>('U_DANA', 'B_DEPLOY', MEMBER_ID, null),
    text: fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      fc.constantFrom('', '?', ':fire:', 'not urgent', 'in 5 mins', '@here', '😂🔥', 'by 4pm today'),
    ),
    isBot: fc.boolean(),
    mentionsMember: fc.boolean(),
  });
  const input = fc.record({
    type: fc.constantFrom<ConversationType>('dm', 'channel', 'thread'),
    name: fc.string({ maxLength: 20 }),
    messages: fc.array(message, { maxLength: 12 }),
  });
  const lesson = fc.record({
    category: fc.constantFrom(...AI_CATEGORIES),
    conversationId: fc.constant('C1'),
    conversationName: fc.constantFrom('general', 'Dana Reyes', ''),
    type: fc.constantFrom<ConversationType>('dm', 'channel', 'thread'),
    senderId: fc.constantFrom<string | null>('U_DANA', 'B_DEPLOY', null),
    senderName: fc.constantFrom<string | null>('Dana Reyes', '', null),
    words: fc.array(fc.string({ maxLength: 8 }), { maxLength: 10 }),
    at: fc.integer({ min: 0, max: 10 }),
  });
  const build = (i: {
    type: ConversationType;
    name: string;
    messages: Array<{ user: string | null; text: string; isBot: boolean; mentionsMember: boolean }>;
  }): ClassifyInput => ({
    conversationId: 'C1',
    type: i.type,
    name: i.name,
    isPrivate: false,
    memberId: MEMBER_ID,
    memberName: MEMBER_NAME,
    unreadCount: i.messages.length,
    messages: i.messages.map((m, k) => ({ ...m, ts: `${k}.000000`, author: m.user === null ? '' : (PEOPLE[m.user]?.name ?? 'x') })),
  });

  it('never throws; the category is one of three, confidence in [0, 1], 1 to 4 triggers', () => {
    fc.assert(
      fc.property(input, fc.array(lesson, { maxLength: 4 }), (i, lessons) => {
        const r = classifyLocally(build(i), lessons);
        expect(AI_CATEGORIES).toContain(r.category);
        expect(r.confidence).toBeGreaterThanOrEqual(0);
        expect(r.confidence).toBeLessThanOrEqual(1);
        expect(r.triggers.length).toBeGreaterThanOrEqual(1);
        expect(r.triggers.length).toBeLessThanOrEqual(4);
        expect(r.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 400 },
    );
  });

  it('is deterministic and does not depend on the order of the lessons', () => {
    fc.assert(
      fc.property(input, fc.array(lesson, { maxLength: 4 }), (i, lessons) => {
        const first = classifyLocally(build(i), lessons);
        expect(classifyLocally(build(i), [...lessons].reverse())).toEqual(first);
      }),
      { numRuns: 200 },
    );
  });
});

describe('lessons', () => {
  const danaCasual = (text: string) => convo('dm:U_DANA', ['U_DANA', text]);
  const lesson = (input: ClassifyInput, category: AiCategory, at: number): Lesson => lessonFor(input, category, at);

  it('stores content words: lower case, plurals folded, no stop words or numbers, at most 40', () => {
    expect(lessonWords([msg('U_DANA', 'The Deploys of the API are failing again, 3 times today!')])).toEqual([
      'deploy',
      'api',
      'failing',
      'again',
      'time',
      'today',
    ]);
    const long = Array.from({ length: 60 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`).join(' ');
    expect(lessonWords([msg('U_DANA', long)])).toHaveLength(40);
  });

  it('leans by sender with similar wording, and says so', () => {
    const before = classifyLocally(danaCasual('got a minute? want to chat'), []);
    expect(before.category).toBe('can_wait');
    const lessons = [lesson(danaCasual('got a minute to chat?'), 'urgent', 1)];
    const after = classifyLocally(danaCasual('got a minute? want to chat'), lessons);
    expect(after.category).toBe('urgent');
    expect(after.reason).toBe('You marked similar messages from Dana as Urgent');
    expect(after.triggers[0]).toEqual({ why: 'Learned: You marked similar messages from Dana as Urgent' });
  });

  it('leans by channel with similar wording, and names the channel', () => {
    const notice = (v: string) => convo('#releases', ['B_DEPLOY', `Release train ${v} is cut, rollout to production at 16:00 UTC`]);
    expect(classifyLocally(notice('48'), []).category).toBe('fyi');
    const byChannel: Lesson = { ...lesson(notice('47'), 'urgent', 1), senderId: 'B_OTHER', senderName: 'shipit' };
    const r = classifyLocally(notice('48'), [byChannel]);
    expect(r.category).toBe('urgent');
    expect(r.reason).toBe('You marked similar messages in #releases as Urgent');
  });

  it('does not lean on dissimilar wording from the same sender', () => {
    const lessons = [lesson(danaCasual('got a minute to chat?'), 'urgent', 1)];
    const other = danaCasual('fyi I moved our notes to the new doc, nothing for you to do');
    expect(classifyLocally(other, lessons)).toEqual(classifyLocally(other, []));
  });

  it('does not lean on a small overlap of words (below the similarity threshold)', () => {
    const lessons = [lesson(danaCasual('got a minute to chat about the offsite?'), 'urgent', 1)];
    const other = danaCasual('fyi the offsite budget was approved by finance, I booked the venue and sent the invites, nothing for you to do');
    expect(classifyLocally(other, lessons)).toEqual(classifyLocally(other, []));
  });

  it('does not lean on similar wording from another sender and channel', () => {
    const lessons = [lesson(danaCasual('got a minute to chat?'), 'urgent', 1)];
    const leo = convo('dm:U_LEO', ['U_LEO', 'got a minute? want to chat']);
    expect(classifyLocally(leo, lessons)).toEqual(classifyLocally(leo, []));
  });

  it('lets a newer contradicting lesson win', () => {
    const older = lesson(danaCasual('got a minute to chat?'), 'urgent', 1);
    const newer = lesson(danaCasual('got a minute to chat?'), 'fyi', 2);
    const input = danaCasual('got a minute? want to chat');
    expect(classifyLocally(input, [older, newer]).category).toBe('fyi');
    expect(classifyLocally(input, [newer, older]).category).toBe('fyi');
    expect(classifyLocally(input, [{ ...older, at: 3 }, newer]).category).toBe('urgent');
  });
});

function accuracy(cases: readonly TriageCase[], lessons: readonly Lesson[] = []): number {
  return cases.filter((c) => classifyLocally(c.input, lessons).category === c.label).length / cases.length;
}

describe('accuracy', () => {
  it('has a balanced hand-written set of at least 60 conversations', () => {
    expect(HAND_WRITTEN.length).toBeGreaterThanOrEqual(60);
    for (const category of AI_CATEGORIES) expect(HAND_WRITTEN.filter((c) => c.label === category).length).toBeGreaterThanOrEqual(20);
    for (const type of ['dm', 'channel', 'thread']) expect(HAND_WRITTEN.filter((c) => c.input.type === type).length).toBeGreaterThanOrEqual(20);
  });

  it('classifies at least 80% of the hand-written conversations right', () => {
    expect(accuracy(HAND_WRITTEN)).toBeGreaterThanOrEqual(0.8);
  });

  it('classifies at least 80% of the 24 conversations written later right', () => {
    expect(HAND_WRITTEN_BLIND).toHaveLength(24);
    expect(accuracy(HAND_WRITTEN_BLIND)).toBeGreaterThanOrEqual(0.8);
  });

  it('is strictly more accurate after the 10 corrections than before', () => {
    expect(LEARNING.corrections).toHaveLength(10);
    expect(LEARNING.later.length).toBeGreaterThanOrEqual(20);
    const lessons = LEARNING.corrections.map((c, i) => lessonFor(c.input, c.label, 1_000 + i));
    const before = accuracy(LEARNING.later);
    const after = accuracy(LEARNING.later, lessons);
    expect(after).toBeGreaterThan(before);
    expect(after).toBeGreaterThanOrEqual(0.9);
  });
});
