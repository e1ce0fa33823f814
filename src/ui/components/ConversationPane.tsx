/** The open conversation: its messages, kept live, and a composer. */
import { useEffect, useRef, useState } from 'react';
import { avatarOf, conversationTitle, displayName } from '../../model/rows';
import { plainText } from '../../model/text';
import { messageTime } from '../../model/time';
import { tsToMs } from '../../model/ts';
import type { Message, UserData } from '../../model/types';
import { command } from '../engine';
import { useConversation } from '../hooks/useEngine';
import { Avatar } from './Avatar';

export function ConversationPane({ id, onClose, now }: { id: string; onClose: () => void; now: number }) {
  const detail = useConversation(id);
  const [draft, setDraft] = useState('');
  const [sendError, setSendError] = useState<string | null>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const users = new Map<string, UserData>(Object.entries(detail?.members ?? {}));
  const names = { user: (uid: string) => (users.get(uid) ? displayName(users.get(uid), uid) : undefined) };
  const messages = detail?.messages ?? [];

  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [messages.length]);

  const send = async () => {
    const text = draft;
    if (!text.trim()) return;
    setDraft('');
    setSendError(null);
    const result = await command((api) => api.send(id, text));
    if (!result.ok) {
      setSendError(result.error ?? 'Unknown error');
      setDraft((current) => current || text);
    }
  };

  const title = detail?.conversation ? conversationTitle(detail.conversation, users) : '';
  const unread = (detail?.conversation?.unread_count_display ?? 0) > 0;
  return (
    <section className="detail-pane" aria-label={title || 'Conversation'}>
      <header className="detail-header">
        <button type="button" className="icon-button" aria-label="Back" onClick={onClose}>
          ←
        </button>
        <h2 className="detail-title">{title}</h2>
        {unread && (
          <button type="button" className="button" onClick={() => void command((api) => api.markRead(id))}>
            Mark as read
          </button>
        )}
      </header>
      <div className="messages" role="log" aria-live="polite">
        {detail?.status === 'loading' && <p className="muted center-title">Loading...</p>}
        {detail?.status === 'error' && <p className="error-text">{detail.error?.message}</p>}
        {messages.map((m) => (
          <MessageItem key={m.pending ? `pending-${m.client_msg_id}` : m.ts} message={m} users={users} names={names} now={now} />
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
      <form
        className="composer"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <textarea
          aria-label="Message"
          placeholder="Write a reply..."
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void send();
            }
          }}
        />
      </form>
    </section>
  );
}

function MessageItem({ message, users, names, now }: { message: Message; users: Map<string, UserData>; names: { user(id: string): string | undefined }; now: number }) {
  const uid = message.user ?? '';
  const user = message.user_data ?? users.get(uid);
  const name = displayName(user, uid || 'Unknown');
  if (message.subtype === 'channel_join' || message.subtype === 'channel_leave') {
    return (
      <div className="system-line" data-ts={message.ts}>
        {name} {message.subtype === 'channel_join' ? 'joined the channel' : 'left the channel'}
      </div>
    );
  }
  return (
    <article className={`message${message.pending ? ' pending' : ''}`} data-ts={message.ts}>
      <Avatar avatar={avatarOf(user, uid)} size={32} />
      <div className="message-body">
        <div className="message-meta">
          <span className="message-author">{name}</span>
          <time className="muted small">{message.pending ? 'Sending...' : messageTime(tsToMs(message.ts), now)}</time>
        </div>
        <p className="message-text">{plainText(message.text, names)}</p>
        {message.threads && message.threads.length > 0 && (
          <div className="thread-replies">
            {message.threads.map((r) => (
              <MessageItem key={r.ts} message={r} users={users} names={names} now={now} />
            ))}
          </div>
        )}
      </div>
    </article>
  );
}
