/**
 * Session lifetimes (issue 12 §1): a session ends 30 days after sign-in, or after 7 days unused
 * (both configurable: SIFT_SESSION_MAX_DAYS, SIFT_SESSION_IDLE_DAYS), checked on every request.
 * An ended session is deleted and its open streams are closed at once (the hub); the expired ones
 * of everybody are pruned at every sign-in.
 */
import type { LiveHub } from './live/hub';
import type { Session, Store } from './store/types';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface SessionLimits {
  /** Absolute lifetime, from sign-in (ms). */
  maxAgeMs: number;
  /** How long a session may go unused (ms). */
  idleMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { maxAgeMs: 30 * DAY_MS, idleMs: 7 * DAY_MS };

/** The last use is recorded at most this often (a write per request would cost every request). */
const TOUCH_EVERY_MS = 60 * 1000;

export function sessionLimitsFromDays(maxDays: number | undefined, idleDays: number | undefined): SessionLimits {
  return {
    maxAgeMs: (maxDays ?? DEFAULT_SESSION_LIMITS.maxAgeMs / DAY_MS) * DAY_MS,
    idleMs: (idleDays ?? DEFAULT_SESSION_LIMITS.idleMs / DAY_MS) * DAY_MS,
  };
}

/** When a session ends if it is not used again (epoch ms). */
export function sessionEndsAt(session: Session, limits: SessionLimits): number {
  return Math.min(session.createdAt + limits.maxAgeMs, (session.lastSeenAt ?? session.createdAt) + limits.idleMs);
}

interface SessionDeps {
  store: Store;
  hub: LiveHub;
  now: () => number;
  limits: SessionLimits;
}

/** The session of a token hash if it is still alive (and its use recorded); an expired one is ended. */
export async function liveSession(deps: SessionDeps, tokenHash: string): Promise<Session | null> {
  const session = await deps.store.getSession(tokenHash);
  if (!session) return null;
  const now = deps.now();
  if (now >= sessionEndsAt(session, deps.limits)) {
    await deps.store.deleteSession(tokenHash);
    deps.hub.endSessions([tokenHash]);
    return null;
  }
  if (now - (session.lastSeenAt ?? session.createdAt) >= TOUCH_EVERY_MS) {
    await deps.store.touchSession(tokenHash, now);
    session.lastSeenAt = now;
  }
  return session;
}

/** Ends everybody's expired sessions (and closes their streams). */
export async function pruneExpiredSessions(deps: SessionDeps): Promise<number> {
  const now = deps.now();
  const ended = await deps.store.pruneSessions(now - deps.limits.maxAgeMs, now - deps.limits.idleMs);
  deps.hub.endSessions(ended);
  return ended.length;
}
