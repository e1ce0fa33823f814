/**
 * Search's text rules, shared by the search route and the AI's retrieval (issue 15 §1: the AI service depends on
 * no route): the full-text query of the member's text, the rank of a name against it, and a match's relevance
 * weighed by its age.
 */
import { tsToMs } from '../model/ts';
import type { TextQuery } from './store/types';

/** The full-text query of the member's text: its words (no operators), all required, the last one a prefix; null when there is no word. */
export function textQuery(text: string): TextQuery | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words?.length) return null;
  return { words, lastIsPrefix: true };
}

/** 0 for an exact name, 1 for a name that starts with the text, 2 otherwise. */
export function nameRank(names: Array<string | undefined>, text: string): number {
  const t = text.toLowerCase();
  let best = 2;
  for (const name of names) {
    const n = name?.toLowerCase();
    if (!n) continue;
    if (n === t) return 0;
    if (n.startsWith(t)) best = Math.min(best, 1);
  }
  return best;
}

/** Relevance weighed by age: a match loses half its weight over two weeks. */
export function messageScore(bm25: number, ts: string, now: number): number {
  const ageDays = Math.max(0, (now - tsToMs(ts)) / 86_400_000);
  return -bm25 / (1 + ageDays / 14);
}
