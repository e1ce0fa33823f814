/**
 * Event application (SPEC §4.8): one validated live event folded into the store, passed on to the
 * open conversation, and announced as a desktop notification when it is a new message from someone
 * else. The live loop (session.ts) calls `applyEvent` once per event, in order, each in its own
 * error boundary (liveEvents); `connection` events are handed back to the session.
 */
import { Subject } from 'rxjs';
import { conversationTitle, displayName } from '../../model/rows';
import { notificationBody } from '../../model/notification';
import { isQuietSubtype, readableText } from '../../model/slack';
import type { ConversationUpdateData, MessageUpdateData } from '../../model/types';
import type { ViewUpdateData } from '../../model/views';
import type { MessageChange } from '../reduce';
import type { Core } from './core';
import type { IncomingMessage } from './types';

export function createEvents(core: Core) {
  const { store, changed, messageUpdates$, messageChanges$, reload$ } = core;
  const incoming$ = new Subject<IncomingMessage>();

  function applyEvent(type: string, data: unknown, isReplay: boolean, onConnection: () => void): void {
    switch (type) {
      case 'connection':
        onConnection();
        return;
      case 'message_update': {
        const update = data as MessageUpdateData;
        // The store first, then the open conversation, then the store's readers: the open conversation reads
        // its new summary with its new messages and sends them once.
        const storeChanged = store.applyMessageUpdate(update);
        messageUpdates$.next(update);
        if (storeChanged) changed();
        announce(update, isReplay);
        return;
      }
      case 'conversation_update': {
        const storeChanged = store.applyConversationUpdate(data as ConversationUpdateData);
        // An edit or a deletion made in the workspace reaches the open conversation too.
        if ((data as MessageChange).message || (data as MessageChange).deleted_ts) messageChanges$.next(data as MessageChange);
        if (storeChanged) changed();
        return;
      }
      case 'fetch_complete':
        reload$.next();
        return;
      case 'view_update': {
        // SPEC issue 4: view changes reach the member's other tabs through the stream.
        const update = data as ViewUpdateData;
        if (update.action === 'upsert') store.upsertView(update.view);
        else if (update.action === 'delete') store.removeView(update.id);
        else if (update.action === 'reset') store.setCustomViews(update.views);
        changed();
        return;
      }
      case 'feature_update':
        core.forgetFlags(); // the next featureFlags() call fetches them again
        return;
      default:
        return; // SPEC §4.8: any other event type is ignored.
    }
  }

  /** SPEC §4.8: a new message from another member may raise a notification; own messages and replays never do. */
  function announce(update: MessageUpdateData, isReplay: boolean): void {
    const message = update.message;
    if (isReplay || !message || !message.user || message.user === store.me || isQuietSubtype(message.subtype)) return;
    if (update.action === 'channel_marked' || (update.is_thread && update.action === 'new_message')) return;
    const conversation = store.conversations.get(update.conversation_id);
    const names = {
      user: (id: string) => {
        const u = store.users.get(id);
        return u ? displayName(u, id) : undefined;
      },
    };
    incoming$.next({
      conversationId: update.conversation_id,
      title: conversation ? conversationTitle(conversation, store.users) : 'Sift',
      author: displayName(store.users.get(message.user), message.user),
      body: notificationBody(readableText(message), names),
    });
  }

  return { applyEvent, incoming$: incoming$.asObservable() };
}
