/**
 * One live-stream connection as an Observable of SseSignal: {type:'open'} once the
 * response starts, then each event's data. It errors when the connection fails and
 * completes when the server ends it; unsubscribing aborts the request. Parsing is
 * eventsource-parser's (a maintained SSE parser) over fetch, so the stream works the same
 * in a worker and in Node tests.
 */
import { Observable } from 'rxjs';
import { createParser } from 'eventsource-parser';
import type { SseSignal } from '../streams/liveConnection';
import { HttpFailure, errorMessageOf } from './http';

export function openSse(
  url: string,
  fetchFn: typeof fetch = fetch,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
): Observable<SseSignal> {
  return new Observable<SseSignal>((subscriber) => {
    const controller = new AbortController();
    (async () => {
      const response = await fetchFn(url, {
        method: init.method ?? 'GET',
        headers: { Accept: 'text/event-stream', ...init.headers },
        body: init.body,
        credentials: 'same-origin',
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const body = await response.json().catch(() => undefined);
        throw new HttpFailure(false, response.status, errorMessageOf(body));
      }
      subscriber.next({ type: 'open' });
      const parser = createParser({
        onEvent: (event) => subscriber.next(event.id ? { type: 'message', data: event.data, id: event.id } : { type: 'message', data: event.data }),
        // The server's wait before coming back (a stopping server spreads its clients' returns).
        onRetry: (ms) => subscriber.next({ type: 'retry', ms }),
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
      subscriber.complete();
    })().catch((error: unknown) => {
      if (!controller.signal.aborted) subscriber.error(error);
    });
    return () => controller.abort();
  });
}
