/**
 * The open conversation (SPEC §4.4): its messages, loaded once over HTTP and then kept live from
 * the applied events (message updates, edits and deletions, sends in flight), with its summary
 * from the store. Events that arrive while the messages load are held and folded in.
 */
import {
  catchError,
  combineLatest,
  defer,
  distinctUntilChanged,
  filter,
  finalize,
  from,
  map,
  merge,
  of,
  scan,
  startWith,
  switchMap,
  tap,
  type Observable,
} from 'rxjs';
import type { Conversation, Message, MessageUpdateData } from '../../model/types';
import { reduceMessageChange, reduceMessages } from '../reduce';
import type { Core } from './core';
import { toHttpError, type ConversationDetail } from './types';

export function createConversationDetail(core: Core) {
  const { log, http, store, changed, storeVersion$, messageUpdates$, messageChanges$, pendingSends$ } = core;

  /** One open conversation: its messages (loaded once, then kept live) and its summary. */
  function conversation(id: string): Observable<ConversationDetail> {
    return defer(() => {
      const early: MessageUpdateData[] = [];
      const earlySub = messageUpdates$.subscribe((d) => early.push(d));
      const loaded$ = from(http.request<{ conversation: Conversation }>(`/api/conversations/${encodeURIComponent(id)}/threads`)).pipe(
        tap(({ conversation: c }) => {
          store.mergeUsers(c.members_data);
          if (!store.conversations.has(c.id)) {
            const { participants: _p, members_data: _m, messages: _msgs, last_message: _l, ...summary } = c;
            store.put(c.id, summary);
            changed();
          }
        }),
        switchMap(({ conversation: c }) => {
          earlySub.unsubscribe();
          const initial = early.reduce((msgs, d) => reduceMessages(msgs, id, d, log), c.messages);
          type Step = (msgs: Message[]) => Message[];
          const messages$ = merge(
            messageUpdates$.pipe(
              map(
                (d): Step =>
                  (msgs) =>
                    reduceMessages(msgs, id, d, log),
              ),
            ),
            messageChanges$.pipe(
              map(
                (change): Step =>
                  (msgs) =>
                    reduceMessageChange(msgs, id, change),
              ),
            ),
            pendingSends$.pipe(
              filter((p) => p.message.channel === id),
              map(({ kind, message }): Step =>
                kind === 'add' ? (msgs) => [...msgs, message] : (msgs) => msgs.filter((m) => !(m.pending && m.client_msg_id === message.client_msg_id)),
              ),
            ),
          ).pipe(
            scan((msgs, step) => step(msgs), initial),
            startWith(initial),
          );
          const summary$ = storeVersion$.pipe(
            map(() => store.conversations.get(id)),
            distinctUntilChanged(),
          );
          return combineLatest([messages$, summary$]).pipe(
            map(([messages, summary]): ConversationDetail => ({
              id,
              status: 'loaded',
              conversation: summary ?? c,
              participants: c.participants,
              members: c.members_data,
              ...(c.mentions ? { mentions: c.mentions } : {}),
              me: store.me,
              ...(store.workspaceId ? { workspaceId: store.workspaceId } : {}),
              messages,
            })),
          );
        }),
        startWith<ConversationDetail>({ id, status: 'loading', messages: [] }),
        catchError((error: unknown) => of<ConversationDetail>({ id, status: 'error', messages: [], error: toHttpError(error) })),
        finalize(() => earlySub.unsubscribe()),
      );
      return loaded$;
    });
  }

  return { streams: { conversation } };
}
