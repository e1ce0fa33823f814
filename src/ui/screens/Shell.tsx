/** The signed-in screens: top bar with sub-view tabs, the list and the open conversation. */
import { useEffect, useState } from 'react';
import type { AuthStatus } from '../../model/types';
import { useLiveState, useLoadState, useViewCounts } from '../hooks/useEngine';
import { ConversationList } from '../components/ConversationList';
import { ConversationPane } from '../components/ConversationPane';
import { SideMenu } from '../components/SideMenu';
import { command } from '../engine';

export type Page = 'inbox' | 'conversations' | 'ask-ai';

const SUB_VIEWS: Record<Exclude<Page, 'ask-ai'>, Array<{ id: string; label: string }>> = {
  inbox: [{ id: 'inbox', label: 'Inbox' }],
  conversations: [
    { id: 'conversations', label: 'All' },
    { id: 'dms', label: 'DMs' },
    { id: 'channels', label: 'Channels' },
    { id: 'threads', label: 'Threads' },
  ],
};

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function Shell({ page, status, onLogout }: { page: Page; status: AuthStatus; onLogout: () => void }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const live = useLiveState();
  const now = useNow(30_000);
  return (
    <div className="shell">
      <SideMenu open={menuOpen} onClose={() => setMenuOpen(false)} status={status} onLogout={onLogout} />
      <div className="shell-main">
        {page === 'ask-ai' ? (
          <AskAiPlaceholder onMenu={() => setMenuOpen(true)} />
        ) : (
          <ListPage key={page} page={page} onMenu={() => setMenuOpen(true)} now={now} />
        )}
      </div>
      <span className={`live-dot ${live.status}`} role="status" aria-label={`Live updates: ${live.status}`} title={`Live updates: ${live.status}`} />
    </div>
  );
}

function MenuButton({ onMenu }: { onMenu: () => void }) {
  return (
    <button type="button" className="icon-button" aria-label="Open menu" onClick={onMenu}>
      <svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true">
        <path d="M2 4h14M2 9h14M2 14h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
    </button>
  );
}

function ListPage({ page, onMenu, now }: { page: Exclude<Page, 'ask-ai'>; onMenu: () => void; now: number }) {
  const views = SUB_VIEWS[page];
  const [viewId, setViewId] = useState(views[0]!.id);
  const [openId, setOpenId] = useState<string | null>(null);
  const load = useLoadState();
  const counts = useViewCounts();
  const label = views.find((v) => v.id === viewId)?.label ?? '';

  return (
    <>
      <header className="top-bar">
        <MenuButton onMenu={onMenu} />
        <nav className="tabs" role="tablist" aria-label="Views">
          {views.map((view) => (
            <button
              key={view.id}
              type="button"
              role="tab"
              aria-selected={view.id === viewId}
              className={`tab${view.id === viewId ? ' active' : ''}`}
              onClick={() => setViewId(view.id)}
            >
              {view.label}
              <span className="tab-count">{counts[view.id] ?? 0}</span>
            </button>
          ))}
        </nav>
      </header>
      <div className={`split${openId ? ' detail-open' : ''}`}>
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
            <ConversationList viewId={viewId} label={label} selectedId={openId} onOpen={(id) => setOpenId((cur) => (cur === id ? null : id))} now={now} />
          )}
        </section>
        {openId && <ConversationPane id={openId} onClose={() => setOpenId(null)} now={now} />}
      </div>
    </>
  );
}

function AskAiPlaceholder({ onMenu }: { onMenu: () => void }) {
  return (
    <>
      <header className="top-bar">
        <MenuButton onMenu={onMenu} />
      </header>
      <main className="center-screen">
        <h1 className="ask-heading">Ask Sift AI anything</h1>
        <p className="muted">Answers from your messages arrive with Sift's AI engine.</p>
      </main>
    </>
  );
}
