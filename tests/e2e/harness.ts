/**
 * End-to-end harness: the real server as a child process (so a test can kill it hard and
 * start it again on the same data), and headless Chromium through playwright-core with
 * the flags this machine needs (DESIGN §8).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildClientIfNeeded } from '../../scripts/start';
import { chromiumPath, ensureChromium } from '../../scripts/chromium';
import { startFakeSlack, type FakeSlack, type FakeSlackOptions } from '../fakes/slackServer';

const ROOT = join(import.meta.dirname, '..', '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  /** SIGKILL: no clean shutdown, as a crash would be. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function startServer(
  options: { port?: number; dataDir?: string; env?: Record<string, string>; startTimeoutMs?: number } = {},
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'sift-e2e-'));
  // tsx as a loader keeps the server in this one process, so kill() really kills it.
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'server', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SIFT_DATA_DIR: dataDir, SIFT_SIMULATOR_RATE: '0', SIFT_LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), options.startTimeoutMs ?? 60_000);
    const check = () => {
      if (out.includes('Sift is running')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    process: child,
    output: () => out,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Signs in through the real flow: /auth → Connect to Slack → /inbox. */
export async function signIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/inbox`);
  await page.waitForURL('**/auth');
  await page.getByRole('button', { name: 'Connect to Slack' }).click();
  await page.waitForURL('**/inbox');
}

/**
 * The session token of a signed-in page, as a non-browser client (the test) may use it: read from
 * the browser's cookie jar, where it lives HttpOnly (no script of the page can read it).
 */
export async function sessionToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => /^(__Host-)?sift_token$/.test(c.name));
  if (!cookie) throw new Error('no session cookie: not signed in');
  return cookie.value;
}

export interface E2eSession {
  server: RunningServer;
  browser: Browser;
  page: Page;
}

/**
 * Registers beforeAll/afterAll hooks that start a fresh server and Chromium, open a page
 * (after `init` scripts) and, when asked, sign in; the returned object is filled in once they ran.
 */
export function e2eSession(
  options: {
    env?: Record<string, string>;
    init?: Array<() => void>;
    viewport?: { width: number; height: number };
    /** Sign in through /auth and wait for the inbox's first list item. */
    signIn?: boolean;
  } = {},
): E2eSession {
  const session = {} as E2eSession;
  beforeAll(async () => {
    ensureChromium();
    buildClientIfNeeded();
    session.server = await startServer({ env: options.env });
    session.browser = await launchBrowser();
    session.page = await session.browser.newPage({ viewport: options.viewport ?? { width: 1280, height: 900 } });
    for (const script of options.init ?? []) await session.page.addInitScript(script);
    if (options.signIn) {
      await signIn(session.page, session.server.url);
      await session.page.getByRole('option').first().waitFor();
    }
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.server?.stop();
    if (session.server) removeDir(session.server.dataDir);
  });
  return session;
}

/**
 * An end-to-end session of the real server in Slack mode against the local Slack stand-in
 * (tests/fakes/slackServer.ts, Socket Mode on): the fake starts first, so the server gets its
 * URLs. `fake()` is the running stand-in.
 */
export function slackE2eSession(options: { fake?: FakeSlackOptions; init?: Array<() => void> } = {}): { session: E2eSession; fake: () => FakeSlack } {
  const env: Record<string, string> = { SIFT_SIMULATOR_RATE: '0' };
  let fake: FakeSlack | undefined;
  beforeAll(async () => {
    fake = await startFakeSlack({ size: 'small', ...options.fake });
    Object.assign(env, {
      SLACK_CLIENT_ID: fake.clientId,
      SLACK_CLIENT_SECRET: fake.clientSecret,
      SLACK_APP_TOKEN: fake.appToken,
      SLACK_API_URL: fake.apiUrl,
      SLACK_AUTHORIZE_URL: fake.authorizeUrl,
      SIFT_SECRET: 'e2e-secret-key-for-the-stored-tokens',
    });
  });
  // Registered after the fake starts, so the server gets its URLs. The conversations page lists by time
  // unless a test says otherwise (Slack's stand-in has no AI order to wait for).
  const session = e2eSession({ env, init: options.init ?? [() => localStorage.setItem('sift_sort_mode:conversations', 'time')] });
  afterAll(() => fake?.close());
  return {
    session,
    fake: () => {
      if (!fake) throw new Error('the Slack stand-in has not started');
      return fake;
    },
  };
}
