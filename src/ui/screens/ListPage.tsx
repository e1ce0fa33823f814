/**
 * A conversation list page (SPEC §2.4, §2.11, §4.4, §4.5): sub-view tabs, the list, the open
 * conversation, and the keyboard. The cursor (the active row) moves with j/k and the
 * arrows; the open conversation is separate. Single-key actions have a way back:
 * Cmd/Ctrl+Z undoes the last mark-as-read or category change, and `u` marks unread.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { MARK_READ_GUARD_MS, TOAST_CATEGORY_MS } from '../../model/constants';
import type { AiCategory } from '../../model/types';
import { ConversationList } from '../components/ConversationList';
import { ConversationPane } from '../components/ConversationPane';
import { ShortcutsOverlay } from '../components/ShortcutsOverlay';
import { useToast } from '../components/Toasts';
import { command } from '../engine';
import { useLoadState, useViewCounts } from '../hooks/useEngine';
import { isMod, isTyping } from '../keyboard/shortcuts';

export interface SubView {
  id: string;
  label: string;
}

const CATEGORY_LABEL: Record<AiCategory, string> = { urgent: 'Urgent', can_wait: 'Can Wait', fyi: 'FYI' };
const CATEGORY_KEYS: Record<string, AiCategory | null> = { '1': 'urgent', '2': 'can_wait', '3': 'fyi', '0': null };

interface Undo {
  run: () => Promise<unknown>;
}

export function ListPage({ views, menuButton, now }: { views: SubView[]; menuButton: React.ReactNode; now: number }) {
  const [viewId, setViewId] = useState(views[0]!.id);
  const [openId, setOpenId] = useState<string | null>(null);
  const [cursor, setCursor] = useState(0);
  const [keyboardNav, setKeyboardNav] = useState(false);
  const [showShortcuts, setShowShortcuts] = useState(false);
  const load = useLoadState();
  const counts = useViewCounts();
  const toast = useToast();
  const undo = useRef<Undo | null>(null);
  const lastMarkRead = useRef(0);
  const total = counts[viewId] ?? 0;
  const label = views.find((v) => v.id === viewId)?.label ?? '';

  const openAt = useCallback(
    async (index: number) => {
      const id = await command((api) => api.idAt(viewId, index));
      if (id) {
        setCursor(index);
        setOpenId(id);
      }
    },
    [viewId],
  );

  /** SPEC §4.4: selecting the open conversation closes it. */
  const toggleOpen = useCallback((id: string, index: number) => {
    setCursor(index);
    setOpenId((current) => (current === id ? null : id));
  }, []);

  const targetId = useCallback(async () => openId ?? (await command((api) => api.idAt(viewId, cursor))), [openId, viewId, cursor]);

  const markReadAndMove = useCallback(async () => {
    if (!openId) return;
    const started = Date.now();
    if (started - lastMarkRead.current < MARK_READ_GUARD_MS) return;
    lastMarkRead.current = started;
    const id = openId;
    const facts = await command((api) => api.facts(id));
    if (!facts || facts.unread === 0) return;
    const index = await command((api) => api.indexOf(viewId, id));
    const ok = await command((api) => api.markRead(id));
    if (!ok) return; // the engine reloads the list
    undo.current = { run: () => command((api) => api.markUnread(id, facts.last_read || undefined)) };
    // Next conversation: the one that took its place when it left the view, else the one after it; else the previous.
    const stayed = (await command((api) => api.idAt(viewId, index))) === id;
    let nextIndex = stayed ? index + 1 : index;
    let next = await command((api) => api.idAt(viewId, nextIndex));
    if (!next && index > 0) {
      nextIndex = index - 1;
      next = await command((api) => api.idAt(viewId, nextIndex));
    }
    setOpenId(next && next !== id ? next : null);
    setCursor(Math.max(0, nextIndex));
  }, [openId, viewId]);

  const setCategory = useCallback(
    async (category: AiCategory | null) => {
      const id = await targetId();
      if (!id) return;
      const facts = await command((api) => api.facts(id));
      if (!facts) return;
      const ok = await command((api) => api.setCategory(id, category));
      if (!ok) return toast('Failed to update category', TOAST_CATEGORY_MS);
      const previous = facts.category;
      undo.current = { run: () => command((api) => api.setCategory(id, previous)) };
      toast(category ? `${facts.name} marked as ${CATEGORY_LABEL[category]}` : `Removed category from ${facts.name}`, TOAST_CATEGORY_MS);
    },
    [targetId, toast],
  );

  const markUnread = useCallback(async () => {
    const id = await targetId();
    if (!id) return;
    const facts = await command((api) => api.facts(id));
    if (!facts) return;
    if (await command((api) => api.markUnread(id))) {
      undo.current = { run: () => command((api) => api.markRead(id)) };
      toast(`${facts.name} marked as unread`);
    } else toast('Failed to mark as unread');
  }, [targetId, toast]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const typing = isTyping(event.target);
      const mod = isMod(event);
      const key = event.key;
      if (mod && !event.shiftKey && !event.altKey) {
        if (key === 'e' || key === 'E') {
          event.preventDefault();
          void markReadAndMove();
        } else if (key in CATEGORY_KEYS) {
          event.preventDefault();
          void setCategory(CATEGORY_KEYS[key]!);
        } else if ((key === 'z' || key === 'Z') && !typing) {
          event.preventDefault();
          const action = undo.current;
          undo.current = null;
          if (action) void action.run().then(() => toast('Undone'));
        }
        return;
      }
      if (key === 'Escape') {
        if (openId && !event.defaultPrevented) {
          event.preventDefault();
          setOpenId(null);
        }
        return;
      }
      if (typing || event.altKey || mod) return;
      const move = (index: number) => {
        event.preventDefault();
        setKeyboardNav(true);
        setCursor(Math.max(0, Math.min(total - 1, index)));
      };
      switch (key) {
        case 'j':
        case 'ArrowDown':
          return move(cursor + 1);
        case 'k':
        case 'ArrowUp':
          return move(cursor - 1);
        case 'Home':
          return move(0);
        case 'End':
          return move(total - 1);
        case 'Enter':
        case 'ArrowRight':
          event.preventDefault();
          setKeyboardNav(true);
          return void openAt(cursor);
        case 'Tab': {
          event.preventDefault();
          const at = views.findIndex((v) => v.id === viewId);
          const next = views[(at + (event.shiftKey ? views.length - 1 : 1)) % views.length]!;
          setViewId(next.id);
          setCursor(0);
          return;
        }
        case 'u':
          event.preventDefault();
          return void markUnread();
        case '?':
          event.preventDefault();
          return setShowShortcuts(true);
        default:
          return;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [cursor, total, openId, views, viewId, openAt, markReadAndMove, setCategory, markUnread, toast]);

  // Keyboard navigation is on after a navigation key and off again when the mouse moves.
  useEffect(() => {
    if (!keyboardNav) return undefined;
    const off = () => setKeyboardNav(false);
    window.addEventListener('mousemove', off, { once: true });
    return () => window.removeEventListener('mousemove', off);
  }, [keyboardNav]);

  return (
    <>
      <header className="top-bar">
        {menuButton}
        <nav className="tabs" role="tablist" aria-label="Views">
          {views.map((view) => (
            <button
              key={view.id}
              type="button"
              role="tab"
              tabIndex={-1}
              aria-selected={view.id === viewId}
              className={`tab${view.id === viewId ? ' active' : ''}`}
              onClick={() => {
                setViewId(view.id);
                setCursor(0);
              }}
            >
              {view.label}
              <span className="tab-count">{counts[view.id] ?? 0}</span>
            </button>
          ))}
        </nav>
        <button type="button" className="icon-button" aria-label="Keyboard shortcuts" onClick={() => setShowShortcuts(true)}>
          ?
        </button>
      </header>
      <div className={`split${openId ? ' detail-open' : ''}${keyboardNav ? ' keyboard-nav' : ''}`}>
        <section className="list-pane" aria-label={label}>
          {load.status === 'error' ? (
            <div className="center-screen">
              <p className="center-title">Failed to load conversations</p>
              <p className="muted">{load.error?.message}</p>
              <button type="button" className="button primary" onClick={() => void command((api) => api.reload())}>
                Retry
              </button>
            </div>
          ) : load.status !== 'loaded' && load.loaded === 0 ? (
            <div className="center-screen" aria-busy="true">
              <div className="spinner" aria-hidden="true" />
              <p className="center-title">Loading conversations...</p>
              {load.total > 0 && (
                <p className="muted small">
                  {load.loaded.toLocaleString()} of {load.total.toLocaleString()}
                </p>
              )}
            </div>
          ) : (
            <ConversationList
              viewId={viewId}
              label={label}
              selectedId={openId}
              activeIndex={cursor}
              followActive={keyboardNav}
              onOpen={toggleOpen}
              onHover={(index) => !keyboardNav && setCursor(index)}
              now={now}
            />
          )}
        </section>
        {openId && <ConversationPane id={openId} onClose={() => setOpenId(null)} now={now} />}
      </div>
      {showShortcuts && <ShortcutsOverlay onClose={() => setShowShortcuts(false)} />}
    </>
  );
}
