/**
 * The open conversation (SPEC §4.4): its messages, loaded once over HTTP and then kept live from
 * the applied events (message updates, edits and deletions, sends in flight), with its summary
 * from the store. Events that arrive while the messages load are held and folded in.
 *
 * It emits only when this conversation changed: an event for another conversation, or a store
 * change that leaves this conversation's summary as it was, sends nothing. The events part applies
 * an event to the store before it passes it on here and announces the store change after, so an
 * event that changes both the messages and the summary emits once.
 *
 *   load$           --c|
 *   updates$        ------o--t---      (o: another conversation, t: this one)
 *   storeVersion$   ------v--v---
 *   detail          l-d------e---      (l: loading, d: loaded, e: t applied)
 */
import { catchError, defer, distinctUntilChanged, filter, finalize, from, map, merge, of, scan, startWith, switchMap, tap, type Observable } from 'rxjs';
import type { Logger } from '../../model/logger';
import type { Conversation, ConversationSummary, Message, MessageUpdateData } from '../../model/types';
import { reduceMessageChange, reduceMessages, type MessageChange } from '../reduce';
import type { Core, PendingSend } from './core';
import { toHttpError, type ConversationDetail } from './types';

export interface ConversationDetailInputs {
  id: string;
  /** The conversation with its messages, as the server answers it (one value). */
  load$: Observable<Conversation>;
  /** Applied events, after the store applied them. */
  updates$: Observable<MessageUpdateData>;
  changes$: Observable<MessageChange>;
  pending$: Observable<PendingSend>;
  /** Ticks when the store changed. */
  storeVersion$: Observable<unknown>;
  /** The store's summary of the conversation now. */
  summary: () => ConversationSummary | undefined;
  /** The member's user id and workspace, read when a detail is sent. */
  context: () => { me: string; workspaceId: string };
  log: Pick<Logger, 'warn'>;
}

type Step = (messages: Message[]) => Message[];
const same: Step = (messages) => messages;

/** A pending copy added, or taken back out (the same list when it is not there). */
function pendingStep({ kind, message }: PendingSend): Step {
  if (kind === 'add') return (messages) => [...messages, message];
  if (kind === 'queued')
    return (messages) =>
      messages.some((m) => m.pending && m.client_msg_id === message.client_msg_id && !m.queued)
        ? messages.map((m) => (m.pending && m.client_msg_id === message.client_msg_id ? { ...m, queued: true } : m))
        : messages;
  return (messages) => {
    const kept = messages.filter((m) => !(m.pending && m.client_msg_id === message.client_msg_id));
    return kept.length === messages.length ? messages : kept;
  };
}

/** One open conversation as a stream: loading, then loaded and kept live (or an error). */
export function conversationDetail(inputs: ConversationDetailInputs): Observable<ConversationDetail> {
  const { id, log } = inputs;
  const updates$ = inputs.updates$.pipe(filter((d) => d.conversation_id === id));
  return defer(() => {
    const early: MessageUpdateData[] = [];
    const earlySub = updates$.subscribe((d) => early.push(d));
    return inputs.load$.pipe(
      switchMap((c) => {
        earlySub.unsubscribe();
        const initial = { messages: early.reduce((msgs, d) => reduceMessages(msgs, id, d, log), c.messages), summary: inputs.summary() };
        const steps$ = merge(
          updates$.pipe(
            map(
              (d): Step =>
                (msgs) =>
                  reduceMessages(msgs, id, d, log),
            ),
          ),
          inputs.changes$.pipe(
            filter((change) => change.conversation_id === id),
            map(
              (change): Step =>
                (msgs) =>
                  reduceMessageChange(msgs, id, change),
            ),
          ),
          inputs.pending$.pipe(
            filter((p) => p.message.channel === id),
            map(pendingStep),
          ),
          inputs.storeVersion$.pipe(map(() => same)),
        );
        return steps$.pipe(
          scan((state, step) => ({ messages: step(state.messages), summary: inputs.summary() }), initial),
          startWith(initial),
          distinctUntilChanged((a, b) => a.messages === b.messages && a.summary === b.summary),
          map(({ messages, summary }): ConversationDetail => {
            const { me, workspaceId } = inputs.context();
            return {
              id,
              status: 'loaded',
              conversation: summary ?? c,
              participants: c.participants,
              members: c.members_data,
              ...(c.mentions ? { mentions: c.mentions } : {}),
              me,
              ...(workspaceId ? { workspaceId } : {}),
              messages,
            };
          }),
        );
      }),
      startWith<ConversationDetail>({ id, status: 'loading', messages: [] }),
      catchError((error: unknown) => of<ConversationDetail>({ id, status: 'error', messages: [], error: toHttpError(error) })),
      finalize(() => earlySub.unsubscribe()),
    );
  });
}

export function createConversationDetail(core: Core) {
  const { log, http, store, changed } = core;

  /** One open conversation: its messages (loaded once, then kept live) and its summary. */
  const conversation = (id: string): Observable<ConversationDetail> =>
    detailOf(id).pipe(
      // What the member reads is what the copy keeps of it (the newest messages, as they change).
      tap((detail) => {
        if (detail.status === 'loaded') core.rememberMessages(id, detail.messages);
      }),
    );

  const detailOf = (id: string): Observable<ConversationDetail> =>
    conversationDetail({
      id,
      load$: defer(() => from(http.request<{ conversation: Conversation }>(`/api/conversations/${encodeURIComponent(id)}/threads`))).pipe(
        map((body) => body.conversation),
        // Offline (issue 14 §3): a conversation opened before reads from the local copy.
        catchError((error: unknown) => {
          const saved = toHttpError(error).isNetworkError ? fromCopy(id) : null;
          if (!saved) throw error;
          return of(saved);
        }),
        tap((c) => {
          store.mergeUsers(c.members_data);
          if (!store.conversations.has(c.id)) {
            const { participants: _p, members_data: _m, messages: _msgs, last_message: _l, ...summary } = c;
            store.put(c.id, summary);
            changed();
          }
        }),
      ),
      updates$: core.messageUpdates$,
      changes$: core.messageChanges$,
      pending$: core.pendingSends$,
      storeVersion$: core.storeVersion$,
      summary: () => store.conversations.get(id),
      context: () => ({ me: store.me, workspaceId: store.workspaceId }),
      log,
    });

  /** A conversation as the copy has it: the store's summary, its saved messages, the people they name. */
  function fromCopy(id: string): Conversation | null {
    const summary = store.conversations.get(id);
    const messages = core.opened.get(id);
    if (!summary || !messages) return null;
    const people = new Set([...summary.member_ids, ...messages.map((m) => m.user).filter((u): u is string => !!u)]);
    const members_data = Object.fromEntries([...people].flatMap((u) => (store.users.has(u) ? [[u, store.users.get(u)!]] : [])));
    return { ...summary, messages, participants: summary.member_ids.flatMap((u) => (store.users.has(u) ? [store.users.get(u)!] : [])), members_data };
  }

  return { streams: { conversation } };
}
