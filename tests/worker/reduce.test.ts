/** SPEC §4.8 as the worker applies it: one conversation and its messages per event, idempotently. */
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/model/logger';
import type { ConversationSummary, Message, MessageUpdateData } from '../../src/model/types';
import { reduceMessageChange, reduceMessages, reduceSummary } from '../../src/worker/reduce';
import {
  CHANNEL_ID,
  FAKE_NOW,
  THREAD_TS,
  USER_ALICE,
  USER_ME,
  message_new,
  message_threadReply,
  messageUpdate_channelMarked,
  slackTs,
} from '../fixtures/events';

const base: ConversationSummary = {
  id: CHANNEL_ID,
  name: 'general',
  type: 'channel',
  is_private: false,
  member_ids: [USER_ME.id, USER_ALICE.id],
  unread_count: 0,
  unread_count_display: 0,
  last_read: slackTs(FAKE_NOW - 600_000),
  message_count: 4,
  latest_activity: Math.floor((FAKE_NOW - 600_000) / 1000),
  latest_message: { ts: slackTs(FAKE_NOW - 600_000), text: 'earlier', user: USER_ALICE.id },
};

const newMessage = (message: Message, extra: Partial<MessageUpdateData> = {}): MessageUpdateData => ({
  action: 'new_message',
  conversation_id: CHANNEL_ID,
  message,
  ...extra,
});

describe('reduceSummary', () => {
  it('channel_marked zeroes unread and sets last_read', () => {
    const unread = { ...base, unread_count: 3, unread_count_display: 3 };
    const next = reduceSummary(unread, messageUpdate_channelMarked.data, USER_ME.id)!;
    expect(next.unread_count).toBe(0);
    expect(next.unread_count_display).toBe(0);
    expect(next.last_read).toBe(messageUpdate_channelMarked.data.last_read);
    expect(unread.unread_count).toBe(3);
  });

  it("another member's message becomes the latest and counts as unread", () => {
    const next = reduceSummary(base, newMessage(message_new), USER_ME.id)!;
    expect(next.latest_message).toMatchObject({ ts: message_new.ts, text: message_new.text, user: USER_ALICE.id });
    expect(next.latest_activity).toBe(Number(message_new.ts.split('.')[0]));
    expect(next.unread_count).toBe(1);
    expect(next.message_count).toBe(5);
  });

  it("an app's post previews its derived text (its own text is empty) and counts as unread", () => {
    const post: Message = { ...message_new, text: '', subtype: 'bot_message', resolved_text: '[FIRING:1] p99 latency on api' };
    const next = reduceSummary(base, newMessage(post), USER_ME.id)!;
    expect(next.latest_message?.text).toBe('[FIRING:1] p99 latency on api');
    expect(next.unread_count).toBe(1);
  });

  it.each([['channel_topic'], ['channel_join'], ['pinned_item'], ['tombstone']])(
    'a %s line moves the activity, never the preview or the unread count',
    (subtype) => {
      const line: Message = { ...message_new, subtype, text: `<@${USER_ALICE.id}> did something to the channel` };
      const next = reduceSummary(base, newMessage(line), USER_ME.id)!;
      expect(next.latest_message).toMatchObject({ ts: line.ts, text: 'earlier', user: USER_ALICE.id });
      expect(next.latest_activity).toBe(Number(line.ts.split('.')[0]));
      expect(next.unread_count).toBe(0);
    },
  );

  it('takes the absolute unread count the server sent', () => {
    const next = reduceSummary(
      { ...base, unread_count: 1, unread_count_display: 1 },
      newMessage(message_new, { unread_count: 7, unread_count_display: 6 }),
      USER_ME.id,
    )!;
    expect([next.unread_count, next.unread_count_display]).toEqual([7, 6]);
  });

  it('an own message sets last_read to it and raises no unread', () => {
    const own = { ...message_new, user: USER_ME.id };
    const next = reduceSummary({ ...base, unread_count: 2, unread_count_display: 2 }, newMessage(own), USER_ME.id)!;
    expect(next.last_read).toBe(own.ts);
    expect(next.unread_count).toBe(0);
  });

  it('is idempotent: the same event twice changes nothing the second time', () => {
    const once = reduceSummary(base, newMessage(message_new), USER_ME.id)!;
    expect(reduceSummary(once, newMessage(message_new), USER_ME.id)).toBe(once);
  });

  it('never moves a summary back to an older copy', () => {
    const newer = reduceSummary(base, newMessage(message_new), USER_ME.id)!;
    const stale = newMessage(base.latest_message as unknown as Message, { conversation: base });
    expect(reduceSummary(newer, stale, USER_ME.id)).toBe(newer);
  });

  it('a reply noticed on the parent channel leaves the channel summary alone', () => {
    const reply = newMessage(message_threadReply, { is_thread: true, thread_ts: THREAD_TS });
    expect(reduceSummary(base, reply, USER_ME.id)).toBe(base);
  });

  it('a new conversation arrives whole with the event', () => {
    const conversation = { ...base, id: 'C_NEW' };
    expect(reduceSummary(undefined, { ...newMessage(message_new), conversation_id: 'C_NEW', conversation }, USER_ME.id)).toEqual(conversation);
  });
});

