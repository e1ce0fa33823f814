import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SearchPalette, type PaletteAction, type PaletteItem, type SearchPaletteProps } from '../../src/ui/components/SearchPalette';
import { createFakeEngine } from './fakeEngine';

const CONV: PaletteItem = { kind: 'conversation', id: 'C1', title: 'eng-backend', subtitle: 'Backend team', type: 'channel', is_private: false, unread: 3 };
const CONV2: PaletteItem = { kind: 'conversation', id: 'C2', title: 'secret-plans', type: 'channel', is_private: true };
const MSG: PaletteItem = {
  kind: 'message',
  id: 'M1',
  conversationId: 'C1',
  ts: '1700000000.000100',
  title: 'eng-backend',
  text: 'Deploy <b>is</b> done',
  author: 'Ada Lovelace',
};
const USER: PaletteItem = { kind: 'user', id: 'U1', title: 'Grace Hopper', subtitle: 'Admiral', initials: 'GH', colour: 4 };

const RESULTS = { conversations: [CONV, CONV2], messages: [MSG], users: [USER] };
const EMPTY = { conversations: [], messages: [], users: [] };

function makeActions() {
  const markRead = vi.fn();
  const settings = vi.fn();
  const actions: PaletteAction[] = [
    { id: 'mark-read', label: 'Mark all as read', keys: ['Shift', 'R'], run: markRead },
    { id: 'settings', label: 'Open Settings', run: settings },
  ];
  return { actions, markRead, settings };
}

function setup(overrides: Partial<SearchPaletteProps> = {}) {
  const { actions, markRead, settings } = makeActions();
  const props: SearchPaletteProps = {
    query: 'eng',
    onQuery: vi.fn(),
    status: 'done',
    results: RESULTS,
    resetKey: 0,
    actions,
    aiEnabled: true,
    onOpenSource: vi.fn(),
    onChoose: vi.fn(),
    onClose: vi.fn(),
    ...overrides,
  };
  const user = userEvent.setup();
  const view = render(<SearchPalette {...props} />);
  const input = screen.getByPlaceholderText('Search conversations, messages, and people...');
  return { props, user, view, input, markRead, settings };
}

/** A palette whose query lives in state, like the real caller's. */
function Controlled(props: Omit<SearchPaletteProps, 'query' | 'onQuery'> & { initial?: string; onQuery?: (q: string) => void }) {
  const [query, setQuery] = useState(props.initial ?? '');
  return (
    <SearchPalette
      {...props}
      query={query}
      onQuery={(q) => {
        setQuery(q);
        props.onQuery?.(q);
      }}
    />
  );
}

const sectionNames = () =>
  within(screen.getByRole('listbox'))
    .queryAllByRole('group')
    .map((g) => g.getAttribute('aria-labelledby') && document.getElementById(g.getAttribute('aria-labelledby')!)?.textContent);
const optionTexts = () => screen.queryAllByRole('option').map((o) => o.textContent);
const activeOption = (input: HTMLElement) => {
  const id = input.getAttribute('aria-activedescendant');
  return id ? document.getElementById(id) : null;
};

