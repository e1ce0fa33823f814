/**
 * The server's one error type (issue 15 §1). Every failure a request can meet is an AppError: what the client is
 * told (the status, a message, extra fields, when to come back) and whether its message may be shown at all. The
 * app's error handler (errorResponse, in app.ts's onError) is the one place that turns an error into an answer:
 * an AppError as it says (5xx logged as warnings), anything else a logged 500 that says nothing of the cause.
 *
 *   AppError
 *   ├─ HttpProblem       a request the edge refuses (validation, authorization, limits)      http.ts
 *   ├─ MessagingError    a message that cannot be sent, or cannot be sent there              messaging.ts
 *   ├─ AiError           an AI call that failed or was refused (the budget: Retry-After)     ai/types.ts
 *   └─ SourceError       the workspace source (Slack) failed: its own message never shown    sources/slack/*
 *      ├─ SlackApiError, SignInError, TokenUnreadable
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ServerLogger } from './log';

export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly options: {
      /** Fields added to the answer's JSON beside `error`. */
      extra?: Record<string, unknown>;
      /** Sent as Retry-After. */
      retryAfterSeconds?: number;
      /** False: the message is for the log only; the client reads a generic text. */
      expose?: boolean;
    } = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A failure of the workspace source: its details (Slack's error codes, key ids) stay in the log. */
export class SourceError extends AppError {
  constructor(message: string) {
    super(502, message, { expose: false });
  }
}

/** The one place an error becomes an answer. */
export function errorResponse(error: unknown, c: Context, logger: ServerLogger): Response {
  if (error instanceof AppError) {
    if (error.status >= 500) logger.log('warn', 'request failed', { path: c.req.path, status: error.status, kind: error.name, error: error.message });
    if (error.options.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.options.retryAfterSeconds));
    const message = error.options.expose === false ? (error.status >= 500 ? 'The workspace could not be reached' : 'Request failed') : error.message;
    return c.json({ error: message, ...error.options.extra }, error.status);
  }
  logger.log('error', 'unhandled error', { path: c.req.path, error: String(error), stack: (error as Error).stack });
  return c.json({ error: 'Internal server error' }, 500);
}
