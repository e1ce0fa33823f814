import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formToRules } from '../../src/model/focus';
import type { FilterRule } from '../../src/model/types';
import { FocusInboxModal, type FocusInboxModalProps, type FocusInboxOption } from '../../src/ui/components/FocusInboxModal';
import { chooserOf } from './chooserSource';

const PAGES = [
  { id: 'inbox', label: 'Inbox' },
  { id: 'conversations', label: 'Conversations' },
];

const CHANNELS: FocusInboxOption[] = [
  { id: 'C1', label: '#general' },
  { id: 'C2', label: '#eng-backend' },
  { id: 'C3', label: '#eng-frontend', detail: 'Private' },
  { id: 'C4', label: '#design' },
];

const PEOPLE: FocusInboxOption[] = [
  { id: 'U1', label: 'Ada Lovelace', detail: 'Engineer' },
  { id: 'U2', label: 'Grace Hopper', detail: 'Admiral' },
  { id: 'U3', label: 'Alan Turing', detail: 'Engineer' },
];

type Props = Partial<FocusInboxModalProps>;

function setup(overrides: Props = {}) {
  const onSave = vi.fn<FocusInboxModalProps['onSave']>(async () => {});
  const onClose = vi.fn();
  const props: FocusInboxModalProps = {
    mode: 'create',
    pageId: 'conversations',
    pages: PAGES,
    channels: chooserOf(CHANNELS),
    people: chooserOf(PEOPLE),
    onSave,
    onClose,
    ...overrides,
  };
  const events = userEvent.setup();
  render(<FocusInboxModal {...props} />);
  return { events, onSave: (overrides.onSave as typeof onSave | undefined) ?? onSave, onClose, dialog: screen.getByRole('dialog') };
}

