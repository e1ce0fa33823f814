/**
 * Every user action, once (issue 13 §1): its id, label, keys and where it applies. The key
 * dispatcher (keyboard/dispatch.ts), the `?` overlay, the search palette's Actions tab and
 * README's keyboard table all read this list; nothing lists an action twice.
 *
 * A key is written as `mod+shift+k`: modifiers (`mod` is ⌘ on macOS and Ctrl elsewhere; `ctrl`,
 * `alt`, `shift`) then the key as `KeyboardEvent.key` names it (`Enter`, `ArrowDown`, `F6`, a
 * character). A space separates the steps of a sequence (`g i`: g, then i within a second).
 * Keys are data, so a member's own keymap can later replace an action's `keys` by id.
 */

/** Where an action applies: the focus (or the open screen) that makes its keys live. */
export type Scope =
  /** Any screen of the signed-in app, unless a dialog is open. */
  | 'anywhere'
  /** A list page, with the focus on the conversation list (or nowhere). */
  | 'list'
  /** A list page with a conversation open. */
  | 'conversation'
  /** The message box of the open conversation. */
  | 'composer'
  /** The open conversation's search field. */
  | 'conversation-search'
  /** The search palette. */
  | 'palette'
  /** The Ask AI page. */
  | 'ask'
  /** A profile page. */
  | 'profile'
  /** A dialog (the focus inbox dialog, the palette, the overlay). */
  | 'dialog';

export const SCOPE_LABELS: Record<Scope, string> = {
  anywhere: 'Anywhere',
  list: 'Conversation list',
  conversation: 'Open conversation',
  composer: 'Message box',
  'conversation-search': 'Search in a conversation',
  palette: 'Search palette',
  ask: 'Ask AI',
  profile: 'Profile',
  dialog: 'Dialogs',
};

export interface ActionSpec {
  id: string;
  /** What it does, as the overlay, the palette and README say it. */
  label: string;
  /** Its keys; the first is the one shown first. */
  keys: readonly string[];
  scope: Scope;
  /** Its modifier combinations and named keys (F6, Esc) work while typing in a text field too; a character never does. */
  whileTyping?: boolean;
  /** Listed in the search palette's Actions tab. */
  palette?: boolean;
  /** How the keys read when a list of them would be long (Alt+1…9). */
  keysLabel?: string;
}

const VIEW_KEYS = Array.from({ length: 9 }, (_, i) => `alt+${i + 1}`);

