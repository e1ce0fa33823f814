/** The keyboard shortcut hints overlay (SPEC §2.10, DESIGN §6): every shortcut listed; any key or click dismisses it. */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ShortcutsOverlay } from '../../src/ui/components/ShortcutsOverlay';
import { ACTIONS, keysText } from '../../src/ui/keyboard/registry';

function renderOverlay() {
  const onClose = vi.fn();
  const events = userEvent.setup();
  const result = render(
    <>
      <button type="button">Behind the overlay</button>
      <ShortcutsOverlay onClose={onClose} />
    </>,
  );
  return { ...result, onClose, events, dialog: screen.getByRole('dialog', { name: 'Keyboard shortcuts' }) };
}

describe('ShortcutsOverlay (SPEC §2.10)', () => {
  it('is a modal dialog titled Keyboard shortcuts', () => {
    const { dialog } = renderOverlay();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(within(dialog).getByRole('heading', { name: 'Keyboard shortcuts' })).toBeTruthy();
    expect(within(dialog).getByText(/^Press any key to close/)).toBeTruthy();
  });

  it('lists every action of the registry, once, with its keys, by where it applies', () => {
    const { dialog } = renderOverlay();
    const listed = within(dialog).getAllByRole('definition');
    expect(listed.map((dd) => dd.textContent)).toEqual(ACTIONS.map((a) => a.label));
    for (const action of ACTIONS) {
      const dd = within(dialog).getAllByText(action.label, { selector: 'dd' })[0]!;
      const keys = dd.previousElementSibling!;
      expect(keys.tagName).toBe('DT');
      expect(keys.textContent!.replace(/\+/g, '')).toBe(keysText(action).replace(/\+/g, ''));
      expect(keys.querySelectorAll('kbd').length).toBeGreaterThan(0);
    }
    for (const section of ['Anywhere', 'Conversation list', 'Open conversation', 'Message box'])
      expect(within(dialog).getByRole('heading', { name: section })).toBeTruthy();
  });

  it('takes the focus, and gives it back where it was when it closes', async () => {
    const onClose = vi.fn();
    const events = userEvent.setup();
    const { rerender } = render(
      <>
        <button type="button">Behind the overlay</button>
      </>,
    );
    screen.getByRole('button', { name: 'Behind the overlay' }).focus();
    rerender(
      <>
        <button type="button">Behind the overlay</button>
        <ShortcutsOverlay onClose={onClose} />
      </>,
    );
    expect(document.activeElement).toBe(screen.getByRole('dialog', { name: 'Keyboard shortcuts' }));
    await events.keyboard('x');
    rerender(
      <>
        <button type="button">Behind the overlay</button>
      </>,
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Behind the overlay' }));
  });

  it('lists the keys of SPEC §2.11 and §2.6 that the page handles', () => {
    const { dialog } = renderOverlay();
    const listed = within(dialog)
      .getAllByRole('term')
      .flatMap((dt) => [...dt.querySelectorAll('.shortcut-keys')].map((k) => [...k.querySelectorAll('kbd')].map((kbd) => kbd.textContent).join('+')));
    for (const keys of [
      'j',
      '↓',
      'k',
      '↑',
      'Enter',
      '→',
      'Home',
      'End',
      'Esc',
      'Tab',
      'Shift+Tab',
      '⌘/Ctrl+E',
      '⌘/Ctrl+1',
      '⌘/Ctrl+2',
      '⌘/Ctrl+3',
      '⌘/Ctrl+0',
      '⌘/Ctrl+Z',
      'u',
      'Shift+K',
      '⌘/Ctrl+Shift+K',
      '/',
      '?',
    ]) {
      expect(listed).toContain(keys);
    }
  });

  it.each([
    ['a letter', 'x'],
    ['Escape', '{Escape}'],
    ['Enter', '{Enter}'],
    ['?', '?'],
  ])('any key closes it: %s', async (_name, key) => {
    const { events, onClose } = renderOverlay();
    expect(onClose).not.toHaveBeenCalled();
    await events.keyboard(key);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it.each(['{ArrowDown}', '{ArrowUp}', '{PageDown}', '{PageUp}', '{Home}', '{End}', ' '])(
    '%s scrolls it instead (a keyboard user reads it all), and reaches no page key',
    async (key) => {
      const onPageKey = vi.fn();
      window.addEventListener('keydown', onPageKey);
      try {
        const { events, onClose } = renderOverlay();
        await events.keyboard(key);
        expect(onClose).not.toHaveBeenCalled();
        expect(onPageKey).not.toHaveBeenCalled();
      } finally {
        window.removeEventListener('keydown', onPageKey);
      }
    },
  );

  it('the closing key does nothing else: it never reaches the page', async () => {
    const onPageKey = vi.fn();
    window.addEventListener('keydown', onPageKey);
    document.body.addEventListener('keydown', onPageKey);
    try {
      const { events, onClose } = renderOverlay();
      await events.keyboard('j');
      expect(onClose).toHaveBeenCalledTimes(1);
      expect(onPageKey).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('keydown', onPageKey);
      document.body.removeEventListener('keydown', onPageKey);
    }
  });

  it('a click closes it, inside the dialog or outside it', async () => {
    const { events, onClose, dialog } = renderOverlay();
    await events.click(within(dialog).getByText(ACTIONS[0]!.label));
    expect(onClose).toHaveBeenCalledTimes(1);
    await events.click(screen.getByRole('button', { name: 'Behind the overlay' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('stops listening once closed', async () => {
    const { events, onClose, unmount } = renderOverlay();
    unmount();
    await events.keyboard('x');
    await events.click(document.body);
    expect(onClose).not.toHaveBeenCalled();
  });
});
