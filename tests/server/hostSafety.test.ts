/**
 * Issue 12 §2 host safety: the demo (which signs anyone in as any member) listens on loopback only
 * unless asked for explicitly; off this machine Slack mode needs SIFT_PUBLIC_URL; and Slack's
 * redirect URI never comes from a request's Host header.
 */
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isLoopback, optionsFromEnv, startServer } from '../../src/server/main';
import { startFakeSlack, type FakeSlack } from '../fakes/slackServer';

const slackEnv = (fake: Pick<FakeSlack, 'clientId' | 'clientSecret' | 'apiUrl' | 'authorizeUrl'>) => ({
  SLACK_CLIENT_ID: fake.clientId,
  SLACK_CLIENT_SECRET: fake.clientSecret,
  SLACK_API_URL: fake.apiUrl,
  SLACK_AUTHORIZE_URL: fake.authorizeUrl,
  SIFT_SECRET: 'host-safety-test-secret',
});
const fakeNames = {
  clientId: '1111.2222',
  clientSecret: 'fake-secret',
  apiUrl: 'http://127.0.0.1:9/api/',
  authorizeUrl: 'http://127.0.0.1:9/oauth/v2/authorize',
};

describe('where Sift may listen', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.20', false],
    ['sift.example.com', false],
  ])('isLoopback(%s) is %s', (host, loopback) => expect(isLoopback(host)).toBe(loopback));

  it('the demo refuses a HOST off this machine, unless SIFT_DEMO_ALLOW_REMOTE=1', () => {
    expect(() => optionsFromEnv({ HOST: '0.0.0.0' })).toThrow(/loopback only; HOST=0\.0\.0\.0 needs SIFT_DEMO_ALLOW_REMOTE=1/);
    expect(optionsFromEnv({ HOST: '0.0.0.0', SIFT_DEMO_ALLOW_REMOTE: '1' }).host).toBe('0.0.0.0');
    expect(optionsFromEnv({}).host).toBe('127.0.0.1');
  });

  it('Slack mode off this machine needs SIFT_PUBLIC_URL', () => {
    expect(() => optionsFromEnv({ ...slackEnv(fakeNames), HOST: '0.0.0.0' })).toThrow(/needs SIFT_PUBLIC_URL/);
    expect(optionsFromEnv({ ...slackEnv(fakeNames), HOST: '0.0.0.0', SIFT_PUBLIC_URL: 'https://sift.example.com' }).slack?.publicUrl).toBe(
      'https://sift.example.com',
    );
  });
});

describe("Slack's redirect URI", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-host-'));
  let fake: FakeSlack;
  let stop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await stop?.();
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is the address Sift listens on, whatever Host header a request carries', async () => {
    fake = await startFakeSlack({ size: 'small' });
    const server = await startServer(optionsFromEnv({ ...slackEnv(fake), HOST: '127.0.0.1', PORT: '0', SIFT_DATA_DIR: dataDir, SIFT_LOG_LEVEL: 'error' }));
    stop = server.close;
    const location = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/auth/slack', headers: { Host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.headers.location ?? '');
      });
      req.on('error', reject);
      req.end();
    });
    const redirect = new URL(location).searchParams.get('redirect_uri');
    expect(redirect).toBe(`${server.url}/auth/slack/callback`);
  });
});
