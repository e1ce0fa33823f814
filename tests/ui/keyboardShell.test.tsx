/**
 * The registry's actions in the real shell (issue 13 §1, §5): the palette's Actions tab lists
 * exactly the registry's palette actions that can run, with their live labels; the keys of the
 * last actions given one (the menu, the workspaces, editing a focus inbox) do what they say; and
 * the 'anywhere' keys work on the profile page, which is outside the shell.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useEffect } from 'react';
import { beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { AuthStatus } from '../../src/model/types';
import { BUILTIN_VIEWS, type CustomView } from '../../src/model/views';
import { SignedInRoutes } from '../../src/ui/App';
import { ACTIONS } from '../../src/ui/keyboard/registry';
import { CHANNEL_ID, FAKE_NOW, USER_ALICE, USER_ME } from '../fixtures/events';
import { createFakeEngine, FakeStream, summary } from './fakeEngine';
import { TestRouter, useTestLocation } from './router';

const FOCUS: CustomView = {
  id: 'v-payments',
  label: 'Payments',
  parentViewId: 'inbox',
  isVisible: true,
  isCustom: true,
  created_by: 'user',
  filters: [{ field: 'channel', operator: 'in', value: [CHANNEL_ID] }],
};
const STATUS: AuthStatus = {
  authenticated: true,
  user: USER_ME,
  workspace: { id: 'T1', name: 'Acme' },
  organizations: [
    { id: 'T1', name: 'Acme' },
    { id: 'T2', name: 'Beta\u202Egnp.exe' },
  ],
};

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

let address = '';
function Address() {
  const location = useTestLocation();
  useEffect(() => {
    address = location.pathname;
  }, [location.pathname]);
  return null;
}

async function renderAt(path: string, status: AuthStatus = STATUS) {
  const fake = createFakeEngine({
    conversations: [
      summary({
        id: CHANNEL_ID,
        name: 'payments',
        unread_count: 2,
        unread_count_display: 2,
        member_ids: [USER_ME.id, USER_ALICE.id],
        latest_activity: Math.floor(FAKE_NOW / 1000),
      }),
    ],
    users: [USER_ME, USER_ALICE],
    me: USER_ME.id,
    views: [...BUILTIN_VIEWS, FOCUS],
    // Slack mode (demoMode false), with profiles: every palette action can run.
    flags: { aiEnabled: false, userProfile: true, demoMode: false },
  });
  const switchWorkspace = vi.fn(async () => STATUS);
  Object.assign(fake.api, { search: (o: never) => new FakeStream().subscribe(o), setSearchQuery: vi.fn(), switchWorkspace });
  render(
    <TestRouter path={path}>
      <SignedInRoutes status={status} onLogout={() => undefined} />
      <Address />
    </TestRouter>,
  );
  for (let i = 0; i < 3; i++) await settle();
  return { fake, switchWorkspace };
}

const key = (k: string, init: KeyboardEventInit = {}) => fireEvent.keyDown(document.activeElement ?? document.body, { key: k, ...init });
async function sequence(...keys: string[]) {
  for (const k of keys) key(k);
  await settle();
}

/** Opens the palette (Cmd/Ctrl+K) on its Actions tab: the titles it lists. */
async function paletteActions(): Promise<Array<string | null>> {
  key('k', { ctrlKey: true });
  await settle();
  fireEvent.click(screen.getByRole('tab', { name: 'Actions' }));
  return within(screen.getByRole('listbox', { name: /results/i }))
    .getAllByRole('option')
    .map((option) => option.querySelector('.sp-title')!.textContent);
}

let assign: MockInstance<Location['assign']>;
beforeEach(() => {
  localStorage.clear();
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(720);
  Element.prototype.scrollIntoView ??= () => undefined;
  // The switch reloads into the other workspace's inbox; happy-dom has no navigation to do.
  assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
});

