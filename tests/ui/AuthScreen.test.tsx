import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { TestRouter } from './router';
import { AuthScreen } from '../../src/ui/screens/AuthScreen';

/** The sign-in page at /auth, with an optional query (a failed Slack sign-in lands with ?error=…&message=…). */
function renderAuth(search = '') {
  return render(
    <TestRouter path={`/auth${search}`}>
      <AuthScreen />
    </TestRouter>,
  );
}

let assign: MockInstance<(url: string | URL) => void>;

beforeEach(() => {
  // happy-dom's Location.assign would navigate the test window: record the call instead.
  assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
});

describe('AuthScreen (SPEC §2.2)', () => {
  it('is headed "Sign up to Sift"', () => {
    renderAuth();
    expect(screen.getByRole('heading', { level: 1, name: 'Sign up to Sift' })).toBeTruthy();
  });

  it('Connect to Slack goes to /auth/slack and reads Connecting... while pending, disabled', async () => {
    const user = userEvent.setup();
    renderAuth();
    const button = screen.getByRole('button', { name: 'Connect to Slack' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);

    await user.click(button);

    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith('/auth/slack');
    expect(button.textContent).toBe('Connecting...');
    expect(button.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Connect to Slack' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Connecting...' })).toBe(button);

    // disabled: a second click does not navigate again
    await user.click(button);
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it('"Sign in" behaves like Connect to Slack and does not follow its href itself', async () => {
    const user = userEvent.setup();
    renderAuth();
    const link = screen.getByRole('link', { name: 'Sign in' });
    await user.click(link);
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith('/auth/slack');
    const button = screen.getByRole('button', { name: 'Connecting...' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(window.location.pathname).not.toBe('/auth/slack');
  });

  it('"learn more" opens in a new tab without giving the page an opener', () => {
    renderAuth();
    const link = screen.getByRole('link', { name: 'learn more' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect((link.getAttribute('rel') ?? '').split(/\s+/)).toContain('noopener');
    expect(link.getAttribute('href')).toMatch(/^https:\/\//);
  });

  it.each(['Teams', 'Email'])('Connect to %s is tagged Waitlist and opens its waitlist modal, without navigating', async (service) => {
    const user = userEvent.setup();
    renderAuth();
    const button = screen.getByRole('button', { name: new RegExp(`^Connect to ${service}`) });
    expect(within(button).getByText('Waitlist')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(button);

    const dialog = screen.getByRole('dialog', { name: `Join the ${service} waitlist` });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(within(dialog).getByRole('button', { name: 'Join Waitlist' })).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Email'));
    expect(screen.queryByText(/is not available yet/)).toBeNull();
    expect(assign).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    // Focus goes back to the button that opened it.
    expect(document.activeElement).toBe(button);
  });

  it('the waitlist for Teams: sends the address, says "You\'re on the list!", closes after 2 s and opens empty next time', async () => {
    vi.useFakeTimers();
    try {
      const fetchMock = vi.fn<typeof fetch>(
        async () => new Response(JSON.stringify({ success: true, created: true, message: "You're on the list!" }), { status: 200 }),
      );
      vi.stubGlobal('fetch', fetchMock);
      renderAuth();
      fireEvent.click(screen.getByRole('button', { name: /^Connect to Teams/ }));
      const input = within(screen.getByRole('dialog')).getByLabelText('Email') as HTMLInputElement;
      fireEvent.change(input, { target: { value: 'ada@example.com' } });
      fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Join Waitlist' }));
      await act(async () => {});

      expect(fetchMock).toHaveBeenCalledTimes(1);
      expect(JSON.parse(fetchMock.mock.calls[0]![1]!.body as string)).toEqual({ email: 'ada@example.com', platform: 'teams' });
      expect(within(screen.getByRole('dialog')).getByRole('status').textContent).toBe("You're on the list!");
      act(() => vi.advanceTimersByTime(1_999));
      expect(screen.queryByRole('dialog')).not.toBeNull();
      act(() => vi.advanceTimersByTime(1));
      expect(screen.queryByRole('dialog')).toBeNull();

      fireEvent.click(screen.getByRole('button', { name: /^Connect to Teams/ }));
      expect((within(screen.getByRole('dialog')).getByLabelText('Email') as HTMLInputElement).value).toBe('');
      expect(within(screen.getByRole('dialog')).queryByRole('status')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('Connect to Email signs up for the email platform', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => new Response(JSON.stringify({ success: true, created: false }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderAuth();
    await user.click(screen.getByRole('button', { name: /^Connect to Email/ }));
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Email'), 'grace@example.com{Enter}');
    expect(JSON.parse(fetchMock.mock.calls[0]![1]!.body as string)).toEqual({ email: 'grace@example.com', platform: 'email' });
    expect(await screen.findByText("You're on the list!")).toBeTruthy();
  });

  it('Connect to Slack carries no Waitlist tag', () => {
    renderAuth();
    expect(within(screen.getByRole('button', { name: 'Connect to Slack' })).queryByText('Waitlist')).toBeNull();
    expect(screen.getAllByText('Waitlist')).toHaveLength(2);
  });

  describe('a failed Slack sign-in', () => {
    it('shows the fixed text of its error code, and dismisses it', async () => {
      const user = userEvent.setup();
      renderAuth('?error=invalid_state');
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toContain('This sign-in link is not valid, was already used, or was started elsewhere. Please try again.');
      await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
      expect(screen.queryByRole('alert')).toBeNull();
    });

    it.each([
      ['?error=invalid_state&message=', 'This sign-in link is not valid'],
      ['?error=constructor&message=', 'Slack sign-in did not complete. Please try again.'],
      ['?error=made_up&message=', 'Slack sign-in did not complete. Please try again.'],
    ])('never shows the address’s own words (issue 12): %s…', (query, shown) => {
      renderAuth(query + encodeURIComponent('Your account is locked. Call +1 555 0100 to unlock it.'));
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toContain(shown);
      expect(alert.textContent).not.toContain('Call +1 555');
    });

    it('explains a cancelled consent without a message', () => {
      renderAuth('?error=access_denied');
      expect(screen.getByRole('alert').textContent).toContain('Slack sign-in was cancelled.');
    });

    it('shows nothing on a plain visit', () => {
      renderAuth();
      expect(screen.queryByRole('alert')).toBeNull();
    });
  });
});
