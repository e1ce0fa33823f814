/**
 * Several servers, one truth (issue 15 §2): each server's streams hear of the events the other servers committed.
 * PostgreSQL's notifications (store/eventNotifications.ts: member and last sequence, sent on commit) reach the
 * follower, which reads the member's new events from the log once per server, however many of their streams are
 * open here, and delivers them to those streams (LiveHub.deliver). A notification this server's own commit caused,
 * or one for a member without a stream here, costs nothing. A missed notification never loses an event: the next
 * one reads from where the member's events reached this hub; when the notifications' connection comes back, every
 * stream reads the log from where it is (LiveHub.pokeAll), and so does every stream of a member whose read failed.
 */
import type { ServerLogger } from '../log';
import type { EventNotice } from '../store/eventLog';
import { listenForEvents, type EventNotifications } from '../store/eventNotifications';
import type { StoredEvent } from '../store/types';
import type { LiveHub } from './hub';

/** Events per read of the log. */
const PAGE = 1_000;

export type LogReader = (workspaceId: string, userId: string, after: number, limit: number) => Promise<StoredEvent[]>;

export class LogFollower {
  /** Per member, the read in progress and the highest sequence a notification promised meanwhile. */
  private readonly reading = new Map<string, { to: number }>();

  constructor(
    private readonly hub: LiveHub,
    private readonly read: LogReader,
  ) {}

  notice({ workspaceId, userId, sequence }: EventNotice): void {
    const reached = this.hub.reachedSequence(workspaceId, userId);
    if (reached === undefined) {
      // A stream still starting (it read where the log was, and has not said so yet): it reads for itself.
      if (this.hub.listening(workspaceId, userId)) this.hub.poke(workspaceId, userId, sequence);
      return;
    }
    // This server's own commit (published here already).
    if (sequence <= reached) return;
    const key = `${workspaceId}\u0000${userId}`;
    const running = this.reading.get(key);
    if (running) {
      running.to = Math.max(running.to, sequence);
      return;
    }
    const wanted = { to: sequence };
    this.reading.set(key, wanted);
    void this.follow(workspaceId, userId, wanted).finally(() => this.reading.delete(key));
  }

  private async follow(workspaceId: string, userId: string, wanted: { to: number }): Promise<void> {
    try {
      for (;;) {
        const after = this.hub.reachedSequence(workspaceId, userId);
        if (after === undefined || after >= wanted.to) return;
        const page = await this.read(workspaceId, userId, after, PAGE);
        if (page.length === 0) return;
        this.hub.deliver(
          workspaceId,
          page.map((event) => ({ ...event, userId })),
        );
      }
    } catch {
      // The streams read for themselves.
      this.hub.poke(workspaceId, userId, wanted.to);
    }
  }
}

export function bridgeNotifications(url: string, hub: LiveHub, read: LogReader, logger: ServerLogger): Promise<EventNotifications> {
  const follower = new LogFollower(hub, read);
  return listenForEvents(url, {
    onNotice: (notice) => follower.notice(notice),
    onReconnect: () => hub.pokeAll(),
    onError: (error) => logger.log('warn', 'the event notifications connection failed; reconnecting', { error: error.message }),
  });
}
