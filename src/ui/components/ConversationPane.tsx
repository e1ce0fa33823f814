/**
 * The open conversation (SPEC §2.6, §4.4, §4.6): title, mark as read, messages kept live with
 * a 'New messages' divider, in-conversation search, and the composer (with the refinement
 * toolbar when AI is enabled).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { DEFERRED_PENDING_APPLY_MS, MESSAGE_BOX_MAX_HEIGHT_PX, MESSAGE_BOX_MIN_HEIGHT_PX, MESSAGE_HIGHLIGHT_MS } from '../../model/constants';
import { stripBidi, threadTitle, tokenize, tokensToPlain } from '../../model/mrkdwn';
import { avatarOf, conversationTitle, displayName } from '../../model/rows';
import { isSystemSubtype } from '../../model/slack';
import { authorName, isAppMessage, isExternalAuthor, systemLine, type ContentNames } from '../../model/slackContent';
import { messageTime } from '../../model/time';
import { compareTs, tsToMs } from '../../model/ts';
import type { MentionData, Message, UserData } from '../../model/types';
import { command } from '../engine';
import { useConversation } from '../hooks/useEngine';
import { matchesAction, useActionHandlers } from '../keyboard/dispatch';
import { Link } from 'wouter';
import { useFeatureFlag } from '../hooks/useFeatureFlag';
import { Avatar } from './Avatar';
import { MessageContent } from './MessageContent';
import { SearchIcon } from './Icons';
import { RefinePanel } from './RefinePanel';

type Names = ContentNames;

/** An own entry of a names record (never one of Object's), when it is a string. */
function entry(record: Record<string, string> | undefined, key: string): string | undefined {
  if (!record || !Object.hasOwn(record, key)) return undefined;
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

/** The browser's IANA time zone, for Slack's dates. */
function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * Names for a conversation's content: people from its members, channels, user groups and custom
 * emoji from its mentions, the browser's time zone and clock, and the member's own id.
 */
function contentNames(users: Map<string, UserData>, mentions: MentionData | undefined, me: string | undefined, now: number): Names {
  return {
    user: (uid) => (users.get(uid) ? displayName(users.get(uid), uid) : undefined),
    channel: (cid) => entry(mentions?.channels, cid),
    usergroup: (sid) => entry(mentions?.usergroups, sid),
    emoji: (name) => entry(mentions?.emoji, name),
    timeZone: browserTimeZone(),
    now,
    ...(me ? { me } : {}),
  };
}

export interface OpenRequest {
  /** A message to scroll to and highlight for 3 s (opening from a message result). */
  highlightTs?: string;
  /** Put the cursor in the message box (opening from search or a new DM). */
  focusInput?: boolean;
  /** Changes on every request, so the same one can be made twice. */
  nonce: number;
}

/**
 * The shown message with this ts, compared as a value: a ts from a link is never made into
 * selector text (a quote in it threw from querySelector and blanked the app; issue 12).
 */
function messageAt(root: HTMLElement | null, ts: string): Element | null {
  return Array.from(root?.querySelectorAll('[data-ts]') ?? []).find((el) => el.getAttribute('data-ts') === ts) ?? null;
}

export function ConversationPane({ id, onClose, now, request }: { id: string; onClose: () => void; now: number; request?: OpenRequest }) {
  const detail = useConversation(id);
  const [draft, setDraft] = useState('');
  const [sendError, setSendError] = useState<string | null>(null);
  const [searchOpen, setSearchOpen] = useState(false);
  const loaded = detail?.status === 'loaded';
  /** The message highlighted after opening from a message result: from when it has loaded until its time is over. */
  const [flashOver, setFlashOver] = useState<OpenRequest | null>(null);
  const flash = loaded && request?.highlightTs && flashOver !== request ? request.highlightTs : null;
  const [query, setQuery] = useState('');
  const [match, setMatch] = useState(0);
  const endRef = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const messagesRef = useRef<HTMLDivElement>(null);
  const users = useMemo(() => new Map<string, UserData>(Object.entries(detail?.members ?? {})), [detail?.members]);
  const mentions = detail?.mentions;
  const me = detail?.me;
  const names = useMemo(() => contentNames(users, mentions, me, now), [users, mentions, me, now]);
  const messages = useMemo(() => detail?.messages ?? [], [detail?.messages]);
  /** The workspace's team (to tell external people): the member's workspace, else as Slack stamps it on the member's own messages. */
  const homeTeam = useMemo(() => detail?.workspaceId || messages.find((m) => m.user === me && m.user_team)?.user_team, [detail?.workspaceId, messages, me]);
  const profiles = useFeatureFlag('userProfile') === true;
  const aiEnabled = useFeatureFlag('aiEnabled') === true;

  // The read mark when the conversation opened: the divider stays put while it is open (taken during render, once).
  const [readMark, setReadMark] = useState<string | null>(null);
  if (readMark === null && detail?.status === 'loaded' && detail.conversation) setReadMark(detail.conversation.last_read);
  const firstNew = useMemo(() => {
    // An empty read mark means never read: the divider goes before the first message from someone else.
    if (readMark === null) return -1;
    return messages.findIndex((m) => !m.pending && m.user !== me && compareTs(m.ts, readMark) > 0 && !m.subtype);
  }, [messages, readMark, me]);

  // In-conversation search over the messages' plain text.
  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    return messages
      .filter((m) =>
        tokensToPlain(tokenize(m.resolved_text ?? m.text, names))
          .toLowerCase()
          .includes(q),
      )
      .map((m) => m.ts);
  }, [messages, query, names]);
  const current = matches.length ? matches[Math.min(match, matches.length - 1)] : undefined;
  useEffect(() => {
    if (current) messageAt(messagesRef.current, current)?.scrollIntoView({ block: 'center' });
  }, [current]);

  useEffect(() => {
    if (!searchOpen && !flash) endRef.current?.scrollIntoView({ block: 'end' });
  }, [messages.length, searchOpen, flash]);

  // SPEC §4.4: opened from a message result, the message is shown and highlighted for 3 s; from search, the box gets focus.
  useEffect(() => {
    if (!request || !loaded) return undefined;
    if (request.focusInput) box.current?.focus();
    if (!request.highlightTs) return undefined;
    messageAt(messagesRef.current, request.highlightTs)?.scrollIntoView({ block: 'center' });
    const timer = window.setTimeout(() => setFlashOver(request), MESSAGE_HIGHLIGHT_MS);
    return () => window.clearTimeout(timer);
  }, [request, loaded]);

  // Leaving the conversation lets a reply's mark-as-read take effect in the list (SPEC §4.4).
  useEffect(() => () => void command((api) => api.release(id)), [id]);

  // / or Cmd/Ctrl+Shift+K open the search (the registry's keys; issue 13 §1).
  useActionHandlers({ 'search-in-conversation': { run: () => setSearchOpen(true) } });

  // The box grows with its text between 96 and 250 px.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(MESSAGE_BOX_MAX_HEIGHT_PX, Math.max(MESSAGE_BOX_MIN_HEIGHT_PX, el.scrollHeight))}px`;
  }, [draft]);

  const send = async () => {
    const text = draft;
    if (!text.trim()) return;
    setDraft('');
    setSendError(null);
    const result = await command((api) => api.send(id, text));
    if (!result.ok) {
      setSendError(result.error ?? 'Unknown error');
      setDraft((now) => now || text);
      return;
    }
    // The reply marked it read: let the list take the change when the pointer is not over it.
    window.setTimeout(() => {
      const list = document.querySelector('.conversation-list');
      if (!list?.matches(':hover')) void command((api) => api.release(id));
      else list.addEventListener('mouseleave', () => void command((api) => api.release(id)), { once: true });
    }, DEFERRED_PENDING_APPLY_MS);
  };

  const conversation = detail?.conversation;
  const title = conversation
    ? conversation.type === 'thread'
      ? threadTitle(conversation.parent_message?.text ?? conversation.name, names)
      : conversationTitle(conversation, users)
    : '';
  const unread = (conversation?.unread_count_display ?? 0) > 0;
  return (
    <section className="detail-pane" aria-label={title || 'Conversation'} data-region="conversation">
      <header className="detail-header">
        <button type="button" className="icon-button" aria-label="Back" title="Back (Esc)" onClick={onClose}>
          ←
        </button>
        <h2 className="detail-title">{title}</h2>
        <button
          type="button"
          className="icon-button"
          aria-label="Search in conversation"
          title="Search in conversation (/)"
          onClick={() => setSearchOpen(true)}
        >
          <SearchIcon size={16} />
        </button>
        {unread && (
          <button type="button" className="button" title="Mark as read (⌘/Ctrl+E)" onClick={() => void command((api) => api.markRead(id))}>
            Mark as read
          </button>
        )}
      </header>
      {searchOpen && (
        <div className="filter-bar" role="search">
          <input
            autoFocus
            type="search"
            aria-label="Search in conversation"
            placeholder="Search in conversation..."
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setMatch(0);
            }}
            onKeyDown={(e) => {
              const next = matchesAction(e, 'next-match');
              if (next || matchesAction(e, 'previous-match')) {
                e.preventDefault();
                if (matches.length) setMatch((m) => (next ? (m + 1) % matches.length : (m - 1 + matches.length) % matches.length));
              } else if (e.key === 'Escape') {
                e.preventDefault();
                e.nativeEvent.stopImmediatePropagation();
                setSearchOpen(false);
                setQuery('');
              }
            }}
          />
          <span className="muted small match-count" aria-live="polite">
            {query.trim() ? `${matches.length ? Math.min(match, matches.length - 1) + 1 : 0} / ${matches.length}` : ''}
          </span>
        </div>
      )}
      {/* Not live: opening a long conversation would be read out at once; new messages are said by the page's announcer. */}
      <div className="messages" role="log" aria-live="off" ref={messagesRef}>
        {detail?.status === 'loading' && <p className="muted center-title">Loading...</p>}
        {detail?.status === 'error' && <p className="error-text">{detail.error?.message}</p>}
        {messages.map((m, i) => (
          <MessageBlock
            key={m.pending ? `pending-${m.client_msg_id}` : m.ts}
            message={m}
            users={users}
            names={names}
            now={now}
            divider={i === firstNew}
            highlighted={m.ts === current || m.ts === flash}
            profiles={profiles}
            homeTeam={homeTeam}
          />
        ))}
        <div ref={endRef} />
      </div>
      {sendError && (
        <div className="banner error" role="alert">
          Failed to send message: {sendError}
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setSendError(null)}>
            ×
          </button>
        </div>
      )}
      {aiEnabled && <RefinePanel key={id} text={draft} input={box} onApply={setDraft} />}
      <form
        className="composer"
        data-region="composer"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <textarea
          ref={box}
          aria-label="Message"
          placeholder="Write a reply..."
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (matchesAction(e, 'send')) {
              e.preventDefault();
              void send();
            }
          }}
        />
      </form>
    </section>
  );
}

