import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useMemo, useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MultiSelect, type MultiSelectOption } from '../../src/ui/components/MultiSelect';
import { chooserOf } from './chooserSource';

// Listed alphabetically, as the worker's chooser lists them.
const CHANNELS: MultiSelectOption[] = [
  { id: 'C3', label: '#design', detail: 'Private' },
  { id: 'C4', label: '#eng-backend' },
  { id: 'C5', label: '#eng-frontend', detail: 'private' },
  { id: 'C1', label: '#general' },
  { id: 'C2', label: '#random' },
];

function Harness({
  options = CHANNELS,
  initial = [] as string[],
  onChange = (_: string[]) => {},
  chooser,
}: {
  options?: MultiSelectOption[];
  initial?: string[];
  onChange?: (next: string[]) => void;
  chooser?: ReturnType<typeof chooserOf>;
}) {
  const [selected, setSelected] = useState<string[]>(initial);
  const source = useMemo(() => chooser ?? chooserOf(options), [chooser, options]);
  return (
    <MultiSelect
      label="Specific Channels"
      placeholder="All Channels"
      source={source}
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
const findOption = (name: string) => within(listbox()).findByRole('option', { name: new RegExp(name) });
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

  it("shows 'N selected' and chips of the first three choices (named by the source), then +N", async () => {
    const { trigger } = setup({ initial: ['C2', 'C1', 'C3', 'C4', 'C5'] });
    expect(trigger.textContent).toContain('5 selected');
    expect(trigger.textContent).not.toContain('All Channels');
    const chips = () => Array.from(trigger.querySelectorAll('.ms-chip')).map((c) => c.textContent);
    await waitFor(() => expect(chips()).toEqual(['#random', '#general', '#design', '+2']));
  });
});

describe('MultiSelect popup', () => {
  it('opens on click with a focused search box and every option as an unselected checkbox-like option', async () => {
    const { events, trigger } = setup({ initial: ['C2'] });
    await events.click(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(listbox().getAttribute('aria-multiselectable')).toBe('true');
    expect(document.activeElement).toBe(search());
    await waitFor(() => expect(optionNames()).toHaveLength(5));
    expect(option('#random').getAttribute('aria-selected')).toBe('true');
    expect(option('#general').getAttribute('aria-selected')).toBe('false');
  });

  it('toggles an option on click, keeping the order chosen', async () => {
    const { events, trigger, onChange } = setup({ initial: ['C2'] });
    await events.click(trigger);
    await events.click(await findOption('#design'));
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
    await waitFor(() => expect(optionNames()).toEqual(['#eng-backend', '#eng-frontendprivate']));
    await events.clear(search());
    await events.type(search(), 'PRIVATE');
    await waitFor(() =>
      expect(
        within(listbox())
          .getAllByRole('option')
          .map((o) => o.querySelector('.ms-option-label')?.textContent),
      ).toEqual(['#design', '#eng-frontend']),
    );
    await events.clear(search());
    await events.type(search(), 'zzz');
    await waitFor(() => expect(optionNames()).toEqual([]));
    expect(listbox().textContent).toContain('No matches');
    // Accents and case do not matter.
    await events.clear(search());
    await events.type(search(), 'DÉSIGN');
    await waitFor(() => expect(optionNames()).toEqual(['#designPrivate']));
  });

  it("'Select All' selects only the options matching the search, then reads 'Clear All' and clears only those", async () => {
    const { events, trigger, onChange } = setup({ initial: ['C1'] });
    await events.click(trigger);
    await events.type(search(), 'eng');
    await waitFor(() => expect(optionNames()).toHaveLength(2));
    await events.click(screen.getByRole('button', { name: 'Select All' }));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(['C1', 'C4', 'C5']));
    expect(selectedNames()).toEqual(['#eng-backend', '#eng-frontend']);
    const clear = screen.getByRole('button', { name: 'Clear All' });
    await events.click(clear);
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(['C1']));
    await events.clear(search());
    await waitFor(() => expect(selectedNames()).toEqual(['#general']));
    expect(screen.getByRole('button', { name: 'Select All' })).toBeTruthy();
  });

  it('moves with the arrow keys and toggles with Enter in the search box and Space in the list', async () => {
    const { events, trigger, onChange } = setup();
    await events.click(trigger);
    const box = search();
    expect(box.getAttribute('aria-activedescendant')).toBe((await findOption('#design')).id);
    await events.keyboard('{ArrowDown}{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toBe(option('#eng-frontend').id);
    await events.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['C5']);
    await events.keyboard('{ArrowUp}');
    expect(box.getAttribute('aria-activedescendant')).toBe(option('#eng-backend').id);
    // Space in the search box types a space (and searches), it does not toggle.
    await events.keyboard(' ');
    expect(box).toHaveProperty('value', ' ');
    expect(onChange).toHaveBeenCalledTimes(1);
    await events.clear(box);
    listbox().focus();
    await events.keyboard('{End}');
    expect(listbox().getAttribute('aria-activedescendant')).toBe(option('#random').id);
    await events.keyboard(' ');
    expect(onChange).toHaveBeenLastCalledWith(['C5', 'C2']);
    await events.keyboard('{Home}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['C5', 'C2', 'C3']);
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
    const chooser = chooserOf(MANY);
    const { events, trigger, onChange } = setup({ chooser });
    await events.click(trigger);
    await screen.findByText('10000 options');
    expect(listbox().querySelectorAll('[role="option"]').length).toBeGreaterThan(0);
    expect(listbox().querySelectorAll('[role="option"]').length).toBeLessThan(60);
    listbox().focus();
    await events.keyboard('{End}');
    // happy-dom moves scrollTop but sends no scroll event: send the one a browser would.
    expect(listbox().scrollTop).toBeGreaterThan(0);
    fireEvent.scroll(listbox());
    // The options at the end are asked for when they come into view.
    const last = await within(listbox()).findByRole('option', { name: /Person 9999/ });
    expect(listbox().getAttribute('aria-activedescendant')).toBe(last.id);
    expect(last.getAttribute('aria-posinset')).toBe('10000');
    expect(listbox().querySelectorAll('[role="option"]').length).toBeLessThan(60);
    expect(within(listbox()).queryByRole('option', { name: /Person 0\b/ })).toBeNull();
    search().focus();
    await events.type(search(), 'engineer');
    await screen.findByText('5000 of 10000 match');
    // Windows only: the first on opening, one at the end, and searches once the typing paused (not one a key).
    expect(chooser.windows.slice(0, 2)).toEqual([
      ['', 0],
      ['', expect.any(Number)],
    ]);
    expect(chooser.windows[1]![1]).toBeGreaterThan(9_900);
    expect(chooser.windows.at(-1)).toEqual(['engineer', 0]);
    expect(chooser.windows.slice(2).length).toBeLessThan('engineer'.length / 2);
    expect(listbox().querySelectorAll('[role="option"]').length).toBeLessThan(60);
    await events.click(screen.getByRole('button', { name: 'Select All' }));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    const chosen = onChange.mock.lastCall![0] as string[];
    expect(chosen).toHaveLength(5000);
    expect(chosen.every((id) => Number(id.slice(1)) % 2 === 1)).toBe(true);
    expect(trigger.textContent).toContain('5000 selected');
  });
});
