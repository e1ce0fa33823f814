/**
 * A list page's top bar (SPEC §2.4): the view tabs with their unread counts (focus inboxes can be dragged
 * into another order and configured), the '+' that creates a focus inbox, and the page's actions (fetch,
 * sort, search, filter, shortcuts). ListPage owns the state; these draw it and say what was asked.
 */
import { useRef } from 'react';
import type { CustomView, View } from '../../model/views';
import type { SortMode } from '../screens/ListPage';
import { SearchIcon } from './Icons';

export interface ViewTabsProps {
  views: readonly View[];
  viewId: string;
  /** Unread conversations by view id. */
  unread: Record<string, number>;
  onSelect: (viewId: string) => void;
  /** A focus inbox dropped on another: `id` moves to `index` among the focus inboxes. */
  onMove: (id: string, index: number) => void;
  onConfigure: (view: CustomView) => void;
  onCreate: () => void;
}

export function ViewTabs({ views, viewId, unread, onSelect, onMove, onConfigure, onCreate }: ViewTabsProps) {
  const dragged = useRef<string | null>(null);
  return (
    <div className="tabs">
      <div role="tablist" aria-label="Views" className="tabs-list">
        {views.map((view) => (
          <span
            key={view.id}
            className={`tab-wrap${view.id === viewId ? ' active' : ''}`}
            draggable={view.isCustom}
            onDragStart={() => (dragged.current = view.id)}
            onDragOver={(e) => view.isCustom && dragged.current && e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              const id = dragged.current;
              dragged.current = null;
              if (id && id !== view.id)
                onMove(
                  id,
                  views.filter((v) => v.isCustom).findIndex((v) => v.id === view.id),
                );
            }}
          >
            <button
              type="button"
              role="tab"
              tabIndex={-1}
              aria-selected={view.id === viewId}
              className={`tab${view.id === viewId ? ' active' : ''}`}
              onClick={() => onSelect(view.id)}
            >
              {view.label}
              <span className="tab-count" aria-label={`${unread[view.id] ?? 0} unread`}>
                {unread[view.id] ?? 0}
              </span>
            </button>
            {view.isCustom && (
              <button
                type="button"
                className="icon-button tab-config"
                aria-label="Configure focus inbox"
                title={`Configure ${view.label}`}
                onClick={() => onConfigure(view as CustomView)}
              >
                <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
                  <path d="M2 4h8M13 4h1M2 12h2M7 12h7M10 2v4M4 10v4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
                </svg>
              </button>
            )}
          </span>
        ))}
      </div>
      {/* Outside the tablist, which holds only tabs. */}
      <button type="button" className="tab add-tab" aria-label="Create Focus Inbox" title="Create Focus Inbox (Shift+N)" onClick={onCreate}>
        +
      </button>
    </div>
  );
}

export interface ListActionsProps {
  refreshing: boolean;
  onRefresh: () => void;
  sortMode: SortMode;
  onToggleSort: () => void;
  /** Absent: the page has no search button. */
  onSearch?: (() => void) | undefined;
  onFilter: () => void;
  onShortcuts: () => void;
}

export function ListActions({ refreshing, onRefresh, sortMode, onToggleSort, onSearch, onFilter, onShortcuts }: ListActionsProps) {
  return (
    <div className="top-actions">
      <button type="button" className="button small-button" onClick={onRefresh} disabled={refreshing} aria-label="Fetch data">
        {refreshing ? 'Fetching...' : 'Fetch data'}
      </button>
      <button type="button" className="button small-button" onClick={onToggleSort}>
        {sortMode === 'ai' ? 'Sort by Time' : 'Sort by AI'}
      </button>
      {onSearch && (
        <button type="button" className="icon-button" aria-label="Search" title="Search (⌘/Ctrl+K)" onClick={onSearch}>
          <SearchIcon size={16} />
        </button>
      )}
      <button type="button" className="icon-button" aria-label="Filter this view" title="Filter this view (Shift+K)" onClick={onFilter}>
        <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
          <path d="M2 3h12l-4.5 5.5V13l-3-1.5v-3z" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
        </svg>
      </button>
      <button type="button" className="icon-button" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" onClick={onShortcuts}>
        ?
      </button>
    </div>
  );
}
