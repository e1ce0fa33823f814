/**
 * One error hierarchy, turned into answers in one place (issue 15 §1): every AppError answers its status and
 * message (with its extra fields and Retry-After); a source's failure never shows its details (Slack's codes,
 * key ids); anything else is a logged 500 that says nothing of the cause.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { AiError } from '../../src/server/ai/types';
import { AppError, errorResponse } from '../../src/server/errors';
import { HttpProblem } from '../../src/server/http';
import type { ServerLogger } from '../../src/server/log';
import { MessagingError } from '../../src/server/messaging';
import { SlackApiError } from '../../src/server/sources/slack/client';
import { SignInError } from '../../src/server/sources/slack/source';
import { TokenUnreadable } from '../../src/server/sources/slack/tokens';

function appThrowing(error: unknown) {
  const logs: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = [];
  const logger: ServerLogger = { log: (level, msg, fields) => logs.push({ level, msg, ...(fields ? { fields } : {}) }) };
  const app = new Hono();
  app.get('/x', () => {
    throw error;
  });
  app.onError((e, c) => errorResponse(e, c, logger));
  return { app, logs };
}

async function answer(error: unknown) {
  const { app, logs } = appThrowing(error);
  const res = await app.request('/x');
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, retryAfter: res.headers.get('Retry-After'), logs };
}

describe('errorResponse', () => {
  it.each([
    [
      'a refused request, with its extra fields',
      new HttpProblem(400, 'Message validation failed', { errors: ['too long'] }),
      400,
      { error: 'Message validation failed', errors: ['too long'] },
    ],
    ['a message that cannot go there', new MessagingError('Conversation not found', 404), 404, { error: 'Conversation not found' }],
    ['an AI call that failed upstream', new AiError('The AI provider timed out', 504), 504, { error: 'The AI provider timed out' }],
  ])('%s: its status and message', async (_name, error, status, body) => {
    const result = await answer(error);
    expect(result.status).toBe(status);
    expect(result.body).toEqual(body);
    expect(error).toBeInstanceOf(AppError);
  });

  it('an AI call refused by the daily budget says when to come back', async () => {
    const result = await answer(new AiError('Daily AI budget used up', 429, 3_600));
    expect([result.status, result.retryAfter, result.body.error]).toEqual([429, '3600', 'Daily AI budget used up']);
  });

  it.each([
    ['Slack', new SlackApiError('conversations.history', 'invalid_auth', 'platform')],
    ['a stored token', new TokenUnreadable('unknown_key', 'k-2025-secret')],
    ['a sign-in', new SignInError('oauth_failed', 'Slack oauth.v2.access answered bad_redirect_uri')],
  ])('a failure of %s answers 502 without its details, which go to the log', async (_name, error) => {
    const result = await answer(error);
    expect(result.status).toBe(502);
    expect(result.body).toEqual({ error: 'The workspace could not be reached' });
    expect(JSON.stringify(result.body)).not.toMatch(/invalid_auth|k-2025|bad_redirect/);
    expect(result.logs).toEqual([expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ error: error.message, status: 502 }) })]);
  });

  it('anything else is a 500 that says nothing of the cause, logged as an error', async () => {
    const result = await answer(new TypeError("Cannot read properties of undefined (reading 'secret')"));
    expect(result.status).toBe(500);
    expect(result.body).toEqual({ error: 'Internal server error' });
    expect(result.logs[0]).toMatchObject({ level: 'error', msg: 'unhandled error' });
  });
});
