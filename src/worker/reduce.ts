/**
 * How one live event changes one conversation (SPEC §4.8). Pure functions over immutable
 * entries: each returns a new entry (made with immer's produce) or the same one when
 * nothing changed, so the store replaces at most one Map entry per event.
 *
 * Idempotent by construction: counts come as absolute numbers from the server when it
 * sends them, and a message whose ts is already held is not added again, so an event
 * applied twice (a snapshot that already had it, a replay) changes nothing the second time.
 */
import { produce } from 'immer';
import { compareTs, tsSeconds } from '../model/ts';
import type { ConversationSummary, Message, MessageUpdateData } from '../model/types';
import type { Logger } from '../model/logger';
import { isQuietSubtype, readableText } from '../model/slack';

/** The summary after a message_update; `me` is the member's user id. */
export function reduceSummary(summary: ConversationSummary | undefined, data: MessageUpdateData, me: string): ConversationSummary | undefined {
  if (data.action === 'channel_marked') {
    if (!summary) return summary;
    return produce(summary, (draft) => {
      draft.unread_count = data.unread_count ?? 0;
      draft.unread_count_display = data.unread_count_display ?? data.unread_count ?? 0;
      if (data.last_read !== undefined) draft.last_read = data.last_read;
    });
  }
  // A reply noticed on the parent channel changes the parent message, not the channel's counts.
  if (data.is_thread && data.action === 'new_message') return summary;

  if (data.conversation) {
    const incoming = data.conversation;
    if (!summary) return incoming;
    // An older copy (a replay behind a newer snapshot) must not move the summary back.
    if (compareTs(incoming.latest_message?.ts, summary.latest_message?.ts) < 0) return summary;
    return produce(summary, (draft) => {
      Object.assign(draft, incoming);
    });
  }

  const message = data.message;
  if (!summary || !message) return summary;
  if (compareTs(message.ts, summary.latest_message?.ts) <= 0) return summary;
  const system = isQuietSubtype(message.subtype);
  return produce(summary, (draft) => {
    // A system line moves the activity, never the preview.
    if (!system) draft.latest_message = { ts: message.ts, text: readableText(message), ...(message.user ? { user: message.user } : {}) };
    else if (draft.latest_message) draft.latest_message.ts = message.ts;
    draft.latest_activity = tsSeconds(message.ts);
    draft.last_message_time = draft.latest_activity;
    draft.message_count += 1;
    if (message.user === me) {
      draft.last_read = message.ts;
      draft.unread_count = 0;
      draft.unread_count_display = 0;
    } else if (data.unread_count !== undefined) {
      draft.unread_count = data.unread_count;
      draft.unread_count_display = data.unread_count_display ?? data.unread_count;
    } else if (!system) {
      draft.unread_count += 1;
      draft.unread_count_display += 1;
    }
  });
}

function insertByTs(messages: Message[], message: Message): Message[] {
  let i = messages.length;
  while (i > 0 && compareTs(messages[i - 1]!.ts, message.ts) > 0) i -= 1;
  return [...messages.slice(0, i), message, ...messages.slice(i)];
}

/**
 * The open conversation's messages after a message_update for it. A reply attaches to its
 * parent (a missing parent: ignored with a warning); a message that answers a pending
 * copy (same client_msg_id) replaces it.
 */
export function reduceMessages(messages: Message[], conversationId: string, data: MessageUpdateData, log: Pick<Logger, 'warn'>): Message[] {
  const message = data.message;
  if (data.conversation_id !== conversationId || !message || data.action === 'channel_marked') return messages;
  const withUser = data.users && message.user && data.users[message.user] ? { ...message, user_data: data.users[message.user] } : message;

  if (data.is_thread && data.action === 'new_message' && data.thread_ts) {
    const index = messages.findIndex((m) => m.ts === data.thread_ts);
    if (index < 0) {
      log.warn('Thread reply for a parent message that is not loaded; ignored', { conversationId, thread_ts: data.thread_ts });
      return messages;
    }
    const parent = messages[index]!;
    const replies = parent.threads ?? [];
    if (replies.some((r) => r.ts === message.ts)) return messages;
    const updated = produce(parent, (draft) => {
      draft.threads = insertByTs(replies, withUser) as typeof draft.threads;
      draft.reply_count = Math.max((parent.reply_count ?? 0) + 1, draft.threads!.length);
    });
    return [...messages.slice(0, index), updated, ...messages.slice(index + 1)];
  }

  // The server's copy answers a pending one (same client_msg_id), even when the copy is
  // already shown (Slack can echo a sent message before the send call returns).
  const pending = message.client_msg_id ? messages.findIndex((m) => m.pending && m.client_msg_id === message.client_msg_id) : -1;
  const settled = pending >= 0 ? [...messages.slice(0, pending), ...messages.slice(pending + 1)] : messages;
  if (settled.some((m) => m.ts === message.ts)) return settled;
  return insertByTs(settled, withUser);
}

/** What a conversation_update may say about one message (a Slack edit or deletion). */
export interface MessageChange {
  conversation_id: string;
  reason?: string;
  /** message_changed: the message as it is now. */
  message?: Message;
  /** message_deleted: the ts of the message that is gone. */
  deleted_ts?: string;
}

/**
 * The open conversation's messages after an edit or a deletion made in the workspace: the
 * message (top-level or a thread reply) is replaced or removed, keeping its replies and user
 * data. Anything else leaves the list as it is (the same array).
 */
export function reduceMessageChange(messages: Message[], conversationId: string, change: MessageChange): Message[] {
  if (change.conversation_id !== conversationId) return messages;
  const edit = (m: Message): Message | null => {
    if (change.reason === 'message_changed' && change.message && m.ts === change.message.ts) {
      // The edited message as the workspace now has it (text, blocks, reactions…), keeping what the page joined to it.
      const edited: Message = { ...change.message, channel: m.channel };
      if (m.threads) edited.threads = m.threads;
      if (m.user_data && !edited.user_data) edited.user_data = m.user_data;
      return edited;
    }
    if (change.reason === 'message_deleted' && m.ts === change.deleted_ts) return null;
    return m;
  };
  let touched = false;
  const next: Message[] = [];
  for (const m of messages) {
    const own = edit(m);
    if (own !== m) touched = true;
    if (!own) continue;
    if (own.threads?.length) {
      const threads = own.threads.map(edit).filter((r): r is Message => r !== null);
      if (threads.length !== own.threads.length || threads.some((r, i) => r !== own.threads![i])) {
        touched = true;
        next.push({ ...own, threads, reply_count: Math.max(0, (own.reply_count ?? threads.length) - (own.threads.length - threads.length)) });
        continue;
      }
    }
    next.push(own);
  }
  return touched ? next : messages;
}
