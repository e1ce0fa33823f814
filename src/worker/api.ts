/**
 * The one Comlink API of the engine (DESIGN §3), built generically from the engine's
 * `{commands, streams}`: commands pass through as they are (Comlink makes each answer a promise);
 * each stream becomes a function taking the stream's arguments and then a proxied observer, and
 * answering a proxied unsubscribe handle. Observables do not cross by themselves: `remote()`
 * subscribes on this side and forwards next/error/complete; errors cross as {name, message}.
 * A new command or stream is written once, in the engine; nothing here names it.
 */
import * as Comlink from 'comlink';
import { Observable } from 'rxjs';
import { createLogger, type ConsoleLike, type FatalEntry } from '../model/logger';
import { createEngine } from './engine';
import { catchupStreams } from './ai';
import { chooserCommands } from './choosers';

export type { ViewCounts } from './engine';

export interface RemoteObserver<T> {
  next(value: T): void;
  error(error: { name: string; message: string }): void;
  complete(): void;
}

export type Unsubscribe = () => void;

/** What a stream answers across the boundary: a proxied unsubscribe handle. */
export type RemoteSubscription = Unsubscribe & Comlink.ProxyMarked;

/** A stream as the page calls it: the stream's own arguments, then the observer. */
export type RemoteStreams<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => Observable<infer T> ? (...args: [...A, RemoteObserver<T>]) => RemoteSubscription : never;
};

export interface EngineConfig {
  baseUrl: string;
  debug: boolean;
  url?: string;
  userAgent?: string;
  /** The inbox is in AI order at start (SPEC §4.3). */
  aiSort?: boolean;
}

let openSubscriptions = 0;

/** Subscribes on the worker side and hands back a proxied unsubscribe handle. */
function remote<T>(source: Observable<T>, observer: RemoteObserver<T>): RemoteSubscription {
  openSubscriptions += 1;
  let open = true;
  const release = () => {
    if (!open) return;
    open = false;
    openSubscriptions -= 1;
    (observer as unknown as { [Comlink.releaseProxy]?: () => void })[Comlink.releaseProxy]?.();
  };
  const subscription = source.subscribe({
    next: (value) => void Promise.resolve(observer.next(value)).catch(release),
    error: (error: unknown) => {
      const e = error as { name?: string; message?: string };
      void Promise.resolve(observer.error({ name: e?.name ?? 'Error', message: e?.message ?? String(error) })).finally(release);
    },
    complete: () => void Promise.resolve(observer.complete()).finally(release),
  });
  return Comlink.proxy(() => {
    subscription.unsubscribe();
    release();
  });
}

/** Every stream of `streams` as a remote one: the observer is the last argument. */
function remoteStreams<S extends Record<string, (...args: never[]) => Observable<unknown>>>(streams: S): RemoteStreams<S> {
  const entries = Object.entries(streams).map(([name, open]) => [
    name,
    (...args: unknown[]) => {
      const observer = args.pop() as RemoteObserver<unknown>;
      return remote((open as (...a: unknown[]) => Observable<unknown>)(...args), observer);
    },
  ]);
  return Object.fromEntries(entries) as RemoteStreams<S>;
}

export function createApi(config: EngineConfig, fetchFn?: typeof fetch) {
  const fatalListeners = new Set<(entry: FatalEntry) => void>();
  const log = createLogger({
    debug: config.debug,
    console: console as ConsoleLike,
    now: () => Date.now(),
    url: () => config.url,
    userAgent: config.userAgent,
    fatalStore: {
      read: () => [],
      write: (entries) => {
        const entry = entries[entries.length - 1];
        if (entry) for (const listener of fatalListeners) listener(entry);
      },
    },
  });
  const engine = createEngine({ baseUrl: config.baseUrl, log, fetch: fetchFn, classifyOnLoad: config.aiSort ?? false });
  /** Fatal log entries as they are written (the page keeps them for the error screen). */
  const fatalLog = () =>
    new Observable<FatalEntry>((subscriber) => {
      const listener = (entry: FatalEntry) => subscriber.next(entry);
      fatalListeners.add(listener);
      return () => fatalListeners.delete(listener);
    });

  return {
    ...engine.commands,
    ...chooserCommands(engine.store),
    ...remoteStreams({ ...engine.streams, ...catchupStreams(engine.commands), fatalLog }),
    /* diagnostics */
    openSubscriptions: () => openSubscriptions,
    dispose: () => engine.dispose(),
  };
}

export type EngineApi = ReturnType<typeof createApi>;

/** The worker's bootstrap object: the page calls start(config) once, then uses the API it returns. */
export function startEngine(endpoint: Comlink.Endpoint, fetchFn?: typeof fetch): void {
  Comlink.expose(
    {
      start: (config: EngineConfig) => Comlink.proxy(createApi(config, fetchFn)),
    },
    endpoint,
  );
}

export interface EngineBootstrap {
  start(config: EngineConfig): EngineApi;
}
