/**
 * The AI's text readers on hostile 40,000-character inputs (issue 12 §4): the catch-up's intent,
 * the local answer's words and topic, and the OpenAI-compatible provider's reading of the model's
 * output (code fence, confidence). Each shape made a pattern backtrack; each case asserts the
 * exact output, and the time is measured in the bench (bench/hostileText.ts), not here. The
 * properties check the plain readings against the patterns they replaced, on short texts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectIntent, type CatchupIntent } from '../../../src/server/ai/catchupText';
import { aboutPhrase } from '../../../src/server/ai/local/answer';
import { searchTerms } from '../../../src/server/ai/words';
import { confidenceSchema, unfence } from '../../../src/server/ai/openai';

const N = 40_000;
/** Text of `n` characters built from a repeated piece. */
const fill = (piece: string, n: number) => piece.repeat(Math.ceil(n / piece.length)).slice(0, n);

describe('detectIntent on 40,000 characters', () => {
  it.each<[string, string, CatchupIntent]>([
    ["'who ' repeated", `${fill('who ', N - 1)}\u0000`, 'search'],
    ["'who ' repeated, then 'reply'", `${fill('who ', N - 6)} reply`, 'reply_first'],
    ["'read ' repeated", `${fill('read ', N - 1)}\u0000`, 'search'],
    ["'read ' repeated, then 'fyi'", `${fill('read ', N - 4)} fyi`, 'clear_fyi'],
    ["'fyi ' repeated, then 'clear'", `${fill('fyi ', N - 6)} clear`, 'clear_fyi'],
    ["'draft ' repeated", `${fill('draft ', N - 1)}\u0000`, 'search'],
    ["'draft ' repeated, then 'replies'", `${fill('draft ', N - 8)} replies`, 'replies'],
    ["'reply' before a run of 'who'", `reply ${fill('who ', N - 6)}`, 'search'],
  ])('%s', (_, message, intent) => {
    expect(detectIntent(message)).toBe(intent);
  });
});

describe('the local answer on 40,000 characters', () => {
  it.each<[string, string, string[]]>([
    ["a word, a run of apostrophes, then 'x('", `a${"'".repeat(N - 3)}x(`, [`a${"'".repeat(N - 3)}x`]],
    ['a word ending in a run of apostrophes', `launch${"'".repeat(N - 6)}`, ['launch']],
    ["a name ending in a run of '.-_'", `@sam${fill('.-_', N - 4)}`, ['sam']],
    ["'a.' repeated after '@', then a run of '.'", `@${fill('a.', N / 2)}${'.'.repeat(N / 2 - 1)}`, [fill('a.', N / 2 - 1)]],
  ])('searchTerms: %s', (_, question, terms) => {
    expect(searchTerms(question)).toEqual(terms);
  });

  it.each<[string, string, string | undefined]>([
    ['a run of spaces inside the phrase', `about the launch${' '.repeat(N - 18)}x\n`, `the launch${' '.repeat(N - 18)}x`],
    ['a run of spaces and marks after it', `what about the launch${fill(' ?!.', N - 21)}`, 'the launch'],
    ["'about x' on every line", fill('about x\n', N), 'x'],
    ["'about ' repeated", fill('about ', N), fill('about ', N).slice(6)],
    ["'about' before a run of line breaks", `about x${'\n'.repeat(N - 8)}y`, undefined],
  ])('aboutPhrase: %s', (_, question, phrase) => {
    expect(aboutPhrase(question)).toBe(phrase);
  });

  it('aboutPhrase is what the pattern it replaced captured, whenever that held a word', () => {
    const replaced = /\b(?:about|regarding)\s+(.+?)[\s?.!]*$/i;
    const unit = fc.constantFrom('about', 'About', 'REGARDING', 'aboutx', ' ', '\t', '\n', '\r', '\u2028', '\u00a0', '?', '.', '!', 'x', 'the launch');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit, maxLength: 12 }), fc.string({ maxLength: 16 })), (question) => {
        const before = replaced.exec(question)?.[1];
        if (before !== undefined && /[\p{L}\p{N}]/u.test(before)) expect(aboutPhrase(question)).toBe(before);
        else expect(searchTerms(aboutPhrase(question) ?? '')).toEqual([]);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("the model's output on 40,000 characters", () => {
  it.each<[string, string, string]>([
    ['spaces around fenced JSON', `\`\`\`json\n${' '.repeat(N / 2)}{"a":1}${' '.repeat(N / 2)}\n\`\`\``, '{"a":1}'],
    ['an opening fence, a run of spaces and no closing one', `\`\`\`${' '.repeat(N - 4)}x`, `\`\`\`${' '.repeat(N - 4)}x`],
    ['an opening fence and a run of line breaks', `\`\`\`json\n${'\n'.repeat(N - 9)}x`, `\`\`\`json\n${'\n'.repeat(N - 9)}x`],
    ["'``` ' repeated", fill('``` ', N), fill('``` ', N).trim().slice(3, -3).trim()],
  ])('unfence: %s', (_, text, out) => {
    expect(unfence(text)).toBe(out);
  });

  it('unfence reads as the pattern it replaced', () => {
    const replaced = (text: string) => {
      const fenced = /^\s*```[a-z]*\s*\n?([\s\S]*?)\n?\s*```\s*$/i.exec(text);
      return (fenced ? fenced[1]! : text).trim();
    };
    const unit = fc.constantFrom('```', '`', 'json', 'JSON', ' ', '\n', '\t', '\u00a0', '{"a":1}', 'x', 'ı');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit, maxLength: 10 }), fc.string({ maxLength: 14 })), (text) => {
        expect(unfence(text)).toBe(replaced(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it.each<[string, string, number | null]>([
    ["a number, a run of spaces, then 'x'", `1${' '.repeat(N - 2)}x`, null],
    ["a number, a run of spaces, then '%'", `45${' '.repeat(N - 3)}%`, 0.45],
    ["a run of spaces around '%'", `${' '.repeat(N / 2)}90${' '.repeat(N / 2)}%${' '.repeat(N / 2)}`, 0.9],
    ['a number and a run of digits', `0.${'7'.repeat(N)}`, 0.7777777777777778],
  ])('confidence: %s', (_, value, confidence) => {
    const parsed = confidenceSchema.safeParse(value);
    expect(parsed.success ? parsed.data : null).toBe(confidence);
  });
});
