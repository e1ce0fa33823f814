/**
 * The offline status (issue 14 §3): while Sift is offline, one line says so and when it last synced,
 * 'Offline — last synced 5m ago' (the list's relative time; the exact time in the tooltip). The engine
 * feeds it `online` and `lastSyncedAt`; `now` ticks from the caller, so the component stays pure.
 * The status region is always in the page, empty while online, so the line is announced when it appears.
 */
import { messageTime, relativeTime } from '../../model/time';
import '../styles-offline.css';

export interface OfflineStatusProps {
  online: boolean;
  /** When the local copy last matched the server (ms since the epoch); null: never. */
  lastSyncedAt: number | null;
  now: number;
  /** Actions taken offline that wait to be sent (the outbox). */
  waiting?: number;
}

/** 'just now', '5m ago', '2h ago', … from the list's relative time. */
export function syncedAgo(lastSyncedAt: number, now: number): string {
  const relative = relativeTime(Math.floor(lastSyncedAt / 1000), now);
  return relative === 'now' ? 'just now' : `${relative} ago`;
}

export function OfflineStatus({ online, lastSyncedAt, now, waiting = 0 }: OfflineStatusProps) {
  return (
    <div role="status" className="offline-status" data-offline={online ? undefined : 'true'}>
      {online ? null : (
        <>
          <span className="offline-status-dot" aria-hidden="true" />
          <span>
            Offline —{' '}
            {lastSyncedAt === null ? (
              'not synced yet'
            ) : (
              <>
                last synced{' '}
                <time dateTime={new Date(lastSyncedAt).toISOString()} title={messageTime(lastSyncedAt, now)}>
                  {syncedAgo(lastSyncedAt, now)}
                </time>
              </>
            )}
            {waiting > 0 && ` · ${waiting === 1 ? '1 change waits' : `${waiting} changes wait`} to be sent`}
          </span>
        </>
      )}
    </div>
  );
}
