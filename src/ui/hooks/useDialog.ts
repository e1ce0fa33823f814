/**
 * What every dialog of the app does with focus and keys: the first field takes focus on open
 * and the opener gets it back on close; keys pressed while focus is outside the dialog (it
 * fell to the page, e.g. from a button that got disabled) still belong to it: Esc closes,
 * Tab comes back in, and nothing else reaches the page's shortcuts.
 */
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

export function useDialog(options: {
  dialog: RefObject<HTMLElement | null>;
  /** What takes focus on open. */
  initial: RefObject<HTMLElement | null>;
  onClose: () => void;
  /** Where a stray Tab (Shift: backwards) brings focus back. */
  onStrayTab: (backwards: boolean) => void;
}): void {
  const latest = useRef(options);
  latest.current = options;

  useLayoutEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    latest.current.initial.current?.focus();
    return () => {
      if (opener?.isConnected && opener !== document.body) opener.focus();
    };
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const node = latest.current.dialog.current;
      if (!node || (event.target instanceof Node && node.contains(event.target))) return;
      event.stopPropagation();
      if (event.key === 'Escape') {
        event.preventDefault();
        latest.current.onClose();
      } else if (event.key === 'Tab') {
        event.preventDefault();
        latest.current.onStrayTab(event.shiftKey);
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
}
