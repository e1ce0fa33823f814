import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MultiSelect, type MultiSelectOption } from '../../src/ui/components/MultiSelect';

const CHANNELS: MultiSelectOption[] = [
  { id: 'C1', label: '#general' },
  { id: 'C2', label: '#random' },
  { id: 'C3', label: '#design', detail: 'Private' },
  { id: 'C4', label: '#eng-backend' },
  { id: 'C5', label: '#eng-frontend', detail: 'private' },
];

function Harness({
  options = CHANNELS,
  initial = [] as string[],
  onChange = (_: string[]) => {},
}: {
  options?: MultiSelectOption[];
  initial?: string[];
  onChange?: (next: string[]) => void;
}) {
  const [selected, setSelected] = useState<string[]>(initial);
  return (
    <MultiSelect
      label="Specific Channels"
      placeholder="All Channels"
      options={options}
      selected={selected}
      onChange={(next) => {
        onChange(next);
        setSelected(next);
      }}
    />
  );
}

function setup(props: Parameters<typeof Harness>[0] = {}) {
  const onChange = vi.fn();
  const events = userEvent.setup();
  render(<Harness {...props} onChange={onChange} />);
  const trigger = screen.getByRole('button', { name: /Specific Channels/ });
  return { events, onChange, trigger };
}

const listbox = () => screen.getByRole('listbox', { name: 'Specific Channels' });
const search = () => screen.getByRole('combobox', { name: 'Search Specific Channels' });
const option = (name: string) => within(listbox()).getByRole('option', { name: new RegExp(name) });
const optionNames = () =>
  within(listbox())
    .queryAllByRole('option')
    .map((o) => o.textContent);
const selectedNames = () =>
  within(listbox())
    .queryAllByRole('option')
    .filter((o) => o.getAttribute('aria-selected') === 'true')
    .map((o) => o.querySelector('.ms-option-label')?.textContent);

beforeEach(() => {
  // happy-dom lays nothing out: give the list's scroll box a height, as a browser would, so the virtualizer shows options.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(240);
});

