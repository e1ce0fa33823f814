/**
 * The action registry (issue 13 §1): one record per action, read by the dispatcher, the overlay,
 * the palette and README; and the dispatcher's choice of action for a key and a focus.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderHook } from '@testing-library/react';
import { ACTIONS, formatKeys, keyboardTable, keysText, matchesChord, parseKeys, type KeyPress } from '../../src/ui/keyboard/registry';
import { availableActions, resolve, useActionHandlers, type FocusContext } from '../../src/ui/keyboard/dispatch';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key, metaKey: false, ctrlKey: false, altKey: false, shiftKey: false, ...mods });
const LIST: FocusContext = { typing: false, onList: true, inDialog: false };
const BUTTON: FocusContext = { typing: false, onList: false, inDialog: false };
const TYPING: FocusContext = { typing: true, onList: false, inDialog: false };

describe('the registry', () => {
  it('has one record per id, every key parses, and no scope binds a key twice', () => {
    expect(new Set(ACTIONS.map((a) => a.id)).size).toBe(ACTIONS.length);
    const seen = new Map<string, string>();
    for (const action of ACTIONS) {
      expect(action.keys.length, action.id).toBeGreaterThan(0);
      for (const key of action.keys) {
        const chords = parseKeys(key);
        expect(chords.length).toBeGreaterThan(0);
        const id = `${action.scope} ${JSON.stringify(chords.map((c) => ({ ...c, key: c.key.toLowerCase() })))}`;
        expect(seen.get(id), `${action.id} and ${seen.get(id)} share ${key}`).toBeUndefined();
        seen.set(id, action.id);
      }
    }
  });

  it("README's keyboard table is the registry's", () => {
    const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
    const start = readme.indexOf('| keys | where | action |');
    expect(start).toBeGreaterThan(0);
    expect(readme.slice(start, readme.indexOf('\n\n', start))).toBe(keyboardTable());
  });

  it.each([
    ['mod+k', ['⌘/Ctrl', 'K']],
    ['shift+K', ['Shift', 'K']],
    ['g i', ['g', 'then', 'i']],
    ['alt+shift+ArrowLeft', ['Alt', 'Shift', '←']],
    ['Escape', ['Esc']],
    ['j', ['j']],
  ])('%s reads %j', (spec, parts) => {
    expect(formatKeys(spec)).toEqual(parts);
  });

  it('matches letters without case, Cmd or Ctrl as mod, ? with Shift, and Alt+digit by its physical key (macOS types ¡)', () => {
    const [modK] = parseKeys('mod+k');
    expect(matchesChord(press('k', { metaKey: true }), modK!)).toBe(true);
    expect(matchesChord(press('K', { ctrlKey: true }), modK!)).toBe(true);
    expect(matchesChord(press('k'), modK!)).toBe(false);
    expect(matchesChord(press('k', { ctrlKey: true, shiftKey: true }), modK!)).toBe(false);
    expect(matchesChord(press('?', { shiftKey: true }), parseKeys('?')[0]!)).toBe(true);
    expect(matchesChord(press('¡', { altKey: true, code: 'Digit1' }), parseKeys('alt+1')[0]!)).toBe(true);
    expect(matchesChord(press('1', { altKey: true, code: 'Digit1' }), parseKeys('alt+2')[0]!)).toBe(false);
    expect(keysText(ACTIONS.find((a) => a.id === 'next-conversation')!)).toBe('j or ↓');
  });
});

describe('the dispatcher', () => {
  afterEach(() => vi.restoreAllMocks());

  function register(handlers: Parameters<typeof useActionHandlers>[0]) {
    return renderHook(() => useActionHandlers(handlers));
  }

  it('runs the registered handler of the key; nothing when no screen handles it', () => {
    expect(resolve(press('j'), LIST, null)).toBeNull();
    const run = vi.fn();
    const screen = register({ 'next-conversation': { run } });
    const found = resolve(press('ArrowDown'), LIST, null);
    expect(found && 'handler' in found && found.binding.spec.id).toBe('next-conversation');
    if (found && 'handler' in found) found.handler.run(found.binding.index);
    expect(run).toHaveBeenCalledWith(1);
    screen.unmount();
    expect(resolve(press('j'), LIST, null)).toBeNull();
  });

  it("the list's Tab and Enter only while the list has the focus: on a button they are the browser's", () => {
    const screen = register({
      'next-view': { run: vi.fn() },
      'open-conversation': { run: vi.fn() },
      'toggle-sort': { run: vi.fn() },
      'move-view-earlier': { run: vi.fn() },
    });
    expect(resolve(press('ArrowLeft', { altKey: true, shiftKey: true }), BUTTON, null)).not.toBeNull();
    expect(resolve(press('Tab'), LIST, null)).not.toBeNull();
    expect(resolve(press('Tab'), BUTTON, null)).toBeNull();
    expect(resolve(press('Enter'), BUTTON, null)).toBeNull();
    // A letter key is not a control's own: it works with the focus on a toolbar button too; so does Alt+Shift+←.
    expect(resolve(press('s'), BUTTON, null)).not.toBeNull();
    screen.unmount();
  });

  it('while typing only whileTyping actions; nothing while a modal dialog is open', () => {
    const screen = register({ search: { run: vi.fn() }, 'next-conversation': { run: vi.fn() } });
    expect(resolve(press('j'), TYPING, null)).toBeNull();
    expect(resolve(press('k', { ctrlKey: true }), TYPING, null)).not.toBeNull();
    expect(resolve(press('k', { ctrlKey: true }), { ...LIST, inDialog: true }, null)).toBeNull();
    screen.unmount();
  });

  it('g then i: the first key waits for the second', () => {
    const screen = register({ 'go-inbox': { run: vi.fn() } });
    const first = resolve(press('g'), LIST, null);
    expect(first && 'pending' in first).toBe(true);
    const second = resolve(press('i'), LIST, first && 'pending' in first ? first.pending : null);
    expect(second && 'handler' in second && second.binding.spec.id).toBe('go-inbox');
    expect(resolve(press('i'), LIST, null)).toBeNull();
    screen.unmount();
  });

  it('a disabled handler is skipped; the latest registration wins; the palette lists enabled palette actions with their live label', () => {
    const older = vi.fn();
    const newer = vi.fn();
    const a = register({ 'toggle-sort': { run: older, label: () => 'Sort by Time' }, 'filter-view': { run: vi.fn(), enabled: () => false } });
    const b = register({ 'toggle-sort': { run: newer, label: () => 'Sort by AI' } });
    expect(resolve(press('K', { shiftKey: true }), LIST, null)).toBeNull();
    const listed = availableActions();
    expect(listed.find((x) => x.id === 'toggle-sort')?.label).toBe('Sort by AI');
    expect(listed.some((x) => x.id === 'filter-view')).toBe(false);
    listed.find((x) => x.id === 'toggle-sort')!.run();
    expect(newer).toHaveBeenCalled();
    expect(older).not.toHaveBeenCalled();
    b.unmount();
    a.unmount();
  });
});
