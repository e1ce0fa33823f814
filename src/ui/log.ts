/**
 * The page's logger (SPEC §8, §9): fatal entries kept in local storage (last 50, with
 * timestamp, message, metadata, address and browser agent), the worker's fatal entries
 * forwarded here, and console log/info/debug/trace silenced unless the debug flag is on.
 */
import { STORAGE_KEYS } from '../model/constants';
import { createLogger, silenceConsole, type ConsoleLike, type FatalEntry, type FatalStore, appendFatal } from '../model/logger';
import { remoteStream } from './engine';
import { safeGet, safeSet } from './session';

const fatalStore: FatalStore = {
  read: () => {
    try {
      return JSON.parse(safeGet(STORAGE_KEYS.errorLog) ?? '[]') as FatalEntry[];
    } catch {
      return [];
    }
  },
  write: (entries) => safeSet(STORAGE_KEYS.errorLog, JSON.stringify(entries)),
};

const debug = safeGet(STORAGE_KEYS.debug) === 'true';

export const log = createLogger({
  debug,
  console: console as ConsoleLike,
  now: () => Date.now(),
  fatalStore,
  url: () => location.href,
  userAgent: navigator.userAgent,
});

export function installPageLogger(): void {
  silenceConsole(console as ConsoleLike, debug);
  window.addEventListener('error', (event) => log.fatal(event.message, { source: event.filename, line: event.lineno }));
  window.addEventListener('unhandledrejection', (event) => log.fatal('Unhandled rejection', { reason: String(event.reason) }));
  remoteStream<FatalEntry>((api, o) => api.fatalLog(o)).subscribe((entry) => fatalStore.write(appendFatal(fatalStore.read(), entry)));
}
