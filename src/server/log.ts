/**
 * Structured server log: one JSON object per line. Anything that looks like a token is
 * redacted before it is written: query parameters named token, Authorization headers and
 * cookie values never reach a log line.
 */
export type ServerLogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface ServerLogger {
  log(level: ServerLogLevel, msg: string, fields?: Record<string, unknown>): void;
}

const SECRET_KEYS = /token|authorization|cookie|secret|password/i;

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 4) return '[…]';
  if (typeof value === 'string') return value.replace(/([?&]token=)[^&\s]+/gi, '$1[redacted]').replace(/(Bearer\s+)\S+/gi, '$1[redacted]');
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEYS.test(k) ? '[redacted]' : redact(v, depth + 1);
    return out;
  }
  return value;
}

export function jsonLogger(write: (line: string) => void = (line) => process.stdout.write(line + '\n'), minLevel: ServerLogLevel = 'info'): ServerLogger {
  const order: ServerLogLevel[] = ['debug', 'info', 'warn', 'error'];
  return {
    log(level, msg, fields) {
      if (order.indexOf(level) < order.indexOf(minLevel)) return;
      write(JSON.stringify({ time: new Date().toISOString(), level, msg: redact(msg), ...(redact(fields ?? {}) as object) }));
    },
  };
}

export const silentLogger: ServerLogger = { log() {} };
