/**
 * A conversation list page (SPEC §2.4, §2.11, §4.4, §4.5): sub-view tabs, the list, the open
 * conversation, and the keyboard. The cursor (the active row) moves with j/k and the
 * arrows; the open conversation is separate. Single-key actions have a way back:
 * Cmd/Ctrl+Z undoes the last mark-as-read or category change, and `u` marks unread.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { STORAGE_KEYS } from '../../model/constants';
import { DEFAULT_COLLAPSED, type GroupId, type Layout, type SlotInfo } from '../../model/layout';
import { ConversationList } from '../components/ConversationList';
import { ConversationPane } from '../components/ConversationPane';
import { useToast } from '../components/Toasts';
import { command } from '../engine';
import { useLoadState, usePageViews, useViewCounts } from '../hooks/useEngine';
import { FocusInboxModal, type FocusInboxChooser, type FocusInboxSaveInput } from '../components/FocusInboxModal';
import { focusChoosers } from '../components/focusChoosers';
import { PAGES, type CustomView } from '../../model/views';
import { handlerOf, useActionHandlers, type ActionHandlers } from '../keyboard/dispatch';
import { focusRegion } from '../keyboard/regions';
import { safeGet, safeSet } from '../session';
import type { OpenConversation } from '../actions';
import { ListActions, ViewTabs } from '../components/ListTopBar';
import { FilterBar } from '../components/FilterBar';
import { InboxZero } from '../components/InboxZero';
import { useLatest } from '../hooks/useLatest';
import { useRowActions } from '../hooks/useRowActions';
import { useNotifications } from '../hooks/useNotifications';

export interface SubView {
  id: string;
  label: string;
}

export type SortMode = 'ai' | 'time';

/** SPEC §3, §4.3: the sort mode is stored per page, ai by default. */
function readSortMode(page: string): SortMode {
  return safeGet(STORAGE_KEYS.sortModePrefix + page) === 'time' ? 'time' : 'ai';
}

interface ModalState {
  mode: 'create' | 'edit';
  view?: CustomView;
  options: { channels?: FocusInboxChooser; people?: FocusInboxChooser };
}

