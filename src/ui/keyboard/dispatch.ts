/**
 * The one key dispatcher (issue 13 §1, §2). Screens register what each action does while they
 * are shown (`useActionHandlers`); one keydown listener finds the registry's action for the key
 * and the focus, and runs the handler that is registered and enabled. The palette's Actions tab
 * lists the same registered actions.
 *
 * Where keys work (following the platform):
 * - Nothing while a modal dialog is open (it has its own keys). In a text field only actions marked
 *   `whileTyping`, and of those only their modifier combinations and named keys (F6, Esc): a
 *   character typed there is text.
 * - The list's navigation keys (Tab, Enter, the arrows, Home, End) only while the list has the
 *   focus: elsewhere Tab moves focus and Enter presses the focused button.
 * - `g` then a key within a second: the go-to sequences.
 * Components that own a text field (the message box, the palette, the Ask AI box, the search in a
 * conversation) match their keys with `matchesAction`, from the same registry.
 */
import { useEffect } from 'react';
import { useLatest } from '../hooks/useLatest';
import { ACTIONS, matchesChord, parseKeys, type ActionId, type ActionSpec, type Chord, type KeyPress } from './registry';
import { isTyping } from './shortcuts';

export interface ActionHandler {
  /** Runs the action; `index` is which of its keys was pressed (Alt+3 on 'select-view' is 2). */
  run: (index: number) => void;
  /** Whether it can run now (default yes); a disabled action's key does nothing and is not listed. */
  enabled?: () => boolean;
  /** The label now, where it depends on the state ('Sort by Time'). */
  label?: () => string;
}

export type ActionHandlers = Partial<Record<ActionId, ActionHandler>>;

