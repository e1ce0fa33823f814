/**
 * Several servers, one truth (issue 15 §2): each server's hub hears of the events the other servers committed.
 * PostgreSQL's notifications (store/eventNotifications.ts: member and last sequence, sent on commit) become
 * pokes, and the member's streams on this server read the log from where each of them is (routes/live.ts), so a
 * missed notification never loses an event; when the notifications' connection comes back, every stream reads.
 */
import type { ServerLogger } from '../log';
import { listenForEvents, type EventNotifications } from '../store/eventNotifications';
import type { LiveHub } from './hub';

export function bridgeNotifications(url: string, hub: LiveHub, logger: ServerLogger): Promise<EventNotifications> {
  return listenForEvents(url, {
    onNotice: (notice) => hub.poke(notice.workspaceId, notice.userId, notice.sequence),
    onReconnect: () => hub.pokeAll(),
    onError: (error) => logger.log('warn', 'the event notifications connection failed; reconnecting', { error: error.message }),
  });
}
