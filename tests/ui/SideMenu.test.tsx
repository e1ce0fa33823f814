import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Route, Switch } from 'wouter';
import { TestRouter, useTestLocation } from './router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthStatus, User } from '../../src/model/types';
import { SideMenu } from '../../src/ui/components/SideMenu';
import { setEngineForTests, type RemoteEngine } from '../../src/ui/engine';

const ADA: User = { id: 'U1', name: 'ada', real_name: 'Ada Lovelace', display_name: 'ada.l' };

function statusFor(user: User | null): AuthStatus {
  return { authenticated: true, user, workspace: { id: 'T1', name: 'Analytical Engines' }, organizations: [] };
}

/** A stand-in engine answering the one command the menu sends. */
function engineWithFlags(flags: Record<string, boolean>) {
  const featureFlags = vi.fn(async () => flags);
  const switchWorkspace = vi.fn(async (_id: string) => ({ authenticated: true }));
  setEngineForTests(Promise.resolve({ featureFlags, switchWorkspace } as unknown as RemoteEngine));
  return { featureFlags, switchWorkspace };
}

/** Lets the engine's answer reach the component. */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

function Where() {
  return <output aria-label="Location">{useTestLocation().pathname}</output>;
}

function Page({ status, onLogout }: { status: AuthStatus; onLogout: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open menu
      </button>
      <p>Page behind the menu</p>
      <SideMenu open={open} onClose={() => setOpen(false)} status={status} onLogout={onLogout} />
    </>
  );
}

async function openMenu({
  flags = { userProfile: true, demoMode: true } as Record<string, boolean>,
  user = ADA as User | null,
  path = '/inbox',
  status = statusFor(user),
} = {}) {
  const engine = engineWithFlags(flags);
  const onLogout = vi.fn();
  const events = userEvent.setup();
  render(
    <TestRouter path={path}>
      <Switch>
        <Route path="/profile/me">{<h1>My profile</h1>}</Route>
        <Route>
          <Page status={status} onLogout={onLogout} />
        </Route>
      </Switch>
      <Where />
    </TestRouter>,
  );
  const opener = screen.getByRole('button', { name: 'Open menu' });
  await events.click(opener);
  await settle();
  const nav = screen.getByRole('navigation', { name: 'Menu' });
  return { events, onLogout, opener, nav, engine };
}

const accountButton = (nav: HTMLElement) => within(nav).getByRole('button', { name: /Ada Lovelace/ });
const itemNames = () => screen.getAllByRole('menuitem').map((item) => item.textContent);

beforeEach(() => {
  localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
});

