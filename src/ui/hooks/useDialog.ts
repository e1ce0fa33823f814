/**
 * What every dialog of the app does with focus and keys: the first field takes focus on open
 * and the opener gets it back on close; keys typed in it stay in it (Esc closes, Tab wraps
 * round its fields, nothing reaches the page's shortcuts); and keys pressed while focus is
 * outside it (it fell to the page, e.g. from a button that got disabled) still belong to it:
 * Esc closes, Tab comes back in.
 */
import { useCallback, useEffect, useLayoutEffect, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';
import { useLatest } from './useLatest';
import { matchesAction } from '../keyboard/dispatch';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The Tab stops of a dialog, in order (of a radio group only its checked radio, or its first). */
export function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => {
    if (el instanceof HTMLInputElement && el.type === 'radio' && el.name) {
      const group = Array.from(root.querySelectorAll<HTMLInputElement>('input[type="radio"]')).filter((r) => r.name === el.name);
      return el === (group.find((r) => r.checked) ?? group[0]);
    }
    return true;
  });
}

export function useDialog(options: {
  dialog: RefObject<HTMLElement | null>;
  /** What takes focus on open. */
  initial: RefObject<HTMLElement | null>;
  onClose: () => void;
  /** Where a stray Tab (Shift: backwards) brings focus back; by default the last (first) Tab stop. */
  onStrayTab?: (backwards: boolean) => void;
}): { onKeyDown: (event: ReactKeyboardEvent<HTMLElement>) => void } {
  const latestRef = useLatest(options);

  useLayoutEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    latestRef.current.initial.current?.focus();
    return () => {
      if (opener?.isConnected && opener !== document.body) opener.focus();
    };
  }, [latestRef]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const node = latestRef.current.dialog.current;
      if (!node || (event.target instanceof Node && node.contains(event.target))) return;
      event.stopPropagation();
      if (matchesAction(event, 'dialog-cancel')) {
        event.preventDefault();
        latestRef.current.onClose();
      } else if (event.key === 'Tab') {
        event.preventDefault();
        const { onStrayTab } = latestRef.current;
        if (onStrayTab) return onStrayTab(event.shiftKey);
        const items = focusables(node);
        (event.shiftKey ? items[items.length - 1] : items[0])?.focus();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [latestRef]);

  /** Keys typed inside the dialog: Esc closes, Tab wraps, and none reaches the page's shortcuts. */
  const onKeyDown = useCallback(
    (event: ReactKeyboardEvent<HTMLElement>) => {
      event.stopPropagation();
      const node = latestRef.current.dialog.current;
      if (matchesAction(event, 'dialog-cancel')) {
        event.preventDefault();
        latestRef.current.onClose();
      } else if (event.key === 'Tab' && node) {
        const items = focusables(node);
        const first = items[0];
        const last = items[items.length - 1];
        if (!first || !last) return event.preventDefault();
        const at = items.indexOf(document.activeElement as HTMLElement);
        if (event.shiftKey && at <= 0) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && (at === -1 || at === items.length - 1)) {
          event.preventDefault();
          first.focus();
        }
      }
    },
    [latestRef],
  );

  return { onKeyDown };
}
