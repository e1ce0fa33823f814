/**
 * ESLint (typescript-eslint, react-hooks, jsx-a11y) and Prettier over the repository.
 *   tsx scripts/lint.ts          ESLint (no warning allowed), then `prettier --check` (npm run lint)
 *   tsx scripts/lint.ts --write  `prettier --write` (npm run format)
 * `npm test` runs the same two checks through `lintChecks`.
 *
 * They live in tools/lint, a package of their own with TypeScript 5.9: the repository builds
 * with TypeScript 7 (the native port), whose package has no JavaScript compiler API yet, and
 * typescript-eslint's parser needs one. tools/lint is installed from its lockfile the first
 * time (and again when the lockfile changes), so `npm install` at the root is still all a
 * fresh machine needs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** Installs tools/lint when its node_modules is missing or older than its lockfile; throws when npm fails. */
export function ensureLintTools(root = ROOT): void {
  const tools = join(root, 'tools', 'lint');
  const installed = join(tools, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(join(tools, 'package-lock.json')).mtimeMs) return;
  process.stdout.write('Installing the lint tools (npm ci --prefix tools/lint)...\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--prefix', tools, '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm ci --prefix tools/lint failed');
}

function tool(root: string, bin: string, args: string[]): boolean {
  const result = spawnSync(process.execPath, [join(root, 'tools', 'lint', 'node_modules', ...bin.split('/')), ...args], { cwd: root, stdio: 'inherit' });
  return result.status === 0;
}

export function eslint(root = ROOT): boolean {
  const cache = join(root, 'tools', 'lint', 'node_modules', '.cache', 'eslint');
  return tool(root, 'eslint/bin/eslint.js', ['--config', 'tools/lint/eslint.config.mjs', '--max-warnings', '0', '--cache', '--cache-location', cache, '.']);
}

export function prettier(root = ROOT, mode: '--check' | '--write' = '--check'): boolean {
  return tool(root, 'prettier/bin/prettier.cjs', [mode, '--log-level', 'warn', '.']);
}

/** The checks `npm test` counts: each tool is one check, passed or failed. */
export function lintChecks(root = ROOT): { name: string; ok: boolean }[] {
  ensureLintTools(root);
  return [
    { name: 'ESLint', ok: eslint(root) },
    { name: 'Prettier (prettier --check; `npm run format` fixes it)', ok: prettier(root) },
  ];
}

if (import.meta.filename === process.argv[1]) {
  try {
    if (process.argv.includes('--write')) {
      ensureLintTools();
      process.exit(prettier(ROOT, '--write') ? 0 : 1);
    }
    const failed = lintChecks().filter((check) => !check.ok);
    for (const check of failed) process.stderr.write(`${check.name} failed\n`);
    process.exit(failed.length ? 1 : 0);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