describe('SideMenu drawer (SPEC §2.5)', () => {
  it('renders nothing while closed', async () => {
    engineWithFlags({ userProfile: true });
    render(
      <TestRouter>
        <SideMenu open={false} onClose={() => {}} status={statusFor(ADA)} onLogout={() => {}} />
      </TestRouter>,
    );
    await settle();
    expect(screen.queryByRole('navigation', { name: 'Menu' })).toBeNull();
  });

  it('is a navigation landmark labelled Menu that takes focus on open and gives it back to the opener on close', async () => {
    const { events, opener, nav } = await openMenu();
    expect(nav.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).toBe(accountButton(nav));

    await events.click(within(nav).getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('navigation', { name: 'Menu' })).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('Esc closes it and focus returns to the opener', async () => {
    const { events, opener } = await openMenu();
    await events.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'Menu' })).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('a click outside the drawer closes it; a click inside does not', async () => {
    const { events, nav } = await openMenu();
    await events.click(within(nav).getByText('Analytical Engines'));
    expect(screen.getByRole('navigation', { name: 'Menu' })).toBe(nav);

    await events.click(nav.parentElement!);
    expect(screen.queryByRole('navigation', { name: 'Menu' })).toBeNull();
  });

  it('Tab stays inside the open drawer', async () => {
    const { events, nav } = await openMenu();
    await events.keyboard('{Shift>}{Tab}{/Shift}');
    expect(nav.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).toBe(within(nav).getByRole('link', { name: 'Ask AI' }));
    await events.keyboard('{Tab}');
    expect(document.activeElement).toBe(accountButton(nav));
  });

  it('shows the member: real name, workspace, and coloured initials when there is no picture', async () => {
    const { nav } = await openMenu();
    const account = accountButton(nav);
    expect(within(account).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(account).getByText('Analytical Engines')).toBeTruthy();
    const initials = within(account).getByText('AL');
    expect(initials.className).toMatch(/\bavatar\b/);
    expect(initials.className).toMatch(/\bc\d+\b/);
    expect(account.querySelector('img')).toBeNull();
  });

  it('falls back to the name when there is no real name, and shows a data: URL picture', async () => {
    const picture = 'data:image/svg+xml;base64,PHN2Zy8+';
    const { nav } = await openMenu({ user: { id: 'U2', name: 'grace', real_name: '', display_name: '', avatar: picture } });
    const account = within(nav).getByRole('button', { name: /grace/ });
    expect(account.querySelector('img')?.getAttribute('src')).toBe(picture);
    expect(within(account).queryByText('G')).toBeNull();
  });

  it('shows an https picture too', async () => {
    const { nav } = await openMenu({ user: { ...ADA, avatar: 'https://cdn.example.test/ada.png' } });
    expect(accountButton(nav).querySelector('img')?.getAttribute('src')).toBe('https://cdn.example.test/ada.png');
  });

  it('ignores an avatar that is not a picture address and shows initials', async () => {
    const { nav } = await openMenu({ user: { ...ADA, avatar: 'javascript:alert(1)' } });
    expect(accountButton(nav).querySelector('img')).toBeNull();
    expect(within(accountButton(nav)).getByText('AL')).toBeTruthy();
  });

  it('lists Inbox, Conversations and Ask AI as links to their routes, marking the current page', async () => {
    const { nav } = await openMenu({ path: '/conversations' });
    const pages = [
      ['Inbox', '/inbox'],
      ['Conversations', '/conversations'],
      ['Ask AI', '/ask-ai'],
    ] as const;
    for (const [name, href] of pages) {
      const link = within(nav).getByRole('link', { name });
      expect(link.getAttribute('href')).toBe(href);
      expect(link.querySelector('svg')).not.toBeNull();
      expect(link.getAttribute('aria-current')).toBe(href === '/conversations' ? 'page' : null);
    }
  });

  it('a page link navigates and closes the drawer', async () => {
    const { events, nav } = await openMenu();
    await events.click(within(nav).getByRole('link', { name: 'Ask AI' }));
    expect(screen.getByRole('status', { name: 'Location' }).textContent).toBe('/ask-ai');
    expect(screen.queryByRole('navigation', { name: 'Menu' })).toBeNull();
  });

  it.each(['Analytics', 'Automations', 'Integrations'])('%s is disabled with a Coming Soon badge and cannot be focused', async (name) => {
    const { events, nav } = await openMenu();
    const entry = within(nav).getByRole('link', { name: new RegExp(`^${name}`) });
    expect(entry.getAttribute('aria-disabled')).toBe('true');
    expect(entry.hasAttribute('href')).toBe(false);
    expect(within(entry).getByText('Coming Soon')).toBeTruthy();
    expect(entry.hasAttribute('tabindex')).toBe(false);
    const visited = new Set<Element | null>();
    for (let i = 0; i < 8; i++) {
      await events.tab();
      visited.add(document.activeElement);
    }
    expect(visited.has(within(nav).getByRole('link', { name: 'Ask AI' }))).toBe(true);
    expect(visited.has(entry)).toBe(false);
    await events.click(entry);
    expect(screen.getByRole('status', { name: 'Location' }).textContent).toBe('/inbox');
    expect(screen.getByRole('navigation', { name: 'Menu' })).toBe(nav);
  });

  it('shows exactly three Coming Soon badges', async () => {
    const { nav } = await openMenu();
    expect(within(nav).getAllByText('Coming Soon')).toHaveLength(3);
  });

  it('gives every button in the drawer an accessible name', async () => {
    const { events, nav } = await openMenu();
    await events.click(accountButton(nav));
    const buttons = within(nav).getAllByRole('button');
    expect(buttons.length).toBeGreaterThanOrEqual(2);
    for (const button of [...buttons, ...within(nav).getAllByRole('menuitem')]) {
      const name = button.getAttribute('aria-label') ?? button.textContent ?? '';
      expect(name.trim()).not.toBe('');
    }
  });
});

describe('SideMenu account dropdown', () => {
  it("lists the account's other workspaces (names without bidi controls); picking one switches the session to it", async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      const status: AuthStatus = {
        ...statusFor(ADA),
        organizations: [
          { id: 'T1', name: 'Analytical Engines' },
          { id: 'T2', name: 'Difference \u202Egnp.exe' },
        ],
      };
      const { events, nav, engine } = await openMenu({ status });
      await events.click(accountButton(nav));
      expect(itemNames()).toEqual(['Switch to Difference gnp.exe', 'View Profile', 'Light Mode', 'Logout']);
      await events.click(screen.getByRole('menuitem', { name: 'Switch to Difference gnp.exe' }));
      await settle();
      expect(engine.switchWorkspace).toHaveBeenCalledWith('T2');
      expect(assign).toHaveBeenCalledWith('/inbox');
    } finally {
      assign.mockRestore();
    }
  });

  it("offers 'Add workspace' with Slack (a sign-in bound to this session), never in the demo", async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      const { events, nav } = await openMenu({ flags: { userProfile: true, demoMode: false } });
      await events.click(accountButton(nav));
      expect(itemNames()).toEqual(['Add workspace', 'View Profile', 'Light Mode', 'Logout']);
      await events.click(screen.getByRole('menuitem', { name: 'Add workspace' }));
      expect(assign).toHaveBeenCalledWith('/auth/slack?add=true');
    } finally {
      assign.mockRestore();
    }
  });

  it('is a menu button that opens a menu with View Profile, the theme toggle and Logout', async () => {
    const { events, nav } = await openMenu();
    const button = accountButton(nav);
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('menu')).toBeNull();

    await events.click(button);

    expect(button.getAttribute('aria-expanded')).toBe('true');
    const menu = screen.getByRole('menu');
    expect(menu.getAttribute('aria-labelledby')).toBe(button.id);
    expect(itemNames()).toEqual(['View Profile', 'Light Mode', 'Logout']);
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'View Profile' }));

    await events.click(button);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('hides View Profile while the userProfile flag is off', async () => {
    const { events, nav } = await openMenu({ flags: { userProfile: false, aiEnabled: true, demoMode: true } });
    await events.click(accountButton(nav));
    expect(itemNames()).toEqual(['Light Mode', 'Logout']);
    expect(screen.queryByRole('menuitem', { name: 'View Profile' })).toBeNull();
  });

  it('hides View Profile when the flags do not mention userProfile', async () => {
    const { events, nav } = await openMenu({ flags: { demoMode: true } });
    await events.click(accountButton(nav));
    expect(itemNames()).toEqual(['Light Mode', 'Logout']);
  });

  it('View Profile goes to /profile/me and closes the drawer', async () => {
    const { events, nav } = await openMenu();
    await events.click(accountButton(nav));
    await events.click(screen.getByRole('menuitem', { name: 'View Profile' }));
    expect(screen.getByRole('status', { name: 'Location' }).textContent).toBe('/profile/me');
    expect(screen.getByRole('heading', { name: 'My profile' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Menu' })).toBeNull();
  });

  it('the theme toggle reads Light Mode while dark, switches data-theme and the stored theme, then reads Dark Mode', async () => {
    const { events, nav } = await openMenu();
    await events.click(accountButton(nav));
    await events.click(screen.getByRole('menuitem', { name: 'Light Mode' }));

    expect(document.documentElement.getAttribute('data-theme')).toBe('light');
    expect(localStorage.getItem('theme')).toBe('light');
    expect(screen.queryByRole('menu')).toBeNull();

    await events.click(accountButton(nav));
    expect(screen.queryByRole('menuitem', { name: 'Light Mode' })).toBeNull();
    await events.click(screen.getByRole('menuitem', { name: 'Dark Mode' }));

    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
  });

  it('starts from the stored theme: Dark Mode while light', async () => {
    localStorage.setItem('theme', 'light');
    const { events, nav } = await openMenu();
    await events.click(accountButton(nav));
    expect(itemNames()).toEqual(['View Profile', 'Dark Mode', 'Logout']);
  });

  it('Logout calls onLogout once', async () => {
    const { events, nav, onLogout } = await openMenu();
    await events.click(accountButton(nav));
    expect(onLogout).not.toHaveBeenCalled();
    await events.click(screen.getByRole('menuitem', { name: 'Logout' }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('is keyboard driven: arrows move and wrap, Home/End jump, Enter activates', async () => {
    const { events, nav } = await openMenu();
    const button = accountButton(nav);
    expect(document.activeElement).toBe(button);

    await events.keyboard('{ArrowDown}');
    const [profile, theme, logout] = screen.getAllByRole('menuitem');
    expect(document.activeElement).toBe(profile);
    await events.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(theme);
    await events.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(logout);
    await events.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(profile);
    await events.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(logout);
    await events.keyboard('{Home}');
    expect(document.activeElement).toBe(profile);
    await events.keyboard('{End}');
    expect(document.activeElement).toBe(logout);
    for (const item of [profile, theme, logout]) expect(item!.getAttribute('tabindex')).toBe('-1');

    await events.keyboard('{ArrowUp}{Enter}');
    expect(document.documentElement.getAttribute('data-theme')).toBe('light');
    expect(document.activeElement).toBe(button);
  });

  it('ArrowUp on the button opens the menu on its last item', async () => {
    const { events } = await openMenu();
    await events.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Logout' }));
  });

  it('Esc closes only the dropdown and returns focus to its button; a second Esc closes the drawer', async () => {
    const { events, nav, opener } = await openMenu();
    await events.keyboard('{ArrowDown}');
    expect(screen.getByRole('menu')).toBeTruthy();

    await events.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Menu' })).toBe(nav);
    expect(document.activeElement).toBe(accountButton(nav));

    await events.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'Menu' })).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('a click elsewhere in the drawer closes the dropdown but not the drawer', async () => {
    const { events, nav } = await openMenu();
    await events.click(accountButton(nav));
    expect(screen.getByRole('menu')).toBeTruthy();
    await events.click(within(nav).getByText('Analytics'));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Menu' })).toBe(nav);
  });

  it('keys typed in the drawer do not reach page shortcuts on window', async () => {
    const onWindowKey = vi.fn();
    window.addEventListener('keydown', onWindowKey);
    try {
      const { events } = await openMenu();
      await events.keyboard('jk');
      expect(onWindowKey).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('keydown', onWindowKey);
    }
  });
});
