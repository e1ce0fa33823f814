/**
 * The page side of the worker boundary (DESIGN §3). The worker is started and wrapped once,
 * at module level, so its proxy is never garbage-collected while calls are pending.
 * `remoteStream` turns a worker stream back into an Observable whose teardown unsubscribes
 * on the worker and releases both proxies' ports.
 */
import * as Comlink from 'comlink';
import { Observable } from 'rxjs';
import type { EngineApi, EngineBootstrap, EngineConfig, RemoteObserver, Unsubscribe } from '../worker/api';
import { STORAGE_KEYS } from '../model/constants';

export type RemoteEngine = Comlink.Remote<EngineApi>;

let current: Promise<RemoteEngine> | null = null;

function debugFlag(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEYS.debug) === 'true';
  } catch {
    return false;
  }
}

/** SPEC §4.3: the inbox's sort mode (AI unless the member chose time). */
function inboxInAiOrder(): boolean {
  try {
    return localStorage.getItem(`${STORAGE_KEYS.sortModePrefix}inbox`) !== 'time';
  } catch {
    return true;
  }
}

function startWorker(): Promise<RemoteEngine> {
  const worker = new Worker(new URL('../worker/main.ts', import.meta.url), { type: 'module', name: 'sift-engine' });
  const bootstrap = Comlink.wrap<EngineBootstrap>(worker);
  const config: EngineConfig = { baseUrl: location.origin, debug: debugFlag(), url: location.href, userAgent: navigator.userAgent, aiSort: inboxInAiOrder() };
  return bootstrap.start(config) as unknown as Promise<RemoteEngine>;
}

/** The engine; started on first use. */
export function engine(): Promise<RemoteEngine> {
  current ??= startWorker();
  return current;
}

/** Tests hand in an engine joined by a MessageChannel instead of a Worker. */
export function setEngineForTests(remote: Promise<RemoteEngine>): void {
  current = remote;
}

/** Runs a command on the engine. */
export async function command<R>(run: (api: RemoteEngine) => Promise<R> | R): Promise<R> {
  return run(await engine());
}

/** A worker stream as an Observable; unsubscribing releases the worker subscription and its ports. */
export function remoteStream<T>(
  open: (api: RemoteEngine, observer: RemoteObserver<T>) => Promise<Comlink.Remote<Unsubscribe>> | Comlink.Remote<Unsubscribe>,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    let closed = false;
    let handle: Comlink.Remote<Unsubscribe> | null = null;
    const stop = (h: Comlink.Remote<Unsubscribe>) => {
      void Promise.resolve(h())
        .catch(() => undefined)
        .finally(() => h[Comlink.releaseProxy]());
    };
    // One plain object marked as a proxy: RxJS rebinds observer functions and would lose the marker.
    const observer = Comlink.proxy<RemoteObserver<T>>({
      next: (value) => subscriber.next(value),
      error: (e) => subscriber.error(Object.assign(new Error(e.message), { name: e.name })),
      complete: () => subscriber.complete(),
    });
    void engine()
      .then((api) => open(api, observer))
      .then(
        (h) => {
          if (closed) stop(h);
          else handle = h;
        },
        (error: unknown) => subscriber.error(error),
      );
    return () => {
      closed = true;
      if (handle) stop(handle);
    };
  });
}