describe('MultiSelect button', () => {
  it('shows the placeholder while nothing is selected, and is closed', () => {
    const { trigger } = setup();
    expect(trigger).toHaveProperty('textContent', expect.stringContaining('All Channels'));
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it("shows 'N selected' and chips of the first three choices, then +N", () => {
    const { trigger } = setup({ initial: ['C2', 'C1', 'C3', 'C4', 'C5'] });
    expect(trigger.textContent).toContain('5 selected');
    expect(trigger.textContent).not.toContain('All Channels');
    const chips = Array.from(trigger.querySelectorAll('.ms-chip')).map((c) => c.textContent);
    expect(chips).toEqual(['#random', '#general', '#design', '+2']);
  });
});

describe('MultiSelect popup', () => {
  it('opens on click with a focused search box and every option as an unselected checkbox-like option', async () => {
    const { events, trigger } = setup({ initial: ['C2'] });
    await events.click(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(listbox().getAttribute('aria-multiselectable')).toBe('true');
    expect(document.activeElement).toBe(search());
    expect(optionNames()).toHaveLength(5);
    expect(option('#random').getAttribute('aria-selected')).toBe('true');
    expect(option('#general').getAttribute('aria-selected')).toBe('false');
  });

  it('toggles an option on click, keeping the order chosen', async () => {
    const { events, trigger, onChange } = setup({ initial: ['C2'] });
    await events.click(trigger);
    await events.click(option('#design'));
    expect(onChange).toHaveBeenLastCalledWith(['C2', 'C3']);
    expect(option('#design').getAttribute('aria-selected')).toBe('true');
    await events.click(option('#random'));
    expect(onChange).toHaveBeenLastCalledWith(['C3']);
    // Still open: several can be picked in a row.
    expect(listbox()).toBeTruthy();
    expect(trigger.textContent).toContain('1 selected');
  });

  it('searches label and detail, ignoring case', async () => {
    const { events, trigger } = setup();
    await events.click(trigger);
    await events.type(search(), 'ENG');
    expect(optionNames()).toEqual(['#eng-backend', '#eng-frontendprivate']);
    await events.clear(search());
    await events.type(search(), 'PRIVATE');
    expect(
      within(listbox())
        .getAllByRole('option')
        .map((o) => o.querySelector('.ms-option-label')?.textContent),
    ).toEqual(['#design', '#eng-frontend']);
    await events.clear(search());
    await events.type(search(), 'zzz');
    expect(optionNames()).toEqual([]);
    expect(listbox().textContent).toContain('No matches');
  });

  it("'Select All' selects only the options matching the search, then reads 'Clear All' and clears only those", async () => {
    const { events, trigger, onChange } = setup({ initial: ['C1'] });
    await events.click(trigger);
    await events.type(search(), 'eng');
    await events.click(screen.getByRole('button', { name: 'Select All' }));
    expect(onChange).toHaveBeenLastCalledWith(['C1', 'C4', 'C5']);
    expect(selectedNames()).toEqual(['#eng-backend', '#eng-frontend']);
    const clear = screen.getByRole('button', { name: 'Clear All' });
    await events.click(clear);
    expect(onChange).toHaveBeenLastCalledWith(['C1']);
    await events.clear(search());
    expect(selectedNames()).toEqual(['#general']);
    expect(screen.getByRole('button', { name: 'Select All' })).toBeTruthy();
  });

  it('moves with the arrow keys and toggles with Enter in the search box and Space in the list', async () => {
    const { events, trigger, onChange } = setup();
    await events.click(trigger);
    const box = search();
    expect(box.getAttribute('aria-activedescendant')).toBe(option('#general').id);
    await events.keyboard('{ArrowDown}{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toBe(option('#design').id);
    await events.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['C3']);
    await events.keyboard('{ArrowUp}');
    expect(box.getAttribute('aria-activedescendant')).toBe(option('#random').id);
    // Space in the search box types a space (and searches), it does not toggle.
    await events.keyboard(' ');
    expect(box).toHaveProperty('value', ' ');
    expect(onChange).toHaveBeenCalledTimes(1);
    await events.clear(box);
    listbox().focus();
    await events.keyboard('{End}');
    expect(listbox().getAttribute('aria-activedescendant')).toBe(option('#eng-frontend').id);
    await events.keyboard(' ');
    expect(onChange).toHaveBeenLastCalledWith(['C3', 'C5']);
    await events.keyboard('{Home}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['C3', 'C5', 'C1']);
  });

  it('opens with ArrowDown on the button', async () => {
    const { events, trigger } = setup();
    trigger.focus();
    await events.keyboard('{ArrowDown}');
    expect(listbox()).toBeTruthy();
    expect(document.activeElement).toBe(search());
  });

  it('Esc closes the list only: focus returns to the button and the key goes no further', async () => {
    const outer = vi.fn();
    const events = userEvent.setup();
    render(
      // eslint-disable-next-line jsx-a11y/no-static-element-interactions -- stands for the dialog around it: sees the keys that bubble out
      <div onKeyDown={(e) => outer(e.key)}>
        <Harness />
      </div>,
    );
    const trigger = screen.getByRole('button', { name: /Specific Channels/ });
    await events.click(trigger);
    await events.type(search(), 'gen');
    await events.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(outer).not.toHaveBeenCalledWith('Escape');
    // Closed, an Esc is no longer the list's to take.
    await events.keyboard('{Escape}');
    expect(outer).toHaveBeenCalledWith('Escape');
    // The search starts over on the next opening.
    await events.click(trigger);
    expect(search()).toHaveProperty('value', '');
  });

  it('closes when focus leaves it or on a press outside', async () => {
    const events = userEvent.setup();
    render(
      <>
        <Harness />
        <button type="button">Elsewhere</button>
      </>,
    );
    const trigger = screen.getByRole('button', { name: /Specific Channels/ });
    await events.click(trigger);
    await events.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(screen.queryByRole('listbox')).toBeNull();
    await events.click(trigger);
    await events.tab(); // Select All
    await events.tab(); // the list
    expect(document.activeElement).toBe(listbox());
    await events.tab();
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});

describe('MultiSelect with 10,000 options', () => {
  const MANY: MultiSelectOption[] = Array.from({ length: 10_000 }, (_, i) => ({ id: `U${i}`, label: `Person ${i}`, detail: i % 2 ? 'Engineer' : 'Designer' }));

  it('keeps only the visible options in the DOM, also after searching and jumping to the end', async () => {
    // ...and a scroll height: that of the canvas the virtualizer sizes.
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return parseFloat((this.firstElementChild as HTMLElement | null)?.style.height ?? '') || 0;
    });
    const { events, trigger, onChange } = setup({ options: MANY });
    await events.click(trigger);
    expect(listbox().querySelectorAll('[role="option"]').length).toBeGreaterThan(0);
    expect(listbox().querySelectorAll('[role="option"]').length).toBeLessThan(60);
    expect(screen.getByText('10000 options')).toBeTruthy();
    listbox().focus();
    await events.keyboard('{End}');
    // happy-dom moves scrollTop but sends no scroll event: send the one a browser would.
    expect(listbox().scrollTop).toBeGreaterThan(0);
    fireEvent.scroll(listbox());
    const last = within(listbox()).getByRole('option', { name: /Person 9999/ });
    expect(listbox().getAttribute('aria-activedescendant')).toBe(last.id);
    expect(last.getAttribute('aria-posinset')).toBe('10000');
    expect(listbox().querySelectorAll('[role="option"]').length).toBeLessThan(60);
    expect(within(listbox()).queryByRole('option', { name: /Person 0\b/ })).toBeNull();
    search().focus();
    await events.type(search(), 'engineer');
    expect(screen.getByText('5000 of 10000 match')).toBeTruthy();
    expect(listbox().querySelectorAll('[role="option"]').length).toBeLessThan(60);
    await events.click(screen.getByRole('button', { name: 'Select All' }));
    const chosen = onChange.mock.lastCall![0] as string[];
    expect(chosen).toHaveLength(5000);
    expect(chosen.every((id) => Number(id.slice(1)) % 2 === 1)).toBe(true);
    expect(trigger.textContent).toContain('5000 selected');
  });
});
