/**
 * A page's engine for worker tests: a fresh worker side (a real MessageChannel) against the real
 * server, with the browser's fetch (the session cookie) counting what it asks for and able to go
 * offline (every request fails as a network error does).
 */
import * as Comlink from 'comlink';
import { Observable, filter, firstValueFrom } from 'rxjs';
import { startEngine, type EngineApi, type EngineBootstrap } from '../../src/worker/api';
import type { LoadState } from '../../src/worker/engine';
import { browserFetch } from './browserFetch';

export interface PageEngine {
  engine: EngineApi;
  /** Paths the engine asked the server for. */
  requests: string[];
  /** Whether every request fails as a network error does. */
  offline: boolean;
  close: () => Promise<void>;
}

export async function startPageEngine(serverUrl: string, session: () => string | null, options: { offline?: boolean } = {}): Promise<PageEngine> {
  const base = browserFetch(serverUrl, session);
  const page = { requests: [] as string[], offline: options.offline ?? false } as PageEngine;
  const fetchFn: typeof fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    page.requests.push(url.pathname);
    if (page.offline) return Promise.reject(new TypeError('Failed to fetch'));
    return base(input, init);
  };
  const channel = new MessageChannel();
  startEngine(channel.port1 as unknown as Comlink.Endpoint, fetchFn);
  const bootstrap = Comlink.wrap<EngineBootstrap>(channel.port2 as unknown as Comlink.Endpoint);
  page.engine = (await bootstrap.start({ baseUrl: serverUrl, debug: false })) as unknown as EngineApi;
  page.close = async () => {
    await page.engine.dispose();
    channel.port1.close();
    channel.port2.close();
  };
  return page;
}

/** A worker stream as an Observable on the test's side. */
export function stream<T>(subscribe: (observer: Comlink.ProxyMarked & { next(v: T): void; error(): void; complete(): void }) => unknown): Observable<T> {
  return new Observable<T>((subscriber) => {
    const handle = subscribe(
      Comlink.proxy({ next: (v: T) => subscriber.next(v), error: () => subscriber.error(new Error('stream error')), complete: () => subscriber.complete() }),
    );
    return () => void Promise.resolve(handle).then((h) => (h as () => void)?.());
  });
}

/** The first load state that says the list is loaded. */
export const loaded = (engine: EngineApi) => firstValueFrom(stream<LoadState>((o) => engine.loadState(o as never)).pipe(filter((s) => s.status === 'loaded')));

/** Polls `check` every 25 ms until it holds (or throws after `ms`). */
export async function until(check: () => Promise<boolean> | boolean, label: string, ms = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
