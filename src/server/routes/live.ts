/**
 * SPEC §7.3: the live stream. Each member's events come from the event log: the first
 * frame is `connection` with the current sequence; with lastSequence, every later event is
 * replayed (isReplay true) before `replay_complete`; then live events follow as the hub
 * publishes them. A sequence is never sent twice on one stream. When the log cannot replay
 * from lastSequence, the connection frame says so and nothing is replayed (Zulip's 'queue
 * expired', issue 14 §2): `resync: true` with `reason: 'expired'` (its events were pruned:
 * live/retention.ts) or `reason: 'ahead'` (beyond the current sequence: the log was reset); the
 * client fetches a fresh snapshot. The stream follows the WHATWG rules so that any standard client
 * resumes exactly (issue 15 §2): each event's `id:` is its sequence, the connection frame's is where the
 * stream starts, and a reconnect's `Last-Event-ID` header is honoured like lastSequence (and wins over the
 * address's, which such a client repeats unchanged). The stream authenticates by the
 * session cookie (or a Bearer header), or by a single-use ticket in `token` (POST /api/sse/ticket).
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { LIVE_HEARTBEAT_MS } from '../../model/constants';
import type { LiveEvent } from '../../model/types';
import { sessionDeps, type AppContext, type AppEnv } from '../context';
import { sessionEndsAt } from '../sessions';
import { HttpProblem } from '../http';
import { hashToken, newToken } from '../auth';
import type { StoredEvent } from '../store/types';

const REPLAY_PAGE = 5_000;

/** Why a stream resuming from `lastSequence` cannot replay (undefined: it can, or it starts fresh). */
function resyncReason(lastSequence: number | undefined, current: number, replayableFrom: number): 'expired' | 'ahead' | undefined {
  if (lastSequence === undefined) return undefined;
  if (lastSequence > current) return 'ahead';
  if (lastSequence < replayableFrom) return 'expired';
  return undefined;
}

/** A stream ticket is good for one stream, opened within this time. */
export const STREAM_TICKET_TTL_MS = 60_000;

/**
 * An event's JSON as its streams send it, `{...event, isReplay}`: written once per event however many of the
 * member's streams send it (an event delivered to a member's streams is one object), isReplay spliced in.
 */
const eventJson = new WeakMap<StoredEvent, string>();
export function storedJson(event: StoredEvent, isReplay: boolean): string {
  let json = eventJson.get(event);
  if (json === undefined) eventJson.set(event, (json = JSON.stringify(event)));
  return `${json.slice(0, -1)},"isReplay":${isReplay}}`;
}

export function liveRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();

  app.get('/api/sse/stream', async (c) => {
    const session = c.get('session');
    // A standard client's own reconnect (WHATWG: the last `id:` it saw, in Last-Event-ID) wins over the address's
    // lastSequence, which such a client repeats unchanged from its first request.
    const header = c.req.header('Last-Event-ID')?.trim() || undefined;
    const raw = header ?? c.req.query('lastSequence');
    if (raw !== undefined && !/^\d{1,15}$/.test(raw))
      throw new HttpProblem(400, `${header === undefined ? 'lastSequence' : 'Last-Event-ID'} must be a non-negative integer`);
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
      // Another server committed the member's events (issue 15 §2): read them from the log, from where this stream is.
      let pokedTo = 0;
      const stopPokes = ctx.hub.onPoke(workspaceId, userId, (sequence) => {
        pokedTo = Math.max(pokedTo, sequence);
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
      // The server stops: the stream ends with the wait its client should leave before coming back.
      let retryMs: number | undefined;
      const stopDraining = ctx.hub.onDrain((ms) => {
        retryMs = ms;
        end();
      });
      const expiry = setTimeout(end, Math.max(0, Math.min(sessionEndsAt(session, sessionDeps(ctx).limits) - ctx.clock.now(), 2 ** 31 - 1)));

      const send = (event: LiveEvent, id = event.sequence) => stream.writeSSE({ data: JSON.stringify(event), ...(id !== undefined ? { id: String(id) } : {}) });
      const sendStored = (event: StoredEvent, isReplay: boolean) => stream.writeSSE({ data: storedJson(event, isReplay), id: String(event.sequence) });

      try {
        const { current, replayableFrom } = await ctx.store.eventLogBounds(workspaceId, userId);
        const reason = resyncReason(lastSequence, current, replayableFrom);
        // Its id is where the stream starts: a standard client that reconnects before any event resumes from it.
        await send(
          { type: 'connection', data: { currentSequence: current, ...(reason ? { resync: true, reason } : {}) }, timestamp: ctx.clock.now() },
          lastSequence !== undefined && !reason ? lastSequence : current,
        );
        let sent = current;
        if (lastSequence !== undefined && !reason) {
          sent = lastSequence;
          for (;;) {
            const page = await ctx.store.eventsAfter(workspaceId, userId, sent, REPLAY_PAGE);
            // Pruned while this replay read the log: end the stream; the reconnect is told 'expired'.
            if (
              (page.length === 0 ? sent < current : page[0]!.sequence !== sent + 1) &&
              sent < (await ctx.store.eventLogBounds(workspaceId, userId)).replayableFrom
            )
              return;
            for (const event of page) {
              await sendStored(event, true);
              sent = event.sequence;
            }
            if (page.length < REPLAY_PAGE) break;
          }
          await send({ type: 'replay_complete', data: { lastSequence: sent }, timestamp: ctx.clock.now() });
        }
        // From here, another server's commits for the member are news to this stream (live/bridge.ts).
        ctx.hub.reached(workspaceId, userId, sent);
        while (!closed) {
          const event = queue.shift();
          if (event) {
            if (event.sequence === sent + 1) {
              await sendStored(event, false);
              sent = event.sequence;
            } else if (event.sequence > sent) {
              // Ahead of the stream: an event before it (committed earlier, by another server or a publish that came
              // later) has not reached this stream yet. The log has both, in order: read it from where the stream is.
              pokedTo = Math.max(pokedTo, event.sequence);
            }
            continue;
          }
          if (pokedTo > sent) {
            const page = await ctx.store.eventsAfter(workspaceId, userId, sent, REPLAY_PAGE);
            // Pruned under the stream (it fell behind the retention): end it; the reconnect is told 'expired'.
            if (page.length > 0 && page[0]!.sequence !== sent + 1 && sent < (await ctx.store.eventLogBounds(workspaceId, userId)).replayableFrom) return;
            for (const logged of page) {
              await sendStored(logged, false);
              sent = logged.sequence;
            }
            // Read up to the log's end: what the poke promised beyond it is not there (a pokeAll's), so stop asking.
            if (page.length < REPLAY_PAGE) pokedTo = Math.min(pokedTo, sent);
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
        if (retryMs !== undefined) await stream.write(`retry: ${retryMs}\n\n`);
      } finally {
        unsubscribe();
        stopPokes();
        stopListening();
        stopDraining();
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
