/**
 * Screen error boundaries (issue 12 §4): a screen that throws while rendering shows a message in
 * its place, and the shell (menu, live status, the other routes) keeps working. The routed
 * screens are stand-ins here so one can be made to throw; the shell, the menu, the routes and
 * the boundaries are the real ones.
 */
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { TestRouter } from './router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthStatus } from '../../src/model/types';
import { SignedInRoutes } from '../../src/ui/App';
import { log } from '../../src/ui/log';
import { USER_ME } from '../fixtures/events';
import { createFakeEngine, FakeStream } from './fakeEngine';

/** Which stand-in screen throws while rendering ('' for none). */
const failing = vi.hoisted(() => ({ screen: '' }));

function standIn(name: string, menuButton: ReactNode) {
  if (failing.screen === name) throw new Error(`${name} failed to render`);
  return (
    <>
      <header className="top-bar">{menuButton}</header>
      <main>
        <h1>{name} screen</h1>
      </main>
    </>
  );
}

vi.mock('../../src/ui/screens/ListPage', () => ({
  ListPage: ({ page, menuButton }: { page: string; menuButton: ReactNode }) => standIn(page, menuButton),
}));
vi.mock('../../src/ui/screens/AskAiPage', () => ({
  AskAiPage: ({ menuButton }: { menuButton: ReactNode }) => standIn('ask-ai', menuButton),
}));
vi.mock('../../src/ui/screens/ProfileScreen', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  ProfileScreen: () => standIn('profile', null),
}));

const STATUS: AuthStatus = { authenticated: true, user: USER_ME, workspace: { id: 'T1', name: 'Acme' }, organizations: [] };
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

async function renderAt(path: string) {
  const fake = createFakeEngine({ users: [USER_ME], me: USER_ME.id });
  // The shell's search palette listens to the engine's search stream.
  Object.assign(fake.api, { search: (o: never) => new FakeStream().subscribe(o) });
  const events = userEvent.setup();
  render(
    <TestRouter path={path}>
      <SignedInRoutes status={STATUS} onLogout={() => undefined} />
    </TestRouter>,
  );
  await settle();
  return { events };
}

const fallback = () => screen.getByRole('alert');

beforeEach(() => {
  failing.screen = '';
  localStorage.clear();
  // React reports a caught render error on the console as well; the log is what is checked.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

describe('a screen that throws', () => {
  it('shows a message with Reload and the way to the inbox, logs the error, and leaves the shell usable', async () => {
    failing.screen = 'conversations';
    const fatal = vi.spyOn(log, 'fatal');
    const { events } = await renderAt('/conversations');

    expect(document.activeElement).toBe(within(fallback()).getByRole('heading', { name: 'Something went wrong on this screen' }));
    screen.getByRole('button', { name: 'Reload' });
    expect(fatal).toHaveBeenCalledWith('Something went wrong on this screen', expect.objectContaining({ error: 'conversations failed to render' }));

    // The shell is alive: live status, and the side menu opens from the failed screen's place.
    screen.getByRole('status', { name: /Live updates/ });
    expect(screen.queryByRole('navigation', { name: 'Menu' })).toBeNull();
    await events.click(screen.getByRole('button', { name: 'Open menu' }));
    screen.getByRole('navigation', { name: 'Menu' });
    await events.click(screen.getByRole('button', { name: 'Close menu' }));

    // The other routes still open.
    await events.click(screen.getByRole('link', { name: 'Go to Inbox' }));
    await settle();
    screen.getByRole('heading', { name: 'inbox screen' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fatal).toHaveBeenCalledTimes(1);
  });

  it('reloads the page from Reload', async () => {
    failing.screen = 'ask-ai';
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => {});
    try {
      const { events } = await renderAt('/ask-ai');
      await events.click(screen.getByRole('button', { name: 'Reload' }));
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      reload.mockRestore();
    }
  });

  it('tries the inbox again from its own failure once it renders', async () => {
    failing.screen = 'inbox';
    const { events } = await renderAt('/inbox');
    expect(fallback().textContent).toContain('Something went wrong on this screen');
    failing.screen = '';
    await events.click(screen.getByRole('link', { name: 'Go to Inbox' }));
    await settle();
    screen.getByRole('heading', { name: 'inbox screen' });
  });

  it('a screen outside the shell (a profile) fails alone', async () => {
    failing.screen = 'profile';
    const { events } = await renderAt('/profile/me');
    expect(fallback().textContent).toContain('Something went wrong on this screen');
    await events.click(screen.getByRole('link', { name: 'Go to Inbox' }));
    await settle();
    screen.getByRole('heading', { name: 'inbox screen' });
  });
});
