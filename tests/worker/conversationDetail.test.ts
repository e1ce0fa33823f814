/**
 * The open conversation's stream (engine/conversationDetail.ts) in marbles: it emits only when this
 * conversation changed. An event for another conversation, or a store change that leaves this
 * conversation's summary as it was, sends nothing; an event for it sends once. The store is a Map
 * that each event changes (with the worker's own reduceSummary) before the detail hears it, as the
 * engine's events part does.
 */
import { tap, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/model/logger';
import type { Conversation, ConversationSummary, Message, MessageUpdateData } from '../../src/model/types';
import type { PendingSend } from '../../src/worker/engine/core';
import { conversationDetail } from '../../src/worker/engine/conversationDetail';
import type { ConversationDetail } from '../../src/worker/engine/types';
import { reduceSummary, type MessageChange } from '../../src/worker/reduce';
import {
  CHANNEL_ID,
  FAKE_NOW,
  USER_ALICE,
  USER_ME,
  message_new,
  messageUpdate_channelMarked,
  messageUpdate_newMessage,
  messageUpdate_threadNewMessage,
  slackTs,
} from '../fixtures/events';

/** The conversation as the server answers it: one older message, nothing unread. */
const older: Message = { ts: slackTs(FAKE_NOW - 600_000), user: USER_ME.id, text: 'Release notes are up.', channel: CHANNEL_ID };
const SUMMARY: ConversationSummary = {
  id: CHANNEL_ID,
  name: 'general',
  type: 'channel',
  is_private: false,
  member_ids: [USER_ME.id, USER_ALICE.id],
  unread_count: 0,
  unread_count_display: 0,
  last_read: older.ts,
  message_count: 1,
  latest_activity: Math.floor((FAKE_NOW - 600_000) / 1000),
  latest_message: { ts: older.ts, text: older.text, user: USER_ME.id },
};
const LOADED: Conversation = {
  ...SUMMARY,
  participants: [USER_ME, USER_ALICE],
  members_data: { [USER_ME.id]: USER_ME, [USER_ALICE.id]: USER_ALICE },
  messages: [older],
};

/** Updates: t a new message in this conversation, o a reply in another one (its thread), r this one marked read. */
const U: Record<string, MessageUpdateData> = { t: messageUpdate_newMessage.data, o: messageUpdate_threadNewMessage.data, r: messageUpdate_channelMarked.data };
const withAlice: Message = { ...message_new, user_data: USER_ALICE };

let scheduler: TestScheduler;
let store: Map<string, ConversationSummary>;
beforeEach(() => {
  scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  store = new Map([[CHANNEL_ID, SUMMARY]]);
});

/** What the store holds for this conversation after the given updates (reduceSummary answers the same object when nothing changed). */
function summaryAfter(...updates: MessageUpdateData[]): ConversationSummary {
  return updates.reduce((s, u) => reduceSummary(s, u, USER_ME.id)!, SUMMARY);
}

function loaded(messages: Message[], conversation: ConversationSummary = SUMMARY): ConversationDetail {
  return {
    id: CHANNEL_ID,
    status: 'loaded',
    conversation,
    participants: LOADED.participants,
    members: LOADED.members_data,
    me: USER_ME.id,
    workspaceId: 'T1',
    messages,
  };
}
const LOADING: ConversationDetail = { id: CHANNEL_ID, status: 'loading', messages: [] };

interface Sources {
  load$: Observable<Conversation>;
  updates$?: Observable<MessageUpdateData>;
  changes$?: Observable<MessageChange>;
  pending$?: Observable<PendingSend>;
  storeVersion$?: Observable<unknown>;
}

/** The detail over the given inputs; each update changes the store before the detail hears it. */
function detail(hot: (marbles: string) => Observable<never>, sources: Sources): Observable<ConversationDetail> {
  const apply = (u: MessageUpdateData) => {
    const next = reduceSummary(store.get(u.conversation_id), u, USER_ME.id);
    if (next) store.set(u.conversation_id, next);
  };
  return conversationDetail({
    id: CHANNEL_ID,
    load$: sources.load$,
    updates$: (sources.updates$ ?? hot('-')).pipe(tap(apply)),
    changes$: sources.changes$ ?? hot('-'),
    pending$: sources.pending$ ?? hot('-'),
    storeVersion$: sources.storeVersion$ ?? hot('-'),
    summary: () => store.get(CHANNEL_ID),
    context: () => ({ me: USER_ME.id, workspaceId: 'T1' }),
    log: memoryLogger(),
  });
}

describe('conversationDetail', () => {
  it('sends nothing for another conversation, and once for an event of its own that changes both its messages and its summary', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const load = cold('  --c|', { c: LOADED });
      const updates = hot('-----o--t--r---', U);
      const version = hot('-----v--v--v---', { v: 1 });
      const unsub = '      ^-------------!';
      const expected = '   l-d-----e--f---';
      const afterT = summaryAfter(U.t!);
      expectObservable(detail(hot, { load$: load, updates$: updates, storeVersion$: version }), unsub).toBe(expected, {
        l: LOADING,
        d: loaded([older]),
        e: loaded([older, withAlice], afterT),
        f: loaded([older, withAlice], summaryAfter(U.t!, U.r!)),
      });
      expectSubscriptions(load.subscriptions).toBe('^--!');
      // The updates are read from the start (held while loading), then live until the page leaves.
      expectSubscriptions(updates.subscriptions).toBe(['^-!', '--^-----------!']);
      expectSubscriptions(version.subscriptions).toBe('--^-----------!');
    });
  });

  it('folds an update that arrived while loading into the loaded messages', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const load = cold('  ----c|', { c: LOADED });
      const updates = hot('-t-o-----', U);
      const version = hot('-v-v-----', { v: 1 });
      const expected = '   l---d----';
      expectObservable(detail(hot, { load$: load, updates$: updates, storeVersion$: version }), '^--------!').toBe(expected, {
        l: LOADING,
        d: loaded([older, withAlice], summaryAfter(U.t!)),
      });
      expectSubscriptions(updates.subscriptions).toBe(['^---!', '----^----!']);
    });
  });

  it('shows a send in flight and takes it back out; a send elsewhere, a second drop and a store change elsewhere send nothing', () => {
    const pending: Message = { ts: '9999999999.999999', text: 'On it', channel: CHANNEL_ID, user: USER_ME.id, pending: true, client_msg_id: 'm1' };
    const P: Record<string, PendingSend> = {
      a: { kind: 'add', message: pending },
      b: { kind: 'add', message: { ...pending, channel: 'C_OTHER', client_msg_id: 'm2' } },
      d: { kind: 'drop', message: pending },
    };
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const load = cold('  -c|', { c: LOADED });
      const sends = hot('  ---a-b-d-d--', P);
      const version = hot('----v-----v-', { v: 1 });
      const expected = '   lc-a---d----';
      expectObservable(detail(hot, { load$: load, pending$: sends, storeVersion$: version }), '^-----------!').toBe(expected, {
        l: LOADING,
        c: loaded([older]),
        a: loaded([older, pending]),
        d: loaded([older]),
      });
      expectSubscriptions(sends.subscriptions).toBe('-^----------!');
    });
  });

  it('applies an edit of its own messages once, and ignores an edit elsewhere', () => {
    const edit: MessageChange = { conversation_id: CHANNEL_ID, reason: 'message_changed', message: { ...older, text: 'Release notes are up (v2).' } };
    const elsewhere: MessageChange = { ...edit, conversation_id: 'C_OTHER' };
    scheduler.run(({ cold, hot, expectObservable }) => {
      const load = cold('   -c|', { c: LOADED });
      const changes = hot(' ---x-y--', { x: elsewhere, y: edit });
      const version = hot(' ---v-v--', { v: 1 });
      expectObservable(detail(hot, { load$: load, changes$: changes, storeVersion$: version }), '^-------!').toBe('lc---e--', {
        l: LOADING,
        c: loaded([older]),
        e: loaded([{ ...edit.message!, channel: CHANNEL_ID }]),
      });
    });
  });

  it('says when the conversation could not be loaded', () => {
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const load = cold<Conversation>('--#', undefined, new Error('Unknown conversation'));
      const updates = hot('-o-----', U);
      expectObservable(detail(hot, { load$: load, updates$: updates })).toBe('l-(x|)', {
        l: LOADING,
        x: { id: CHANNEL_ID, status: 'error', messages: [], error: { isNetworkError: false, status: 0, message: 'Unknown conversation' } },
      });
      expectSubscriptions(updates.subscriptions).toBe('^-!');
    });
  });
});