describe("the palette's Actions tab", () => {
  it('lists exactly the registry palette actions, each with its live label and first key', async () => {
    await renderAt('/inbox');
    // The focus inbox selected (Alt+2): editing it is an action now.
    screen.getByRole('listbox', { name: 'Inbox' }).focus();
    key('2', { altKey: true, code: 'Digit2' });
    await settle();
    const listed = await paletteActions();
    const registered = ACTIONS.filter((a) => 'palette' in a && a.palette);
    expect(listed).toHaveLength(registered.length);
    // The live labels: the state of the page, the other workspace's name without its bidi override.
    expect(listed).toContain('Edit Payments');
    expect(listed).toContain('Switch to Betagnp.exe');
    expect(listed).toContain('Mark all in Payments as read');
    expect(listed).toContain('Open the menu');
    expect(listed).toContain('Add workspace (sign in to another Slack workspace)');
    // Every other one by its registry label.
    for (const action of registered) {
      if (['edit-focus-inbox', 'switch-workspace', 'mark-view-read', 'filter-view', 'toggle-sort', 'fetch-data', 'switch-theme'].includes(action.id)) continue;
      expect(listed, action.id).toContain(action.label);
    }
  });

  it('does not list what cannot run: no other workspace, no Slack sign-in to add one (demo)', async () => {
    const fake = createFakeEngine({ views: [...BUILTIN_VIEWS], flags: { aiEnabled: false, demoMode: true } });
    Object.assign(fake.api, { search: (o: never) => new FakeStream().subscribe(o), setSearchQuery: vi.fn() });
    render(
      <TestRouter path="/inbox">
        <SignedInRoutes status={{ ...STATUS, organizations: [STATUS.organizations[0]!] }} onLogout={() => undefined} />
      </TestRouter>,
    );
    for (let i = 0; i < 3; i++) await settle();
    const listed = await paletteActions();
    expect(listed.some((label) => label?.startsWith('Switch to ') && label !== 'Switch to Dark Mode' && label !== 'Switch to Light Mode')).toBe(false);
    expect(listed).not.toContain('Add workspace (sign in to another Slack workspace)');
    expect(listed).not.toContain('Go to your profile');
    expect(listed.some((label) => label?.startsWith('Edit '))).toBe(false);
  });
});

describe('the keys of the menu, the workspaces and the focus inbox', () => {
  it('g m opens the menu with the focus in it; Esc closes it', async () => {
    await renderAt('/inbox');
    await sequence('g', 'm');
    const menu = screen.getByRole('navigation', { name: 'Menu' });
    expect(menu.contains(document.activeElement)).toBe(true);
    key('Escape');
    await settle();
    expect(screen.queryByRole('navigation', { name: 'Menu' })).toBeNull();
  });

  it('g w switches to the next workspace of the account and reloads into its inbox', async () => {
    const { switchWorkspace } = await renderAt('/conversations');
    await sequence('g', 'w');
    await settle();
    expect(switchWorkspace).toHaveBeenCalledWith('T2');
    expect(assign).toHaveBeenCalledWith('/inbox');
  });

  it('g n starts the Slack sign-in that adds a workspace', async () => {
    await renderAt('/inbox');
    await sequence('g', 'n');
    expect(assign).toHaveBeenCalledWith('/auth/slack?add=true');
  });

  it('Shift+C edits the selected focus inbox, and does nothing on a built-in view', async () => {
    const { fake } = await renderAt('/inbox');
    screen.getByRole('listbox', { name: 'Inbox' }).focus();
    key('C', { shiftKey: true });
    await settle();
    // The modal's choosers are not even asked for.
    expect(fake.api.chooserWindow).not.toHaveBeenCalled();
    key('2', { altKey: true, code: 'Digit2' });
    await settle();
    key('C', { shiftKey: true });
    await settle();
    const dialog = screen.getByRole('dialog');
    expect((within(dialog).getByRole('textbox', { name: /name/i }) as HTMLInputElement).value).toBe('Payments');
  });
});

describe('the anywhere keys on the profile page', () => {
  it('? shows the overlay and g i goes to the inbox', async () => {
    await renderAt('/profile/me');
    expect(address).toBe('/profile/me');
    key('?', { shiftKey: true });
    await settle();
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
    key('x');
    await settle();
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
    await sequence('g', 'i');
    expect(address).toBe('/inbox');
  });
});
