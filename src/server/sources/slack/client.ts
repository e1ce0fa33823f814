/**
 * Calls to Slack's Web API through the official client (@slack/web-api), one WebClient per
 * token, with Sift's own rate-limit policy.
 *
 * Why not WebClient's built-in retry: on a 429 it sleeps for whatever Retry-After says
 * (an absurd value stalls the sync for hours) and gives up at once when the header is
 * missing. So the clients are built with `rejectRateLimitedCalls: true` and no retries, and
 * `call` waits itself: Retry-After when it is sane, cut to `maxWaitSeconds` when absurd,
 * `defaultWaitSeconds` when missing, then repeats the same call (same cursor), so a sync
 * resumes exactly where the limit stopped it.
 */
import { ErrorCode, LogLevel, WebClient, type Logger } from '@slack/web-api';
import type { ServerLogger } from '../../log';
import { redactSlackTokens } from '../../log';
import type { RatePolicy } from './config';
import { SourceError } from '../../errors';

/** A Slack failure, without the token: `code` is Slack's error string (invalid_auth, channel_not_found, …). */
export class SlackApiError extends SourceError {
  constructor(
    readonly method: string,
    readonly code: string,
    readonly kind: 'platform' | 'rate_limited' | 'http' | 'request',
  ) {
    super(`Slack ${method} failed: ${code}`);
  }

  /** The token no longer works: the member has to sign in again. */
  get isAuthError(): boolean {
    return AUTH_ERRORS.has(this.code);
  }
}

const AUTH_ERRORS = new Set(['invalid_auth', 'not_authed', 'token_revoked', 'token_expired', 'account_inactive', 'no_permission']);

/** Routes the Slack clients' own log lines to the server log, redacted, and quietly (their warnings are ours to judge). */
export function slackLogger(logger: ServerLogger, name = 'slack'): Logger {
  let level = LogLevel.WARN;
  const line =
    (at: 'debug' | 'info' | 'warn' | 'error') =>
    (...msg: unknown[]) => {
      const text = redactSlackTokens(msg.map((m) => (typeof m === 'string' ? m : m instanceof Error ? m.message : JSON.stringify(m))).join(' '));
      logger.log(at === 'error' ? 'warn' : 'debug', `${name}: ${text}`);
    };
  return {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: (n: string) => {
      name = n;
    },
  };
}

export interface SlackCallerOptions {
  apiUrl: string;
  rate: RatePolicy;
  logger: ServerLogger;
  /** Injectable for tests; the default really waits. */
  sleep?: (ms: number) => Promise<void>;
}

export type SlackResult = Record<string, unknown> & { ok?: boolean; response_metadata?: { next_cursor?: string } };

export class SlackCaller {
  private readonly clients = new Map<string, WebClient>();
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(readonly options: SlackCallerOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** The client of a token (undefined: no token, as for oauth.v2.access). */
  client(token?: string): WebClient {
    const key = token ?? '';
    let client = this.clients.get(key);
    if (!client) {
      client = new WebClient(token, {
        slackApiUrl: this.options.apiUrl,
        rejectRateLimitedCalls: true,
        retryConfig: { retries: 0 },
        logger: slackLogger(this.options.logger),
        timeout: 30_000,
      });
      // Tokens rotate; keep the map from growing without bound.
      if (this.clients.size > 500) this.clients.delete(this.clients.keys().next().value!);
      this.clients.set(key, client);
    }
    return client;
  }

  /** The seconds to wait before repeating a rate-limited call. */
  waitSeconds(retryAfter: number | undefined): number {
    const { maxWaitSeconds, defaultWaitSeconds } = this.options.rate;
    if (retryAfter === undefined || !Number.isFinite(retryAfter) || retryAfter < 0) return defaultWaitSeconds;
    return Math.min(retryAfter, maxWaitSeconds);
  }

  /** One Web API method, repeated after each rate limit up to the policy's attempts. */
  async call<T extends SlackResult = SlackResult>(token: string | undefined, method: string, params: Record<string, unknown> = {}): Promise<T> {
    const client = this.client(token);
    for (let attempt = 1; ; attempt++) {
      try {
        return (await client.apiCall(method, params)) as T;
      } catch (error) {
        const failure = toSlackError(method, error);
        if (failure.error.kind !== 'rate_limited' || attempt >= this.options.rate.maxAttempts) throw failure.error;
        const seconds = this.waitSeconds(failure.retryAfter);
        this.options.logger.log('info', 'Slack rate limit; waiting', { method, seconds, attempt });
        await this.sleep(seconds * 1000);
      }
    }
  }

  /**
   * Every page of a cursor-paginated method, in order. Stops at an empty cursor, or at a
   * cursor seen before (a server that loops would otherwise never end the sync).
   */
  async *pages<T extends SlackResult = SlackResult>(token: string, method: string, params: Record<string, unknown>): AsyncGenerator<T> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      const page = await this.call<T>(token, method, cursor ? { ...params, cursor } : params);
      yield page;
      const next = page.response_metadata?.next_cursor;
      if (!next) return;
      if (seen.has(next)) {
        this.options.logger.log('warn', 'Slack returned a cursor twice; stopping', { method });
        return;
      }
      seen.add(next);
      cursor = next;
    }
  }
}

/** Turns a WebClient error into a SlackApiError (and the Retry-After of a 429, when it had one). */
export function toSlackError(method: string, error: unknown): { error: SlackApiError; retryAfter?: number } {
  const e = error as { code?: string; data?: { error?: string }; retryAfter?: number; statusCode?: number; message?: string };
  switch (e.code) {
    case ErrorCode.PlatformError:
      return { error: new SlackApiError(method, e.data?.error ?? 'unknown_error', 'platform') };
    case ErrorCode.RateLimitedError:
      return { error: new SlackApiError(method, 'ratelimited', 'rate_limited'), retryAfter: e.retryAfter };
    case ErrorCode.HTTPError:
      return { error: new SlackApiError(method, `http_${e.statusCode ?? 'error'}`, 'http') };
    case ErrorCode.RequestError:
      return { error: new SlackApiError(method, 'request_failed', 'request') };
  }
  // WebClient reports a 429 without a usable Retry-After as a plain error.
  if (typeof e.message === 'string' && /Retry header did not contain a valid timeout/.test(e.message)) {
    return { error: new SlackApiError(method, 'ratelimited', 'rate_limited') };
  }
  return { error: new SlackApiError(method, redactSlackTokens(e.message ?? String(error)), 'request') };
}
