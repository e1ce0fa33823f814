/**
 * The live stream follows the WHATWG rules (issue 15 §2), so that any standard client resumes exactly: every
 * event carries its sequence as `id:`, the `connection` frame carries where the stream starts, and a
 * reconnect's `Last-Event-ID` is honoured like `lastSequence` (and wins over it: a standard client repeats its
 * first address unchanged). Driven by `eventsource`, the maintained WHATWG EventSource for Node, over real HTTP.
 */
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../src/model/types';
import { api, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let token: string;
let channel: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ token } = await signIn(server.url));
  const list = (await api(server.url, token)<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data')).body.data.conversations;
  channel = list.find((c) => c.type === 'channel')!.id;
});
afterAll(() => server.close());

const post = (text: string) => api(server.url, token)('/api/messages/send', { method: 'POST', body: { channel, text, client_msg_id: crypto.randomUUID() } });
const current = async () => (await api(server.url, token)<{ currentSequence: number }>('/api/sse/stats')).body.currentSequence;

/**
 * A standard EventSource with the session as a Bearer header; `cut()` ends its connection as a dropped network
 * does (the client sees the stream end, not its own abort, and reconnects as the standard says).
 */
function open(path: string) {
  const received: Array<{ id: string; type: string; sequence?: number; isReplay?: boolean }> = [];
  const lastEventIds: Array<string | null> = [];
  let cut = () => {};
  const source = new EventSource(`${server.url}${path}`, {
    fetch: async (url, init) => {
      lastEventIds.push(new Headers(init.headers).get('Last-Event-ID'));
      const upstream = new AbortController();
      init.signal?.addEventListener('abort', () => upstream.abort());
      const answer = await fetch(url, { ...init, signal: upstream.signal, headers: { ...init.headers, Authorization: `Bearer ${token}` } });
      if (!answer.body) return answer;
      const reader = answer.body.getReader();
      const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
      const writer = writable.getWriter();
      cut = () => {
        upstream.abort();
        void writer.close().catch(() => undefined);
      };
      void (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          await writer.write(value);
        }
        await writer.close();
      })().catch(() => undefined);
      return new Response(readable, { status: answer.status, headers: answer.headers });
    },
  });
  source.onmessage = (event) => {
    const data = JSON.parse(event.data as string) as { type: string; sequence?: number; isReplay?: boolean };
    received.push({ id: event.lastEventId, type: data.type, ...(data.sequence !== undefined ? { sequence: data.sequence } : {}), isReplay: data.isReplay });
  };
  return { source, received, lastEventIds, cut: () => cut() };
}

async function until(check: () => boolean, label: string, ms = 15_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the live stream with a standard EventSource', () => {
  it('resumes exactly after a dropped connection: the events sent meanwhile once each, in order, none twice', async () => {
    const start = await current();
    const client = open('/api/sse/stream');
    await until(() => client.received.some((e) => e.type === 'connection'), 'the connection frame');
    // The connection frame's id is where the stream starts.
    expect(client.received[0]!.id).toBe(String(start));
    await post('before the drop');
    await until(() => client.received.some((e) => e.sequence !== undefined), 'a live event');

    client.cut();
    await post('while away 1');
    await post('while away 2');
    const after = await current();
    await until(() => client.received.some((e) => e.sequence === after), 'the missed events, replayed', 20_000);
    client.source.close();

    // The reconnect carried the last id it had seen.
    const seen = client.received.filter((e) => e.sequence !== undefined && e.sequence <= start + 10);
    expect(client.lastEventIds[0]).toBeNull();
    expect(client.lastEventIds[1]).toBe(String(seen.filter((e) => !e.isReplay).at(-1)!.sequence));
    const sequences = client.received.flatMap((e) => (e.sequence === undefined ? [] : [e.sequence]));
    expect(sequences).toEqual(Array.from({ length: after - start }, (_, i) => start + 1 + i));
    for (const event of client.received) if (event.sequence !== undefined) expect(event.id).toBe(String(event.sequence));
  });

  it('a reconnect of a stream first opened with ?lastSequence=0 resumes from its Last-Event-ID, not from 0 again', async () => {
    const client = open('/api/sse/stream?lastSequence=0');
    await until(() => client.received.some((e) => e.type === 'replay_complete'), 'the first replay');
    const firstReplay = client.received.filter((e) => e.sequence !== undefined).length;
    expect(firstReplay).toBeGreaterThan(0);
    client.cut();
    await post('after a replay from 0');
    const after = await current();
    await until(() => client.received.some((e) => e.sequence === after), 'the one missed event');
    client.source.close();
    const sequences = client.received.flatMap((e) => (e.sequence === undefined ? [] : [e.sequence]));
    expect(new Set(sequences).size).toBe(sequences.length);
    expect(sequences.length).toBe(firstReplay + 1);
  });

  it('refuses a Last-Event-ID that is not a sequence, as it refuses such a lastSequence', async () => {
    for (const bad of ['-1', '1e3', 'abc', '1; DROP TABLE events', '9'.repeat(16)]) {
      const answer = await fetch(`${server.url}/api/sse/stream`, { headers: { Authorization: `Bearer ${token}`, 'Last-Event-ID': bad } });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: string }).error).toMatch(/Last-Event-ID/);
    }
  });
});