export function ListPage({
  page,
  menuButton,
  now,
  openRequest,
  onSearch,
}: {
  page: string;
  menuButton: React.ReactNode;
  now: number;
  /** Open this conversation (from the search palette). */
  openRequest?: OpenConversation;
  /** Opens the search palette (its button; Cmd/Ctrl+K is global). */
  onSearch?: () => void;
}) {
  const views = usePageViews(page);
  const [viewId, setViewId] = useState(views[0]?.id ?? page);
  const [modal, setModal] = useState<ModalState | null>(null);
  const [sortMode, setSortMode] = useState<SortMode>(() => readSortMode(page));
  const [collapsed, setCollapsed] = useState<readonly GroupId[]>(DEFAULT_COLLAPSED);
  const [filterOpen, setFilterOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [total, setTotal] = useState(0);
  /** Conversations in the layout (its slots less the group headers). */
  const [rowCount, setRowCount] = useState(0);
  const [listLoaded, setListLoaded] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const [cursor, setCursor] = useState(0);
  const [keyboardNav, setKeyboardNav] = useState(false);
  const load = useLoadState();
  const counts = useViewCounts();
  const toast = useToast();
  const label = views.find((v) => v.id === viewId)?.label ?? '';
  const pageLabel = PAGES.find((p) => p.id === page)?.label ?? page;
  // A view that disappeared (deleted here or in another tab): fall back to the page's first (during render: never drawn).
  if (views.length && !views.some((v) => v.id === viewId)) {
    setViewId(views[0]!.id);
    setCursor(0);
  }

  const openModal = useCallback(async (mode: 'create' | 'edit', view?: CustomView) => {
    const options = await focusChoosers();
    setModal({ mode, view, options });
  }, []);

  /** SPEC §4.9: a new view is appended and selected; an edit stays and is selected, unless it moved to another page. */
  const saveView = useCallback(
    async (input: FocusInboxSaveInput) => {
      const editing = modal?.mode === 'edit' ? modal.view : undefined;
      const result = await command((api) => api.saveView(input, editing?.id));
      if (!result.ok || !result.view) throw new Error(result.error ?? 'The view was not saved');
      setModal(null);
      setCursor(0);
      if (result.view.parentViewId === page) setViewId(result.view.id);
      else setViewId(views.find((v) => v.id !== result.view!.id)?.id ?? page);
    },
    [modal, page, views],
  );

  /** Moves a focus inbox among the page's custom views (positions after the built-in ones). */
  const moveView = useCallback(
    async (id: string, target: number) => {
      const custom = views.filter((v) => v.isCustom);
      const from = custom.findIndex((v) => v.id === id);
      if (from < 0 || target < 0 || target >= custom.length || target === from) return;
      const order = [...custom];
      const [moved] = order.splice(from, 1);
      order.splice(target, 0, moved!);
      const builtins = views.length - custom.length;
      const ok = await command((api) => api.reorderViews(order.map((v, i) => ({ id: v.id, position: builtins + i + 1 }))));
      if (!ok) toast('Failed to reorder the views');
    },
    [views, toast],
  );

  const deleteView = useCallback(async () => {
    const id = modal?.view?.id;
    if (!id) return;
    const result = await command((api) => api.deleteView(id));
    if (!result.ok) throw new Error(result.error ?? 'The view was not deleted');
    setModal(null);
    setCursor(0);
    setViewId(views.find((v) => v.id !== id)?.id ?? page);
  }, [modal, views, page]);
  // SPEC §2.4: the celebration shows when the view is empty and no filter text is typed.
  const inboxZero = listLoaded && load.status === 'loaded' && (counts.total[viewId] ?? 0) === 0 && !query.trim();
  // Groups with headers on /inbox in AI order (SPEC §2.4); elsewhere AI order is flat.
  const layout = useMemo<Layout>(() => ({ order: sortMode, headers: page === 'inbox', collapsed, query: query.trim() }), [sortMode, page, collapsed, query]);
  const defaulted = useRef(false);
  const onTotal = useCallback((n: number, loaded: boolean, groups: Record<string, number>) => {
    setTotal(n);
    const headers = Object.keys(groups).length;
    setRowCount(headers ? Object.values(groups).reduce((a, b) => a + b, 0) : n);
    setListLoaded(loaded);
    // Urgent starts expanded, the others collapsed; with nothing urgent, the first group that has conversations opens instead.
    if (!defaulted.current && groups.urgent !== undefined) {
      defaulted.current = true;
      if (groups.urgent === 0) {
        const first = (['can_wait', 'fyi', 'none'] as const).find((g) => (groups[g] ?? 0) > 0);
        if (first) setCollapsed((current) => current.filter((g) => g !== first));
      }
    }
  }, []);

  const toggleSort = () => {
    const next: SortMode = sortMode === 'ai' ? 'time' : 'ai';
    safeSet(STORAGE_KEYS.sortModePrefix + page, next);
    setSortMode(next);
    setCursor(0);
    // SPEC §4.3: choosing AI order classifies the unread conversations and reloads; the inbox
    // remembers it for the next start.
    if (page === 'inbox') void command((api) => api.setAiSort(next === 'ai'));
  };

  const refresh = async () => {
    setRefreshing(true);
    const error = await command((api) => api.refresh());
    setRefreshing(false);
    if (error) toast(error);
  };

  useNotifications(
    useCallback((id: string) => {
      setOpenId(id);
    }, []),
  );

  // Each new request to open a conversation (the palette, a link) opens it, the one in hand when the page mounts too.
  const [seenRequest, setSeenRequest] = useState<OpenConversation>();
  if (openRequest !== seenRequest) {
    setSeenRequest(openRequest);
    if (openRequest) setOpenId(openRequest.id);
  }

  // Stable, so memoised rows do not re-render on every cursor move.
  const keyboardNavRef = useLatest(keyboardNav);
  const hover = useCallback(
    (index: number) => {
      if (!keyboardNavRef.current) setCursor(index);
    },
    [keyboardNavRef],
  );

  const closeFilter = useCallback(() => {
    setFilterOpen(false);
    setQuery('');
    setCursor(0);
  }, []);

  const toggleGroup = useCallback((group: string) => {
    setCollapsed((current) => (current.includes(group as GroupId) ? current.filter((g) => g !== group) : [...current, group as GroupId]));
  }, []);

  const openAt = useCallback(
    async (index: number) => {
      const slot = await command<SlotInfo>((api) => api.slotAt(viewId, index, layout));
      setCursor(index);
      if (slot?.kind === 'row') setOpenId(slot.id);
      else if (slot?.kind === 'group') toggleGroup(slot.group); // Enter on a header opens or closes its group
    },
    [viewId, layout, toggleGroup],
  );

  /** Closes the open conversation; the focus goes back to the list (issue 13 §2). */
  const closeConversation = useCallback(() => {
    setOpenId(null);
    requestAnimationFrame(() => focusRegion('list'));
  }, []);

  // The focus lands on the list when the page opens (and the list is there), unless it is already somewhere.
  const landed = useRef(false);
  // With a local copy the list paints at once and may be redrawn as the replay arrives: wait for the listbox itself.
  useEffect(() => {
    if (landed.current || !listLoaded || total === 0) return;
    if (!document.querySelector('[data-region="list"] [role="listbox"]')) return;
    landed.current = true;
    if (document.activeElement === document.body || document.activeElement === null) focusRegion('list');
  }, [listLoaded, total]);

  /** SPEC §4.4: selecting the open conversation closes it. */
  const toggleOpen = useCallback((id: string, index: number) => {
    setCursor(index);
    setOpenId((current) => (current === id ? null : id));
  }, []);

  const targetId = useCallback(async () => openId ?? (await command((api) => api.idAt(viewId, cursor, layout))), [openId, viewId, cursor, layout]);
  const { markReadAndMove, setCategory, markUnread, runUndo } = useRowActions({ openId, viewId, layout, targetId, setOpenId, setCursor });

  /** Moves the cursor with the keyboard: the list takes the focus, so its active option is announced. */
  const move = useCallback(
    (index: number) => {
      setKeyboardNav(true);
      setCursor(Math.max(0, Math.min(total - 1, index)));
      if (!document.activeElement?.closest('[data-region="list"]')) focusRegion('list');
    },
    [total],
  );

  const selectView = useCallback((id: string) => {
    setViewId(id);
    setCursor(0);
  }, []);

  const customAt = () => views.filter((v) => v.isCustom).findIndex((v) => v.id === viewId);
  const cycleView = (step: number) => {
    const at = views.findIndex((v) => v.id === viewId);
    selectView(views[(at + step + views.length) % views.length]!.id);
  };

  // What the registry's keys do on this page (issue 13 §1); the palette lists the same actions.
  const handlers: ActionHandlers = {
    'next-conversation': { run: () => move(cursor + 1) },
    'previous-conversation': { run: () => move(cursor - 1) },
    'first-conversation': { run: () => move(0) },
    'last-conversation': { run: () => move(total - 1) },
    'open-conversation': {
      run: () => {
        setKeyboardNav(true);
        void openAt(cursor);
      },
    },
    'next-view': { run: () => cycleView(1) },
    'previous-view': { run: () => cycleView(-1) },
    'select-view': { run: (index) => views[index] && selectView(views[index].id) },
    'filter-view': { run: () => setFilterOpen(true), enabled: () => !openId, label: () => `Filter ${label}` },
    'mark-view-read': {
      run: () =>
        void command((api) => api.markViewRead(viewId)).then((n) => toast(n === 1 ? 'Marked 1 conversation as read' : `Marked ${n} conversations as read`)),
      label: () => `Mark all in ${label} as read`,
    },
    'create-focus-inbox': { run: () => void openModal('create') },
    'edit-focus-inbox': {
      run: () => void openModal('edit', views.find((v) => v.id === viewId) as CustomView),
      enabled: () => customAt() >= 0,
      label: () => `Edit ${label}`,
    },
    'toggle-sort': { run: toggleSort, label: () => (sortMode === 'ai' ? 'Sort by Time' : 'Sort by AI') },
    'fetch-data': { run: () => void refresh(), label: () => 'Fetch data' },
    'move-view-earlier': { run: () => void moveView(viewId, customAt() - 1), enabled: () => customAt() >= 0 },
    'move-view-later': { run: () => void moveView(viewId, customAt() + 1), enabled: () => customAt() >= 0 },
    'mark-unread': { run: () => void markUnread() },
    'category-urgent': { run: () => void setCategory('urgent') },
    'category-can-wait': { run: () => void setCategory('can_wait') },
    'category-fyi': { run: () => void setCategory('fyi') },
    'category-none': { run: () => void setCategory(null) },
    undo: { run: runUndo },
    'mark-read': { run: () => void markReadAndMove(), enabled: () => openId !== null },
    'close-conversation': { run: () => closeConversation(), enabled: () => openId !== null },
  };
  useActionHandlers(handlers);

  // Keyboard navigation is on after a navigation key and off again when the mouse moves.
  useEffect(() => {
    if (!keyboardNav) return undefined;
    const off = () => setKeyboardNav(false);
    window.addEventListener('mousemove', off, { once: true });
    return () => window.removeEventListener('mousemove', off);
  }, [keyboardNav]);

  return (
    <>
      <header className="top-bar" data-region="topbar">
        {menuButton}
        <h1 className="visually-hidden">{pageLabel}</h1>
        <ViewTabs
          views={views}
          viewId={viewId}
          unread={counts.unread}
          onSelect={selectView}
          onMove={(id, index) => void moveView(id, index)}
          onConfigure={(view) => void openModal('edit', view)}
          onCreate={() => void openModal('create')}
        />
        <ListActions
          refreshing={refreshing}
          onRefresh={() => void refresh()}
          sortMode={sortMode}
          onToggleSort={toggleSort}
          onSearch={onSearch}
          onFilter={() => setFilterOpen(true)}
          onShortcuts={() => handlerOf('show-shortcuts')?.run(0)}
        />
      </header>
      {filterOpen && (
        <FilterBar
          value={query}
          onChange={(q) => {
            setQuery(q);
            setCursor(0);
          }}
          onClose={closeFilter}
        />
      )}
      <main className={`split${openId ? ' detail-open' : ''}${keyboardNav ? ' keyboard-nav' : ''}`}>
        <section className="list-pane" aria-label={label} data-load={load.status} data-region="list" id="conversation-list">
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
            <>
              <ConversationList
                hidden={inboxZero}
                viewId={viewId}
                label={label}
                selectedId={openId}
                activeIndex={cursor}
                followActive={keyboardNav}
                layout={layout}
                onOpen={toggleOpen}
                onHover={hover}
                onToggleGroup={toggleGroup}
                onTotal={onTotal}
                now={now}
              />
              {inboxZero && <InboxZero />}
              {listLoaded && rowCount === 0 && query.trim() && <p className="muted center-title empty-filter">No conversations match “{query.trim()}”</p>}
            </>
          )}
        </section>
        {openId && <ConversationPane id={openId} onClose={closeConversation} now={now} request={openRequest?.id === openId ? openRequest : undefined} />}
      </main>
      {modal && (
        <FocusInboxModal
          key={modal.view?.id ?? 'new'}
          mode={modal.mode}
          view={modal.view}
          pageId={modal.view?.parentViewId ?? page}
          pages={PAGES.map((p) => ({ id: p.id, label: p.label }))}
          channels={modal.options.channels}
          people={modal.options.people}
          onSave={saveView}
          onDelete={modal.mode === 'edit' ? deleteView : undefined}
          onClose={() => setModal(null)}
        />
      )}
    </>
  );
}
