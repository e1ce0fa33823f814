/**
 * Structured server log: one JSON object per line. Anything that looks like a token is
 * redacted before it is written: query parameters named token, Authorization headers,
 * cookie values and Slack tokens (xoxp-, xoxe-, xoxb-, xapp-… anywhere in a string, such as
 * an error message of the Slack client) never reach a log line.
 */
export type ServerLogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface ServerLogger {
  log(level: ServerLogLevel, msg: string, fields?: Record<string, unknown>): void;
}

const SECRET_KEYS = /token|authorization|cookie|secret|password/i;
/** Slack's token shapes: user, bot, refresh (xoxe-, xoxe.xoxp-), app-level, legacy. */
const SLACK_TOKEN = /\b(?:xox[a-z]|xapp)(?:[.-][A-Za-z0-9-]+)+/g;

/** A string with every Slack token in it replaced (for error messages that may quote one). */
export function redactSlackTokens(text: string): string {
  return text.replace(SLACK_TOKEN, '[redacted]');
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 4) return '[…]';
  if (typeof value === 'string')
    return redactSlackTokens(value)
      .replace(/([?&]token=)[^&\s]+/gi, '$1[redacted]')
      .replace(/(Bearer\s+)\S+/gi, '$1[redacted]');
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
