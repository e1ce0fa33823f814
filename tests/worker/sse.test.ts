/**
 * The engine's stream reader (src/worker/sse.ts) over real HTTP: it reports the response opening, each
 * event with its id, and the server's `retry:` (issue 15 §2: a stopping server spreads its clients' returns),
 * then completes when the server ends the stream.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SseSignal } from '../../src/streams/liveConnection';
import { openSse } from '../../src/worker/sse';

const server = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  res.write('id: 7\ndata: {"type":"connection"}\n\n');
  res.write(': heartbeat\n\n');
  res.end('retry: 4321\n\n');
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('openSse', () => {
  it("reports the opening, each event with its id, and the server's retry:, then completes", async () => {
    const signals = await lastValueFrom(openSse(url).pipe(toArray()));
    expect(signals).toEqual<SseSignal[]>([{ type: 'open' }, { type: 'message', data: '{"type":"connection"}', id: '7' }, { type: 'retry', ms: 4321 }]);
  });
});
