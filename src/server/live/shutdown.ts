/**
 * A server that stops (SIGTERM, a deploy) closes its connections only after telling its live streams when to
 * come back (issue 15 §2, LiveHub.drain): each client gets a random `retry:` of one to eleven seconds, so the
 * reconnects of a restart spread over ten seconds instead of landing on the next server in one.
 */
import type { Server } from 'node:http';
import type { LiveHub } from './hub';

/** How long the streams get to write their `retry:` before the connections close. */
const DRAIN_FLUSH_MS = 200;

export async function closeServer(server: Server, hub: LiveHub): Promise<void> {
  if (hub.drain() > 0) await new Promise((resolve) => setTimeout(resolve, DRAIN_FLUSH_MS));
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
