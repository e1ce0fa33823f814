/**
 * The search palette (SPEC §2.8, §4.10): one input, category tabs, results in labelled sections
 * and the palette's actions. Presentational: the caller runs the search (searchResults) and
 * passes its state; the palette owns the tab and the highlight.
 *
 * Keyboard-first: focus stays in the input (aria-activedescendant points at the highlighted
 * option). ArrowUp/ArrowDown move the highlight (wrapping), Tab / Shift+Tab cycle the tabs,
 * Enter chooses, Cmd/Ctrl+Enter asks the AI (text typed and AI enabled), Esc closes. No key
 * pressed in the palette reaches the page's window listeners. The highlight goes back to the
 * first item when resetKey changes or the tab changes.
 *
 * Asking the AI (the AI button or Cmd/Ctrl+Enter) switches the palette to its AI chat
 * (PaletteAiChat, SPEC §4.11) with the query as the first question; Cmd/Ctrl+Backspace goes
 * back to the search with the query kept, Esc closes.
 */
import { useDialog } from '../hooks/useDialog';
import { matchesAction } from '../keyboard/dispatch';
import { useEffect, useId, useRef, useState, type JSX, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import type { AskSource } from '../../model/ai';
import { Avatar } from './Avatar';
import { PaletteAiChat, usePaletteChat } from './PaletteAiChat';
import { TypeIcon } from './TypeIcon';
import '../styles-palette.css';

export type PaletteItem =
  | { kind: 'conversation'; id: string; title: string; subtitle?: string; type: 'dm' | 'channel' | 'thread'; is_private: boolean; unread?: number }
  | { kind: 'message'; id: string; conversationId: string; ts: string; title: string /* conversation name */; text: string /* plain text */; author: string }
  | { kind: 'user'; id: string; title: string /* name */; subtitle?: string /* title/team */; initials: string; colour: number };

export interface PaletteAction {
  id: string;
  label: string;
  keys?: string[];
  run(): void;
}

export interface SearchPaletteProps {
  query: string;
  onQuery(q: string): void;
  status: 'idle' | 'searching' | 'done';
  results: { conversations: PaletteItem[]; messages: PaletteItem[]; users: PaletteItem[] };
  /** Bumped when the selection must return to the first result. */
  resetKey: number;
  actions: PaletteAction[];
  aiEnabled: boolean;
  /** A source of an AI answer was chosen (open its conversation at the message). */
  onOpenSource?(source: AskSource): void;
  onChoose(item: PaletteItem): void;
  onClose(): void;
}

export const SEARCH_PLACEHOLDER = 'Search conversations, messages, and people...';
export const SEARCHING = 'Searching...';
export const TYPE_TO_SEARCH = 'Type to search...';
export const NO_RESULTS = 'No results';

export type PaletteTab = 'all' | 'conversations' | 'messages' | 'people' | 'actions';
type SectionKey = Exclude<PaletteTab, 'all'>;

const TABS: Array<{ id: PaletteTab; label: string }> = [
  { id: 'all', label: 'All' },
  { id: 'conversations', label: 'Conversations' },
  { id: 'messages', label: 'Messages' },
  { id: 'people', label: 'People' },
  { id: 'actions', label: 'Actions' },
];

const SECTION_LABELS: Record<SectionKey, string> = { conversations: 'Conversations', messages: 'Messages', people: 'People', actions: 'Actions' };
const SECTION_ORDER: SectionKey[] = ['conversations', 'messages', 'people', 'actions'];

/** One row of the listbox: a search result or an action. */
type Entry = { kind: 'item'; item: PaletteItem } | { kind: 'action'; action: PaletteAction };

const entryKey = (entry: Entry) => (entry.kind === 'item' ? `${entry.item.kind}:${entry.item.id}` : `action:${entry.action.id}`);

/** Actions are found by name, case-insensitively; all of them for an empty query. */
export function filterActions(actions: PaletteAction[], query: string): PaletteAction[] {
  const q = query.trim().toLowerCase();
  return q ? actions.filter((a) => a.label.toLowerCase().includes(q)) : actions;
}

function ItemBody({ item }: { item: PaletteItem }) {
  switch (item.kind) {
    case 'conversation':
      return (
        <>
          <span className="sp-icon">
            <TypeIcon type={item.type} isPrivate={item.is_private} />
          </span>
          <span className="sp-main">
            <span className="sp-title">{item.title}</span>
            {item.subtitle && <span className="sp-sub">{item.subtitle}</span>}
          </span>
          {item.unread !== undefined && item.unread > 0 && (
            <span className="sp-badge" aria-label={`${item.unread} unread`}>
              {item.unread}
            </span>
          )}
        </>
      );
    case 'message':
      return (
        <span className="sp-main sp-message">
          <span className="sp-meta">
            <span className="sp-title">{item.title}</span>
            <span className="sp-author">{item.author}</span>
          </span>
          <span className="sp-text">{item.text}</span>
        </span>
      );
    case 'user':
      return (
        <>
          <span className="sp-icon">
            <Avatar avatar={{ initials: item.initials, colour: item.colour }} size={22} />
          </span>
          <span className="sp-main">
            <span className="sp-title">{item.title}</span>
            {item.subtitle && <span className="sp-sub">{item.subtitle}</span>}
          </span>
        </>
      );
  }
}

function Hint({ keys, children }: { keys: string[]; children: ReactNode }) {
  return (
    <span className="sp-hint">
      {keys.map((k) => (
        <kbd key={k}>{k}</kbd>
      ))}
      <span>{children}</span>
    </span>
  );
}

export function SearchPalette({
  query,
  onQuery,
  status,
  results,
  resetKey,
  actions,
  aiEnabled,
  onOpenSource,
  onChoose,
  onClose,
}: SearchPaletteProps): JSX.Element {
  const baseId = useId();
  const listId = `${baseId}-list`;
  const tabId = (tab: PaletteTab) => `${baseId}-tab-${tab}`;
  const optionId = (index: number) => `${baseId}-opt-${index}`;

  const [tab, setTab] = useState<PaletteTab>('all');
  const [active, setActive] = useState(0);
  const [mode, setMode] = useState<'search' | 'chat'>('search');
  const chat = usePaletteChat();
  // A new resetKey puts the highlight back on the first item (adjusted during render: no flash).
  const [seenResetKey, setSeenResetKey] = useState(resetKey);
  if (seenResetKey !== resetKey) {
    setSeenResetKey(resetKey);
    setActive(0);
  }

  const dialog = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);

  const text = query.trim();
  const canAskAi = aiEnabled && text.length > 0;

  const sectionEntries: Record<SectionKey, Entry[]> = {
    conversations: results.conversations.map((item) => ({ kind: 'item', item })),
    messages: results.messages.map((item) => ({ kind: 'item', item })),
    people: results.users.map((item) => ({ kind: 'item', item })),
    actions: filterActions(actions, query).map((action) => ({ kind: 'action', action })),
  };
  const sections = SECTION_ORDER.filter((key) => tab === 'all' || tab === key)
    .map((key) => ({ key, entries: sectionEntries[key] }))
    .filter((section) => section.entries.length > 0);
  const entries = sections.flatMap((section) => section.entries);
  const highlighted = entries.length === 0 ? -1 : Math.min(active, entries.length - 1);

  const resultCount = sections.filter((s) => s.key !== 'actions').reduce((n, s) => n + s.entries.length, 0);
  let note: string | null = null;
  if (tab !== 'actions' && (!text || status === 'idle')) note = TYPE_TO_SEARCH;
  else if (tab !== 'actions' && status === 'searching' && resultCount === 0) note = SEARCHING;
  else if (entries.length === 0 && (tab === 'actions' || status === 'done')) note = NO_RESULTS;

  useDialog({ dialog, initial: input, onClose, onStrayTab: () => (input.current ?? dialog.current?.querySelector<HTMLElement>('input'))?.focus() });

  // Back from the chat: the search input takes focus again.
  const chatVisited = useRef(false);
  useEffect(() => {
    if (mode === 'chat') chatVisited.current = true;
    else if (chatVisited.current) input.current?.focus();
  }, [mode]);

  // Keep the highlighted option in view.
  useEffect(() => {
    if (highlighted < 0) return;
    document.getElementById(`${baseId}-opt-${highlighted}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [baseId, highlighted, tab]);

  const selectTab = (next: PaletteTab) => {
    setTab(next);
    setActive(0);
  };

  const choose = (entry: Entry) => {
    if (entry.kind === 'action') {
      entry.action.run();
      onClose();
    } else {
      onChoose(entry.item);
    }
  };

  const askAi = () => {
    if (!canAskAi) return;
    setMode('chat');
    chat.ask(text);
  };

  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    // The page listens on window for its shortcuts: keys typed here stay here.
    event.stopPropagation();
    if (event.nativeEvent.isComposing) return;
    if (mode === 'chat') {
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
      } else if (matchesAction(event, 'palette-back')) {
        event.preventDefault();
        setMode('search');
      }
      return;
    }
    switch (event.key) {
      case 'Escape':
        event.preventDefault();
        onClose();
        return;
      case 'Tab': {
        event.preventDefault();
        const at = TABS.findIndex((t) => t.id === tab);
        const next = TABS[(at + (event.shiftKey ? TABS.length - 1 : 1)) % TABS.length]!;
        selectTab(next.id);
        input.current?.focus();
        return;
      }
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (entries.length === 0) return;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        const from = highlighted < 0 ? (step === 1 ? -1 : 0) : highlighted;
        setActive((from + step + entries.length) % entries.length);
        return;
      }
      case 'Enter': {
        event.preventDefault();
        if (matchesAction(event, 'palette-ask-ai')) {
          askAi();
          return;
        }
        const entry = entries[highlighted];
        if (entry) choose(entry);
        return;
      }
    }
  };

  let index = 0;
  return (
    <div
      className="modal-backdrop sp-backdrop"
      role="presentation"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) {
          event.preventDefault();
          onClose();
        }
      }}
    >
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the dialog's own keys (Esc, Tab kept inside), as the rule allows on <dialog> */}
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-label={mode === 'chat' ? 'Ask AI' : 'Search'}
        className="sp"
        onKeyDown={onKeyDown}
        onKeyUp={(event) => event.stopPropagation()}
      >
        {mode === 'chat' ? (
          <PaletteAiChat chat={chat} onBack={() => setMode('search')} onOpenSource={onOpenSource} />
        ) : (
          <>
            <div className="sp-search">
              <svg className="sp-glass" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
                <path d="M7 12A5 5 0 1 0 7 2a5 5 0 0 0 0 10zM10.8 10.8 14 14" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
              </svg>
              <input
                ref={input}
                type="text"
                className="sp-input"
                role="combobox"
                aria-label="Search"
                aria-expanded="true"
                aria-controls={listId}
                aria-autocomplete="list"
                aria-activedescendant={highlighted >= 0 ? optionId(highlighted) : undefined}
                placeholder={SEARCH_PLACEHOLDER}
                autoComplete="off"
                spellCheck={false}
                value={query}
                onChange={(event) => onQuery(event.target.value)}
              />
              {canAskAi && (
                <button
                  type="button"
                  className="sp-ai"
                  aria-label="Ask AI"
                  title="Ask AI (Cmd/Ctrl+Enter)"
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={askAi}
                >
                  <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
                    <path d="M8 1.5 9.6 6.4 14.5 8 9.6 9.6 8 14.5 6.4 9.6 1.5 8 6.4 6.4z" fill="currentColor" />
                  </svg>
                  <span>Ask AI</span>
                </button>
              )}
            </div>

            <div role="tablist" aria-label="Categories" className="sp-tabs">
              {TABS.map((t) => (
                <button
                  key={t.id}
                  id={tabId(t.id)}
                  type="button"
                  role="tab"
                  tabIndex={-1}
                  aria-selected={tab === t.id}
                  aria-controls={`${baseId}-panel`}
                  className={`sp-tab${tab === t.id ? ' active' : ''}`}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => selectTab(t.id)}
                >
                  {t.label}
                </button>
              ))}
            </div>

            <div id={`${baseId}-panel`} role="tabpanel" aria-labelledby={tabId(tab)} className="sp-panel" tabIndex={0}>
              <div role="status" aria-live="polite" className="sp-note">
                {note}
              </div>
              <div id={listId} role="listbox" aria-label="Results" className="sp-list">
                {sections.map((section) => {
                  const headingId = `${baseId}-sec-${section.key}`;
                  return (
                    <div key={section.key} role="group" aria-labelledby={headingId} className="sp-section">
                      <div id={headingId} role="presentation" className="sp-heading">
                        {SECTION_LABELS[section.key]}
                      </div>
                      {section.entries.map((entry) => {
                        const i = index++;
                        const selected = i === highlighted;
                        return (
                          // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/interactive-supports-focus -- an option of an aria-activedescendant listbox: the focus stays on the search box, whose Enter chooses it
                          <div
                            key={entryKey(entry)}
                            id={optionId(i)}
                            role="option"
                            aria-selected={selected}
                            className={`sp-option${selected ? ' active' : ''}`}
                            onMouseDown={(event) => event.preventDefault()}
                            onMouseMove={() => {
                              if (i !== highlighted) setActive(i);
                            }}
                            onClick={() => choose(entry)}
                          >
                            {entry.kind === 'item' ? (
                              <ItemBody item={entry.item} />
                            ) : (
                              <>
                                <span className="sp-main">
                                  <span className="sp-title">{entry.action.label}</span>
                                </span>
                                {entry.action.keys && entry.action.keys.length > 0 && (
                                  <span className="sp-keys">
                                    {entry.action.keys.map((k) => (
                                      <kbd key={k}>{k}</kbd>
                                    ))}
                                  </span>
                                )}
                              </>
                            )}
                          </div>
                        );
                      })}
                    </div>
                  );
                })}
              </div>
            </div>

            <div className="sp-footer">
              <Hint keys={['Tab']}>Categories</Hint>
              <Hint keys={['↑↓']}>Navigate</Hint>
              <Hint keys={['Enter']}>Select</Hint>
              <Hint keys={['Esc']}>Close</Hint>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
