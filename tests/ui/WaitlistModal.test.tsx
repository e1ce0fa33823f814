/**
 * The waitlist modal (SPEC §4.14, §5, §8, §9): idle → 'Joining...' → "You're on the list!" and
 * closed after 2 s, or an in-app alert with the server's text (default 'Failed to join
 * waitlist. Please try again.'); no closing while submitting; an invalid email never fetches.
 * The server is a mocked global fetch.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi, type Mock } from 'vitest';
import { WAITLIST_SUCCESS_CLOSE_MS } from '../../src/model/constants';
import { FAILED_TEXT, SUCCESS_TEXT, WaitlistModal, type WaitlistPlatform } from '../../src/ui/components/WaitlistModal';

interface Pending {
  resolve(response: Response): void;
  reject(error: unknown): void;
}

/** A fetch whose answers the test gives, one per call, when it wants. */
function mockFetch(): { fetch: Mock<typeof fetch>; calls: Pending[] } {
  const calls: Pending[] = [];
  const fetchMock = vi.fn<typeof fetch>(
    () =>
      new Promise<Response>((resolve, reject) => {
        calls.push({ resolve, reject });
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return { fetch: fetchMock, calls };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const ok = () => json(200, { success: true, created: true, message: "You're on the list!" });

function open(platform: WaitlistPlatform = 'teams') {
  const onClose = vi.fn();
  render(<WaitlistModal platform={platform} onClose={onClose} />);
  const dialog = screen.getByRole('dialog');
  return {
    onClose,
    dialog,
    input: () => within(dialog).getByLabelText('Email') as HTMLInputElement,
    submit: () => within(dialog).getByRole('button', { name: /^(Join Waitlist|Joining\.\.\.)$/ }) as HTMLButtonElement,
    close: () => within(dialog).getByRole('button', { name: 'Close' }) as HTMLButtonElement,
  };
}

/** Lets the mocked answer travel through the component's awaits. */
const settle = () => act(async () => {});

afterEach(() => {
  vi.useRealTimers();
});

describe('WaitlistModal (SPEC §4.14)', () => {
  it.each([
    ['teams', 'Join the Teams waitlist', /Microsoft Teams/],
    ['email', 'Join the Email waitlist', /e-mail accounts/],
  ] as const)('for %s: a titled modal dialog with an e-mail field that takes focus', (platform, title, line) => {
    const { dialog, input, submit } = open(platform);
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(within(dialog).getByRole('heading', { name: title })).toBeTruthy();
    expect(screen.getByRole('dialog', { name: title })).toBe(dialog);
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)!.textContent).toMatch(line);
    expect(input().type).toBe('email');
    expect(input().required).toBe(true);
    expect(input().value).toBe('');
    expect(document.activeElement).toBe(input());
    expect(submit().textContent).toBe('Join Waitlist');
    expect(submit().type).toBe('submit');
    expect(submit().disabled).toBe(false);
  });

  it("posts {email, platform} as JSON to /api/waitlist/signup, reads 'Joining...' while it is on its way, then shows the success", async () => {
    const server = mockFetch();
    const user = userEvent.setup();
    const { dialog, input, submit, onClose } = open('email');
    await user.type(input(), '  ada@example.com ');
    await user.click(submit());

    expect(server.fetch).toHaveBeenCalledTimes(1);
    const [url, init] = server.fetch.mock.calls[0]!;
    expect(url).toBe('/api/waitlist/signup');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(JSON.parse(init?.body as string)).toEqual({ email: 'ada@example.com', platform: 'email' });

    expect(submit().textContent).toBe('Joining...');
    expect(submit().disabled).toBe(true);
    expect(input().readOnly).toBe(true);
    expect(dialog.getAttribute('aria-busy')).toBe('true');
    expect(within(dialog).queryByText(SUCCESS_TEXT)).toBeNull();

    server.calls[0]!.resolve(ok());
    await settle();

    expect(within(dialog).getByRole('status').textContent).toBe("You're on the list!");
    expect(within(dialog).queryByLabelText('Email')).toBeNull();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    // The form (and the focused button) is gone: focus stays in the dialog, and Esc may close it early.
    expect(document.activeElement).toBe(dialog);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes by itself 2 s after the success, not before', async () => {
    vi.useFakeTimers();
    const server = mockFetch();
    const { input, dialog, onClose } = open('teams');
    fireEvent.change(input(), { target: { value: 'grace@example.com' } });
    fireEvent.submit(input().form!);
    server.calls[0]!.resolve(ok());
    await settle();
    expect(within(dialog).getByText(SUCCESS_TEXT)).toBeTruthy();

    expect(WAITLIST_SUCCESS_CLOSE_MS).toBe(2_000);
    act(() => vi.advanceTimersByTime(WAITLIST_SUCCESS_CLOSE_MS - 1));
    expect(onClose).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('cannot be closed while submitting: Esc, the close button and the backdrop do nothing; afterwards they close it', async () => {
    const server = mockFetch();
    const user = userEvent.setup();
    const { dialog, input, submit, close, onClose } = open();
    await user.type(input(), 'ada@example.com{Enter}');
    expect(submit().textContent).toBe('Joining...');

    await user.keyboard('{Escape}');
    expect(close().disabled).toBe(true);
    fireEvent.click(close());
    const backdrop = dialog.parentElement!;
    await user.click(backdrop);
    // Esc with focus fallen out of the dialog (the useDialog path) is ignored too.
    (document.activeElement as HTMLElement | null)?.blur();
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBe(dialog);

    server.calls[0]!.resolve(json(500, { error: 'Database is busy' }));
    await settle();
    expect(close().disabled).toBe(false);

    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(close());
    expect(onClose).toHaveBeenCalledTimes(2);
    await user.click(backdrop);
    expect(onClose).toHaveBeenCalledTimes(3);
    // A click inside the dialog is not a backdrop click.
    await user.click(within(dialog).getByRole('heading'));
    expect(onClose).toHaveBeenCalledTimes(3);
  });

  it('a text selection dragged from the field out onto the backdrop does not close it', () => {
    const { dialog, input, onClose } = open();
    const backdrop = dialog.parentElement!;
    fireEvent.mouseDown(input());
    fireEvent.mouseUp(backdrop);
    fireEvent.click(backdrop);
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.mouseDown(backdrop);
    fireEvent.click(backdrop);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("shows the server's error text in an alert inside the dialog, keeps the address and stays open", async () => {
    vi.useFakeTimers();
    const server = mockFetch();
    const { dialog, input, submit, onClose } = open();
    fireEvent.change(input(), { target: { value: 'ada@example' } });
    submit().focus();
    fireEvent.click(submit());
    expect(submit().textContent).toBe('Joining...');
    server.calls[0]!.resolve(json(400, { error: 'Enter a valid email address' }));
    await settle();

    const alert = within(dialog).getByRole('alert');
    expect(alert.textContent).toBe('Enter a valid email address');
    expect(input().getAttribute('aria-describedby')).toBe(alert.id);
    expect(input().value).toBe('ada@example');
    expect(input().readOnly).toBe(false);
    expect(submit().textContent).toBe('Join Waitlist');
    expect(submit().disabled).toBe(false);
    // Focus goes back to the field to fix the address.
    expect(document.activeElement).toBe(input());
    expect(within(dialog).queryByText(SUCCESS_TEXT)).toBeNull();
    act(() => vi.advanceTimersByTime(WAITLIST_SUCCESS_CLOSE_MS * 2));
    expect(onClose).not.toHaveBeenCalled();

    // Editing the address clears the alert about it.
    fireEvent.change(input(), { target: { value: 'ada@example.com' } });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(input().getAttribute('aria-describedby')).toBeNull();
  });

  it.each([
    ['a 500 without a JSON body', () => new Response('<html>Bad gateway</html>', { status: 502 })],
    ['an error body without text', () => json(400, { error: '' })],
    ['an error that is not text', () => json(400, { error: { code: 1 } })],
    ['a body without an error', () => json(503, { success: false })],
  ])("shows 'Failed to join waitlist. Please try again.' for %s", async (_, response) => {
    const server = mockFetch();
    const user = userEvent.setup();
    const { dialog, input } = open();
    await user.type(input(), 'ada@example.com{Enter}');
    server.calls[0]!.resolve(response());
    await settle();
    expect(within(dialog).getByRole('alert').textContent).toBe('Failed to join waitlist. Please try again.');
    expect(FAILED_TEXT).toBe('Failed to join waitlist. Please try again.');
  });

  it('shows the default text when the request does not reach the server, and a retry can succeed', async () => {
    const server = mockFetch();
    const user = userEvent.setup();
    const { dialog, input, submit } = open();
    await user.type(input(), 'ada@example.com{Enter}');
    server.calls[0]!.reject(new TypeError('Failed to fetch'));
    await settle();
    expect(within(dialog).getByRole('alert').textContent).toBe(FAILED_TEXT);

    await user.click(submit());
    expect(server.fetch).toHaveBeenCalledTimes(2);
    expect(submit().textContent).toBe('Joining...');
    // The old alert goes away while retrying.
    expect(within(dialog).queryByRole('alert')).toBeNull();
    server.calls[1]!.resolve(ok());
    await settle();
    expect(within(dialog).getByRole('status').textContent).toBe(SUCCESS_TEXT);
  });

  it('sends once, however often Enter is pressed while submitting', async () => {
    const server = mockFetch();
    const user = userEvent.setup();
    const { input } = open();
    await user.type(input(), 'ada@example.com{Enter}');
    fireEvent.submit(input().form!);
    await user.keyboard('{Enter}');
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['malformed', 'not-an-email'],
    ['empty', ''],
  ])('an %s email is refused by the browser validation and never reaches the server', async (_, typed) => {
    const server = mockFetch();
    const user = userEvent.setup();
    const { dialog, input, submit, onClose } = open();
    if (typed) await user.type(input(), typed);
    await user.click(submit());
    // Also a submit event that skipped the browser's check (e.g. requestSubmit on a noValidate form).
    fireEvent.submit(input().form!);

    expect(input().validity.valid).toBe(false);
    expect(server.fetch).not.toHaveBeenCalled();
    expect(submit().textContent).toBe('Join Waitlist');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('keeps the page from seeing keys typed in it', async () => {
    const user = userEvent.setup();
    const pageKeys = vi.fn();
    window.addEventListener('keydown', pageKeys);
    try {
      const { input } = open();
      await user.type(input(), 'j');
      expect(pageKeys).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('keydown', pageKeys);
    }
  });
});