export const ACTIONS = [
  // Anywhere
  { id: 'search', label: 'Search conversations, messages, people and actions', keys: ['mod+k'], scope: 'anywhere', whileTyping: true },
  { id: 'go-inbox', label: 'Go to Inbox', keys: ['g i'], scope: 'anywhere', palette: true },
  { id: 'go-conversations', label: 'Go to Conversations', keys: ['g c'], scope: 'anywhere', palette: true },
  { id: 'go-ask-ai', label: 'Go to Ask AI', keys: ['g a'], scope: 'anywhere', palette: true },
  { id: 'go-profile', label: 'Go to your profile', keys: ['g p'], scope: 'anywhere', palette: true },
  { id: 'next-region', label: 'Next region: top bar, list, conversation, message box', keys: ['F6'], scope: 'anywhere', whileTyping: true },
  { id: 'previous-region', label: 'Previous region', keys: ['shift+F6'], scope: 'anywhere', whileTyping: true },
  { id: 'switch-theme', label: 'Switch between light and dark mode', keys: ['g t'], scope: 'anywhere', palette: true },
  { id: 'show-shortcuts', label: 'Show keyboard shortcuts', keys: ['?'], scope: 'anywhere', palette: true },
  { id: 'open-menu', label: 'Open the menu', keys: ['g m'], scope: 'anywhere', palette: true },
  { id: 'switch-workspace', label: 'Switch to the next workspace of your account', keys: ['g w'], scope: 'anywhere', palette: true },
  { id: 'add-workspace', label: 'Add workspace (sign in to another Slack workspace)', keys: ['g n'], scope: 'anywhere', palette: true },
  { id: 'sign-out', label: 'Sign out', keys: ['g l'], scope: 'anywhere', palette: true },
  // The conversation list
  { id: 'next-conversation', label: 'Next conversation', keys: ['j', 'ArrowDown'], scope: 'list' },
  { id: 'previous-conversation', label: 'Previous conversation', keys: ['k', 'ArrowUp'], scope: 'list' },
  { id: 'first-conversation', label: 'First conversation', keys: ['Home'], scope: 'list' },
  { id: 'last-conversation', label: 'Last conversation', keys: ['End'], scope: 'list' },
  { id: 'open-conversation', label: 'Open the conversation (on a group header: collapse or expand)', keys: ['Enter', 'ArrowRight'], scope: 'list' },
  { id: 'next-view', label: 'Next view', keys: ['Tab'], scope: 'list' },
  { id: 'previous-view', label: 'Previous view', keys: ['shift+Tab'], scope: 'list' },
  { id: 'select-view', label: 'Go to view 1 to 9 (built-in views, then focus inboxes)', keys: VIEW_KEYS, keysLabel: 'Alt+1…9', scope: 'list' },
  { id: 'filter-view', label: 'Filter this view (no conversation open)', keys: ['shift+K', 'mod+shift+K'], scope: 'list', palette: true, whileTyping: true },
  { id: 'mark-view-read', label: 'Mark all in this view as read', keys: ['shift+E'], scope: 'list', palette: true },
  { id: 'create-focus-inbox', label: 'Create focus inbox', keys: ['shift+N'], scope: 'list', palette: true },
  { id: 'edit-focus-inbox', label: 'Edit the selected focus inbox', keys: ['shift+C'], scope: 'list', palette: true },
  { id: 'toggle-sort', label: 'Sort by AI or by time', keys: ['s'], scope: 'list', palette: true },
  { id: 'fetch-data', label: 'Fetch data from the workspace', keys: ['shift+R'], scope: 'list', palette: true },
  { id: 'move-view-earlier', label: 'Move the selected focus inbox earlier', keys: ['alt+shift+ArrowLeft'], scope: 'list' },
  { id: 'move-view-later', label: 'Move the selected focus inbox later', keys: ['alt+shift+ArrowRight'], scope: 'list' },
  { id: 'mark-unread', label: 'Mark the open (or selected) conversation unread', keys: ['u'], scope: 'list' },
  { id: 'category-urgent', label: 'Set category Urgent', keys: ['mod+1'], scope: 'list', whileTyping: true },
  { id: 'category-can-wait', label: 'Set category Can Wait', keys: ['mod+2'], scope: 'list', whileTyping: true },
  { id: 'category-fyi', label: 'Set category FYI', keys: ['mod+3'], scope: 'list', whileTyping: true },
  { id: 'category-none', label: 'Remove the category', keys: ['mod+0'], scope: 'list', whileTyping: true },
  { id: 'undo', label: 'Undo the last mark as read, mark unread or category change', keys: ['mod+z'], scope: 'list' },
  // The open conversation
  { id: 'mark-read', label: 'Mark the open conversation read, then open the next', keys: ['mod+e'], scope: 'conversation', whileTyping: true },
  { id: 'close-conversation', label: 'Close the conversation', keys: ['Escape'], scope: 'conversation', whileTyping: true },
  { id: 'search-in-conversation', label: 'Search in the open conversation', keys: ['/', 'mod+shift+K'], scope: 'conversation', whileTyping: true },
  { id: 'next-match', label: 'Next match', keys: ['Enter'], scope: 'conversation-search', whileTyping: true },
  { id: 'previous-match', label: 'Previous match', keys: ['shift+Enter'], scope: 'conversation-search', whileTyping: true },
  // The message box
  { id: 'send', label: 'Send the message', keys: ['Enter'], scope: 'composer', whileTyping: true },
  { id: 'new-line', label: 'New line', keys: ['shift+Enter'], scope: 'composer', whileTyping: true },
  { id: 'refine-polish', label: 'Refine the message: Polish (AI enabled)', keys: ['alt+1'], scope: 'composer', whileTyping: true },
  { id: 'refine-shorter', label: 'Refine the message: Shorter', keys: ['alt+2'], scope: 'composer', whileTyping: true },
  { id: 'refine-simplify', label: 'Refine the message: Simplify', keys: ['alt+3'], scope: 'composer', whileTyping: true },
  { id: 'refine-professional', label: 'Refine the message: Professional', keys: ['alt+4'], scope: 'composer', whileTyping: true },
  { id: 'refine-list', label: 'Refine the message: List', keys: ['alt+5'], scope: 'composer', whileTyping: true },
  { id: 'discard-refinement', label: 'Discard the refinement suggestion', keys: ['Escape'], scope: 'composer', whileTyping: true },
  // The search palette
  { id: 'palette-ask-ai', label: 'Ask AI about the search text', keys: ['mod+Enter'], scope: 'palette', whileTyping: true },
  { id: 'palette-back', label: 'Back to the search from the AI chat', keys: ['mod+Backspace'], scope: 'palette', whileTyping: true },
  // Ask AI
  { id: 'ask', label: 'Ask', keys: ['Enter'], scope: 'ask', whileTyping: true },
  { id: 'leave-ask', label: 'Leave the Ask AI conversation (ends the catch-up)', keys: ['Escape'], scope: 'ask', whileTyping: true },
  { id: 'voice-mode', label: 'Voice mode on or off', keys: ['mod+shift+V'], scope: 'ask', whileTyping: true },
  { id: 'undo-catchup', label: "Undo the catch-up's last mark read", keys: ['mod+z'], scope: 'ask', whileTyping: true },
  // A profile
  { id: 'profile-back', label: 'Back (to the inbox when the profile was the first page)', keys: ['Escape'], scope: 'profile' },
  // Dialogs
  { id: 'dialog-save', label: 'Save (in the focus inbox dialog)', keys: ['Enter'], scope: 'dialog', whileTyping: true },
  { id: 'dialog-cancel', label: 'Close the dialog', keys: ['Escape'], scope: 'dialog', whileTyping: true },
] as const satisfies readonly ActionSpec[];

