/**
 * Finds the Chromium the end-to-end tests drive: CHROME_PATH, else Debian's
 * /usr/bin/chromium. `ensureChromium()` installs Debian's package when it can (root on
 * Debian) and otherwise stops with a message naming the command.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export function chromiumPath(): string {
  return process.env.CHROME_PATH || DEBIAN_CHROMIUM;
}

export function ensureChromium(): string {
  const path = chromiumPath();
  if (existsSync(path)) return path;
  if (process.env.CHROME_PATH) throw new Error(`CHROME_PATH points to ${path}, which does not exist.`);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    process.stdout.write("Chromium is missing: installing Debian's chromium package (apt-get install chromium)...\n");
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (existsSync(path)) return path;
  }
  throw new Error(`The end-to-end tests need Chromium at ${path}. Install it with \`sudo apt-get install chromium\`, or set CHROME_PATH to a Chromium binary.`);
}
