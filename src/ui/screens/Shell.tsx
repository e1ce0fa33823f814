/** The signed-in screens: top bar with sub-view tabs, the list and the open conversation. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useObservableState } from 'observable-hooks';
import type { PaletteItem } from '../../model/search';
import type { SearchState } from '../../streams/searchResults';
import type { AppAction, OpenConversation } from '../actions';
import { SearchPalette } from '../components/SearchPalette';
import { command, remoteStream } from '../engine';
import { useFeatureFlag } from '../hooks/useFeatureFlag';
import { applyTheme, readTheme } from '../session';
import type { AuthStatus } from '../../model/types';
import { isTs } from '../../model/ts';
import { isConversationId } from '../../model/validation';
import { useLiveState } from '../hooks/useEngine';
import { SideMenu } from '../components/SideMenu';
import { ScreenBoundary } from '../components/ErrorBoundary';
import { ListPage } from './ListPage';
import { AskAiPage } from './AskAiPage';

export type Page = 'inbox' | 'conversations' | 'ask-ai';


function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

const search$ = remoteStream<SearchState<PaletteItem>>((api, o) => api.search(o));
const IDLE: SearchState<PaletteItem> = { query: '', status: 'idle', results: { conversations: [], messages: [], users: [] }, resetSelection: true };

export function Shell({ page, status, onLogout }: { page: Page; status: AuthStatus; onLogout: () => void }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const live = useLiveState();
  const now = useNow(30_000);
  const navigate = useNavigate();
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [openRequest, setOpenRequest] = useState<OpenConversation>();
  const pageActions = useRef<AppAction[]>([]);
  const search = useObservableState(search$, IDLE);
  const [resetKey, setResetKey] = useState(0);
  const aiEnabled = useFeatureFlag('aiEnabled') === true;
  const profiles = useFeatureFlag('userProfile') === true;

  useEffect(() => {
    if (search.resetSelection) setResetKey((k) => k + 1);
  }, [search]);

  const openPalette = useCallback(() => {
    setQuery('');
    void command((api) => api.setSearchQuery(''));
    setPaletteOpen(true);
  }, []);

  // Cmd/Ctrl+K opens the search palette from anywhere (but not over another dialog).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && !e.shiftKey && (e.key === 'k' || e.key === 'K')) {
        if (e.target instanceof Element && e.target.closest('[aria-modal="true"]')) return;
        e.preventDefault();
        openPalette();
      }
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [openPalette]);

  const openConversation = useCallback(
    (id: string, extra: Omit<OpenConversation, 'id' | 'nonce'>) => {
      if (page === 'ask-ai') void navigate('/conversations');
      setOpenRequest({ id, ...extra, nonce: Date.now() });
    },
    [page, navigate],
  );

  // A link into a conversation (an AI answer's source): /conversations?open=<id>&ts=<message ts>.
  // Either value may be anything: an id or a ts of the wrong shape is ignored (issue 12).
  const location = useLocation();
  useEffect(() => {
    if (page === 'ask-ai') return;
    const params = new URLSearchParams(location.search);
    const id = params.get('open');
    if (id === null) return;
    const ts = params.get('ts');
    if (isConversationId(id)) setOpenRequest({ id, ...(isTs(ts) ? { highlightTs: ts } : {}), nonce: Date.now() });
    void navigate(location.pathname, { replace: true });
  }, [page, location.search, location.pathname, navigate]);

  const choose = useCallback(
    async (item: PaletteItem) => {
      setPaletteOpen(false);
      if (item.kind === 'conversation') openConversation(item.id, { focusInput: true });
      else if (item.kind === 'message') openConversation(item.conversationId, { highlightTs: item.ts, focusInput: true });
      else if (profiles) void navigate(`/profile/${item.id}`);
      else {
        const dm = await command((api) => api.dmWith(item.id));
        if (dm) openConversation(dm, { focusInput: true });
      }
    },
    [openConversation, profiles, navigate],
  );

  const actions: AppAction[] = [
    ...(page === 'ask-ai' ? [] : pageActions.current),
    { id: 'go-inbox', label: 'Go to Inbox', run: () => void navigate('/inbox') },
    { id: 'go-conversations', label: 'Go to Conversations', run: () => void navigate('/conversations') },
    { id: 'go-ask-ai', label: 'Go to Ask AI', run: () => void navigate('/ask-ai') },
    {
      id: 'switch-theme',
      label: readTheme() === 'dark' ? 'Switch to Light Mode' : 'Switch to Dark Mode',
      run: () => applyTheme(readTheme() === 'dark' ? 'light' : 'dark'),
    },
    { id: 'sign-out', label: 'Sign out', run: onLogout },
  ];
  return (
    <div className="shell">
      <SideMenu open={menuOpen} onClose={() => setMenuOpen(false)} status={status} onLogout={onLogout} />
      <div className="shell-main">
        {/* A page that throws shows a message here; the menu, palette and live status stay (issue 12 §4). */}
        <ScreenBoundary menuButton={<MenuButton onMenu={() => setMenuOpen(true)} />}>
          {page === 'ask-ai' ? (
            <AskAiPage menuButton={<MenuButton onMenu={() => setMenuOpen(true)} />} />
          ) : (
            <ListPage
              key={page}
              page={page}
              menuButton={<MenuButton onMenu={() => setMenuOpen(true)} />}
              now={now}
              openRequest={openRequest}
              onActions={(list) => (pageActions.current = list)}
              onSearch={openPalette}
            />
          )}
        </ScreenBoundary>
      </div>
      {paletteOpen && (
        <SearchPalette
          query={query}
          onQuery={(q) => {
            setQuery(q);
            void command((api) => api.setSearchQuery(q));
          }}
          status={search.query === query.trim() ? search.status : query.trim().length >= 2 ? 'searching' : 'idle'}
          results={search.results}
          resetKey={resetKey}
          actions={actions}
          aiEnabled={aiEnabled}
          // An AI answer's source opens like a message result: its conversation, at the message.
          onOpenSource={(source) =>
            void choose({ kind: 'message', id: source.id, conversationId: source.conversation_id, ts: source.timestamp, title: source.channel, text: source.text, author: source.author })
          }
          onChoose={(item) => void choose(item)}
          onClose={() => setPaletteOpen(false)}
        />
      )}
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
