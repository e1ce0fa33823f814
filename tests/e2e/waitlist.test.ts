/**
 * The waitlist end to end in Chromium (SPEC §2.2, §4.14, §7.7, §8), on the sign-in page with
 * no session: the browser's e-mail validation stops a bad address before any request; the
 * flow for Teams ('Joining...', "You're on the list!", closed by itself after 2 s) stores the
 * signup on the server; an address the browser takes but the server refuses shows the
 * server's text in the modal's alert.
 */
import type { Page, Request, Route } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { e2eSession, type RunningServer } from './harness';

const session = e2eSession({});
let page: Page;
let server: RunningServer;
/** Every signup request the page sent, in order. */
const requests: Request[] = [];

beforeAll(async () => {
  ({ page, server } = session);
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/waitlist/signup') requests.push(request);
  });
});

beforeEach(async () => {
  await page.unrouteAll();
  await page.goto(`${server.url}/auth`);
  await page.getByRole('button', { name: /^Connect to Teams/ }).waitFor();
  requests.length = 0;
});

const dialog = () => page.getByRole('dialog');
const emailField = () => dialog().getByLabel('Email');

async function signupFromNode(email: string, platform: string): Promise<{ status: number; body: { created?: boolean; error?: string } }> {
  const res = await fetch(`${server.url}/api/waitlist/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, platform }),
  });
  return { status: res.status, body: (await res.json()) as { created?: boolean; error?: string } };
}

describe('the waitlist', () => {
  it('an invalid email is stopped by the browser validation and sends nothing', async () => {
    await page.getByRole('button', { name: /^Connect to Teams/ }).click();
    await dialog().getByRole('heading', { name: 'Join the Teams waitlist' }).waitFor();
    await emailField().fill('not-an-email');
    await dialog().getByRole('button', { name: 'Join Waitlist' }).click();

    const validity = await emailField().evaluate((input: HTMLInputElement) => ({
      valid: input.validity.valid,
      typeMismatch: input.validity.typeMismatch,
      message: input.validationMessage,
    }));
    expect(validity.valid).toBe(false);
    expect(validity.typeMismatch).toBe(true);
    expect(validity.message).not.toBe('');
    // Enter in the field is refused the same way.
    await emailField().press('Enter');
    await page.waitForTimeout(300);
    expect(requests).toHaveLength(0);
    expect(await dialog().getByRole('button', { name: 'Join Waitlist' }).isEnabled()).toBe(true);
    expect(await dialog().getByRole('alert').count()).toBe(0);

    // An empty field is refused too (required).
    await emailField().fill('');
    await dialog().getByRole('button', { name: 'Join Waitlist' }).click();
    expect(await emailField().evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
    await page.waitForTimeout(200);
    expect(requests).toHaveLength(0);

    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
  });

  it('the waitlist flow for Teams: Joining..., "You\'re on the list!", closes by itself after 2 s, stored on the server', async () => {
    // Hold the request so the submitting state can be seen and tried.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/waitlist/signup', async (route: Route) => {
      await held;
      await route.continue();
    });

    await page.getByRole('button', { name: /^Connect to Teams/ }).click();
    await dialog().getByRole('heading', { name: 'Join the Teams waitlist' }).waitFor();
    expect(await emailField().evaluate((input) => input === document.activeElement)).toBe(true);
    await emailField().fill('Ada.Lovelace@Example.com');
    await dialog().getByRole('button', { name: 'Join Waitlist' }).click();

    const joining = dialog().getByRole('button', { name: 'Joining...' });
    await joining.waitFor();
    expect(await joining.isDisabled()).toBe(true);
    // No closing while submitting: Esc, the close button, the backdrop.
    await page.keyboard.press('Escape');
    await dialog().getByRole('button', { name: 'Close' }).click({ force: true });
    await page.mouse.click(5, 5);
    await page.waitForTimeout(200);
    expect(await dialog().count()).toBe(1);
    expect(await joining.count()).toBe(1);

    const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/waitlist/signup');
    release();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ success: true, created: true, message: "You're on the list!" });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method()).toBe('POST');
    expect(requests[0]!.postDataJSON()).toEqual({ email: 'Ada.Lovelace@Example.com', platform: 'teams' });

    await dialog().getByText("You're on the list!").waitFor();
    const shownAt = Date.now();
    await dialog().waitFor({ state: 'detached', timeout: 5_000 });
    const openFor = Date.now() - shownAt;
    expect(openFor).toBeGreaterThan(1_500);
    expect(openFor).toBeLessThan(3_500);

    // Stored: the same address (any case) and platform again is one signup; the other platform is not.
    expect(await signupFromNode('ada.lovelace@example.com', 'teams')).toEqual({ status: 200, body: expect.objectContaining({ created: false }) });
    expect((await signupFromNode('ada.lovelace@example.com', 'email')).body.created).toBe(true);

    // Opened again, it starts empty.
    await page.getByRole('button', { name: /^Connect to Teams/ }).click();
    expect(await emailField().inputValue()).toBe('');
    await dialog().getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });
  });

  it("an address the browser accepts but the server refuses shows the server's error in the modal", async () => {
    await page.getByRole('button', { name: /^Connect to Email/ }).click();
    await dialog().getByRole('heading', { name: 'Join the Email waitlist' }).waitFor();
    // Valid for the browser (no dot needed in the domain), not for the server.
    await emailField().fill('grace@localhost');
    expect(await emailField().evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(true);
    await dialog().getByRole('button', { name: 'Join Waitlist' }).click();

    const alert = dialog().getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Enter a valid email address');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.postDataJSON()).toEqual({ email: 'grace@localhost', platform: 'email' });
    expect(await emailField().inputValue()).toBe('grace@localhost');
    expect(await dialog().getByRole('button', { name: 'Join Waitlist' }).isEnabled()).toBe(true);
    await page.waitForTimeout(2_300);
    expect(await dialog().count()).toBe(1);
  });
});