/** The scopes the dispatcher serves; the others' keys are read by their components. */
const DISPATCHED = new Set(['anywhere', 'list', 'conversation', 'ask', 'profile']);
/** Keys a focused control uses itself: the list's bindings of them need the list focused. */
const NAVIGATION = new Set(['Tab', 'Enter', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', ' ']);
/** The more specific scope wins when two actions share a key. */
const PRECEDENCE: Record<string, number> = { conversation: 0, ask: 0, profile: 0, list: 1, anywhere: 2 };
export const SEQUENCE_MS = 1_000;

interface Binding {
  spec: ActionSpec;
  chords: Chord[];
  index: number;
}

const BINDINGS: Binding[] = ACTIONS.filter((a) => DISPATCHED.has(a.scope))
  .flatMap((spec) => spec.keys.map((key, index) => ({ spec: spec as ActionSpec, chords: parseKeys(key), index })))
  .sort((a, b) => PRECEDENCE[a.spec.scope]! - PRECEDENCE[b.spec.scope]!);

/* ---------- registered handlers ---------- */

const layers: Array<{ current: ActionHandlers }> = [];

/** The handler of an action that is registered and enabled now (the latest registration wins). */
export function handlerOf(id: ActionId): ActionHandler | undefined {
  for (let i = layers.length - 1; i >= 0; i--) {
    const handler = layers[i]!.current[id];
    if (handler && (handler.enabled?.() ?? true)) return handler;
  }
  return undefined;
}

/**
 * Registers a screen's handlers while it is mounted (its latest handlers are the ones run). The
 * one dispatcher listens on the window while any screen has handlers. An action is handled by one
 * screen at a time: screens do not register the same id.
 */
export function useActionHandlers(handlers: ActionHandlers): void {
  const ref = useLatest(handlers);
  useEffect(() => {
    const layer = {
      get current() {
        return ref.current;
      },
    };
    layers.push(layer);
    if (layers.length === 1) window.addEventListener('keydown', onKey);
    return () => {
      layers.splice(layers.indexOf(layer), 1);
      if (layers.length === 0) {
        window.removeEventListener('keydown', onKey);
        pending = null;
      }
    };
  }, [ref]);
}

/** What the palette's Actions tab lists: palette actions registered and enabled now. */
export interface AvailableAction {
  id: ActionId;
  label: string;
  keys: readonly string[];
  run: () => void;
}

export function availableActions(): AvailableAction[] {
  const out: AvailableAction[] = [];
  for (const spec of ACTIONS) {
    if (!('palette' in spec) || !spec.palette) continue;
    const handler = handlerOf(spec.id);
    if (handler) out.push({ id: spec.id, label: handler.label?.() ?? spec.label, keys: spec.keys, run: () => handler.run(0) });
  }
  return out;
}

/* ---------- the dispatcher ---------- */

/** Whether a key press is one of an action's keys (single chords only), for components that read their own keys. */
export function matchesAction(press: KeyPress, id: ActionId): boolean {
  const spec = ACTIONS.find((a) => a.id === id)!;
  return spec.keys.some((key) => {
    const chords = parseKeys(key);
    return chords.length === 1 && matchesChord(press, chords[0]!);
  });
}

/** Whether a chord types a character (no Cmd, Ctrl or Alt, and a one-character key). */
function typesText(chord: Chord): boolean {
  return chord.key.length === 1 && !chord.mod && !chord.ctrl && !chord.alt;
}

function sameChord(a: Chord, b: Chord): boolean {
  return a.key.toLowerCase() === b.key.toLowerCase() && a.mod === b.mod && a.ctrl === b.ctrl && a.alt === b.alt && a.shift === b.shift;
}

/** Where the focus is, as the dispatcher sees it. */
export interface FocusContext {
  typing: boolean;
  /** The conversation list has the focus. */
  onList: boolean;
  /** A modal dialog is open. */
  inDialog: boolean;
}

export function focusContext(target: EventTarget | null, doc: Document = document): FocusContext {
  const element = target instanceof Element ? target : null;
  return {
    typing: isTyping(target),
    // The listbox itself: with the focus nowhere (the body), Tab is the browser's (the skip link comes first).
    onList: element !== null && element.getAttribute('role') === 'listbox' && element.closest('[data-region="list"]') !== null,
    inDialog: doc.querySelector('[aria-modal="true"]') !== null,
  };
}

/**
 * The binding a key press runs, given the focus and what is pending of a sequence; null when
 * none. `pending` is the first step of a sequence typed just before.
 */
export function resolve(press: KeyPress, focus: FocusContext, pending: Chord | null): { binding: Binding; handler: ActionHandler } | { pending: Chord } | null {
  if (focus.inDialog) return null;
  let startsSequence: Chord | null = null;
  for (const binding of BINDINGS) {
    const { spec, chords } = binding;
    const last = chords[chords.length - 1]!;
    // In a text field a character is text: only modifier combinations and named keys (Esc, F6) act.
    if (focus.typing && (!spec.whileTyping || chords.length > 1 || typesText(last))) continue;
    if (chords.length === 2) {
      if (pending && sameChord(pending, chords[0]!) && matchesChord(press, last)) {
        const handler = handlerOf(spec.id as ActionId);
        if (handler) return { binding, handler };
      }
      if (!pending && matchesChord(press, chords[0]!)) startsSequence = chords[0]!;
      continue;
    }
    if (!matchesChord(press, last)) continue;
    // Alt or Cmd/Ctrl with an arrow (moving a focus inbox) is no control's own key: it works off the list too.
    if (spec.scope === 'list' && NAVIGATION.has(last.key) && !last.alt && !last.mod && !last.ctrl && !focus.onList) continue;
    const handler = handlerOf(spec.id as ActionId);
    if (handler) return { binding, handler };
  }
  return startsSequence ? { pending: startsSequence } : null;
}

/** The first step of a sequence typed just before, and when. */
let pending: { chord: Chord; at: number } | null = null;

/** The dispatcher: the window's keydown listener while any screen has handlers. */
function onKey(event: KeyboardEvent): void {
  if (event.defaultPrevented || event.isComposing || ['Shift', 'Control', 'Alt', 'Meta'].includes(event.key)) return;
  const now = Date.now();
  const before = pending && now - pending.at <= SEQUENCE_MS ? pending.chord : null;
  pending = null;
  const found = resolve(event, focusContext(event.target), before);
  if (!found) return;
  event.preventDefault();
  if ('pending' in found) pending = { chord: found.pending, at: now };
  else found.handler.run(found.binding.index);
}
