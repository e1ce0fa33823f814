/**
 * Fans committed events out to each member's open streams. Events reach the hub only
 * after the store has committed them (see Store), so a listener never sees an event the
 * log could lose.
 */
import { LIVE_RESTART_RETRY_MS } from '../../model/constants';
import type { StoredEvent } from '../store/types';

export type EventListener = (event: StoredEvent) => void;

/** Sees every published batch (for services that react to facts, like the AI's live triage). */
export type PublishTap = (workspaceId: string, events: ReadonlyArray<StoredEvent & { userId: string }>) => void;

/** Adds `item` to the set under `key`; answers the function that removes it (and the set once empty). */
function addKeyed<T>(map: Map<string, Set<T>>, key: string, item: T): () => void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(item);
  return () => {
    set.delete(item);
    if (set.size === 0) map.delete(key);
  };
}

export class LiveHub {
  private readonly listeners = new Map<string, Set<EventListener>>();
  private readonly taps = new Set<PublishTap>();
  /** Open streams by the hash of the session token they were opened with. */
  private readonly sessionEnds = new Map<string, Set<() => void>>();

  /** Open streams, told to end with the wait (ms) their client should leave before coming back. */
  private readonly drains = new Set<(retryMs: number) => void>();

  /** Calls `drain(retryMs)` when the server stops; answers the function that stops listening. */
  onDrain(drain: (retryMs: number) => void): () => void {
    this.drains.add(drain);
    return () => this.drains.delete(drain);
  }

  /**
   * The server stops (issue 15 §2): every open stream ends, each asking its client to come back after a random
   * wait in LIVE_RESTART_RETRY_MS, so a restart's reconnects spread over seconds instead of landing in one.
   * Answers how many streams were told.
   */
  drain(random: () => number = Math.random): number {
    const drains = [...this.drains];
    for (const drain of drains) drain(LIVE_RESTART_RETRY_MS.min + Math.floor(random() * LIVE_RESTART_RETRY_MS.spread));
    return drains.length;
  }

  /** Calls `end` when the session ends (logout, revoke, expiry); answers the function that stops listening. */
  onSessionEnd(tokenHash: string, end: () => void): () => void {
    return addKeyed(this.sessionEnds, tokenHash, end);
  }

  /** Closes the open streams of these sessions. */
  endSessions(tokenHashes: Iterable<string>): void {
    for (const hash of tokenHashes) for (const end of [...(this.sessionEnds.get(hash) ?? [])]) end();
  }

  private static key(workspaceId: string, userId: string): string {
    return `${workspaceId}\u0000${userId}`;
  }

  subscribe(workspaceId: string, userId: string, listener: EventListener): () => void {
    const key = LiveHub.key(workspaceId, userId);
    const remove = addKeyed(this.listeners, key, listener);
    return () => {
      remove();
      if (!this.listeners.has(key)) this.reachedUpTo.delete(key);
    };
  }

  /**
   * Per member with streams here, the sequence up to which their events reached every one of those streams (each
   * has sent them or holds them queued): what another server's notification must exceed to be news here
   * (live/bridge.ts). A delivery raises it; a stream starting behind it lowers it to where that stream starts. A
   * delivery past a gap raises it too: a stream that receives an event beyond the next one reads the gap from the
   * log itself (routes/live.ts).
   */
  private readonly reachedUpTo = new Map<string, number>();

  /** A stream of the member starts here having sent their events up to `sequence` (its connection frame, or its replay). */
  reached(workspaceId: string, userId: string, sequence: number): void {
    const key = LiveHub.key(workspaceId, userId);
    if (!this.listeners.has(key)) return;
    const now = this.reachedUpTo.get(key);
    this.reachedUpTo.set(key, now === undefined ? sequence : Math.min(now, sequence));
  }

  /** Where the member's events reached this hub; undefined when they have no stream here. */
  reachedSequence(workspaceId: string, userId: string): number | undefined {
    return this.reachedUpTo.get(LiveHub.key(workspaceId, userId));
  }

  /** Streams told that the member's log holds events up to a sequence (committed by another server). */
  private readonly pokes = new Map<string, Set<(sequence: number) => void>>();

  /** Calls `poked(sequence)` when the member's log has new events this hub did not publish; answers the remover. */
  onPoke(workspaceId: string, userId: string, poked: (sequence: number) => void): () => void {
    return addKeyed(this.pokes, LiveHub.key(workspaceId, userId), poked);
  }

  /**
   * Another server committed the member's events up to `sequence` (issue 15 §2: PostgreSQL's notification): the
   * member's streams here read them from the log, from where each of them is. A poke carries no event, so a
   * missed one costs only a delay: the next, or `pokeAll` after a reconnect, brings everything.
   */
  poke(workspaceId: string, userId: string, sequence: number): void {
    for (const poked of [...(this.pokes.get(LiveHub.key(workspaceId, userId)) ?? [])]) poked(sequence);
  }

  /** Every stream reads its member's log from where it is (the notifications' connection was lost and is back). */
  pokeAll(): void {
    for (const set of this.pokes.values()) for (const poked of [...set]) poked(Number.MAX_SAFE_INTEGER);
  }

  /** Events this server committed: to the members' streams here, and to the taps (this server's own reactions). */
  publish(workspaceId: string, events: ReadonlyArray<StoredEvent & { userId: string }>): void {
    this.deliver(workspaceId, events);
    for (const tap of this.taps) tap(workspaceId, events);
  }

  /**
   * Events to the members' streams here only: those another server committed (read from the log by the follower,
   * live/bridge.ts). The taps do not see them: that server's own taps reacted to them already.
   */
  deliver(workspaceId: string, events: ReadonlyArray<StoredEvent & { userId: string }>): void {
    for (const { userId, ...event } of events) {
      const key = LiveHub.key(workspaceId, userId);
      const set = this.listeners.get(key);
      if (!set) continue;
      this.reachedUpTo.set(key, Math.max(this.reachedUpTo.get(key) ?? 0, event.sequence));
      for (const listener of [...set]) listener(event);
    }
  }

  /** Whether the member has an open stream. */
  listening(workspaceId: string, userId: string): boolean {
    return this.listeners.has(LiveHub.key(workspaceId, userId));
  }

  /** Calls `tap` after each publish; answers the function that removes it. */
  tap(tap: PublishTap): () => void {
    this.taps.add(tap);
    return () => this.taps.delete(tap);
  }

  openStreams(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }
}
