/**
 * PostgreSQL's side of "several servers, one truth" (issue 15 §2): a dedicated connection LISTENs on the event
 * log's channel and hands each commit's notice (member, last sequence) to `onNotice`, which reads the log from
 * where that member's streams are; a notice carries no event, so one missed (a dropped connection) costs only a
 * delay: the connection is opened again, and `onReconnect` lets the caller read every listened member's log.
 */
import pg from 'pg';
import { NOTIFY_CHANNEL, noticeOf, type EventNotice } from './eventLog';

export interface EventNotifications {
  close(): Promise<void>;
}

export async function listenForEvents(
  url: string,
  handlers: { onNotice: (notice: EventNotice) => void; onReconnect?: () => void; onError?: (error: Error) => void },
  retryMs = 1_000,
): Promise<EventNotifications> {
  let client: pg.Client | null = null;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel !== NOTIFY_CHANNEL || !message.payload) return;
      const notice = noticeOf(message.payload);
      if (notice) handlers.onNotice(notice);
    });
    next.on('error', (error) => {
      // Only an established listener's loss is handled here; a failure while connecting is the connect's to retry.
      if (client !== next) return;
      handlers.onError?.(error);
      client = null;
      void next.end().catch(() => undefined);
      if (!closed) timer = setTimeout(() => void reconnect(), retryMs);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    // Closed while connecting: this connection must not outlive the listener.
    if (closed) return void (await next.end().catch(() => undefined));
    client = next;
  };
  const reconnect = async () => {
    try {
      await connect();
      handlers.onReconnect?.();
    } catch (error) {
      handlers.onError?.(error as Error);
      if (!closed) timer = setTimeout(() => void reconnect(), retryMs);
    }
  };

  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}
