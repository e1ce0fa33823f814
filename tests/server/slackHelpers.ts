/** Builds the real app in Slack mode against the fake Slack server, served on an ephemeral port; signs in through the OAuth pages. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from '../../src/server/app';
import { createLocalProvider } from '../../src/server/ai/local/provider';
import { jsonLogger } from '../../src/server/log';
import type { SiftStore } from '../../src/server/store/store';
import { openTestStore } from './testStore';
import { SlackSource } from '../../src/server/sources/slack/source';
import { DEFAULT_RATE_POLICY, SLACK_USER_SCOPES, type RatePolicy, type SlackConfig } from '../../src/server/sources/slack/config';
import type { LiveHub } from '../../src/server/live/hub';
import { startFakeSlack, type FakeSlack, type FakeSlackOptions } from '../fakes/slackServer';
import { sessionTokenOf } from './helpers';

export interface SlackTestServer {
  url: string;
  fake: FakeSlack;
  store: SiftStore;
  source: SlackSource;
  hub: LiveHub;
  logLines: string[];
  close(): Promise<void>;
}

export async function startSlackTestServer(
  options: {
    fake?: FakeSlackOptions;
    fakeSlack?: FakeSlack;
    socketMode?: boolean;
    /** Incremental sync period without Socket Mode (SIFT_SLACK_POLL_SECONDS; fractions allowed); default 0, off. */
    pollSeconds?: number;
    rate?: Partial<RatePolicy>;
    pageLimit?: number;
    file?: string;
    historyLimit?: number;
    /** The local AI provider (default: none, AI off). */
    ai?: boolean;
  } = {},
): Promise<SlackTestServer> {
  const fake = options.fakeSlack ?? (await startFakeSlack({ size: 'small', ...options.fake }));
  const store = await openTestStore(options.file);
  const logLines: string[] = [];
  const logger = jsonLogger((line) => logLines.push(line), 'debug');
  const config: SlackConfig = {
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    apiUrl: fake.apiUrl,
    authorizeUrl: fake.authorizeUrl,
    pollSeconds: options.pollSeconds ?? 0,
    secret: 'sift-test-secret',
    scopes: SLACK_USER_SCOPES,
    rate: { ...DEFAULT_RATE_POLICY, ...options.rate },
    historyLimit: options.historyLimit ?? 1000,
  };
  if (options.socketMode) config.appToken = fake.appToken;
  const source = new SlackSource({ config, now: () => Date.now(), logger, pageLimit: options.pageLimit });
  await source.prepare(store);
  const { app, ctx } = createApp({ store, source, clock: { now: () => Date.now() }, logger, ai: options.ai ? createLocalProvider({ chunkDelayMs: 0 }) : null });
  const stopSlack = await source.start({ hub: ctx.hub });
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    fake,
    store,
    source,
    hub: ctx.hub,
    logLines,
    async close() {
      await stopSlack();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await store.close();
      if (!options.fakeSlack) await fake.close();
    },
  };
}

/** The cookie pairs (name=value) of a response's Set-Cookie headers. */
export function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((pair) => !pair.endsWith('='))
    .join('; ');
}

export interface SlackSignIn {
  status: number;
  /** Where the callback sent the browser. */
  location: string;
  token: string;
  cookie: string;
}

/**
 * Signs in as a browser would: GET /auth/slack, the fake's authorize page (with `team`, its
 * workspace switcher's link to that team first), its Allow (or Cancel) form, then the callback
 * with the state cookie. `cookie` is the browser's other cookies (a session already open).
 * `tamper` changes the callback URL or the cookie for the failure cases.
 */
export async function signInSlack(
  server: Pick<SlackTestServer, 'url'>,
  options: {
    button?: 'Allow' | 'Cancel';
    tamper?: (callback: URL, cookie: string) => { url: URL; cookie: string };
    cookie?: string;
    team?: string;
    /** 'Add workspace' (/auth/slack?add=true): joins the account of the session in `cookie`. */
    add?: boolean;
  } = {},
): Promise<SlackSignIn & { authorize: URL; callback: URL; stateCookie: string }> {
  const start = await fetch(`${server.url}/auth/slack${options.add ? '?add=true' : ''}`, {
    redirect: 'manual',
    headers: options.cookie ? { cookie: options.cookie } : {},
  });
  if (start.status !== 302) throw new Error(`/auth/slack answered ${start.status}: ${await start.text()}`);
  let authorize = new URL(start.headers.get('location')!);
  const stateCookie = cookiesOf(start);
  let page = await (await fetch(authorize)).text();
  if (options.team) {
    const link = [...page.matchAll(/<a href="([^"]+)" data-team-id="([^"]+)"/g)].find((m) => m[2] === options.team);
    if (!link) throw new Error(`no workspace ${options.team} in the authorize page's switcher: ${page.slice(0, 500)}`);
    authorize = new URL(link[1]!.replace(/&amp;/g, '&'));
    page = await (await fetch(authorize)).text();
  }
  const button = options.button ?? 'Allow';
  const form = [...page.matchAll(/<form[^>]*data-url="([^"]+)"[^>]*>[\s\S]*?<button[^>]*>([^<]+)<\/button>/g)].find((m) => m[2] === button);
  if (!form) throw new Error(`no ${button} button on the authorize page: ${page.slice(0, 500)}`);
  let callback = new URL(form[1]!.replace(/&amp;/g, '&'));
  let cookie = [stateCookie, options.cookie].filter(Boolean).join('; ');
  if (options.tamper) ({ url: callback, cookie } = options.tamper(callback, cookie));
  const res = await fetch(callback, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const location = res.headers.get('location') ?? '';
  const token = sessionTokenOf(res.headers.get('set-cookie') ?? '');
  return { status: res.status, location, token, cookie: cookiesOf(res), authorize, callback, stateCookie };
}

/** Waits until `predicate` holds (polling every 10 ms). */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
