import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationRow as Row } from '../../src/model/rows';
import { ConversationRow } from '../../src/ui/components/ConversationRow';
import { setEngineForTests, type RemoteEngine } from '../../src/ui/engine';

const NOW = 1_700_000_000_000;
const NOW_S = NOW / 1000;

function row(over: Partial<Row> = {}): Row {
  return {
    id: 'C1',
    name: 'release-planning',
    type: 'channel',
    is_private: false,
    unread: 3,
    preview: 'Ada: Ship it today',
    latest_activity: NOW_S - 5 * 60,
    avatars: [
      { initials: 'AL', colour: 4 },
      { initials: 'BS', colour: 7 },
    ],
    more: 0,
    ...over,
  };
}

function renderRow(over: Partial<Row> = {}, props: { selected?: boolean; onOpen?: (id: string) => void } = {}) {
  const onOpen = props.onOpen ?? vi.fn();
  const result = render(
    <div role="listbox" aria-label="Conversations">
      <ConversationRow row={row(over)} selected={props.selected ?? false} onOpen={onOpen} now={NOW} index={4} setSize={20} />
    </div>,
  );
  return { ...result, onOpen, option: screen.getByRole('option') };
}

describe('ConversationRow (SPEC §2.4)', () => {
  it('is an option of the listbox, with aria-selected and its position', () => {
    const { option, rerender } = renderRow({}, { selected: false });
    expect(option.getAttribute('aria-selected')).toBe('false');
    expect(option.getAttribute('aria-posinset')).toBe('5');
    expect(option.getAttribute('aria-setsize')).toBe('20');
    expect(option.id).toBe('row-C1');

    rerender(
      <div role="listbox" aria-label="Conversations">
        <ConversationRow row={row()} selected onOpen={() => {}} now={NOW} index={4} setSize={20} />
      </div>,
    );
    expect(screen.getByRole('option', { selected: true })).toBeTruthy();
  });

  it('shows the name and the preview', () => {
    const { option } = renderRow({ name: 'Bob Smith', preview: 'see you at 3' });
    expect(within(option).getByText('Bob Smith')).toBeTruthy();
    expect(within(option).getByText('see you at 3')).toBeTruthy();
  });

  it('shows preview text as text, never as markup', () => {
    const { option } = renderRow({ preview: '<img src=x onerror=alert(1)>' });
    expect(within(option).getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(option.querySelector('img[src="x"]')).toBeNull();
  });

  it.each([1, 3, 42])('an unread badge named "%i unread"', (unread) => {
    const { option } = renderRow({ unread });
    const badge = within(option).getByLabelText(`${unread} unread`);
    expect(badge.textContent).toBe(String(unread));
  });

  it('no unread badge when there is nothing unread', () => {
    const { option } = renderRow({ unread: 0 });
    expect(within(option).queryByLabelText(/unread/)).toBeNull();
  });

  it.each<[Row['category'], string, number]>([
    ['urgent', 'Category urgent', 3],
    ['can_wait', 'Category can_wait', 2],
    ['fyi', 'Category fyi', 1],
    [undefined, 'Not categorized', 0],
  ])('category %s: three bars at level %i, named "%s"', (category, label, level) => {
    const { option } = renderRow(category ? { category } : {});
    const bars = within(option).getByLabelText(label);
    expect(bars.classList.contains(`level-${level}`)).toBe(true);
    for (const other of [0, 1, 2, 3].filter((l) => l !== level)) expect(bars.classList.contains(`level-${other}`)).toBe(false);
    expect(bars.querySelectorAll('i')).toHaveLength(3);
  });

  it('the category carries its reason as a title', () => {
    const { option } = renderRow({ category: 'urgent', reason: 'Prod is down' });
    expect(within(option).getByLabelText('Category urgent').getAttribute('title')).toBe('Prod is down');
  });

  it.each<[Row['type'], boolean, string]>([
    ['channel', true, 'Private channel'],
    ['channel', false, 'Channel'],
    ['dm', false, 'Direct message'],
    ['thread', false, 'Thread'],
    // only a channel shows the lock: a dm or a thread of a private channel keeps its own icon
    ['dm', true, 'Direct message'],
    ['thread', true, 'Thread'],
  ])('a %s (private %s) has the type icon "%s"', (type, is_private, label) => {
    const { option } = renderRow({ type, is_private });
    const icon = within(option).getByRole('img', { name: label });
    expect(icon.tagName.toLowerCase()).toBe('svg');
    const others = ['Private channel', 'Channel', 'Direct message', 'Thread'].filter((l) => l !== label);
    for (const o of others) expect(within(option).queryByRole('img', { name: o })).toBeNull();
  });

  it.each([
    [0, null],
    [1, '+1'],
    [12, '+12'],
  ])('more = %i shows %s', (more, text) => {
    const { option } = renderRow({ more });
    if (text) expect(within(option).getByText(text)).toBeTruthy();
    else expect(within(option).queryByText(/^\+\d+$/)).toBeNull();
  });

  it('shows the avatars’ initials, and names all other members on hover (asked of the engine)', async () => {
    const memberNames = vi.fn(async () => ['Ada Lovelace', 'Bob Smith', 'Cy Young', 'Di Prince']);
    setEngineForTests(Promise.resolve({ memberNames } as unknown as RemoteEngine));
    const { option } = renderRow({ more: 2 });
    expect(within(option).getByText('AL')).toBeTruthy();
    expect(within(option).getByText('BS')).toBeTruthy();
    fireEvent.mouseEnter(option.querySelector('.row-avatars')!);
    await waitFor(() => expect(within(option).getByTitle('Ada Lovelace, Bob Smith, Cy Young, Di Prince')).toBeTruthy());
    expect(memberNames).toHaveBeenCalledWith('C1');
  });

  it.each([
    [10, 'now'],
    [5 * 60, '5m'],
    [3 * 3600, '3h'],
    [2 * 86400, '2d'],
    [14 * 86400, '2w'],
    [90 * 86400, '3mo'],
  ])('activity %i s ago reads %s', (ago, text) => {
    const { option } = renderRow({ latest_activity: NOW_S - ago });
    expect(option.querySelector('time')?.textContent).toBe(text);
  });

  it.each<[Partial<Row>, string]>([
    [{ category: 'urgent' }, 'release-planning, 3 unread, Urgent, Ada: Ship it today, 5 minutes ago'],
    [{ category: 'can_wait', unread: 1, latest_activity: NOW_S - 3600 }, 'release-planning, 1 unread, Can Wait, Ada: Ship it today, 1 hour ago'],
    [{ category: 'fyi', unread: 0, latest_activity: NOW_S - 10 }, 'release-planning, FYI, Ada: Ship it today, just now'],
    [{ preview: '', latest_activity: NOW_S - 90 * 86400 }, 'release-planning, 3 unread, Not Categorized, 3 months ago'],
  ])('its accessible name says name, unread count, category, last message and time (issue 13 §3): %o', (over, name) => {
    renderRow(over);
    expect(screen.getByRole('option', { name })).toBeTruthy();
  });

  it('posinset counts within its set when given one (a group of the inbox)', () => {
    render(
      <div role="listbox" aria-label="Conversations">
        <ConversationRow row={row()} selected={false} onOpen={() => {}} now={NOW} index={7} posInSet={2} setSize={3} />
      </div>,
    );
    const option = screen.getByRole('option');
    expect([option.getAttribute('aria-posinset'), option.getAttribute('aria-setsize')]).toEqual(['2', '3']);
  });

  it('calls onOpen with its id when clicked', async () => {
    const user = userEvent.setup();
    const onOpen = vi.fn();
    const { option } = renderRow({ id: 'C1:1700000000.000100', type: 'thread' }, { onOpen });
    await user.click(option);
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(onOpen).toHaveBeenCalledWith('C1:1700000000.000100', expect.any(Number));
  });

  it('calls onOpen when any part of the row is clicked', async () => {
    const user = userEvent.setup();
    const onOpen = vi.fn();
    const { option } = renderRow({}, { onOpen });
    await user.click(within(option).getByText('Ada: Ship it today'));
    expect(onOpen).toHaveBeenCalledWith('C1', expect.any(Number));
  });
});
