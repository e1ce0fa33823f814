/**
 * SPEC §7.3: the live stream. Each member's events come from the event log: the first
 * frame is `connection` with the current sequence; with lastSequence, every later event is
 * replayed (isReplay true) before `replay_complete`; then live events follow as the hub
 * publishes them. A sequence is never sent twice on one stream. The stream authenticates by the
 * session cookie (or a Bearer header), or by a single-use ticket in `token` (POST /api/sse/ticket).
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { LIVE_HEARTBEAT_MS } from '../../model/constants';
import type { LiveEvent } from '../../model/types';
import { sessionDeps, type AppContext, type AppEnv } from '../app';
import { sessionEndsAt } from '../sessions';
import { HttpProblem } from '../http';
import { hashToken, newToken } from '../auth';
import type { StoredEvent } from '../store/types';

const REPLAY_PAGE = 5_000;
/** A stream ticket is good for one stream, opened within this time. */
export const STREAM_TICKET_TTL_MS = 60_000;

export function liveRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();

  app.get('/api/sse/stream', async (c) => {
    const session = c.get('session');
    const raw = c.req.query('lastSequence');
    if (raw !== undefined && !/^\d{1,15}$/.test(raw)) throw new HttpProblem(400, 'lastSequence must be a non-negative integer');
    const lastSequence = raw === undefined ? undefined : Number(raw);
    const { workspaceId, userId } = session;
    const heartbeatMs = ctx.config.heartbeatMs ?? LIVE_HEARTBEAT_MS;

    c.header('Cache-Control', 'no-cache, no-transform');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      const queue: StoredEvent[] = [];
      let wake: (() => void) | null = null;
      const unsubscribe = ctx.hub.subscribe(workspaceId, userId, (event) => {
        queue.push(event);
        wake?.();
      });
      let closed = false;
      const end = () => {
        closed = true;
        wake?.();
      };
      stream.onAbort(end);
      // The stream lives no longer than its session: logout and revoke end it at once, expiry on time.
      const tokenHash = c.get('tokenHash');
      const stopListening = ctx.hub.onSessionEnd(tokenHash, end);
      const expiry = setTimeout(end, Math.max(0, Math.min(sessionEndsAt(session, sessionDeps(ctx).limits) - ctx.clock.now(), 2 ** 31 - 1)));

      const send = (event: LiveEvent) =>
        stream.writeSSE({ data: JSON.stringify(event), ...(event.sequence !== undefined ? { id: String(event.sequence) } : {}) });

      try {
        const current = await ctx.store.currentSequence(workspaceId, userId);
        const resync = lastSequence !== undefined && lastSequence > current;
        await send({ type: 'connection', data: { currentSequence: current, ...(resync ? { resync: true } : {}) }, timestamp: ctx.clock.now() });
        let sent = current;
        if (lastSequence !== undefined && !resync) {
          sent = lastSequence;
          for (;;) {
            const page = await ctx.store.eventsAfter(workspaceId, userId, sent, REPLAY_PAGE);
            for (const event of page) {
              await send({ ...event, isReplay: true });
              sent = event.sequence;
            }
            if (page.length < REPLAY_PAGE) break;
          }
          await send({ type: 'replay_complete', data: { lastSequence: sent }, timestamp: ctx.clock.now() });
        }
        while (!closed) {
          const event = queue.shift();
          if (event) {
            if (event.sequence > sent) {
              await send({ ...event, isReplay: false });
              sent = event.sequence;
            }
            continue;
          }
          const woken = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), heartbeatMs);
            wake = () => {
              clearTimeout(timer);
              resolve(true);
            };
          });
          wake = null;
          if (!woken && !closed) await stream.write(': heartbeat\n\n');
        }
      } finally {
        unsubscribe();
        stopListening();
        clearTimeout(expiry);
      }
    });
  });

  // A client that cannot send the cookie or a header with its stream request (an EventSource on
  // another origin, a command-line tool) trades its session for a ticket: `?token=<ticket>` opens
  // one stream within a minute, once. A session token in the address is never accepted.
  app.post('/api/sse/ticket', async (c) => {
    const ticket = newToken();
    await ctx.store.createStreamTicket(hashToken(ticket), c.get('tokenHash'), ctx.clock.now() + STREAM_TICKET_TTL_MS);
    return c.json({ success: true, ticket, expiresIn: STREAM_TICKET_TTL_MS / 1000 });
  });

  app.get('/api/sse/stats', async (c) => {
    const s = c.get('session');
    return c.json({ success: true, openStreams: ctx.hub.openStreams(), currentSequence: await ctx.store.currentSequence(s.workspaceId, s.userId) });
  });

  return app;
}
