/** The HTTP client's error object (SPEC §8) over a real local server. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, HttpFailure } from '../../src/worker/http';

let server: Server;
let base: string;
let lastAuth: string | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    lastAuth = req.headers.authorization;
    const route: Record<string, [number, string]> = {
      '/api/ok': [200, '{"fine":true}'],
      '/api/error': [400, '{"error":"Bad thing","message":"ignored"}'],
      '/api/message': [403, '{"message":"Not yours"}'],
      '/api/plain': [500, 'Internal'],
    };
    if (req.url === '/api/slow') return void setTimeout(() => res.end('{}'), 500);
    const [status, body] = route[req.url ?? ''] ?? [404, '{}'];
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('http client', () => {
  const client = () => createHttpClient({ baseUrl: base });

  it("answers the body; the session is the browser's same-origin cookie, never a header the worker holds", async () => {
    const inits: RequestInit[] = [];
    const spy: typeof fetch = (input, init) => {
      inits.push(init ?? {});
      return fetch(input, init);
    };
    await expect(createHttpClient({ baseUrl: base, fetch: spy }).request('/api/ok')).resolves.toEqual({ fine: true });
    expect(lastAuth).toBeUndefined();
    expect(inits[0]!.credentials).toBe('same-origin');
  });

  it.each([
    ['/api/error', 400, 'Bad thing'],
    ['/api/message', 403, 'Not yours'],
    ['/api/plain', 500, 'An unexpected error occurred'],
  ])('turns %s into {isNetworkError: false, status, message}', async (path, status, message) => {
    const error = await client()
      .request(path)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpFailure);
    expect((error as HttpFailure).toJSON()).toEqual({ isNetworkError: false, status, message });
  });

  it('reports a timeout and an unreachable server as network errors', async () => {
    const slow = await createHttpClient({ baseUrl: base, timeoutMs: 50 })
      .request('/api/slow')
      .catch((e: unknown) => e);
    expect((slow as HttpFailure).toJSON()).toEqual({ isNetworkError: true, status: 0, message: 'The request timed out' });
    const down = await createHttpClient({ baseUrl: 'http://127.0.0.1:9' })
      .request('/api/ok')
      .catch((e: unknown) => e);
    expect((down as HttpFailure).isNetworkError).toBe(true);
  });
});
