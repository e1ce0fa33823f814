import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_PROMPTS } from '../../../src/model/ai';
import { composeAnswer, dayLabel } from '../../../src/server/ai/local/answer';
import { searchTerms } from '../../../src/server/ai/words';
import { estimateTokens } from '../../../src/server/ai/budget';
import type { AnswerRequest, RetrievedMessage } from '../../../src/server/ai/types';

/** Fri Nov 20 2026, 15:00 UTC. */
const NOW = Date.UTC(2026, 10, 20, 15, 0, 0);
const tsAt = (ms: number) => `${Math.floor(ms / 1000)}.000100`;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function retrieved(author: string, channel: string, text: string, score: number, ageMs: number): RetrievedMessage {
  return { conversationId: `C_${channel.replace(/\W/g, '')}`, channel, ts: tsAt(NOW - ageMs), author, text, score };
}

function request(question: string, found: RetrievedMessage[], maxSources = 5): AnswerRequest {
  return { question, retrieved: found, maxSources, temperature: 0.3, memberName: 'Alex Kim', now: NOW };
}

const LAUNCH = [
  retrieved('Dana Reyes', '#launch', 'The launch moves to Thursday. Marketing needs the final copy by Wednesday noon.', 0.9, 6 * HOUR),
  retrieved('Dana Reyes', 'Dana Reyes', 'Ok. Can you own the launch checklist?', 0.7, DAY),
  retrieved('Sam Lee', 'Thread in #general', 'Lunch is at noon today.', 0.2, 4 * DAY),
  retrieved('Alex Kim', '#launch', 'The launch moves to Thursday!', 0.5, 2 * DAY),
];

describe('searchTerms', () => {
  it.each([
    [EXAMPLE_PROMPTS[0], ['urgent']],
    [EXAMPLE_PROMPTS[1], ['waiting', 'reply']],
    [EXAMPLE_PROMPTS[2], ['engineering']],
    [EXAMPLE_PROMPTS[3], ['dana', 'launch']],
    [EXAMPLE_PROMPTS[4], ['incidents']],
    [EXAMPLE_PROMPTS[5], ['reviews', 'waiting']],
    [EXAMPLE_PROMPTS[6], ['deadlines', 'week']],
    [EXAMPLE_PROMPTS[7], ['direct']],
    ['Any update on OPS-1234?', ['update', 'ops-1234']],
    ["What's the status of #team-eng's follow-up?", ['status', 'team-eng', 'follow']],
    ["Dana's plan for the Q3 launch, and Dana's budget", ['dana', 'plan', 'q3', 'launch', 'budget']],
    ['@sam.lee said what?', ['sam.lee']],
    ['what is it', []],
    ['', []],
  ])('searchTerms(%j) is %j', (question, terms) => {
    expect(searchTerms(question)).toEqual(terms);
  });
});

describe('dayLabel', () => {
  it.each([
    [tsAt(NOW - HOUR), 'today'],
    [tsAt(NOW - DAY), 'yesterday'],
    [tsAt(Date.UTC(2026, 10, 2, 9)), 'Nov 2'],
    [tsAt(Date.UTC(2025, 0, 31, 9)), 'Jan 31, 2025'],
    ['not a ts', ''],
  ])('dayLabel(%j) is %j', (ts, label) => {
    expect(dayLabel(ts, NOW)).toBe(label);
  });
});

