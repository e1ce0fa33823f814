/**
 * The event log's retention (issue 14 §2). Each member's events are kept for
 * SIFT_EVENT_RETENTION_DAYS (7 by default), and at most their newest SIFT_EVENT_RETENTION_MAX
 * (50,000 by default, so a replay is always far smaller than a snapshot of a large workspace);
 * older ones are pruned at start and then every hour, as the Slack source prunes its event ids.
 * A stream resuming from a pruned sequence is told `resync: true, reason: 'expired'`
 * (routes/live.ts). Sends remembered by client_msg_id are kept as long (messaging.ts: sendsOnce).
 */
import type { ServerLogger } from '../log';
import type { EventLogPruned, Store } from '../store/types';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface EventRetention {
  /** How long a member's events stay replayable (ms). */
  maxAgeMs: number;
  /** How many of a member's newest events are kept at most. */
  maxPerMember: number;
}

export const DEFAULT_EVENT_RETENTION_DAYS = 7;
export const DEFAULT_EVENT_RETENTION_MAX = 50_000;

/** How often the log is pruned. */
export const EVENT_PRUNE_EVERY_MS = 60 * 60 * 1000;

export function eventRetentionFromDays(days = DEFAULT_EVENT_RETENTION_DAYS, maxPerMember = DEFAULT_EVENT_RETENTION_MAX): EventRetention {
  return { maxAgeMs: days * DAY_MS, maxPerMember };
}

interface RetentionDeps {
  store: Store;
  now: () => number;
  retention: EventRetention;
}

/** One pass: drops what the retention no longer keeps. */
export function pruneEventLog(deps: RetentionDeps): Promise<EventLogPruned> {
  return deps.store.pruneEventLog(deps.now() - deps.retention.maxAgeMs, deps.retention.maxPerMember);
}

/** Prunes now and then every EVENT_PRUNE_EVERY_MS; answers the function that stops it. */
export function startEventLogPruning(deps: RetentionDeps & { logger: ServerLogger }): () => void {
  const run = () =>
    void pruneEventLog(deps).then(
      (pruned) => {
        if (pruned.events > 0 || pruned.sends > 0) deps.logger.log('info', 'event log pruned', { ...pruned });
      },
      (error: unknown) => deps.logger.log('warn', 'could not prune the event log', { error: String(error) }),
    );
  run();
  const timer = setInterval(run, EVENT_PRUNE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
