import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Switch } from 'wouter';
import { TestRouter, useTestLocation } from './router';
import { describe, expect, it, vi } from 'vitest';
import type { AuthStatus, User } from '../../src/model/types';
import { ProfileScreen } from '../../src/ui/screens/ProfileScreen';
import { setEngineForTests, type RemoteEngine } from '../../src/ui/engine';

const ME: User = {
  id: 'U1',
  name: 'ada',
  real_name: 'Ada Lovelace',
  display_name: 'ada.l',
  title: 'Head of Computation',
  team: 'Analytical Engines',
  email: 'ada@example.test',
};

const GRACE: User = {
  id: 'U2',
  name: 'grace',
  real_name: 'Grace Hopper',
  display_name: 'amazing.grace',
  title: 'Rear Admiral',
  team: 'Compilers',
  email: 'grace@example.test',
};

const STATUS: AuthStatus = { authenticated: true, user: ME, workspace: { id: 'T1', name: 'Acme' }, organizations: [] };

/** A stand-in engine answering the two commands the profile sends. */
function engine({ flags = { userProfile: true } as Record<string, boolean>, people = [ME, GRACE] } = {}) {
  const user = vi.fn(async (id: string) => people.find((p) => p.id === id) ?? null);
  const featureFlags = vi.fn(async () => flags);
  setEngineForTests(Promise.resolve({ featureFlags, user } as unknown as RemoteEngine));
  return { user, featureFlags };
}

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

function Where() {
  return <output aria-label="Location">{useTestLocation().pathname}</output>;
}

async function renderAt(entries: string[], options: Parameters<typeof engine>[0] = {}) {
  const fake = engine(options);
  const events = userEvent.setup();
  render(
    <TestRouter path={entries}>
      <Switch>
        <Route path="/inbox">{<h1>Inbox page</h1>}</Route>
        <Route path="/conversations">{<h1>Conversations page</h1>}</Route>
        <Route path="/profile/me">
          <ProfileScreen status={STATUS} onLogout={() => {}} />
        </Route>
        <Route path="/profile/:userId">
          <ProfileScreen status={STATUS} onLogout={() => {}} />
        </Route>
      </Switch>
      <Where />
    </TestRouter>,
  );
  await settle();
  return { ...fake, events };
}

const location = () => screen.getByRole('status', { name: 'Location' }).textContent;