describe('composeAnswer', () => {
  it('quotes the best sentence of each message, best first, numbered as sourceIndexes', () => {
    const out = composeAnswer(request('What did Dana say about the launch?', LAUNCH, 3));
    expect(out.answer).toBe(
      [
        'Here is what I found about the launch:',
        '• Dana Reyes in #launch (today): "The launch moves to Thursday." [1]',
        '• Dana Reyes in a DM (yesterday): "Can you own the launch checklist?" [2]',
      ].join('\n'),
    );
    // the lunch message covers no term; Alex's own message repeats Dana's first sentence
    expect(out.sourceIndexes).toEqual([0, 1]);
    expect(out.confidence).toBe(0.89);
    expect(out.tokensUsed).toBe(estimateTokens('What did Dana say about the launch?', ...LAUNCH.map((m) => m.text), out.answer));
  });

  it('keeps at most maxSources', () => {
    const out = composeAnswer(request('What did Dana say about the launch?', LAUNCH, 1));
    expect(out.sourceIndexes).toEqual([0]);
    expect(out.answer.split('\n')).toHaveLength(2);
  });

  it('picks the sentence that covers the question, and names the member "You"', () => {
    const found = [
      retrieved('Alex Kim', '#ops', 'Morning all. The OPS-1234 fix is deployed to staging. Lunch at noon?', 0.8, 2 * DAY),
      retrieved('Ravi Patel', 'Thread in #ops', 'OPS-1234 still fails on prod for EU users.', 0.6, 3 * DAY),
    ];
    const out = composeAnswer(request('Any update on OPS-1234?', found));
    expect(out.answer).toBe(
      [
        'Here is what I found about update and OPS-1234:',
        '• You in #ops (Nov 18): "The OPS-1234 fix is deployed to staging." [1]',
        '• Ravi Patel in a thread in #ops (Nov 17): "OPS-1234 still fails on prod for EU users." [2]',
      ].join('\n'),
    );
    expect(out.sourceIndexes).toEqual([0, 1]);
  });

  it('says so, with low confidence, when nothing covers the question', () => {
    const found = [retrieved('Sam Lee', 'Sam Lee', 'See you at the offsite.', 0.2, 10 * DAY)];
    const out = composeAnswer(request('Who owns the billing migration?', found));
    expect(out.answer).toBe(
      ["I'm not certain, but these messages look related to owns, billing and migration:", '• Sam Lee in a DM (Nov 10): "See you at the offsite." [1]'].join(
        '\n',
      ),
    );
    expect(out.confidence).toBe(0.11); // 0.3 × relevance 0.2 + 0.15 × one source of three
  });

  it('answers that nothing was found, with confidence 0, when nothing was retrieved', () => {
    const out = composeAnswer(request('Who broke prod?', []));
    expect(out).toEqual({
      answer: "I couldn't find anything about that in your messages.",
      sourceIndexes: [],
      confidence: 0,
      tokensUsed: estimateTokens('Who broke prod?', "I couldn't find anything about that in your messages."),
    });
  });

  it('ignores the temperature (the local engine is deterministic)', () => {
    const cold = composeAnswer({ ...request('launch', LAUNCH), temperature: 0 });
    const hot = composeAnswer({ ...request('launch', LAUNCH), temperature: 2 });
    expect(hot).toEqual(cold);
  });
});

const message = fc.record({
  conversationId: fc.constantFrom('C1', 'C2', 'D1'),
  channel: fc.constantFrom('#general', 'Dana Reyes', 'Thread in #ops'),
  ts: fc.integer({ min: 1_600_000_000, max: 1_800_000_000 }).map((s) => `${s}.000100`),
  author: fc.constantFrom('Dana Reyes', 'Sam Lee', 'Alex Kim'),
  text: fc.oneof(
    fc.string(),
    fc.array(fc.constantFrom('launch', 'moves', 'Thursday.', 'OPS-1234', 'is', 'down!', 'the', 'deploy?', '\n'), { maxLength: 20 }).map((w) => w.join(' ')),
  ),
  score: fc.double({ min: -1, max: 2, noNaN: true }),
});

describe('composeAnswer properties', () => {
  it('uses valid, unique sources, at most maxSources, with a confidence in [0, 1]', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(message, { maxLength: 12 }), fc.integer({ min: 0, max: 8 }), (question, found, maxSources) => {
        const out = composeAnswer(request(question, found, maxSources));
        expect(out.sourceIndexes.length).toBeLessThanOrEqual(maxSources);
        expect(new Set(out.sourceIndexes).size).toBe(out.sourceIndexes.length);
        for (const i of out.sourceIndexes) expect(i >= 0 && i < found.length).toBe(true);
        expect(out.confidence).toBeGreaterThanOrEqual(0);
        expect(out.confidence).toBeLessThanOrEqual(1);
        expect(out.answer.trim()).not.toBe('');
        out.sourceIndexes.forEach((_, n) => expect(out.answer).toContain(`[${n + 1}]`));
        if (found.length === 0) expect(out.confidence).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
