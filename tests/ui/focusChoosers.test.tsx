/**
 * The focus inbox modal opened from a list page (issue 14 §1): its channels and people come from
 * the worker's chooser a window at a time (the fake engine answers with the real one over its
 * store), a field without options is not shown, and no answer carries a whole list.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../src/ui/components/Toasts';
import { ListPage } from '../../src/ui/screens/ListPage';
import { BUILTIN_VIEWS } from '../../src/model/views';
import { FAKE_NOW, USER_ALICE, USER_ME } from '../fixtures/events';
import { createFakeEngine, summary } from './fakeEngine';
import { TestRouter } from './router';

const CHANNELS = Array.from({ length: 3_000 }, (_, i) => summary({ id: `C${i}`, name: `team-${i}`, latest_activity: i }));
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

function renderPage(users = [USER_ME, USER_ALICE]) {
  const fake = createFakeEngine({ conversations: CHANNELS, users, me: USER_ME.id, views: BUILTIN_VIEWS.filter((v) => v.parentViewId === 'inbox') });
  render(
    <TestRouter>
      <ToastProvider>
        <ListPage page="inbox" menuButton={null} now={FAKE_NOW} />
      </ToastProvider>
    </TestRouter>,
  );
  return { fake, events: userEvent.setup() };
}

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(240);
});

describe('the focus inbox modal’s choosers', () => {
  it('lists the store’s channels and people in windows, searched in the worker', async () => {
    const { fake, events } = renderPage();
    await settle();
    await events.click(screen.getByRole('button', { name: 'Create Focus Inbox' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Focus Inbox' });
    await events.click(within(dialog).getByRole('button', { name: /^Specific Channels/ }));
    await screen.findByText('3000 options');
    await events.type(screen.getByRole('combobox', { name: 'Search Specific Channels' }), 'TEAM-299');
    await waitFor(() => expect(screen.getByText('11 of 3000 match')).toBeTruthy());
    expect(within(screen.getByRole('listbox', { name: 'Specific Channels' })).getAllByRole('option')[0]!.textContent).toBe('#team-299');
    // Every answer is a window: never more than 50 options.
    const answers = await Promise.all(fake.api.chooserWindow.mock.results.map((r) => r.value));
    expect(Math.max(...answers.map((a) => a.items.length))).toBeLessThanOrEqual(50);
    expect(fake.api.chooserWindow).toHaveBeenCalledWith('channels', 'TEAM-299', 0, 50, []);
    await events.keyboard('{Escape}');
    await events.click(within(dialog).getByRole('button', { name: /^Specific People/ }));
    await within(screen.getByRole('listbox', { name: 'Specific People' })).findByRole('option', { name: /Alice/ });
  });

  it('a field without options is not shown', async () => {
    const { events } = renderPage([USER_ME]);
    await settle();
    await events.click(screen.getByRole('button', { name: 'Create Focus Inbox' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Focus Inbox' });
    expect(within(dialog).getByRole('button', { name: /^Specific Channels/ })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: /^Specific People/ })).toBeNull();
  });
});