describe('ProfileScreen (SPEC §2.1)', () => {
  it('/profile/me shows my names, title, team, email and says it is me', async () => {
    const { user } = await renderAt(['/profile/me']);
    const card = screen.getByRole('article', { name: 'Ada Lovelace' });
    expect(screen.getByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeTruthy();
    expect(within(card).getByText('@ada.l')).toBeTruthy();
    expect(within(card).getByText('This is you')).toBeTruthy();
    expect(within(card).getByText('Head of Computation')).toBeTruthy();
    expect(within(card).getByText('Analytical Engines')).toBeTruthy();
    const email = within(card).getByRole('link', { name: 'ada@example.test' });
    expect(email.getAttribute('href')).toBe('mailto:ada@example.test');
    // My own record comes with the auth status.
    expect(user).not.toHaveBeenCalled();
  });

  it('shows coloured initials at 192 px when there is no picture', async () => {
    await renderAt(['/profile/me']);
    const initials = screen.getByText('AL');
    expect(initials.className).toMatch(/\bavatar\b.*\binitials\b/);
    expect(initials.style.width).toBe('192px');
    expect(initials.style.height).toBe('192px');
    expect(screen.getByRole('article').querySelector('img')).toBeNull();
  });

  it('/profile/{userId} shows that person, from the engine, without the note that it is me', async () => {
    const { user } = await renderAt(['/profile/U2']);
    expect(user).toHaveBeenCalledWith('U2');
    const card = screen.getByRole('article', { name: 'Grace Hopper' });
    expect(within(card).getByText('@amazing.grace')).toBeTruthy();
    expect(within(card).getByText('Rear Admiral')).toBeTruthy();
    expect(within(card).getByText('Compilers')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'grace@example.test' }).getAttribute('href')).toBe('mailto:grace@example.test');
    expect(within(card).queryByText('This is you')).toBeNull();
    expect(within(card).getByText('GH').style.width).toBe('192px');
  });

  it('shows the 192 px picture when the person has one', async () => {
    await renderAt(['/profile/U3'], {
      people: [
        {
          id: 'U3',
          name: 'alan',
          real_name: 'Alan Turing',
          display_name: 'alan',
          image_192: 'https://cdn.example.test/alan-192.png',
          avatar: 'data:image/png;base64,AAAA',
        },
      ],
    });
    const card = screen.getByRole('article', { name: 'Alan Turing' });
    const picture = card.querySelector('img');
    expect(picture?.getAttribute('src')).toBe('https://cdn.example.test/alan-192.png');
    expect(picture?.style.width).toBe('192px');
    expect(within(card).queryByText('AT')).toBeNull();
  });

  it('leaves out what the person does not have, and falls back to the name', async () => {
    await renderAt(['/profile/U4'], { people: [{ id: 'U4', name: 'charles', real_name: '', display_name: '' }] });
    const card = screen.getByRole('article', { name: 'charles' });
    expect(within(card).getByText('@charles')).toBeTruthy();
    expect(within(card).queryByRole('link')).toBeNull();
    expect(within(card).queryByText('Team')).toBeNull();
  });

  it('my own id under /profile/{userId} also says it is me', async () => {
    await renderAt(['/profile/U1']);
    expect(within(screen.getByRole('article', { name: 'Ada Lovelace' })).getByText('This is you')).toBeTruthy();
  });

  it('an unknown id says the person is not in the workspace, with a link back to the inbox', async () => {
    const { events, user } = await renderAt(['/profile/U404']);
    expect(user).toHaveBeenCalledWith('U404');
    expect(screen.getByRole('heading', { name: 'This person is not in your workspace' })).toBeTruthy();
    expect(screen.queryByRole('article')).toBeNull();
    const link = screen.getByRole('link', { name: 'Back to Inbox' });
    expect(link.getAttribute('href')).toBe('/inbox');
    await events.click(link);
    expect(location()).toBe('/inbox');
  });

  it('says Loading profile... until the engine answers', async () => {
    let answer: (user: User | null) => void = () => {};
    const user = vi.fn(() => new Promise<User | null>((resolve) => (answer = resolve)));
    setEngineForTests(Promise.resolve({ featureFlags: async () => ({ userProfile: true }), user } as unknown as RemoteEngine));
    render(
      <TestRouter path={'/profile/U2'}>
        <Switch>
          <Route path="/profile/:userId">
            <ProfileScreen status={STATUS} onLogout={() => {}} />
          </Route>
        </Switch>
      </TestRouter>,
    );
    await settle();
    expect(screen.getByRole('status').textContent).toBe('Loading profile...');
    expect(screen.queryByText('This person is not in your workspace')).toBeNull();
    await act(async () => answer(GRACE));
    expect(screen.getByRole('heading', { name: 'Grace Hopper' })).toBeTruthy();
    expect(screen.queryByText('Loading profile...')).toBeNull();
  });

  it.each(['/profile/me', '/profile/U2'])('with the userProfile flag off, %s redirects to /inbox', async (path) => {
    await renderAt([path], { flags: { userProfile: false, aiEnabled: true } });
    expect(location()).toBe('/inbox');
    expect(screen.getByRole('heading', { name: 'Inbox page' })).toBeTruthy();
    expect(screen.queryByRole('article')).toBeNull();
  });

  it('redirects to /inbox when the flags cannot be read', async () => {
    setEngineForTests(Promise.resolve({ featureFlags: () => Promise.reject(new Error('offline')), user: async () => ME } as unknown as RemoteEngine));
    render(
      <TestRouter path={'/profile/me'}>
        <Switch>
          <Route path="/inbox">{<h1>Inbox page</h1>}</Route>
          <Route path="/profile/me">
            <ProfileScreen status={STATUS} onLogout={() => {}} />
          </Route>
        </Switch>
      </TestRouter>,
    );
    await settle();
    expect(screen.getByRole('heading', { name: 'Inbox page' })).toBeTruthy();
  });

  it('Back returns to the previous page', async () => {
    const { events } = await renderAt(['/conversations', '/profile/U2']);
    await events.click(screen.getByRole('button', { name: 'Back' }));
    expect(location()).toBe('/conversations');
    expect(screen.getByRole('heading', { name: 'Conversations page' })).toBeTruthy();
  });

  it('Back goes to /inbox when the profile was the first page opened', async () => {
    const { events } = await renderAt(['/profile/me']);
    await events.click(screen.getByRole('button', { name: 'Back' }));
    expect(location()).toBe('/inbox');
  });

  it('Esc goes back too', async () => {
    const { events } = await renderAt(['/conversations', '/profile/me']);
    await events.keyboard('{Escape}');
    expect(location()).toBe('/conversations');
  });
});
