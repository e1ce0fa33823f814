/**
 * `npm start`: builds the client when it is missing or older than its sources, then runs
 * the server (src/server/main.ts) in this process.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const CLIENT_SOURCES = ['src/ui', 'src/worker', 'src/sw', 'src/streams', 'src/model', 'index.html', 'vite.config.ts', 'public', 'package-lock.json'];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

export function clientIsStale(root = ROOT): boolean {
  const built = join(root, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return CLIENT_SOURCES.some((p) => newest(join(root, p)) > builtAt);
}

export function buildClientIfNeeded(root = ROOT): void {
  if (!clientIsStale(root)) return;
  process.stdout.write('Building the client (vite build)...\n');
  // Always a production build: started from Vitest (the end-to-end harness), NODE_ENV=test would
  // otherwise make Vite bundle React's development build, whose StrictMode runs every effect twice.
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('vite build failed');
}

if (import.meta.filename === process.argv[1]) {
  buildClientIfNeeded();
  const { runFromCommandLine } = await import('../src/server/main');
  runFromCommandLine();
}