export type ActionId = (typeof ACTIONS)[number]['id'];

const BY_ID = new Map<string, ActionSpec>(ACTIONS.map((a) => [a.id, a]));

export function actionSpec(id: ActionId): ActionSpec {
  return BY_ID.get(id)!;
}

/* ---------- keys ---------- */

/** One key press: a key and its modifiers. */
export interface Chord {
  key: string;
  mod: boolean;
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}

const MODIFIERS = new Set(['mod', 'ctrl', 'alt', 'shift']);

/** `mod+shift+k` → a chord; `g i` → two. */
export function parseKeys(spec: string): Chord[] {
  return spec.split(' ').map((step) => {
    const parts = step.split('+');
    // A '+' key itself would end in an empty part; none of Sift's keys is '+'.
    const key = parts.pop()!;
    const chord: Chord = { key, mod: false, ctrl: false, alt: false, shift: false };
    for (const part of parts) {
      if (!MODIFIERS.has(part)) throw new Error(`Unknown modifier '${part}' in key '${spec}'`);
      chord[part as 'mod' | 'ctrl' | 'alt' | 'shift'] = true;
    }
    return chord;
  });
}

/** The parts of what a key press carries that a chord is compared with. */
export interface KeyPress {
  key: string;
  code?: string;
  metaKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/**
 * Whether a key press is the chord. Letters compare without case (Shift+K reads 'K'); with Alt,
 * macOS types another character (Alt+1 is '¡'), so a digit or letter chord also matches by its
 * physical key (`Digit1`, `KeyK`).
 */
export function matchesChord(press: KeyPress, chord: Chord): boolean {
  const mod = press.metaKey || press.ctrlKey;
  if (chord.mod !== mod && !(chord.ctrl && press.ctrlKey)) return false;
  if (chord.ctrl && !press.ctrlKey) return false;
  if (chord.alt !== press.altKey) return false;
  // '?' is typed with Shift on most layouts: a chord of a punctuation key ignores Shift.
  const punctuation = chord.key.length === 1 && !/[a-z0-9]/i.test(chord.key);
  if (!punctuation && chord.shift !== press.shiftKey) return false;
  if (press.key.toLowerCase() === chord.key.toLowerCase()) return true;
  if (chord.key.length === 1 && press.code) {
    if (/^[0-9]$/.test(chord.key)) return press.code === `Digit${chord.key}`;
    if (/^[a-z]$/i.test(chord.key)) return press.code === `Key${chord.key.toUpperCase()}`;
  }
  return false;
}

/** How named keys read. */
const KEY_NAMES: Record<string, string> = {
  ArrowDown: '↓',
  ArrowUp: '↑',
  ArrowLeft: '←',
  ArrowRight: '→',
  Escape: 'Esc',
  ' ': 'Space',
};

/** How a key reads: `mod+shift+k` → ['⌘/Ctrl', 'Shift', 'K']; a sequence joins its steps with 'then'. */
export function formatKeys(spec: string): string[] {
  const out: string[] = [];
  parseKeys(spec).forEach((chord, i) => {
    if (i > 0) out.push('then');
    if (chord.mod) out.push('⌘/Ctrl');
    if (chord.ctrl) out.push('Ctrl');
    if (chord.alt) out.push('Alt');
    if (chord.shift) out.push('Shift');
    // A letter with a modifier reads in capitals (⌘/Ctrl+K); alone, as typed (j, u).
    const modified = chord.mod || chord.ctrl || chord.alt || chord.shift;
    out.push(KEY_NAMES[chord.key] ?? (modified && /^[a-z]$/.test(chord.key) ? chord.key.toUpperCase() : chord.key));
  });
  return out;
}

/** An action's keys as one line of text: 'j or ↓', '⌘/Ctrl+K', 'g then i', 'Alt+1…9'. */
export function keysText(action: ActionSpec): string {
  if (action.keysLabel) return action.keysLabel;
  return action.keys
    .map((k) =>
      formatKeys(k)
        .join('+')
        .replace(/\+then\+/g, ' then '),
    )
    .join(' or ');
}

/** README's keyboard table, as the registry makes it (a test keeps README equal to it). */
export function keyboardTable(actions: readonly ActionSpec[] = ACTIONS): string {
  const rows = actions.map((a) => `| ${keysText(a).replace(/\|/g, '\\|')} | ${SCOPE_LABELS[a.scope]} | ${a.label} |`);
  return ['| keys | where | action |', '|---|---|---|', ...rows].join('\n');
}
