/**
 * A server that stops tells its live streams when to come back (issue 15 §2): each stream ends with a `retry:`
 * drawn from one to eleven seconds, so that the reconnects of a restart spread out: of 300 streams, never more
 * than 20 % are asked back within the same second. Over real HTTP, the server stopped the way main.ts stops it.
 */
import { describe, expect, it } from 'vitest';
import { LIVE_RESTART_RETRY_MS } from '../../src/model/constants';
import { signIn, startTestServer } from './helpers';

const STREAMS = 300;

/** Opens a live stream and answers the `retry:` it ends with (null: it ended without one). */
async function retryOf(url: string, token: string, opened: () => void): Promise<number | null> {
  const answer = await fetch(`${url}/api/sse/stream`, { headers: { Authorization: `Bearer ${token}` } });
  const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let told = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
      if (!told && text.includes('"type":"connection"')) {
        told = true;
        opened();
      }
    }
  } catch {
    /* the connection closed under the read */
  }
  const match = /^retry: (\d+)$/m.exec(text);
  return match ? Number(match[1]) : null;
}

describe('a server that stops', () => {
  it(`asks its ${STREAMS} open streams back over ten seconds, never 20 % of them in one`, async () => {
    const server = await startTestServer();
    const { token } = await signIn(server.url);
    let open = 0;
    const retries = Array.from({ length: STREAMS }, () => retryOf(server.url, token, () => (open += 1)));
    for (let i = 0; i < 500 && open < STREAMS; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(open).toBe(STREAMS);
    await server.close();
    const waits = await Promise.all(retries);
    expect(waits.every((ms) => ms !== null && ms >= LIVE_RESTART_RETRY_MS.min && ms < LIVE_RESTART_RETRY_MS.min + LIVE_RESTART_RETRY_MS.spread)).toBe(true);
    const perSecond = new Map<number, number>();
    for (const ms of waits) perSecond.set(Math.floor(ms! / 1000), (perSecond.get(Math.floor(ms! / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(STREAMS * 0.2);
    expect(perSecond.size).toBeGreaterThanOrEqual(10);
  });
});
