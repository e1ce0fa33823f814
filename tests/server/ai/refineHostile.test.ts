/**
 * The local refine on hostile drafts of 40,000 characters (issue 12 §4): the shapes that made
 * its regexes backtrack (long runs of one punctuation mark, of spaces, tabs or blank lines, a
 * sentence that never ends, a word that never ends). Each case asserts the exact output; the
 * time is measured in the bench (bench/hostileText.ts), not here.
 */
import { describe, expect, it } from 'vitest';
import { REFINE_MODES, type RefineMode } from '../../../src/model/ai';
import { refineLocally } from '../../../src/server/ai/local/refine';

const N = 40_000;
const half = N / 2;

interface Case {
  name: string;
  draft: string;
  /** The output of polish, shorter, simplify and professional, unless `by` says otherwise. */
  out: string;
  by?: Partial<Record<RefineMode, string>>;
}

const CASES: Case[] = [
  { name: "a run of '!'", draft: `Done${'!'.repeat(N)}`, out: 'Done!', by: { list: '• Done!' } },
  { name: "a run of '.'", draft: `Wait${'.'.repeat(N)}`, out: 'Wait...', by: { list: '• Wait' } },
  { name: "a run of ','", draft: `fine${','.repeat(N)}ok`, out: 'Fine, ok.', by: { professional: 'Fine, OK.', list: '• Fine, ok' } },
  { name: "a run of ';' at the end", draft: `yes${';'.repeat(N)}`, out: 'Yes.', by: { list: '• Yes' } },
  { name: 'a run of spaces', draft: `ship${' '.repeat(N)}it`, out: 'Ship it.', by: { list: '• Ship it' } },
  { name: 'a run of tabs', draft: `ship${'\t'.repeat(N)}it`, out: 'Ship it.', by: { list: '• Ship it' } },
  { name: 'a run of blank lines', draft: `ship${'\n'.repeat(N)}it`, out: 'Ship.\n\nIt.', by: { list: '• Ship\n• It' } },
  { name: 'a run of em spaces', draft: `ship${'\u2003'.repeat(N)}it`, out: `Ship${'\u2003'.repeat(N)}it.`, by: { list: `• Ship${'\u2003'.repeat(N)}it` } },
  { name: 'spaces and tabs after a laugh', draft: `lol${' \t'.repeat(half)}x`, out: 'Lol x.', by: { professional: 'X.', list: '• Lol x' } },
  { name: "spaces before a '('", draft: `x${' '.repeat(N)}(`, out: 'X (', by: { list: '• X (' } },
  { name: "spaces before 'and'", draft: `tea, milk${' '.repeat(N)}and bread`, out: 'Tea, milk and bread.', by: { list: '• Tea\n• Milk\n• Bread' } },
  { name: 'trailing punctuation that never ends a list item', draft: `Go${'.,;:'.repeat(N / 4)}`, out: `Go${'.,;:'.repeat(N / 4)}`, by: { list: '• Go' } },
  {
    name: "'?!' repeated",
    draft: `Ready${'?!'.repeat(half)}`,
    out: `Ready${'?!'.repeat(half)}`,
    by: { professional: `Ready${'?'.repeat(half)}`, list: `• Ready${'?!'.repeat(half)}` },
  },
  {
    name: "a 'wondering' sentence that never ends",
    draft: `i was wondering if you could ${'!.'.repeat(half)}x`,
    out: `I was wondering if you could${'!.'.repeat(half)}x.`,
    by: {
      shorter: `Could you${'!.'.repeat(half)}x?`,
      professional: `I was wondering if you could!${'.'.repeat(N - 1)}x.`,
      list: `• I was wondering if you could${'!.'.repeat(half)}x`,
    },
  },
  { name: 'a word of letters and apostrophes', draft: "a'".repeat(half), out: `A'${"a'".repeat(half - 1)}.`, by: { list: `• A'${"a'".repeat(half - 1)}` } },
];

describe('refineLocally on hostile 40,000-character drafts', () => {
  for (const c of CASES) {
    it.each(REFINE_MODES)(`${c.name}: %s`, (mode) => {
      expect(refineLocally(c.draft, mode)).toBe(c.by?.[mode] ?? c.out);
    });
  }
});
