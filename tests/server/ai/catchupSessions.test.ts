/**
 * Catch-up sessions are kept in the database: a conversation with the assistant outlives a
 * server restart, ends after an hour idle, and a member keeps at most five.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CATCHUP_IDLE_MS } from '../../../src/server/ai/catchupSessions';
import { api, signIn, startTestServer } from '../helpers';

const dir = mkdtempSync(join(tmpdir(), 'sift-catchup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('catch-up sessions', () => {
  it('outlive a restart, with their history and what was cleared', async () => {
    const file = join(dir, 'restart.db');
    const first = await startTestServer({ file });
    const { token } = await signIn(first.url);
    let call = api(first.url, token);
    const start = await call<{ sessionId: string }>('/api/features/voice-catchup/start', { method: 'POST' });
    const id = start.body.sessionId;
    await call('/api/features/voice-catchup/chat', { body: { sessionId: id, message: 'clear all unread FYI messages' } });
    await first.close();

    const second = await startTestServer({ file });
    try {
      call = api(second.url, token);
      // The proposal waits across the restart: yes carries it out.
      const yes = await call<{ message: string }>('/api/features/voice-catchup/chat', { body: { sessionId: id, message: 'yes' } });
      expect(yes.status).toBe(200);
      const session = await call<{ session: { history: Array<{ role: string }>; stats: { fyi: number; cleared: number } } }>(
        `/api/features/voice-catchup/session/${id}`,
      );
      expect(session.body.session.history.map((t) => t.role)).toEqual(['assistant', 'user', 'assistant', 'user', 'assistant']);
      expect(session.body.session.stats.fyi).toBe(0);
      expect(session.body.session.stats.cleared).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  it('end after an hour idle, and a member keeps at most five', async () => {
    let now = Date.UTC(2026, 10, 20, 15);
    const server = await startTestServer({ file: join(dir, 'idle.db'), now: () => now });
    try {
      const call = api(server.url, (await signIn(server.url)).token);
      const start = async () => (await call<{ sessionId: string }>('/api/features/voice-catchup/start', { method: 'POST' })).body.sessionId;
      const stats = (id: string) => call(`/api/features/voice-catchup/session/${id}/stats`);
      const idle = await start();
      now += CATCHUP_IDLE_MS + 1;
      expect((await stats(idle)).status).toBe(404);

      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        now += 1_000;
        ids.push(await start());
      }
      expect((await stats(ids[0]!)).status).toBe(404);
      for (const id of ids.slice(1)) expect((await stats(id)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