describe('SearchPalette', () => {
  it('is a modal dialog with the input focused and the SPEC texts', () => {
    const { input } = setup({ query: 'en' });
    const dialog = screen.getByRole('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(input);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['All', 'Conversations', 'Messages', 'People', 'Actions']);
    expect(screen.getByRole('tablist')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'All' }).getAttribute('aria-selected')).toBe('true');
    expect(sectionNames()).toEqual(['Conversations', 'Messages', 'People', 'Actions']);
    // Footer hints: key caps and words.
    const footer = dialog.querySelector('.sp-footer') as HTMLElement;
    expect(Array.from(footer.querySelectorAll('kbd')).map((k) => k.textContent)).toEqual(['Tab', '↑↓', 'Enter', 'Esc']);
    for (const word of ['Categories', 'Navigate', 'Select', 'Close']) expect(within(footer).getByText(word)).toBeTruthy();
    expect(footer.textContent).toContain('Tab');
    expect(footer.textContent).toContain('↑↓Navigate');
  });

  it('shows message items with conversation name, author and plain text', () => {
    setup();
    const option = screen.getAllByRole('option').find((o) => o.textContent?.includes('Ada Lovelace'))!;
    expect(within(option).getByText('eng-backend')).toBeTruthy();
    expect(within(option).getByText('Deploy <b>is</b> done')).toBeTruthy();
    expect(option.querySelector('b')).toBeNull();
  });

  it('shows conversation icons, unread counts and people avatars', () => {
    setup();
    expect(screen.getByRole('img', { name: 'Channel' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Private channel' })).toBeTruthy();
    expect(screen.getByLabelText('3 unread')).toBeTruthy();
    const person = screen.getAllByRole('option').find((o) => o.textContent?.includes('Grace Hopper'))!;
    expect(person.textContent).toContain('GH');
    expect(person.textContent).toContain('Admiral');
  });

  it('calls onQuery as the user types', async () => {
    const onQuery = vi.fn();
    const user = userEvent.setup();
    render(<Controlled status="idle" results={EMPTY} resetKey={0} actions={[]} aiEnabled={false} onChoose={vi.fn()} onClose={vi.fn()} onQuery={onQuery} />);
    await user.type(screen.getByPlaceholderText('Search conversations, messages, and people...'), 'ab');
    expect(onQuery).toHaveBeenNthCalledWith(1, 'a');
    expect(onQuery).toHaveBeenNthCalledWith(2, 'ab');
  });

  it("shows 'Type to search...' for an empty query or idle, 'Searching...' while searching with no results", () => {
    const { view } = setup({ query: '', status: 'idle', results: EMPTY });
    expect(screen.getByText('Type to search...')).toBeTruthy();
    expect(screen.queryByText('Searching...')).toBeNull();

    view.rerender(<SearchPalette {...setupProps({ query: 'en', status: 'searching', results: EMPTY })} />);
    expect(screen.getByText('Searching...')).toBeTruthy();
    expect(screen.queryByText('Type to search...')).toBeNull();

    // Local matches already shown: no 'Searching...'.
    view.rerender(<SearchPalette {...setupProps({ query: 'en', status: 'searching', results: RESULTS })} />);
    expect(screen.queryByText('Searching...')).toBeNull();
    expect(screen.queryByText('Type to search...')).toBeNull();

    // A one-character query is idle.
    view.rerender(<SearchPalette {...setupProps({ query: 'e', status: 'idle', results: EMPTY })} />);
    expect(screen.getByText('Type to search...')).toBeTruthy();
  });

  it('tabs filter the sections', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('tab', { name: 'Messages' }));
    expect(sectionNames()).toEqual(['Messages']);
    expect(screen.getAllByRole('option')).toHaveLength(1);
    await user.click(screen.getByRole('tab', { name: 'People' }));
    expect(sectionNames()).toEqual(['People']);
    expect(optionTexts()[0]).toContain('Grace Hopper');
    await user.click(screen.getByRole('tab', { name: 'Conversations' }));
    expect(sectionNames()).toEqual(['Conversations']);
    expect(screen.getAllByRole('option')).toHaveLength(2);
    expect(screen.getByRole('tab', { name: 'Conversations' }).getAttribute('aria-selected')).toBe('true');
  });

  it('filters actions by name, case-insensitively, on the Actions tab and in All', async () => {
    const { user, view, props } = setup({ query: 'SETT' });
    expect(optionTexts().filter((t) => t?.includes('Settings'))).toHaveLength(1);
    expect(optionTexts().some((t) => t?.includes('Mark all as read'))).toBe(false);
    await user.click(screen.getByRole('tab', { name: 'Actions' }));
    expect(sectionNames()).toEqual(['Actions']);
    expect(optionTexts()).toEqual(['Open Settings']);
    // Empty query: all the actions.
    view.rerender(<SearchPalette {...props} query="" status="idle" results={EMPTY} />);
    expect(optionTexts()).toEqual(['Mark all as readShiftR', 'Open Settings']);
    // No matching action.
    view.rerender(<SearchPalette {...props} query="zzz" />);
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(screen.getByText('No results')).toBeTruthy();
  });

  it('moves the highlight with the arrows (wrapping) and chooses with Enter', async () => {
    const { user, input, props } = setup();
    expect(activeOption(input)?.textContent).toContain('eng-backend');
    expect(activeOption(input)?.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(activeOption(input)?.textContent).toContain('Ada Lovelace');
    await user.keyboard('{Enter}');
    expect(props.onChoose).toHaveBeenCalledWith(MSG);
    // Up from the first wraps to the last.
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    // 'eng' matches no action: conv, conv2, msg, user.
    expect(screen.getAllByRole('option')).toHaveLength(4);
    expect(activeOption(input)?.textContent).toContain('Grace Hopper');
    await user.keyboard('{ArrowDown}');
    expect(activeOption(input)?.textContent).toContain('eng-backend');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(props.onChoose).toHaveBeenLastCalledWith(CONV2);
    expect(props.onClose).not.toHaveBeenCalled();
  });

  it('choosing an action runs it and closes', async () => {
    const { user, props, markRead, settings } = setup({ query: '', status: 'idle', results: EMPTY });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(settings).toHaveBeenCalledTimes(1);
    expect(markRead).not.toHaveBeenCalled();
    expect(props.onClose).toHaveBeenCalledTimes(1);
    expect(props.onChoose).not.toHaveBeenCalled();
  });

  it('clicking an option chooses it', async () => {
    const { user, props } = setup();
    await user.click(screen.getByText('Grace Hopper'));
    expect(props.onChoose).toHaveBeenCalledWith(USER);
  });

  it('Tab and Shift+Tab cycle the tabs, keeping focus in the input and resetting the highlight', async () => {
    const { user, input } = setup();
    const selected = () => screen.getAllByRole('tab').find((t) => t.getAttribute('aria-selected') === 'true')?.textContent;
    await user.keyboard('{ArrowDown}');
    await user.tab();
    expect(selected()).toBe('Conversations');
    expect(document.activeElement).toBe(input);
    expect(activeOption(input)?.textContent).toContain('eng-backend');
    await user.tab();
    await user.tab();
    await user.tab();
    expect(selected()).toBe('Actions');
    await user.tab();
    expect(selected()).toBe('All');
    await user.tab({ shift: true });
    expect(selected()).toBe('Actions');
    await user.tab({ shift: true });
    expect(selected()).toBe('People');
    expect(document.activeElement).toBe(input);
  });

  it('Esc closes; a click on the backdrop closes, a click inside does not', async () => {
    const { user, props, view } = setup();
    await user.keyboard('{Escape}');
    expect(props.onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('dialog'));
    expect(props.onClose).toHaveBeenCalledTimes(1);
    await user.click(view.container.querySelector('.sp-backdrop')!);
    expect(props.onClose).toHaveBeenCalledTimes(2);
  });

  it('keys do not reach window listeners', async () => {
    const onWindowKey = vi.fn();
    window.addEventListener('keydown', onWindowKey);
    window.addEventListener('keyup', onWindowKey);
    try {
      const { user } = setup();
      await user.keyboard('x{ArrowDown}{Enter}{Escape}');
      expect(onWindowKey).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('keydown', onWindowKey);
      window.removeEventListener('keyup', onWindowKey);
    }
  });

  it('Esc still closes when focus has fallen outside the palette', () => {
    const { props } = setup();
    (document.activeElement as HTMLElement).blur();
    const onWindowKey = vi.fn();
    window.addEventListener('keydown', onWindowKey);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    window.removeEventListener('keydown', onWindowKey);
    expect(props.onClose).toHaveBeenCalledTimes(1);
    expect(onWindowKey).not.toHaveBeenCalled();
  });

  it('shows the Ask AI button only with text typed and AI enabled; it opens the AI chat inside the palette', async () => {
    const fake = createFakeEngine();
    const { view, props, user } = setup({ query: '' });
    expect(screen.queryByRole('button', { name: 'Ask AI' })).toBeNull();
    view.rerender(<SearchPalette {...props} query="   " />);
    expect(screen.queryByRole('button', { name: 'Ask AI' })).toBeNull();
    view.rerender(<SearchPalette {...props} query="deploy status" aiEnabled={false} />);
    expect(screen.queryByRole('button', { name: 'Ask AI' })).toBeNull();
    view.rerender(<SearchPalette {...props} query="deploy status" />);
    await user.click(screen.getByRole('button', { name: 'Ask AI' }));
    expect(screen.getByRole('dialog', { name: 'Ask AI' })).toBeTruthy();
    expect(within(screen.getByRole('log', { name: 'AI chat' })).getByText('deploy status')).toBeTruthy();
    expect(fake.api.ask).toHaveBeenCalledWith('deploy status', undefined, []);
    expect(screen.queryByRole('combobox', { name: 'Search' })).toBeNull();
    expect(props.onChoose).not.toHaveBeenCalled();
    expect(props.onClose).not.toHaveBeenCalled();
  });

  it('Cmd/Ctrl+Enter opens the AI chat with text and AI enabled, and does nothing otherwise', async () => {
    const fake = createFakeEngine();
    const { user, props, view } = setup({ query: 'what is blocked', aiEnabled: false });
    await user.keyboard('{Control>}{Enter}{/Control}');
    view.rerender(<SearchPalette {...props} aiEnabled query="  " />);
    await user.keyboard('{Meta>}{Enter}{/Meta}');
    expect(screen.queryByRole('log', { name: 'AI chat' })).toBeNull();
    expect(fake.api.ask).not.toHaveBeenCalled();
    expect(props.onChoose).not.toHaveBeenCalled();

    view.rerender(<SearchPalette {...props} aiEnabled />);
    await user.keyboard('{Meta>}{Enter}{/Meta}');
    expect(fake.api.ask).toHaveBeenCalledWith('what is blocked', undefined, []);
    expect(within(screen.getByRole('log', { name: 'AI chat' })).getByText('what is blocked')).toBeTruthy();
    expect(props.onChoose).not.toHaveBeenCalled();
  });

  it('Ctrl+Enter opens it too', async () => {
    const fake = createFakeEngine();
    const { user } = setup({ query: 'what is blocked' });
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(fake.api.ask).toHaveBeenCalledWith('what is blocked', undefined, []);
    expect(screen.getByRole('dialog', { name: 'Ask AI' })).toBeTruthy();
  });

  it('returns the highlight to the first result when resetKey changes', async () => {
    const { user, input, view, props } = setup();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(activeOption(input)?.textContent).toContain('Grace Hopper');
    // Same key (e.g. the server's items merged in): the highlight stays.
    view.rerender(<SearchPalette {...props} results={{ ...RESULTS, users: [USER, { ...USER, id: 'U2', title: 'Alan Turing' }] }} />);
    expect(activeOption(input)?.textContent).toContain('Grace Hopper');
    view.rerender(<SearchPalette {...props} resetKey={1} />);
    expect(activeOption(input)?.textContent).toContain('eng-backend');
  });

  it('has no active descendant when there is nothing to highlight', () => {
    const { input } = setup({ query: 'zz', status: 'done', results: EMPTY, actions: [] });
    expect(input.getAttribute('aria-activedescendant')).toBeNull();
    expect(screen.getByText('No results')).toBeTruthy();
  });
});

/** Props for a rerender with the same callbacks shape (fresh mocks are fine for these checks). */
function setupProps(overrides: Partial<SearchPaletteProps>): SearchPaletteProps {
  return {
    query: '',
    onQuery: vi.fn(),
    status: 'idle',
    results: EMPTY,
    resetKey: 0,
    actions: [],
    aiEnabled: false,
    onChoose: vi.fn(),
    onClose: vi.fn(),
    ...overrides,
  };
}
