/**
 * The general HTTP client of SPEC §7 and §8: base path /api, a 30 s timeout, credentials
 * same-origin (the session is the HttpOnly cookie the browser sends; the worker never holds a
 * token, issue 12 §1). A failure becomes an HttpError
 * {isNetworkError, status, message}, the message taken from the server's error field,
 * then its message field, else 'An unexpected error occurred'.
 */
import { DEFAULT_ERROR_MESSAGE, REQUEST_TIMEOUT_MS } from '../model/constants';
import type { HttpError } from '../model/types';

export interface HttpClientOptions {
  /** Origin of the server, e.g. self.location.origin. */
  baseUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Called when the server answers 401: the session ended (logout elsewhere, revoked, expired). */
  onUnauthorized?: () => void;
}

export class HttpFailure extends Error implements HttpError {
  constructor(
    readonly isNetworkError: boolean,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
  toJSON(): HttpError {
    return { isNetworkError: this.isNetworkError, status: this.status, message: this.message };
  }
}

export function errorMessageOf(body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { error?: unknown; message?: unknown };
    if (typeof b.error === 'string' && b.error) return b.error;
    if (typeof b.message === 'string' && b.message) return b.message;
  }
  return DEFAULT_ERROR_MESSAGE;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type HttpClient = ReturnType<typeof createHttpClient>;

export function createHttpClient(options: HttpClientOptions) {
  const doFetch = options.fetch ?? fetch;

  function url(path: string, query?: RequestOptions['query']): string {
    const u = new URL(path.startsWith('/') ? path : `/api/${path}`, options.baseUrl);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  async function request<T>(path: string, req: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (req.body !== undefined) headers['Content-Type'] = 'application/json';
    const timeout = AbortSignal.timeout(req.timeoutMs ?? options.timeoutMs ?? REQUEST_TIMEOUT_MS);
    const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
    let response: Response;
    try {
      response = await doFetch(url(path, req.query), {
        method: req.method ?? (req.body === undefined ? 'GET' : 'POST'),
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        credentials: 'same-origin',
        signal,
      });
    } catch (error) {
      const e = error as Error;
      const message =
        e.name === 'TimeoutError' ? 'The request timed out' : e.name === 'AbortError' ? 'The request was cancelled' : `Network error: ${e.message}`;
      throw new HttpFailure(true, 0, message);
    }
    const text = await response.text();
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    if (response.status === 401) options.onUnauthorized?.();
    if (!response.ok) throw new HttpFailure(false, response.status, errorMessageOf(body));
    return body as T;
  }

  return { request, url };
}
