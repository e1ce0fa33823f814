/**
 * SPEC §7.7: the waitlist for the platforms Sift cannot connect yet (Teams, e-mail; §1, §2.2).
 * Public (it lives on the sign-in page, before any session). The same email (trimmed, any
 * case) and platform twice is one signup: the second answers success with created: false.
 * A bad input answers 400 {error} with a text the modal shows as it is (§8). Only the
 * platform is logged, never the address.
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../context';
import { HttpProblem, bodyText } from '../http';

export const WAITLIST_PLATFORMS = ['teams', 'email'] as const;
export type WaitlistPlatform = (typeof WAITLIST_PLATFORMS)[number];
/** The longest address SMTP allows (RFC 5321 path limit less the brackets). */
export const WAITLIST_EMAIL_MAX = 254;
/** A signup is two short strings; anything bigger is not one. */
export const WAITLIST_BODY_MAX_BYTES = 4 * 1024;
export const WAITLIST_SUCCESS_MESSAGE = "You're on the list!";

export const WAITLIST_ERRORS = {
  notJson: 'The request body is not valid JSON',
  notObject: 'Send a JSON object with email and platform',
  emailRequired: 'Email is required',
  emailNotText: 'Email must be text',
  emailTooLong: `Email must be at most ${WAITLIST_EMAIL_MAX} characters`,
  emailInvalid: 'Enter a valid email address',
  platform: 'platform must be teams or email',
  tooLarge: 'The request body is too large',
} as const;

const signupSchema = z.object(
  {
    email: z
      .string({ error: (issue) => (issue.input === undefined || issue.input === null ? WAITLIST_ERRORS.emailRequired : WAITLIST_ERRORS.emailNotText) })
      .trim()
      .min(1, WAITLIST_ERRORS.emailRequired)
      .max(WAITLIST_EMAIL_MAX, WAITLIST_ERRORS.emailTooLong)
      .pipe(z.email({ error: WAITLIST_ERRORS.emailInvalid })),
    platform: z.enum(WAITLIST_PLATFORMS, { error: WAITLIST_ERRORS.platform }),
  },
  { error: WAITLIST_ERRORS.notObject },
);

/** Like parseBody, but the error is only the issues' own texts: the sign-in page shows it to a person. */
async function parseSignup(c: Context<AppEnv>): Promise<z.infer<typeof signupSchema>> {
  const text = await bodyText(c);
  let raw: unknown = {};
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new HttpProblem(400, WAITLIST_ERRORS.notJson);
    }
  }
  const parsed = signupSchema.safeParse(raw);
  if (!parsed.success) {
    const messages = [...new Set(parsed.error.issues.map((issue) => issue.message))];
    throw new HttpProblem(400, messages.join('; '));
  }
  return parsed.data;
}

export function waitlistRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();

  app.post(
    '/api/waitlist/signup',
    bodyLimit({ maxSize: WAITLIST_BODY_MAX_BYTES, onError: (c) => c.json({ error: WAITLIST_ERRORS.tooLarge }, 413) }),
    async (c) => {
      const { email, platform } = await parseSignup(c);
      const { created } = await ctx.store.addWaitlistSignup(email, platform, ctx.clock.now());
      // The address is personal data: the log says what happened, not who.
      ctx.logger.log('info', 'waitlist signup', { platform, created });
      return c.json({ success: true, created, message: WAITLIST_SUCCESS_MESSAGE });
    },
  );

  return app;
}
