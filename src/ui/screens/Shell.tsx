/** The signed-in screens: top bar with sub-view tabs, the list and the open conversation. */
import { useEffect, useState } from 'react';
import type { AuthStatus } from '../../model/types';
import { useLiveState } from '../hooks/useEngine';
import { SideMenu } from '../components/SideMenu';
import { ListPage } from './ListPage';

export type Page = 'inbox' | 'conversations' | 'ask-ai';


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
          <ListPage key={page} page={page} menuButton={<MenuButton onMenu={() => setMenuOpen(true)} />} now={now} />
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