describe('reduceMessages', () => {
  const parent: Message = { ts: THREAD_TS, user: USER_ME.id, text: 'parent', channel: CHANNEL_ID, reply_count: 0 };

  it('adds a new message in ts order, once', () => {
    const log = memoryLogger();
    const older: Message = { ts: slackTs(FAKE_NOW - 90_000), text: 'older', channel: CHANNEL_ID };
    const later: Message = { ts: slackTs(FAKE_NOW), text: 'later', channel: CHANNEL_ID };
    const once = reduceMessages([older, later], CHANNEL_ID, newMessage(message_new), log);
    expect(once.map((m) => m.text)).toEqual(['older', message_new.text, 'later']);
    expect(reduceMessages(once, CHANNEL_ID, newMessage(message_new), log)).toBe(once);
  });

  it('merges the attached user data into the message', () => {
    const next = reduceMessages(
      [],
      CHANNEL_ID,
      newMessage({ ...message_new, user_data: undefined }, { users: { [USER_ALICE.id]: USER_ALICE } }),
      memoryLogger(),
    );
    expect(next[0]!.user_data).toEqual(USER_ALICE);
  });

  it('attaches a thread reply to its parent and counts it', () => {
    const next = reduceMessages([parent], CHANNEL_ID, newMessage(message_threadReply, { is_thread: true, thread_ts: THREAD_TS }), memoryLogger());
    expect(next[0]!.threads!.map((r) => r.ts)).toEqual([message_threadReply.ts]);
    expect(next[0]!.reply_count).toBe(1);
    expect(reduceMessages(next, CHANNEL_ID, newMessage(message_threadReply, { is_thread: true, thread_ts: THREAD_TS }), memoryLogger())).toBe(next);
  });

  it('ignores a reply whose parent is not loaded, with a warning', () => {
    const log = memoryLogger();
    const messages: Message[] = [];
    expect(reduceMessages(messages, CHANNEL_ID, newMessage(message_threadReply, { is_thread: true, thread_ts: THREAD_TS }), log)).toBe(messages);
    expect(log.entries).toEqual([expect.objectContaining({ level: 'warn' })]);
  });

  it("replaces the sender's pending copy (same client_msg_id) with the server's", () => {
    const pending: Message = { ts: '9999999999.999999', text: 'hi', channel: CHANNEL_ID, pending: true, client_msg_id: 'm1' };
    const confirmed: Message = { ts: slackTs(FAKE_NOW), text: 'hi', channel: CHANNEL_ID, client_msg_id: 'm1', user: USER_ME.id };
    const next = reduceMessages([pending], CHANNEL_ID, newMessage(confirmed), memoryLogger());
    expect(next).toEqual([confirmed]);
  });

  it('settles the pending copy when the server copy is already shown (a Slack echo that came first)', () => {
    const pending: Message = { ts: '9999999999.999999', text: 'hi', channel: CHANNEL_ID, pending: true, client_msg_id: 'm1' };
    const echo: Message = { ts: slackTs(FAKE_NOW), text: 'hi', channel: CHANNEL_ID, user: USER_ME.id };
    const confirmed: Message = { ...echo, client_msg_id: 'm1' };
    const next = reduceMessages([echo, pending], CHANNEL_ID, newMessage(confirmed), memoryLogger());
    expect(next).toEqual([echo]);
  });

  it('leaves other conversations and channel_marked alone', () => {
    const messages: Message[] = [parent];
    expect(reduceMessages(messages, 'C_OTHER', newMessage(message_new), memoryLogger())).toBe(messages);
    expect(reduceMessages(messages, CHANNEL_ID, messageUpdate_channelMarked.data, memoryLogger())).toBe(messages);
  });
});