interface ItemProps {
  message: Message;
  users: Map<string, UserData>;
  names: Names;
  now: number;
  highlighted: boolean;
  /** Authors link to their profile (the user-profile flag). */
  profiles: boolean;
  /** The workspace's team id, when known. */
  homeTeam?: string;
}

function MessageBlock({ divider, ...props }: ItemProps & { divider: boolean }) {
  return (
    <>
      {divider && (
        <div className="new-divider" role="separator" aria-label="New messages">
          <span>New messages</span>
        </div>
      )}
      <MessageItem {...props} />
    </>
  );
}

/**
 * Who wrote a message, as shown: the user record, else the app's bot profile, else the name a
 * webhook posted under, else an external person's profile; the id or 'Unknown' only when none is there.
 */
function authorOf(message: Message, user: UserData | undefined, names: Names, uid: string): string {
  const known = user ? stripBidi(displayName(user, '')).trim() : '';
  return known || authorName(message, names) || uid || 'Unknown';
}

function AuthorBadges({ app, external }: { app: boolean; external: boolean }) {
  return (
    <>
      {app && (
        <span className="app-badge" title="An app or integration">
          APP
        </span>
      )}
      {external && (
        <span className="external-badge" title="From another organization">
          external
        </span>
      )}
    </>
  );
}

