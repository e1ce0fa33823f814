/** The signed-in screens: top bar with sub-view tabs, the list and the open conversation. */
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useNavigate } from '../router';
import { useObservableState, useSubscription } from 'observable-hooks';
import type { Refusal } from '../../worker/engine/outbox';
import { useToast } from '../components/Toasts';
import type { PaletteItem } from '../../model/search';
import type { SearchState } from '../../streams/searchResults';
import type { OpenConversation } from '../actions';
import { SearchPalette } from '../components/SearchPalette';
import { command, remoteStream } from '../engine';
import { useFeatureFlag } from '../hooks/useFeatureFlag';
import { useNow } from '../hooks/useNow';
import type { AuthStatus } from '../../model/types';
import { isTs } from '../../model/ts';
import { isConversationId } from '../../model/validation';
import { useLiveState } from '../hooks/useEngine';
import { SideMenu } from '../components/SideMenu';
import { OfflineStatus } from '../components/OfflineStatus';
import { useAnnounceConnection } from '../components/Announcer';
import { ScreenBoundary } from '../components/ErrorBoundary';
import { ListPage } from './ListPage';
import { availableActions } from '../keyboard/dispatch';
import { formatKeys } from '../keyboard/registry';
import { focusRegion } from '../keyboard/regions';
import { AnywhereKeys } from '../components/AnywhereKeys';
import '../styles-keyboard.css';
import { AskAiPage } from './AskAiPage';

export type Page = 'inbox' | 'conversations' | 'ask-ai';

/** A request to open a conversation, told apart from the previous one even when it asks the same. */
function nextRequest(previous: OpenConversation | undefined, id: string, extra: Omit<OpenConversation, 'id' | 'nonce'>): OpenConversation {
  return { id, ...extra, nonce: (previous?.nonce ?? 0) + 1 };
}

const search$ = remoteStream<SearchState<PaletteItem>>((api, o) => api.search(o));
const lastSynced$ = remoteStream<number | null>((api, o) => api.lastSynced(o));
const outboxSize$ = remoteStream<number>((api, o) => api.outboxSize(o));
const outboxRefused$ = remoteStream<Refusal>((api, o) => api.outboxRefused(o));

/** What the page says of an action the server refused after it waited offline. */
export function refusalText(refusal: Refusal): string {
  if (refusal.kind === 'send') {
    const text = refusal.text ?? '';
    return `Message not sent: ${refusal.error} (“${text.length > 60 ? `${text.slice(0, 60)}…` : text}”)`;
  }
  const what = { 'mark-read': 'Mark as read', 'mark-unread': 'Mark as unread', category: 'The category change' }[refusal.kind];
  return `${what} made offline was refused and undone: ${refusal.error}`;
}
/** The live states in which Sift cannot reach the server (connecting and a deliberate disconnect are not offline). */
const OFFLINE = new Set(['error', 'failed']);
const IDLE: SearchState<PaletteItem> = { query: '', status: 'idle', results: { conversations: [], messages: [], users: [] }, resetSelection: true };

export function Shell({ page, status, onLogout }: { page: Page; status: AuthStatus; onLogout: () => void }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const live = useLiveState();
  // The connection dropping and coming back is said to screen readers (issue 13 §3).
  useAnnounceConnection(live.status);
  const now = useNow(30_000);
  const navigate = useNavigate();
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [openRequest, setOpenRequest] = useState<OpenConversation>();
  const search = useObservableState(search$, IDLE);
  const lastSynced = useObservableState(lastSynced$, null);
  const waiting = useObservableState(outboxSize$, 0);
  // An action taken offline that the server refused once sent: it was rolled back; say so (issue 14 §3).
  const toast = useToast();
  useSubscription(outboxRefused$, (refusal) => toast(refusalText(refusal)));
  const [resetKey, setResetKey] = useState(0);
  const aiEnabled = useFeatureFlag('aiEnabled') === true;
  const profiles = useFeatureFlag('userProfile') === true;

  // A search answer that resets the selection bumps the palette's resetKey (adjusted during render, as the palette does).
  const [seenSearch, setSeenSearch] = useState(search);
  if (search !== seenSearch) {
    setSeenSearch(search);
    if (search.resetSelection) setResetKey((k) => k + 1);
  }

  const openPalette = useCallback(() => {
    setQuery('');
    void command((api) => api.setSearchQuery(''));
    setPaletteOpen(true);
  }, []);

  const openConversation = useCallback(
    (id: string, extra: Omit<OpenConversation, 'id' | 'nonce'>) => {
      if (page === 'ask-ai') navigate('/conversations');
      setOpenRequest((previous) => nextRequest(previous, id, extra));
    },
    [page, navigate],
  );

  // A link into a conversation (an AI answer's source): /conversations?open=<id>&ts=<message ts>.
  // Either value may be anything: an id or a ts of the wrong shape is ignored (issue 12).
  const [pathname] = useLocation();
  // Read when the address changes (during render: the conversation opens with the page, no second pass),
  // then the address loses its open= and ts=.
  const address = useSearch();
  const [seenAddress, setSeenAddress] = useState<string | null>(null);
  if (page !== 'ask-ai' && address !== seenAddress) {
    setSeenAddress(address);
    const params = new URLSearchParams(address);
    const id = params.get('open');
    const ts = params.get('ts');
    if (id !== null && isConversationId(id)) setOpenRequest((previous) => nextRequest(previous, id, isTs(ts) ? { highlightTs: ts } : {}));
  }
  useEffect(() => {
    if (page !== 'ask-ai' && new URLSearchParams(address).has('open')) navigate(pathname, { replace: true });
  }, [page, address, pathname, navigate]);

  const choose = useCallback(
    async (item: PaletteItem) => {
      setPaletteOpen(false);
      if (item.kind === 'conversation') openConversation(item.id, { focusInput: true });
      else if (item.kind === 'message') openConversation(item.conversationId, { highlightTs: item.ts, focusInput: true });
      else if (profiles) navigate(`/profile/${item.id}`);
      else {
        const dm = await command((api) => api.dmWith(item.id));
        if (dm) openConversation(dm, { focusInput: true });
      }
    },
    [openConversation, profiles, navigate],
  );

  return (
    <div className="shell">
      {page !== 'ask-ai' && (
        <a
          className="skip-link"
          href="#conversation-list"
          onClick={(event) => {
            event.preventDefault();
            focusRegion('list');
          }}
        >
          Skip to conversations
        </a>
      )}
      {/* What the keys do anywhere (issue 13 §1); the pages register their own. */}
      <AnywhereKeys status={status} onLogout={onLogout} onSearch={openPalette} onMenu={() => setMenuOpen(true)} />
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
          actions={availableActions().map((a) => ({ id: a.id, label: a.label, keys: formatKeys(a.keys[0]!), run: a.run }))}
          aiEnabled={aiEnabled}
          // An AI answer's source opens like a message result: its conversation, at the message.
          onOpenSource={(source) =>
            void choose({
              kind: 'message',
              id: source.id,
              conversationId: source.conversation_id,
              ts: source.timestamp,
              title: source.channel,
              text: source.text,
              author: source.author,
            })
          }
          onChoose={(item) => void choose(item)}
          onClose={() => setPaletteOpen(false)}
        />
      )}
      <span className={`live-dot ${live.status}`} role="status" aria-label={`Live updates: ${live.status}`} title={`Live updates: ${live.status}`} />
      {/* Offline (issue 14 §3): the list, views and cached conversations still work; this says since when. */}
      <OfflineStatus online={!OFFLINE.has(live.status)} lastSyncedAt={lastSynced} now={now} waiting={waiting} />
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