describe('reduceMessageChange (edits and deletions made in the workspace)', () => {
  const reply: Message = { ts: '1700000100.000200', text: 'a reply', channel: CHANNEL_ID, user: 'U2' };
  const top: Message = { ts: '1700000100.000100', text: 'before', channel: CHANNEL_ID, user: 'U1', reply_count: 1, threads: [reply] };
  const other: Message = { ts: '1700000100.000300', text: 'other', channel: CHANNEL_ID, user: 'U1' };
  const list = [top, other];

  it('replaces an edited message, keeping its replies', () => {
    const next = reduceMessageChange(list, CHANNEL_ID, {
      conversation_id: CHANNEL_ID,
      reason: 'message_changed',
      message: { ...top, text: 'after', threads: undefined },
    });
    expect(next.map((m) => m.text)).toEqual(['after', 'other']);
    expect(next[0]!.threads).toEqual([reply]);
  });

  it('takes the whole edited message as the workspace has it: blocks, reactions, the edited mark', () => {
    const edited: Message = {
      ...top,
      threads: undefined,
      text: '',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Deploy *done*' } }],
      reactions: [{ name: 'tada', count: 2, users: ['U1', 'U2'] }],
      edited: { user: 'U1', ts: '1700000200.000000' },
      resolved_text: 'Deploy *done*',
    };
    const next = reduceMessageChange(list, CHANNEL_ID, { conversation_id: CHANNEL_ID, reason: 'message_changed', message: edited });
    expect(next[0]).toMatchObject({
      blocks: edited.blocks,
      reactions: edited.reactions,
      edited: edited.edited,
      resolved_text: 'Deploy *done*',
      threads: [reply],
    });
  });

  it('replaces an edited thread reply', () => {
    const next = reduceMessageChange(list, CHANNEL_ID, {
      conversation_id: CHANNEL_ID,
      reason: 'message_changed',
      message: { ...reply, text: 'a better reply' },
    });
    expect(next[0]!.threads!.map((r) => r.text)).toEqual(['a better reply']);
  });

  it('removes a deleted message, and a deleted reply (one reply fewer)', () => {
    expect(reduceMessageChange(list, CHANNEL_ID, { conversation_id: CHANNEL_ID, reason: 'message_deleted', deleted_ts: other.ts })).toEqual([top]);
    const next = reduceMessageChange(list, CHANNEL_ID, { conversation_id: CHANNEL_ID, reason: 'message_deleted', deleted_ts: reply.ts });
    expect(next[0]).toMatchObject({ threads: [], reply_count: 0 });
  });

  it.each([
    ['another conversation', { conversation_id: 'C_OTHER', reason: 'message_deleted', deleted_ts: other.ts }],
    ['an unknown message', { conversation_id: CHANNEL_ID, reason: 'message_deleted', deleted_ts: '1600000000.000000' }],
    ['another reason', { conversation_id: CHANNEL_ID, reason: 'member_joined' }],
  ])('leaves the list as it is for %s', (_name, change) => {
    expect(reduceMessageChange(list, CHANNEL_ID, change)).toBe(list);
  });
});