function MessageItem({ message, users, names, now, highlighted, profiles, homeTeam }: ItemProps) {
  const uid = message.user ?? '';
  const user = message.user_data ?? users.get(uid);
  const name = authorOf(message, user, names, uid);
  if (isSystemSubtype(message.subtype)) {
    return (
      <div className="system-line" data-ts={message.ts}>
        {systemLine(message, { ...names, user: (id) => (id === uid ? name : names.user(id)) })}
      </div>
    );
  }
  const app = isAppMessage(message);
  const external = !app && isExternalAuthor(message, user !== undefined, homeTeam);
  return (
    <article className={`message${message.pending ? ' pending' : ''}${highlighted ? ' highlighted' : ''}`} data-ts={message.ts}>
      {profiles && uid ? (
        <Link href={`/profile/${uid}`} className="author-link" tabIndex={-1} aria-hidden="true">
          <Avatar avatar={avatarOf(user, uid)} size={32} />
        </Link>
      ) : (
        <Avatar avatar={avatarOf(user, uid)} size={32} />
      )}
      <div className="message-body">
        <div className="message-meta">
          {profiles && uid ? (
            <Link href={`/profile/${uid}`} className="message-author author-link">
              {name}
            </Link>
          ) : (
            <span className="message-author">{name}</span>
          )}
          <AuthorBadges app={app} external={external} />
          <time className="muted small">{message.queued ? 'Waiting to send' : message.pending ? 'Sending...' : messageTime(tsToMs(message.ts), now)}</time>
        </div>
        <div className="message-text">
          <MessageContent message={message} names={names} />
        </div>
        {message.threads && message.threads.length > 0 && (
          <div className="thread-replies">
            {message.threads.map((r) => (
              <MessageItem key={r.ts} message={r} users={users} names={names} now={now} highlighted={false} profiles={profiles} homeTeam={homeTeam} />
            ))}
          </div>
        )}
      </div>
    </article>
  );
}
