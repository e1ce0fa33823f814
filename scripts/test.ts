/**
 * `npm test`: every check, in order, and one closing line `N passed, N failed` that
 * totals them all (the type-check counts as one check per project, each Vitest test as one).
 *   1. Chromium for the end-to-end tests (installed from Debian's packages when missing and root);
 *   2. the type-check of every thread's tsconfig;
 *   3. ESLint and `prettier --check` (scripts/lint.ts; tools/lint is installed the first time), one check each;
 *   4. the client build, when stale;
 *   5. Vitest: unit (model, streams, worker, server), ui (happy-dom) and e2e (Chromium).
 * Extra arguments go to Vitest (e.g. `npm test -- --project unit`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureChromium } from './chromium';
import { lintChecks } from './lint';
import { buildClientIfNeeded } from './start';

const ROOT = join(import.meta.dirname, '..');
const RESULTS = join(ROOT, '.test-results');
const PROJECTS = ['model', 'worker', 'ui', 'server', 'tests'];

let passed = 0;
let failed = 0;
let skipped = 0;

function run(command: string, args: string[]): number {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  return result.status ?? 1;
}

try {
  ensureChromium();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.stdout.write('0 passed, 1 failed\n');
  process.exit(1);
}

process.stdout.write('Type-checking...\n');
for (const project of PROJECTS) {
  const code = run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', `tsconfig.${project}.json`]);
  if (code === 0) passed += 1;
  else {
    failed += 1;
    process.stderr.write(`type-check failed: tsconfig.${project}.json\n`);
  }
}

process.stdout.write('Linting (ESLint, Prettier)...\n');
try {
  for (const check of lintChecks(ROOT)) {
    if (check.ok) passed += 1;
    else {
      failed += 1;
      process.stderr.write(`lint failed: ${check.name}\n`);
    }
  }
} catch (error) {
  failed += 1;
  process.stderr.write(`lint could not run: ${(error as Error).message}\n`);
}

try {
  buildClientIfNeeded(ROOT);
  passed += 1;
} catch (error) {
  failed += 1;
  process.stderr.write(`client build failed: ${(error as Error).message}\n`);
}

mkdirSync(RESULTS, { recursive: true });
const report = join(RESULTS, 'vitest.json');
if (existsSync(report)) rmSync(report);
const vitestCode = run(process.execPath, [
  join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
]);
if (existsSync(report)) {
  const json = JSON.parse(readFileSync(report, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
  passed += json.numPassedTests;
  failed += json.numFailedTests;
  skipped += json.numPendingTests + json.numTodoTests;
  if (vitestCode !== 0 && json.numFailedTests === 0) failed += 1; // a suite that failed to load, or an unhandled error
} else {
  failed += 1;
}

const summary = `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
writeFileSync(join(RESULTS, 'summary.txt'), `${summary}\n`);
process.stdout.write(`${summary}\n`);
process.exit(failed > 0 ? 1 : 0);
