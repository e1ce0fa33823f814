/**
 * SPEC §7.7 over real HTTP: POST /api/waitlist/signup {email, platform} is stored without a
 * session; the same email (any case, surrounding spaces) and platform twice is one signup;
 * every bad input answers 400 {error} with a text a person can read, and stores nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WAITLIST_BODY_MAX_BYTES, WAITLIST_ERRORS } from '../../src/server/routes/waitlist';
import { api, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let call: ReturnType<typeof api>;
let stored: number;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url);
});

afterAll(async () => {
  await server.close();
});

beforeEach(async () => {
  stored = await server.store.countWaitlist();
});

const signup = (body: unknown) => call('/api/waitlist/signup', { body });
const signupRaw = (raw: string) => call('/api/waitlist/signup', { raw });

async function expectNothingStored() {
  expect(await server.store.countWaitlist()).toBe(stored);
}

describe('POST /api/waitlist/signup (SPEC §7.7)', () => {
  it('stores a signup without any session and answers success, created and the message', async () => {
    const res = await signup({ email: 'ada@example.com', platform: 'teams' });
    expect(res).toEqual({ status: 200, body: { success: true, created: true, message: "You're on the list!" } });
    expect(await server.store.countWaitlist('teams')).toBe(1);
    expect(await server.store.countWaitlist('email')).toBe(0);
  });

  it('the same email and platform twice is one signup: created false, still success', async () => {
    const first = await signup({ email: 'grace@example.com', platform: 'email' });
    expect(first.body.created).toBe(true);
    const second = await signup({ email: 'grace@example.com', platform: 'email' });
    expect(second).toEqual({ status: 200, body: { success: true, created: false, message: "You're on the list!" } });
    expect(await server.store.countWaitlist()).toBe(stored + 1);
  });

  it('ignores case and surrounding spaces when deciding it is the same signup', async () => {
    expect((await signup({ email: 'linus@example.com', platform: 'teams' })).body.created).toBe(true);
    const again = await signup({ email: '  Linus@EXAMPLE.com\t', platform: 'teams' });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(await server.store.countWaitlist()).toBe(stored + 1);
  });

  it('the same email on the other platform is a second signup', async () => {
    expect((await signup({ email: 'margaret@example.com', platform: 'teams' })).body.created).toBe(true);
    expect((await signup({ email: 'margaret@example.com', platform: 'email' })).body.created).toBe(true);
    expect(await server.store.countWaitlist()).toBe(stored + 2);
  });

  it.each([
    ['a malformed email', { email: 'not-an-email', platform: 'teams' }, WAITLIST_ERRORS.emailInvalid],
    ['an email without a domain', { email: 'ada@', platform: 'teams' }, WAITLIST_ERRORS.emailInvalid],
    ['two addresses in one', { email: 'a@example.com b@example.com', platform: 'teams' }, WAITLIST_ERRORS.emailInvalid],
    ['a missing email', { platform: 'teams' }, WAITLIST_ERRORS.emailRequired],
    ['a null email', { email: null, platform: 'teams' }, WAITLIST_ERRORS.emailRequired],
    ['an empty email', { email: '', platform: 'teams' }, WAITLIST_ERRORS.emailRequired],
    ['a blank email', { email: '   ', platform: 'teams' }, WAITLIST_ERRORS.emailRequired],
    ['an email that is not text', { email: 42, platform: 'teams' }, WAITLIST_ERRORS.emailNotText],
    ['an email over 254 characters', { email: `${'a'.repeat(64)}@${'b'.repeat(186)}.com`, platform: 'teams' }, WAITLIST_ERRORS.emailTooLong],
    ['an unknown platform', { email: 'ada@example.com', platform: 'slack' }, WAITLIST_ERRORS.platform],
    ['a platform in capitals', { email: 'ada@example.com', platform: 'Teams' }, WAITLIST_ERRORS.platform],
    ['a missing platform', { email: 'ada@example.com' }, WAITLIST_ERRORS.platform],
    ['a body that is a list', ['ada@example.com', 'teams'], WAITLIST_ERRORS.notObject],
    ['a body that is a string', 'ada@example.com', WAITLIST_ERRORS.notObject],
  ])('%s answers 400 with a clear error and stores nothing', async (_, body, error) => {
    const res = await signup(body);
    expect(res).toEqual({ status: 400, body: { error } });
    await expectNothingStored();
  });

  it('an email at exactly 254 characters is accepted', async () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(185)}.com`;
    expect(email).toHaveLength(254);
    const res = await signup({ email, platform: 'teams' });
    expect(res.status).toBe(200);
    expect(await server.store.countWaitlist()).toBe(stored + 1);
  });

  it('names both problems when both fields are bad', async () => {
    const res = await signup({ email: 'nope', platform: 'fax' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`${WAITLIST_ERRORS.emailInvalid}; ${WAITLIST_ERRORS.platform}`);
  });

  it('an empty body asks for both fields', async () => {
    const res = await signupRaw('');
    expect(res).toEqual({ status: 400, body: { error: `${WAITLIST_ERRORS.emailRequired}; ${WAITLIST_ERRORS.platform}` } });
    await expectNothingStored();
  });

  it('a body that is not JSON answers 400', async () => {
    const res = await signupRaw('email=ada@example.com&platform=teams');
    expect(res).toEqual({ status: 400, body: { error: WAITLIST_ERRORS.notJson } });
    await expectNothingStored();
  });

  it(`a body over ${WAITLIST_BODY_MAX_BYTES} bytes is refused before it is read (413)`, async () => {
    const res = await signup({ email: 'big@example.com', platform: 'teams', padding: 'x'.repeat(WAITLIST_BODY_MAX_BYTES) });
    expect(res).toEqual({ status: 413, body: { error: WAITLIST_ERRORS.tooLarge } });
    await expectNothingStored();
  });

  it('answers with a bad token as well (the path is public), while other /api paths still need one', async () => {
    const res = await api(server.url, 'not-a-token')('/api/waitlist/signup', { body: { email: 'ken@example.com', platform: 'email' } });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(true);
    expect((await call('/api/conversations')).status).toBe(401);
  });

  it('logs the platform of a signup but never the email address', async () => {
    const before = server.logLines.length;
    await signup({ email: 'Private.Person@example.com', platform: 'email' });
    await signup({ email: 'broken@', platform: 'teams' });
    const lines = server.logLines.slice(before).join('\n');
    expect(lines).toContain('waitlist signup');
    expect(lines).toContain('"platform":"email"');
    expect(lines.toLowerCase()).not.toContain('private.person');
    expect(lines).not.toContain('broken@');
  });
});
