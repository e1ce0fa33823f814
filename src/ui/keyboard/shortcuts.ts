/** Every shortcut, once: the handlers and the hints overlay both read this table (DESIGN §6). */
export interface Shortcut {
  keys: string[];
  action: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['⌘/Ctrl', 'K'], action: 'Search conversations, messages, people and actions' },
  { keys: ['j', '↓'], action: 'Next conversation' },
  { keys: ['k', '↑'], action: 'Previous conversation' },
  { keys: ['Enter', '→'], action: 'Open conversation' },
  { keys: ['Home'], action: 'First conversation' },
  { keys: ['End'], action: 'Last conversation' },
  { keys: ['Esc'], action: 'Close conversation' },
  { keys: ['Tab'], action: 'Next view' },
  { keys: ['Shift', 'Tab'], action: 'Previous view' },
  { keys: ['⌘/Ctrl', 'E'], action: 'Mark as read' },
  { keys: ['u'], action: 'Mark as unread' },
  { keys: ['⌘/Ctrl', '1'], action: 'Set category Urgent' },
  { keys: ['⌘/Ctrl', '2'], action: 'Set category Can Wait' },
  { keys: ['⌘/Ctrl', '3'], action: 'Set category FYI' },
  { keys: ['⌘/Ctrl', '0'], action: 'Remove category' },
  { keys: ['⌘/Ctrl', 'Z'], action: 'Undo last mark as read or category change' },
  { keys: ['Shift', 'K'], action: 'Filter this view (no conversation open)' },
  { keys: ['⌘/Ctrl', 'Shift', 'K'], action: 'Filter this view, or search the open conversation' },
  { keys: ['/'], action: 'Search in conversation' },
  { keys: ['Enter', 'Shift', 'Enter'], action: 'Next / previous match in conversation search' },
  { keys: ['Enter'], action: 'Send the message (in the message box)' },
  { keys: ['Shift', 'Enter'], action: 'New line (in the message box)' },
  { keys: ['Alt', '1'], action: 'Refine the message: Polish (in the message box, AI enabled)' },
  { keys: ['Alt', '2'], action: 'Refine the message: Shorter' },
  { keys: ['Alt', '3'], action: 'Refine the message: Simplify' },
  { keys: ['Alt', '4'], action: 'Refine the message: Professional' },
  { keys: ['Alt', '5'], action: 'Refine the message: List' },
  { keys: ['Esc'], action: 'Discard the refinement suggestion' },
  { keys: ['⌘/Ctrl', 'Enter'], action: 'Ask AI about the search text (in the search palette)' },
  { keys: ['⌘/Ctrl', 'Backspace'], action: 'Back to search from the AI chat' },
  { keys: ['Enter'], action: 'Ask (in the Ask AI box)' },
  { keys: ['Esc'], action: 'Leave the Ask AI conversation (ends the catch-up)' },
  { keys: ['⌘/Ctrl', 'Shift', 'V'], action: 'Voice mode on or off (Ask AI)' },
  { keys: ['Alt', 'Shift', '←'], action: 'Move the selected focus inbox earlier' },
  { keys: ['Alt', 'Shift', '→'], action: 'Move the selected focus inbox later' },
  { keys: ['Enter'], action: 'Save (in the focus inbox dialog)' },
  { keys: ['Esc'], action: 'Cancel a dialog' },
  { keys: ['?'], action: 'Show keyboard shortcuts' },
];

/** True when the key event comes from a place where the user types. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
  }
  return false;
}

/** Cmd on macOS, Ctrl elsewhere: either counts. */
export function isMod(event: KeyboardEvent): boolean {
  return event.metaKey || event.ctrlKey;
}