const nameField = () => screen.getByRole('textbox', { name: 'View Name' });
const saveButton = (name = 'Create View') => screen.getByRole('button', { name });
const trigger = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}`) });

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const EDITED = {
  id: 'v1',
  label: 'Backend',
  filters: formToRules({ messageTypes: ['channel'], readStatus: 'read', channels: ['C2'], users: ['U3'] }),
  parentViewId: 'conversations',
};

beforeEach(() => {
  // happy-dom lays nothing out: give the lists' scroll boxes a height, as a browser would, so the virtualizer shows options.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(240);
});

describe('FocusInboxModal fields (SPEC §2.7)', () => {
  it('creates: its title names the dialog, focus starts in the name field, every field is there and nothing is chosen', () => {
    const { dialog } = setup();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(screen.getByRole('dialog', { name: 'Create Focus Inbox' })).toBe(dialog);
    expect(document.activeElement).toBe(nameField());
    expect(['Team Updates', 'Priority Messages']).toContain(nameField().getAttribute('placeholder'));

    const types = within(screen.getByRole('group', { name: 'Message Type' })).getAllByRole('checkbox');
    expect(types.map((t) => t.parentElement?.textContent)).toEqual(['Direct Messages', 'Channels', 'Threads']);
    expect(types.map((t) => (t as HTMLInputElement).value)).toEqual(['dm', 'channel', 'thread']);
    expect(types.some((t) => (t as HTMLInputElement).checked)).toBe(false);

    const statuses = within(screen.getByRole('group', { name: 'Read Status' })).getAllByRole('radio');
    expect(statuses.map((s) => s.parentElement?.textContent)).toEqual(['All Messages', 'Unread Only', 'Read Only']);
    expect(statuses.map((s) => (s as HTMLInputElement).value)).toEqual(['all', 'unread', 'read']);
    expect(screen.getByRole('radio', { name: 'All Messages' })).toHaveProperty('checked', true);

    expect(trigger('Specific Channels').textContent).toContain('All Channels');
    expect(trigger('Specific People').textContent).toContain('All People');
    expect(screen.queryByRole('combobox', { name: 'Page' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(saveButton()).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete View' })).toBeNull();
  });

  it('hides the channel and people selects when there are no options', () => {
    setup({ channels: undefined, people: undefined });
    expect(screen.queryByRole('button', { name: /Specific Channels/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Specific People/ })).toBeNull();
  });

  it('saves the trimmed name and the rules of every field on the current page, then closes', async () => {
    const { events, onSave, onClose } = setup();
    await events.type(nameField(), '  Eng unread  ');
    await events.click(screen.getByRole('checkbox', { name: 'Direct Messages' }));
    await events.click(screen.getByRole('checkbox', { name: 'Threads' }));
    await events.click(screen.getByRole('radio', { name: 'Unread Only' }));
    await events.click(trigger('Specific Channels'));
    await events.click(await screen.findByRole('option', { name: /#eng-frontend/ }));
    await events.keyboard('{Escape}');
    await events.click(trigger('Specific People'));
    await events.click(await screen.findByRole('option', { name: /Grace Hopper/ }));
    await events.keyboard('{Escape}');
    expect(trigger('Specific Channels').textContent).toContain('1 selected');
    expect(trigger('Specific Channels').textContent).toContain('#eng-frontend');
    expect(onClose).not.toHaveBeenCalled();

    await events.click(saveButton());
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave).toHaveBeenCalledWith({
      label: 'Eng unread',
      filters: formToRules({ messageTypes: ['dm', 'thread'], readStatus: 'unread', channels: ['C3'], users: ['U2'] }),
      combinator: 'and',
      parentViewId: 'conversations',
    });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('needs no message type: a name alone saves a view with no rules', async () => {
    const { events, onSave } = setup();
    await events.type(nameField(), 'Everything');
    await events.click(saveButton());
    expect(onSave).toHaveBeenCalledWith({ label: 'Everything', filters: [], combinator: 'and', parentViewId: 'conversations' });
  });

  it('Select All with a search selects only the matching people', async () => {
    const { events, onSave } = setup();
    await events.type(nameField(), 'Engineers');
    await events.click(trigger('Specific People'));
    await events.type(screen.getByRole('combobox', { name: 'Search Specific People' }), 'engineer');
    await screen.findByText('2 of 3 match');
    await events.click(screen.getByRole('button', { name: 'Select All' }));
    await screen.findByRole('button', { name: 'Clear All' });
    await events.keyboard('{Escape}');
    expect(trigger('Specific People').textContent).toContain('2 selected');
    await events.click(saveButton());
    expect(onSave.mock.lastCall![0].filters).toEqual([{ field: 'member_ids', operator: 'in', value: ['U1', 'U3'] }]);
  });
});

describe('FocusInboxModal validation (SPEC §5)', () => {
  it("refuses a blank name with 'Please enter a name for your filter'", async () => {
    const { events, onSave, onClose } = setup();
    await events.type(nameField(), '   ');
    await events.click(saveButton());
    expect(screen.getByRole('alert').textContent).toBe('Please enter a name for your filter');
    expect(nameField().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(nameField());
    expect(onSave).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    // Typing clears it.
    await events.type(nameField(), 'x');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("refuses to save without a page with 'Error: Unable to determine which page this filter belongs to'", async () => {
    const { events, onSave } = setup({ pageId: null });
    await events.type(nameField(), 'Orphan');
    await events.click(saveButton());
    expect(screen.getByRole('alert').textContent).toBe('Error: Unable to determine which page this filter belongs to');
    expect(onSave).not.toHaveBeenCalled();
    expect(nameField()).toHaveProperty('value', 'Orphan');
  });
});

describe('FocusInboxModal page selector', () => {
  it('is hidden when creating, even with several pages', () => {
    setup({ mode: 'create', pages: PAGES });
    expect(screen.queryByRole('combobox', { name: 'Page' })).toBeNull();
  });

  it('is hidden when editing with one page; the view stays on its page', async () => {
    const { events, onSave } = setup({ mode: 'edit', view: EDITED, pages: [PAGES[1]!] });
    expect(screen.queryByRole('combobox', { name: 'Page' })).toBeNull();
    await events.click(saveButton('Save Changes'));
    expect(onSave.mock.lastCall![0].parentViewId).toBe('conversations');
  });

  it("is shown when editing with two pages, starts on the view's page, and its choice is the saved page", async () => {
    const { events, onSave } = setup({ mode: 'edit', view: EDITED, pages: PAGES });
    const select = screen.getByRole('combobox', { name: 'Page' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Inbox', 'Conversations']);
    expect(select).toHaveProperty('value', 'conversations');
    await events.selectOptions(select, 'Inbox');
    await events.click(saveButton('Save Changes'));
    expect(onSave.mock.lastCall![0].parentViewId).toBe('inbox');
  });

  it('asks for a page when neither the view nor the caller knows one', async () => {
    const { events, onSave } = setup({ mode: 'edit', view: { ...EDITED, parentViewId: 'gone' }, pageId: null, pages: PAGES });
    const select = screen.getByRole('combobox', { name: 'Page' });
    expect(select).toHaveProperty('value', '');
    await events.click(saveButton('Save Changes'));
    expect(screen.getByRole('alert').textContent).toBe('Error: Unable to determine which page this filter belongs to');
    expect(onSave).not.toHaveBeenCalled();
    await events.selectOptions(select, 'Inbox');
    await events.click(saveButton('Save Changes'));
    expect(onSave.mock.lastCall![0].parentViewId).toBe('inbox');
  });
});

describe('FocusInboxModal editing', () => {
  it("shows 'Modify Focus Inbox' with the view's name and rules in the form", async () => {
    const { events, onSave } = setup({ mode: 'edit', view: EDITED, onDelete: async () => {} });
    expect(screen.getByRole('dialog', { name: 'Modify Focus Inbox' })).toBeTruthy();
    expect(nameField()).toHaveProperty('value', 'Backend');
    expect(screen.getByRole('checkbox', { name: 'Channels' })).toHaveProperty('checked', true);
    expect(screen.getByRole('checkbox', { name: 'Direct Messages' })).toHaveProperty('checked', false);
    expect(screen.getByRole('radio', { name: 'Read Only' })).toHaveProperty('checked', true);
    // The chosen ones are named by the worker's chooser (only their ids are in the view's rules).
    await waitFor(() => expect(trigger('Specific Channels').textContent).toContain('#eng-backend'));
    await waitFor(() => expect(trigger('Specific People').textContent).toContain('Alan Turing'));
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete View' })).toBeTruthy();
    await events.click(saveButton('Save Changes'));
    expect(onSave).toHaveBeenCalledWith({ label: 'Backend', filters: EDITED.filters, combinator: 'and', parentViewId: 'conversations' });
  });

  describe('a view with rules the form cannot show', () => {
    const ADVANCED: FilterRule[] = [
      { field: 'type', operator: 'eq', value: 'dm' },
      { field: 'unread_count', operator: 'gt', value: 0 },
    ];
    const view = { id: 'v2', label: 'API made', filters: ADVANCED, combinator: 'or' as const, parentViewId: 'inbox' };

    it('shows an empty form with a note and keeps the rules when no filter is changed', async () => {
      const { events, onSave } = setup({ mode: 'edit', view });
      expect(screen.getByRole('note').textContent).toBe('This view uses rules this form cannot show; saving keeps them unless you change the filters');
      expect(screen.getByRole('radio', { name: 'All Messages' })).toHaveProperty('checked', true);
      expect(screen.getByRole('checkbox', { name: 'Direct Messages' })).toHaveProperty('checked', false);
      await events.clear(nameField());
      await events.type(nameField(), 'Renamed');
      await events.click(saveButton('Save Changes'));
      expect(onSave).toHaveBeenCalledWith({ label: 'Renamed', filters: ADVANCED, combinator: 'or', parentViewId: 'inbox' });
    });

    it("replaces them with the form's rules once a filter is changed", async () => {
      const { events, onSave } = setup({ mode: 'edit', view });
      await events.click(screen.getByRole('checkbox', { name: 'Threads' }));
      expect(screen.getByRole('note').textContent).toContain('replaces');
      await events.click(saveButton('Save Changes'));
      expect(onSave).toHaveBeenCalledWith({
        label: 'API made',
        filters: [{ field: 'type', operator: 'in', value: ['thread'] }],
        combinator: 'and',
        parentViewId: 'inbox',
      });
    });
  });
});

describe('FocusInboxModal delete', () => {
  it('asks first and deletes only when confirmed, then closes', async () => {
    const onDelete = vi.fn(async () => {});
    // happy-dom has no dialogs: stand in for the browser's confirm.
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    const { events, onClose } = setup({ mode: 'edit', view: EDITED, onDelete });
    await events.click(screen.getByRole('button', { name: 'Delete View' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete this focus inbox?');
    expect(onDelete).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();

    confirm.mockReturnValue(true);
    await events.click(screen.getByRole('button', { name: 'Delete View' }));
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(onDelete).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('keeps the modal open with a message when the delete fails', async () => {
    vi.stubGlobal(
      'confirm',
      vi.fn(() => true),
    );
    const { events, onClose } = setup({ mode: 'edit', view: EDITED, onDelete: async () => Promise.reject(new Error('offline')) });
    await events.click(screen.getByRole('button', { name: 'Delete View' }));
    expect(screen.getByRole('alert').textContent).toBe('Could not delete the view: offline');
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('FocusInboxModal saving', () => {
  it("reads 'Saving...' while saving; a failure shows an error line and keeps every input", async () => {
    const pending = deferred();
    const onSave = vi.fn(() => pending.promise);
    const { events, onClose } = setup({ onSave });
    await events.type(nameField(), 'Urgent DMs');
    await events.click(screen.getByRole('checkbox', { name: 'Direct Messages' }));
    await events.click(screen.getByRole('radio', { name: 'Unread Only' }));
    await events.click(trigger('Specific Channels'));
    await events.click(await screen.findByRole('option', { name: /#design/ }));
    await events.keyboard('{Escape}');
    await events.click(saveButton());
    const busy = screen.getByRole('button', { name: 'Saving...' });
    expect(busy).toHaveProperty('disabled', true);
    // A second press while saving does nothing.
    await events.type(nameField(), '{Enter}');
    expect(onSave).toHaveBeenCalledTimes(1);

    await act(async () => pending.reject(new Error('Server said no')));
    expect(screen.getByRole('alert').textContent).toBe('Could not save the view: Server said no');
    expect(saveButton()).toHaveProperty('disabled', false);
    expect(onClose).not.toHaveBeenCalled();
    expect(nameField()).toHaveProperty('value', 'Urgent DMs');
    expect(screen.getByRole('checkbox', { name: 'Direct Messages' })).toHaveProperty('checked', true);
    expect(screen.getByRole('radio', { name: 'Unread Only' })).toHaveProperty('checked', true);
    expect(trigger('Specific Channels').textContent).toContain('#design');

    // A retry sends the same input.
    onSave.mockImplementation(async () => {});
    await events.click(saveButton());
    expect(onSave.mock.calls[1]).toEqual(onSave.mock.calls[0]);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('Enter in the name field saves', async () => {
    const { events, onSave } = setup();
    await events.type(nameField(), 'Quick{Enter}');
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ label: 'Quick' }));
  });
});

describe('FocusInboxModal keyboard', () => {
  it('traps focus: Tab past the last control comes back to the name field, Shift+Tab from it goes to the last', async () => {
    const { events } = setup({ mode: 'edit', view: EDITED, onDelete: async () => {} });
    expect(document.activeElement).toBe(nameField());
    await events.tab({ shift: true });
    expect(document.activeElement).toBe(saveButton('Save Changes'));
    await events.tab();
    expect(document.activeElement).toBe(nameField());
    // A full cycle forward stays inside the dialog.
    const seen = new Set<Element | null>();
    for (let i = 0; i < 20; i++) {
      await events.tab();
      seen.add(document.activeElement);
      expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
    }
    expect(seen.has(screen.getByRole('button', { name: 'Delete View' }))).toBe(true);
    expect(seen.has(screen.getByRole('combobox', { name: 'Page' }))).toBe(true);
  });

  it('Esc cancels', async () => {
    const { events, onClose, onSave } = setup();
    await events.type(nameField(), 'Draft');
    await events.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onSave).not.toHaveBeenCalled();
  });

  it('Cancel cancels', async () => {
    const { events, onClose } = setup();
    await events.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('Esc with a list open closes the list first, then the modal', async () => {
    const { events, onClose } = setup();
    await events.click(trigger('Specific People'));
    expect(screen.getByRole('listbox', { name: 'Specific People' })).toBeTruthy();
    await events.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(trigger('Specific People'));
    await events.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("keeps keys from the page's window listeners", async () => {
    const onWindowKey = vi.fn();
    window.addEventListener('keydown', onWindowKey);
    try {
      const { events, onClose } = setup();
      await events.type(nameField(), 'jk');
      await events.click(screen.getByRole('checkbox', { name: 'Threads' }));
      await events.keyboard('j?u{Tab}{ArrowDown}');
      await events.keyboard('{Escape}');
      expect(onWindowKey).not.toHaveBeenCalled();
      expect(onClose).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener('keydown', onWindowKey);
    }
  });

  it('still owns the keys when focus has fallen out of it: Tab comes back in, Esc cancels, the page hears nothing', async () => {
    const onWindowKey = vi.fn();
    window.addEventListener('keydown', onWindowKey);
    try {
      const { events, onClose } = setup();
      nameField().blur();
      expect(document.activeElement).toBe(document.body);
      await events.keyboard('j');
      await events.tab();
      expect(document.activeElement).toBe(nameField());
      nameField().blur();
      await events.keyboard('{Escape}');
      expect(onClose).toHaveBeenCalledTimes(1);
      expect(onWindowKey).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('keydown', onWindowKey);
    }
  });

  it('gives focus back to the opener when it closes', async () => {
    function Page() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            New focus inbox
          </button>
          {open && <FocusInboxModal mode="create" pageId="inbox" pages={PAGES} onSave={async () => {}} onClose={() => setOpen(false)} />}
        </>
      );
    }
    const events = userEvent.setup();
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'New focus inbox' });
    await events.click(opener);
    expect(document.activeElement).toBe(nameField());
    await events.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});

describe('FocusInboxModal with 10,000 people', () => {
  it('keeps fewer than 60 options in the DOM while the list is open', async () => {
    const people = Array.from({ length: 10_000 }, (_, i) => ({ id: `U${i}`, label: `Person ${i}`, detail: 'Member' }));
    const { events } = setup({ people: chooserOf(people) });
    await events.click(trigger('Specific People'));
    const options = await within(screen.getByRole('listbox', { name: 'Specific People' })).findAllByRole('option');
    expect(options.length).toBeGreaterThan(0);
    expect(options.length).toBeLessThan(60);
    expect(document.querySelectorAll('[role="option"]').length).toBeLessThan(60);
  });
});
