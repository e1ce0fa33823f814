/**
 * Every regex literal in src/ through recheck's automaton analysis (issue 12 §4: every regex over
 * user text runs in linear time). A pattern it proves super-linear (`\s*$`, `[,;]+$`,
 * `[.!?]+\s+` searched through a run of '!', …) fails here unless it is listed below with the
 * reason it never reads a long hostile text. Patterns the analysis cannot decide in time
 * (lookarounds, back-references, large alternations) are timed on 40,000-character hostile texts
 * in the bench instead (bench/hostileText.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkSync, type Diagnostics } from 'recheck';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
/** The analysis time per pattern: the shapes above are found in a few ms; a timeout passes. */
const CHECK = { checker: 'automaton', timeout: 200 } as const;

/** Flagged patterns that never read a long hostile text, by file and pattern, with the reason. */
const ALLOWED: Record<string, string> = {
  'src/server/main.ts /\\/+$/': "the operator's SIFT_PUBLIC_URL",
  'src/server/sources/slack/config.ts /\\/+$/': "the operator's SIFT_PUBLIC_URL",
  'src/server/rateLimits.ts /%.*$/': 'an address (socket or X-Forwarded-For): a header holds no line break, so `.*` reaches the end at once',
  'src/server/sources/demo/text.ts /<@([A-Z0-9]+)(?:\\|([^>]*))?>/g': "the demo generator's own text",
  'src/server/sources/demo/text.ts /<#([A-Z0-9]+)(?:\\|([^>]*))?>/g': "the demo generator's own text",
  'src/server/sources/demo/text.ts /<([^|>]+)\\|([^>]*)>/g': "the demo generator's own text",
  'src/server/sources/demo/text.ts /<([^>]+)>/g': "the demo generator's own text",
  'src/server/sources/demo/text.ts /[\\s,.:;—-]+$/': 'a demo thread title, cut to 60 characters first',
};

interface Literal {
  file: string;
  line: number;
  pattern: string;
  flags: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The regex literals of one source file, from its syntax tree (not a text search). */
function literalsOf(path: string): Literal[] {
  const source = readFileSync(path, 'utf8');
  const file = relative(ROOT, path).split('\\').join('/');
  const found: Literal[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const n = node as { type?: string; regex?: { pattern: string; flags: string }; start?: number };
    if (n.type === 'Literal' && n.regex) {
      const line = source.slice(0, n.start ?? 0).split('\n').length;
      found.push({ file, line, pattern: n.regex.pattern, flags: n.regex.flags });
    }
    for (const value of Object.values(node)) if (value && typeof value === 'object') walk(value);
  };
  walk(parseAst(source, { lang: path.endsWith('.tsx') ? 'tsx' : 'ts' }));
  return found;
}

const flagged = (d: Diagnostics) => d.status === 'vulnerable';

describe('regex literals in src/', () => {
  it('the analysis flags the shapes it is here for', () => {
    for (const [pattern, flags] of [
      ['\\s*$', ''],
      ['[.!?]+\\s+', 'g'],
      ['[,;]+$', ''],
      ['\\s+and\\s+', 'i'],
    ] as const) {
      expect(checkSync(pattern, flags, CHECK).status, `/${pattern}/${flags}`).toBe('vulnerable');
    }
  });

  it('none is super-linear unless listed with its reason', { timeout: 180_000 }, () => {
    const literals = sourceFiles(join(ROOT, 'src')).flatMap(literalsOf);
    expect(literals.length).toBeGreaterThan(200);
    const verdicts = new Map<string, Diagnostics>();
    const bad: string[] = [];
    for (const lit of literals) {
      const key = `/${lit.pattern}/${lit.flags}`;
      const verdict = verdicts.get(key) ?? checkSync(lit.pattern, lit.flags, CHECK);
      verdicts.set(key, verdict);
      if (!flagged(verdict)) continue;
      if (!(`${lit.file} ${key}` in ALLOWED)) bad.push(`${lit.file}:${lit.line} ${key} (${verdict.status === 'vulnerable' ? verdict.complexity.summary : ''})`);
    }
    expect(bad).toEqual([]);
  });
});
