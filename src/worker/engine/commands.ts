/**
 * The member's writes: mark read and unread, a category, a send, the custom views. Each is applied to
 * the store at once (optimistically) and sent to the server; a refusal is rolled back (a category), or
 * answered so the page keeps the member's input (a send, a view), or reloads the list (a mark read).
 */
import type { AiCategory, ConversationSummary, HttpError, Message } from '../../model/types';
import { parseThreadId } from '../../model/validation';
import type { View } from '../../model/views';
import type { Layout } from '../../model/layout';
import type { Core } from './core';
import { pendingCopy, requestOf, type Outbox, type OutboxAction } from './outbox';
import { markReadAndNext } from './reads';
import { toHttpError, type SendResult, type ViewInput } from './types';

export function createCommands(core: Core, outbox: Outbox | null = null) {
  const { log, http, store, changed, reload$, pendingSends$ } = core;

  /**
   * Sends an action now, or puts it in the outbox when it must wait (issue 14 §3): offline or a failure that
   * passes, or something else already waits (their order holds). Answers the server's body when it was sent.
   */
  async function submit(action: OutboxAction): Promise<{ ok: true; queued: boolean; body?: unknown } | { ok: false; error: HttpError }> {
    if (outbox?.mustWait()) {
      outbox.enqueue(action);
      return { ok: true, queued: true };
    }
    const request = requestOf(action);
    try {
      const body = await http.request(request.path, { ...(request.method ? { method: request.method } : {}), ...(request.body ? { body: request.body } : {}) });
      return { ok: true, queued: false, body };
    } catch (error) {
      const failure = toHttpError(error);
      if (outbox?.mustWait(failure)) {
        outbox.enqueue(action);
        return { ok: true, queued: true };
      }
      return { ok: false, error: failure };
    }
  }

  async function markRead(id: string): Promise<boolean> {
    const c = store.conversations.get(id);
    if (!c) return false;
    const last_read = c.latest_message?.ts ?? c.last_read;
    // An explicit mark-as-read takes effect at once, even on a conversation held after a reply.
    store.release(id);
    if (store.applyMessageUpdate({ action: 'channel_marked', conversation_id: id, unread_count: 0, unread_count_display: 0, last_read })) changed();
    const result = await submit({ id: crypto.randomUUID(), kind: 'mark-read', conversationId: id, ...(last_read ? { timestamp: last_read } : {}) });
    if (result.ok) return true;
    log.error('Mark as read failed; reloading', result.error);
    reload$.next();
    return false;
  }

  /** Sets (or, with null, removes) the member's category; applied at once, reverted if the server refuses. */
  async function setCategory(id: string, category: AiCategory | null): Promise<boolean> {
    const previous = store.conversations.get(id);
    if (!previous) return false;
    const optimistic = category
      ? { id, ai_category: category, ai_source: 'manual' as const }
      : { id, ai_category: null, ai_source: null, ai_reason: null, ai_confidence: null, ai_triggers: null };
    if (store.applyConversationUpdate({ conversation_id: id, conversation: optimistic as unknown as ConversationSummary })) changed();
    const result = await submit({ id: crypto.randomUUID(), kind: 'category', conversationId: id, category });
    if (result.ok) return true;
    log.error('Failed to update category', result.error);
    store.put(id, previous);
    changed();
    return false;
  }

  /**
   * Creates (no id) or updates a custom view. Applied locally at once on success; a failure
   * is logged only (SPEC §8) and answered, so the modal can stay open with its input.
   */
  async function saveView(input: ViewInput, id?: string): Promise<{ ok: boolean; view?: View; error?: string }> {
    try {
      const path = id ? `/api/custom-views/${encodeURIComponent(id)}` : '/api/custom-views';
      const { view } = await http.request<{ view: View }>(path, { method: id ? 'PUT' : 'POST', body: input });
      store.upsertView(view);
      changed();
      return { ok: true, view };
    } catch (error) {
      log.error(id ? 'Custom view update failed' : 'Custom view create failed', toHttpError(error));
      return { ok: false, error: toHttpError(error).message };
    }
  }

  async function deleteView(id: string): Promise<{ ok: boolean; error?: string }> {
    try {
      await http.request(`/api/custom-views/${encodeURIComponent(id)}`, { method: 'DELETE' });
      store.removeView(id);
      changed();
      return { ok: true };
    } catch (error) {
      log.error('Custom view delete failed', toHttpError(error));
      return { ok: false, error: toHttpError(error).message };
    }
  }

  async function reorderViews(positions: Array<{ id: string; position: number }>): Promise<boolean> {
    try {
      const { views } = await http.request<{ views: View[] }>('/api/custom-views/reorder', { body: { positions } });
      for (const view of views) store.upsertView(view);
      changed();
      return true;
    } catch (error) {
      log.error('Custom view reorder failed', toHttpError(error));
      return false;
    }
  }

  /** Marks every unread conversation of a view read (a palette action); answers how many. */
  async function markViewRead(viewId: string): Promise<number> {
    const view = store.views.get(viewId);
    if (!view) return 0;
    const ids = view.ids(0, view.size).filter((id) => (store.conversations.get(id)?.unread_count_display ?? 0) > 0);
    let done = 0;
    // A few at a time: the server commits each mark with its event.
    for (let i = 0; i < ids.length; i += 4) {
      const batch = await Promise.all(ids.slice(i, i + 4).map((id) => markRead(id)));
      done += batch.filter(Boolean).length;
    }
    return done;
  }

  /** Marks a conversation unread again (the newest message from someone else), or back to `lastRead`. */
  async function markUnread(id: string, lastRead?: string): Promise<boolean> {
    const result = await submit({ id: crypto.randomUUID(), kind: 'mark-unread', conversationId: id, ...(lastRead ? { timestamp: lastRead } : {}) });
    if (!result.ok) {
      log.error('Mark as unread failed', result.error);
      return false;
    }
    // The server says where the read mark is now; an action that waits shows the conversation unread until it does.
    const state = result.body as { last_read: string; unread_count: number } | undefined;
    const update = state
      ? { unread_count: state.unread_count, last_read: state.last_read }
      : { unread_count: 1, unread_count_display: 1, last_read: lastRead ?? store.conversations.get(id)?.last_read ?? '' };
    if (store.applyMessageUpdate({ action: 'channel_marked', conversation_id: id, ...update })) changed();
    return true;
  }

  async function send(conversationId: string, text: string, threadTs?: string): Promise<SendResult> {
    // A thread conversation's id carries its thread: replies there go to that thread.
    const thread = threadTs ?? parseThreadId(conversationId)?.threadTs;
    const action = { id: crypto.randomUUID(), kind: 'send' as const, conversationId, text, ...(thread ? { threadTs: thread } : {}) };
    // Replying marks an unread conversation read; its row keeps its place until the page releases it.
    if ((store.conversations.get(conversationId)?.unread_count_display ?? 0) > 0) store.hold(conversationId);
    // A pending copy sorts last until the server's copy (same client_msg_id) replaces it; offline, it waits in the outbox.
    const pending: Message = pendingCopy(action, store.me);
    pendingSends$.next({ kind: 'add', message: pending });
    const result = await submit(action);
    if (result.ok && result.queued) pendingSends$.next({ kind: 'queued', message: pending });
    if (result.ok) return result.queued ? { ok: true, queued: true } : { ok: true };
    // Take the pending copy back out; the page keeps the text so nothing is lost.
    pendingSends$.next({ kind: 'drop', message: pending });
    return { ok: false, error: result.error.message };
  }

  return {
    markRead,
    /** Marks a conversation read and answers the next one to open in the view (see reads.ts). */
    markReadAndNext: (viewId: string, id: string, layout?: Layout) => markReadAndNext(store, markRead, viewId, id, layout),
    markUnread,
    markViewRead,
    setCategory,
    send,
    saveView,
    deleteView,
    reorderViews,
    /** Lets a held conversation take its new place (see store.hold). */
    release: (id: string) => {
      if (store.release(id)) changed();
    },
  };
}
