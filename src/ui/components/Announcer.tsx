/**
 * The page's one polite announcer (issue 13 §3): a visually hidden live region that screen
 * readers speak from, and `useAnnounce()` to say something through it. One region, so
 * announcements never talk over each other, and throttled, so a burst is never read out:
 * the first announcement is said at once; any that come within ANNOUNCE_GAP_MS of the last
 * one said wait and are said together when the gap ends. Waiting announcements of one `kind`
 * are said as one (`many` words them: '3 new messages, the latest from Dana Reyes in
 * #payments'), and at most ANNOUNCE_MAX_PARTS parts (the newest) are said at a time.
 * What was said is cleared after ANNOUNCE_CLEAR_MS, so the region holds no stale text; the
 * same words said again are spoken again (each announcement is a new node).
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { stripBidi } from '../../model/linkSafety';
import type { LiveStatus } from '../../model/types';

export const ANNOUNCE_GAP_MS = 1500;
export const ANNOUNCE_MAX_PARTS = 3;
export const ANNOUNCE_CLEAR_MS = 7000;

export interface AnnounceOptions {
  /** Announcements of one kind waiting together are said as one. */
  kind?: string;
  /** The words for several waiting announcements of this kind (given their texts, oldest first); else they are joined. */
  many?: (texts: string[]) => string;
}

export type Announce = (text: string, options?: AnnounceOptions) => void;

interface Pending {
  text: string;
  options?: AnnounceOptions;
}

/** What one flush says for the waiting announcements, oldest first. */
export function announcementText(pending: readonly Pending[]): string {
  const groups: Pending[][] = [];
  const byKind = new Map<string, Pending[]>();
  for (const p of pending) {
    const kind = p.options?.kind;
    const group = kind === undefined ? undefined : byKind.get(kind);
    if (group) group.push(p);
    else {
      const fresh = [p];
      groups.push(fresh);
      if (kind !== undefined) byKind.set(kind, fresh);
    }
  }
  const parts = groups.map((group) => {
    const texts = group.map((p) => p.text);
    const many = group[0]!.options?.many;
    return texts.length > 1 && many ? many(texts) : texts.join('. ');
  });
  return parts.slice(-ANNOUNCE_MAX_PARTS).join('. ');
}

const NO_ANNOUNCER: Announce = () => {};
const AnnounceContext = createContext<Announce>(NO_ANNOUNCER);

/** Says something politely through the page's announcer (a no-op outside an AnnouncerProvider). */
export function useAnnounce(): Announce {
  return useContext(AnnounceContext);
}

/** Gives its children the page's announcer; inside another AnnouncerProvider it adds none (one region per page). */
export function AnnouncerProvider({ children }: { children: ReactNode }) {
  const outer = useContext(AnnounceContext);
  const [said, setSaid] = useState<{ id: number; text: string } | null>(null);
  const pending = useRef<Pending[]>([]);
  const lastSaid = useRef(Number.NEGATIVE_INFINITY);
  const flushTimer = useRef<number | undefined>(undefined);
  const clearTimer = useRef<number | undefined>(undefined);
  const next = useRef(1);

  const flush = useCallback(() => {
    flushTimer.current = undefined;
    const waiting = pending.current;
    pending.current = [];
    if (!waiting.length) return;
    lastSaid.current = Date.now();
    setSaid({ id: next.current++, text: announcementText(waiting) });
    window.clearTimeout(clearTimer.current);
    clearTimer.current = window.setTimeout(() => setSaid(null), ANNOUNCE_CLEAR_MS);
  }, []);

  const announce = useCallback<Announce>(
    (raw, options) => {
      // Names and message text reach here: no bidi or control characters (issue 12 §4).
      const text = stripBidi(raw).replace(/\s+/g, ' ').trim();
      if (!text) return;
      pending.current.push({ text, options });
      if (flushTimer.current !== undefined) return;
      const wait = lastSaid.current + ANNOUNCE_GAP_MS - Date.now();
      if (wait <= 0) flush();
      else flushTimer.current = window.setTimeout(flush, wait);
    },
    [flush],
  );

  useEffect(
    () => () => {
      window.clearTimeout(flushTimer.current);
      window.clearTimeout(clearTimer.current);
    },
    [],
  );

  if (outer !== NO_ANNOUNCER) return children;
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {said && <span key={said.id}>{said.text}</span>}
      </div>
    </AnnounceContext.Provider>
  );
}

export const CONNECTION_LOST = 'Connection lost. Reconnecting…';
export const CONNECTION_FAILED = 'Connection lost. Live updates have stopped.';
export const CONNECTION_RESTORED = 'Connection restored';

/**
 * Announces the live connection dropping and coming back (issue 13 §3), for the Shell to call
 * with the live state's status. Only a working connection that drops (to error, connecting or
 * failed) is said, and then its return; connecting at start-up and signing out are not. A drop
 * and a return within one gap are said as the latest only.
 */
export function useAnnounceConnection(status: LiveStatus): void {
  const announce = useAnnounce();
  const previous = useRef<LiveStatus | undefined>(undefined);
  const dropped = useRef(false);
  useEffect(() => {
    const before = previous.current;
    previous.current = status;
    if (before === status) return;
    const options: AnnounceOptions = { kind: 'connection', many: (texts) => texts[texts.length - 1]! };
    if (status === 'connected') {
      if (dropped.current) announce(CONNECTION_RESTORED, options);
      dropped.current = false;
    } else if (status === 'failed' && (before === 'connected' || dropped.current)) {
      dropped.current = true;
      announce(CONNECTION_FAILED, options);
    } else if (before === 'connected' && (status === 'error' || status === 'connecting')) {
      dropped.current = true;
      announce(CONNECTION_LOST, options);
    }
  }, [status, announce]);
}
