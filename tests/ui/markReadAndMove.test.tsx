/**
 * Ctrl+E on the list page (SPEC §2.4): the open conversation is marked read and the next one opens,
 * in one engine command (markReadAndNext) whose answer comes from the real EngineStore's view index.
 */
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MARK_READ_GUARD_MS } from '../../src/model/constants';
import type { ConversationSummary } from '../../src/model/types';
import { BUILTIN_VIEWS } from '../../src/model/views';
import { ToastProvider } from '../../src/ui/components/Toasts';
import { ListPage } from '../../src/ui/screens/ListPage';
import { FAKE_NOW, USER_ME } from '../fixtures/events';
import { createFakeEngine, summary } from './fakeEngine';
import { TestRouter } from './router';

const minutesAgo = (m: number) => Math.floor(FAKE_NOW / 1000) - m * 60;
const unread = (id: string, name: string, minutes: number): ConversationSummary =>
  summary({ id, name, unread_count: 1, unread_count_display: 1, last_read: `${minutes}.000001`, latest_activity: minutesAgo(minutes) });
/** The unread inbox, newest first: alpha, beta, gamma. */
const ALPHA = unread('C_ALPHA', 'alpha', 1);
const BETA = unread('C_BETA', 'beta', 2);
const GAMMA = unread('C_GAMMA', 'gamma', 3);

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
const list = () => screen.getByRole('listbox', { name: 'Inbox' });
const row = (name: string) => within(list()).getByRole('option', { name: new RegExp(name) });
const rowNames = () =>
  within(list())
    .queryAllByRole('option')
    .map((o) => o.getAttribute('data-conversation-id'));
const openRow = () =>
  within(list())
    .queryAllByRole('option')
    .find((o) => o.getAttribute('aria-selected') === 'true')
    ?.getAttribute('data-conversation-id');

async function renderInbox() {
  const fake = createFakeEngine({
    conversations: [ALPHA, BETA, GAMMA],
    users: [USER_ME],
    me: USER_ME.id,
    views: BUILTIN_VIEWS.filter((v) => v.parentViewId === 'inbox'),
  });
  const events = userEvent.setup();
  render(
    <TestRouter>
      <ToastProvider>
        <ListPage page="inbox" menuButton={null} now={FAKE_NOW} />
      </ToastProvider>
    </TestRouter>,
  );
  await settle();
  await settle();
  return { fake, events };
}

const pressCtrl = async (events: ReturnType<typeof userEvent.setup>, key: string) => {
  // Presses closer than the guard are one (a held key); a person's are not.
  await act(() => new Promise<void>((resolve) => setTimeout(resolve, MARK_READ_GUARD_MS + 10)));
  await events.keyboard(`{Control>}${key}{/Control}`);
  await settle();
  await settle();
};

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  // In time order, without group headers.
  localStorage.setItem('sift_sort_mode:inbox', 'time');
  // happy-dom lays nothing out: give the list's scroll box a height, as a browser would, so the virtualizer shows rows.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(720);
});

describe('Ctrl+E: mark read and open the next', () => {
  it('marks the open conversation read with one command and opens the one that took its place; Ctrl+Z marks it unread again', async () => {
    const { fake, events } = await renderInbox();
    expect(rowNames()).toEqual(['C_ALPHA', 'C_BETA', 'C_GAMMA']);
    await events.click(row('alpha'));
    await settle();
    expect(openRow()).toBe('C_ALPHA');
    fake.api.idAt.mockClear();

    await pressCtrl(events, 'e');
    expect(fake.api.markReadAndNext).toHaveBeenCalledTimes(1);
    expect(fake.api.markReadAndNext.mock.calls[0]!.slice(0, 2)).toEqual(['inbox', 'C_ALPHA']);
    // No round trips to find the next one.
    for (const lookup of [fake.api.idAt, fake.api.indexOf, fake.api.facts]) expect(lookup).not.toHaveBeenCalled();
    expect(rowNames()).toEqual(['C_BETA', 'C_GAMMA']);
    expect(openRow()).toBe('C_BETA');
    expect(list().getAttribute('aria-activedescendant')).toBe('row-C_BETA');

    await pressCtrl(events, 'z');
    expect(fake.api.markUnread).toHaveBeenCalledWith('C_ALPHA', ALPHA.last_read);
    expect(within(screen.getByRole('region', { name: 'Notifications' })).getByText('Undone')).toBeTruthy();
  });

  it('opens the one before when the last one is read, and closes the conversation when none is left', async () => {
    const { fake, events } = await renderInbox();
    await events.click(row('gamma'));
    await settle();
    expect(document.querySelector('.detail-pane')).not.toBeNull();
    await pressCtrl(events, 'e');
    expect(openRow()).toBe('C_BETA');
    await pressCtrl(events, 'e');
    expect(openRow()).toBe('C_ALPHA');
    await pressCtrl(events, 'e');
    // Inbox zero: no list, and no conversation open.
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(document.querySelector('.detail-pane')).toBeNull();
    expect(fake.api.markRead).toHaveBeenCalledTimes(3);
  });
});
