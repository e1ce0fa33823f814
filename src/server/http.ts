/** Edge helpers: every body and query is validated with a schema; a bad one answers 400 {error}. */
import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError } from './errors';

/** A request the edge refuses (errors.ts's hierarchy). */
export class HttpProblem extends AppError {
  constructor(status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 501 | 502, message: string, extra: Record<string, unknown> = {}) {
    super(status, message, { extra });
  }
}

function describe(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, refusing bytes that are not UTF-8 (a lenient decoder would store replacement characters). */
export async function bodyText(c: Context): Promise<string> {
  try {
    return STRICT_UTF8.decode(await c.req.arrayBuffer());
  } catch {
    throw new HttpProblem(400, 'The request body is not valid UTF-8');
  }
}

export async function parseBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let raw: unknown = {};
  const text = await bodyText(c);
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new HttpProblem(400, 'The request body is not valid JSON');
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new HttpProblem(400, `Invalid request: ${describe(parsed.error)}`);
  return parsed.data;
}

export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw new HttpProblem(400, `Invalid query: ${describe(parsed.error)}`);
  return parsed.data;
}
