/**
 * One logger for the page and the worker (SPEC §8, §9).
 *
 * - Levels trace < debug < info < warn < error < fatal; the minimum is warn, or info when
 *   the debug flag is on.
 * - Fatal entries are kept by a {@link FatalStore} (the page: localStorage; the worker:
 *   forwarded to the page), the last {@link ERROR_LOG_CAP} only.
 * - {@link Logger.time} warns about operations slower than {@link SLOW_OPERATION_MS}.
 *
 * Everything that touches the outside (console, storage, clock, page address) is injected,
 * so this module stays pure and the same code runs in both threads.
 */
import { ERROR_LOG_CAP, SLOW_OPERATION_MS } from './constants';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface FatalEntry {
  timestamp: string;
  message: string;
  metadata?: unknown;
  url?: string;
  userAgent?: string;
}

export interface FatalStore {
  read(): FatalEntry[];
  write(entries: FatalEntry[]): void;
}

export interface ConsoleLike {
  log: (...a: unknown[]) => void;
  info: (...a: unknown[]) => void;
  debug: (...a: unknown[]) => void;
  trace: (...a: unknown[]) => void;
  warn: (...a: unknown[]) => void;
  error: (...a: unknown[]) => void;
}

export interface LoggerOptions {
  debug: boolean;
  console: ConsoleLike;
  now: () => number;
  fatalStore?: FatalStore;
  url?: () => string | undefined;
  userAgent?: string;
}

export interface Logger {
  readonly minLevel: LogLevel;
  enabled(level: LogLevel): boolean;
  trace(message: string, meta?: unknown): void;
  debug(message: string, meta?: unknown): void;
  info(message: string, meta?: unknown): void;
  warn(message: string, meta?: unknown): void;
  error(message: string, meta?: unknown): void;
  fatal(message: string, meta?: unknown): void;
  /** Runs `fn`, and warns when it took longer than {@link SLOW_OPERATION_MS}. */
  time<T>(operation: string, fn: () => T): T;
  /** The same for a promise-returning operation. */
  timeAsync<T>(operation: string, fn: () => Promise<T>): Promise<T>;
}

export function minLevelFor(debug: boolean): LogLevel {
  return debug ? 'info' : 'warn';
}

/** Appends a fatal entry, keeping the last {@link ERROR_LOG_CAP}. */
export function appendFatal(entries: readonly FatalEntry[], entry: FatalEntry): FatalEntry[] {
  const next = [...entries, entry];
  return next.length > ERROR_LOG_CAP ? next.slice(next.length - ERROR_LOG_CAP) : next;
}

export function createLogger(options: LoggerOptions): Logger {
  const minLevel = minLevelFor(options.debug);
  const minIndex = LOG_LEVELS.indexOf(minLevel);
  const out = options.console;
  const enabled = (level: LogLevel) => LOG_LEVELS.indexOf(level) >= minIndex;

  const write = (level: LogLevel, message: string, meta: unknown) => {
    if (level === 'fatal' && options.fatalStore) {
      const entry: FatalEntry = {
        timestamp: new Date(options.now()).toISOString(),
        message,
        metadata: meta,
        url: options.url?.(),
        userAgent: options.userAgent,
      };
      try {
        options.fatalStore.write(appendFatal(options.fatalStore.read(), entry));
      } catch {
        // Storage full or unavailable: the console line below still reports it.
      }
    }
    if (!enabled(level)) return;
    const args = meta === undefined ? [`[${level}] ${message}`] : [`[${level}] ${message}`, meta];
    if (level === 'error' || level === 'fatal') out.error(...args);
    else if (level === 'warn') out.warn(...args);
    else out.info(...args);
  };

  const logger: Logger = {
    minLevel,
    enabled,
    trace: (m, meta) => write('trace', m, meta),
    debug: (m, meta) => write('debug', m, meta),
    info: (m, meta) => write('info', m, meta),
    warn: (m, meta) => write('warn', m, meta),
    error: (m, meta) => write('error', m, meta),
    fatal: (m, meta) => write('fatal', m, meta),
    time(operation, fn) {
      const start = options.now();
      try {
        return fn();
      } finally {
        const ms = options.now() - start;
        if (ms > SLOW_OPERATION_MS) write('warn', `Slow operation: ${operation} took ${Math.round(ms)} ms`, { operation, ms });
      }
    },
    async timeAsync(operation, fn) {
      const start = options.now();
      try {
        return await fn();
      } finally {
        const ms = options.now() - start;
        if (ms > SLOW_OPERATION_MS) write('warn', `Slow operation: ${operation} took ${Math.round(ms)} ms`, { operation, ms });
      }
    },
  };
  return logger;
}

/**
 * SPEC §9: with debug off, console log, info, debug and trace output is silenced.
 * Returns a function that restores the console.
 */
export function silenceConsole(target: ConsoleLike, debug: boolean): () => void {
  if (debug) return () => {};
  const saved = { log: target.log, info: target.info, debug: target.debug, trace: target.trace };
  const quiet = () => {};
  target.log = quiet;
  target.info = quiet;
  target.debug = quiet;
  target.trace = quiet;
  return () => Object.assign(target, saved);
}

/** A logger that records, for tests and for code that runs before the real one exists. */
export function memoryLogger(): Logger & { entries: Array<{ level: LogLevel; message: string; meta?: unknown }> } {
  const entries: Array<{ level: LogLevel; message: string; meta?: unknown }> = [];
  const rec = (level: LogLevel) => (message: string, meta?: unknown) => void entries.push({ level, message, meta });
  return {
    entries,
    minLevel: 'trace',
    enabled: () => true,
    trace: rec('trace'),
    debug: rec('debug'),
    info: rec('info'),
    warn: rec('warn'),
    error: rec('error'),
    fatal: rec('fatal'),
    time: (_op, fn) => fn(),
    timeAsync: (_op, fn) => fn(),
  };
}
