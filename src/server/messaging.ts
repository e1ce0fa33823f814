/**
 * The member-visible writes, shared by the routes and the demo simulator: each one is
 * committed with its events in one transaction, then fanned out.
 */
import type { AiCategory, ConversationSummary, ConversationUpdateData, Message, MessageUpdateData, UserData } from '../model/types';
import { parseThreadId, threadId } from '../model/validation';
import type { LiveHub } from './live/hub';
import type { ConversationRecord, InsertMessageResult, MemberEvent, Store } from './store/types';
import type { WorkspaceSource } from './sources/types';
import { readableText } from '../model/slack';
import { AppError } from './errors';

/** A message that cannot be sent, or not there (errors.ts's hierarchy). */
export class MessagingError extends AppError {
  constructor(message: string, status: 400 | 404 | 502 = 400) {
    super(status, message);
  }
}

export interface MessagingDeps {
  store: Store;
  hub: LiveHub;
  now: () => number;
  /** The workspace source, told of a read mark before it is stored (Slack: conversations.mark). */
  source?: Pick<WorkspaceSource, 'markRead'>;
}

export interface PostInput {
  workspaceId: string;
  userId: string;
  /** A conversation id, or a parent channel id together with thread_ts. */
  channel: string;
  text: string;
  thread_ts?: string;
  client_msg_id?: string;
  subtype?: 'channel_join' | 'channel_leave';
  /** The ts the workspace gave the message (Slack); absent: the store assigns one. */
  ts?: string;
}

/** What every refusal of a target says: unknown and forbidden read the same, so nothing tells whether an id or a ts exists. */
const UNKNOWN = 'Unknown conversation';

/** Whether a member may post in a conversation: they are in it, or it is a public channel. */
function mayPost(record: ConversationRecord, userId: string): boolean {
  return record.member_ids.includes(userId) || (record.type === 'channel' && !record.is_private);
}

interface Target {
  /** The conversation to post in; null for a first reply to a message that has no thread yet. */
  record: ConversationRecord | null;
  parent: ConversationRecord | null;
  threadId?: string;
  threadTs?: string;
}

/**
 * Where a message goes, checked for the sender: the conversation, or for a reply its parent
 * conversation (which the sender must be allowed to post in) and parent message. Writes nothing.
 */
async function locateTarget(deps: MessagingDeps, input: Pick<PostInput, 'workspaceId' | 'userId' | 'channel' | 'thread_ts'>): Promise<Target> {
  const { store } = deps;
  const fromId = parseThreadId(input.channel);
  const parentId = input.thread_ts ? (fromId?.parentId ?? input.channel) : fromId?.parentId;
  if (input.thread_ts && fromId && fromId.threadTs !== input.thread_ts) throw new MessagingError('thread_ts does not match the thread');
  if (!parentId) {
    const record = await store.conversationRecord(input.workspaceId, input.channel);
    if (!record || !mayPost(record, input.userId)) throw new MessagingError(UNKNOWN, 404);
    return { record, parent: null };
  }
  // A reply: the sender must be allowed in the parent conversation before anything about its messages is said.
  const parent = await store.conversationRecord(input.workspaceId, parentId);
  if (!parent || parent.type === 'thread' || !mayPost(parent, input.userId)) throw new MessagingError(UNKNOWN, 404);
  const threadTs = input.thread_ts ?? fromId!.threadTs;
  const id = threadId(parentId, threadTs);
  const record = await store.conversationRecord(input.workspaceId, id);
  if (!record && !(await store.getMessage(input.workspaceId, parentId, threadTs))) throw new MessagingError(UNKNOWN, 404);
  return { record, parent, threadId: id, threadTs };
}

/** Refuses (MessagingError) a message its sender may not post there; call it before the message reaches the workspace. */
export async function assertCanPost(deps: MessagingDeps, input: Pick<PostInput, 'workspaceId' | 'userId' | 'channel' | 'thread_ts'>): Promise<void> {
  await locateTarget(deps, input);
}

/** Finds (or, for a reply to a message without a thread yet, creates) the target conversation. */
async function resolveTarget(deps: MessagingDeps, input: PostInput): Promise<{ record: ConversationRecord; parent: ConversationRecord | null }> {
  const target = await locateTarget(deps, input);
  if (target.record) return { record: target.record, parent: target.parent };
  const parent = target.parent!;
  const parentMessage = (await deps.store.getMessage(input.workspaceId, parent.id, target.threadTs!))!;
  const members = [...new Set([parentMessage.user, input.userId].filter((u): u is string => Boolean(u)))];
  const record: ConversationRecord = {
    id: target.threadId!,
    name: readableText(parentMessage).slice(0, 80),
    type: 'thread',
    is_private: parent.is_private,
    member_ids: members,
    parent_conversation_id: parent.id,
    thread_ts: target.threadTs,
  };
  await deps.store.importBatch(input.workspaceId, { conversations: [record] });
  return { record, parent };
}

/** The per-member events of a new message (SPEC §7.3 message_update). */
export function messageEvents(result: InsertMessageResult, users: Record<string, UserData>, parent: ConversationRecord | null): MemberEvent[] {
  const { message, conversation } = result;
  const isThread = conversation.type === 'thread';
  const events: MemberEvent[] = result.members.map((member) => {
    const summary: ConversationSummary = {
      ...conversation,
      last_read: member.last_read,
      unread_count: member.unread_count,
      unread_count_display: member.unread_count,
    };
    const data: MessageUpdateData = {
      action: isThread ? 'thread_new_message' : 'new_message',
      conversation_id: conversation.id,
      message,
      is_thread: isThread,
      unread_count: member.unread_count,
      unread_count_display: member.unread_count,
      last_read: member.last_read,
      conversation: summary,
      users,
    };
    if (isThread && message.thread_ts) data.thread_ts = message.thread_ts;
    return { userId: member.userId, type: 'message_update', data };
  });
  // Members of the parent channel see the reply counted on its parent message.
  if (isThread && parent && message.thread_ts) {
    for (const userId of parent.member_ids) {
      const data: MessageUpdateData = {
        action: 'new_message',
        conversation_id: parent.id,
        message,
        is_thread: true,
        thread_ts: message.thread_ts,
        users,
      };
      events.push({ userId, type: 'message_update', data });
    }
  }
  return events;
}

export async function postMessage(deps: MessagingDeps, input: PostInput) {
  const { store, hub } = deps;
  const { record, parent } = await resolveTarget(deps, input);
  const users = await store.userData(input.workspaceId, [input.userId]);
  const written = await store.insertMessage(
    {
      workspaceId: input.workspaceId,
      conversationId: record.id,
      user: input.userId,
      text: input.text,
      thread_ts: input.thread_ts ?? record.thread_ts,
      client_msg_id: input.client_msg_id,
      subtype: input.subtype,
      at: deps.now(),
      ts: input.ts,
    },
    (result) => messageEvents(result, users, parent),
  );
  hub.publish(input.workspaceId, written.events);
  return written.result;
}

export async function markConversationRead(deps: MessagingDeps, input: { workspaceId: string; userId: string; conversationId: string; timestamp?: string }) {
  const { store, hub } = deps;
  const summary = await store.getConversation(input.workspaceId, input.userId, input.conversationId);
  if (!summary) throw new MessagingError('Unknown conversation', 404);
  const lastRead = input.timestamp ?? summary.latest_message?.ts ?? '';
  if (lastRead && deps.source?.markRead)
    await deps.source.markRead({ workspaceId: input.workspaceId, userId: input.userId, conversationId: input.conversationId, ts: lastRead });
  const written = await store.markRead(input.workspaceId, input.userId, input.conversationId, lastRead, deps.now(), (state) => {
    const data: MessageUpdateData = {
      action: 'channel_marked',
      conversation_id: input.conversationId,
      unread_count: state.unread_count,
      unread_count_display: state.unread_count,
      last_read: state.last_read,
    };
    return [{ userId: input.userId, type: 'message_update', data }];
  });
  hub.publish(input.workspaceId, written.events);
  return written.result;
}

/**
 * Sets or removes the member's own category of a conversation (SPEC §4.5), emitted as
 * conversation_update; answers whether it changed (the same category again is no news).
 */
export async function setManualCategory(
  deps: MessagingDeps,
  input: { workspaceId: string; userId: string; conversationId: string; category: AiCategory | null },
) {
  const { store, hub } = deps;
  const summary = await store.getConversation(input.workspaceId, input.userId, input.conversationId);
  if (!summary) throw new MessagingError('Unknown conversation', 404);
  const label = input.category ? { category: input.category, source: 'manual' as const, reason: 'You set this category', confidence: 1 } : null;
  const written = await store.setLabel(input.workspaceId, input.userId, input.conversationId, label, deps.now(), () => {
    // null clears a field on the receiving side: a removed label leaves no AI fields behind.
    const conversation = label
      ? {
          id: input.conversationId,
          ai_category: label.category,
          ai_source: label.source,
          ai_reason: label.reason,
          ai_confidence: label.confidence,
          ai_triggers: [],
        }
      : { id: input.conversationId, ai_category: null, ai_source: null, ai_reason: null, ai_confidence: null, ai_triggers: null };
    const data = { conversation_id: input.conversationId, conversation, reason: 'label' } as unknown as ConversationUpdateData;
    return [{ userId: input.userId, type: 'conversation_update', data }];
  });
  hub.publish(input.workspaceId, written.events);
  return written.events.length > 0;
}

/** Marks a conversation unread again: the read mark steps back before the newest message from someone else. */
export async function markConversationUnread(deps: MessagingDeps, input: { workspaceId: string; userId: string; conversationId: string; timestamp?: string }) {
  const summary = await deps.store.getConversation(input.workspaceId, input.userId, input.conversationId);
  if (!summary) throw new MessagingError('Unknown conversation', 404);
  let timestamp = input.timestamp;
  if (timestamp === undefined) {
    const latest = await deps.store.latestFromOthers(input.workspaceId, input.conversationId, input.userId);
    if (!latest) throw new MessagingError('There is no message from someone else to mark unread');
    timestamp = latest.before;
  }
  return markConversationRead(deps, { ...input, timestamp });
}

/** What a send answers: the message it posted (absent when that message was deleted since). */
export interface SendAnswer {
  channel: string;
  ts: string;
  message?: Message;
}

/**
 * Sends at most once per client_msg_id of a member (issue 14 §3: an outbox retries a send whose
 * answer it never saw): a send the store remembers (Store.sentMessage, kept as long as the event
 * log) answers the message it posted and posts nothing, to the workspace neither; sends of one id
 * made at the same time share the first one's outcome. One per app: the in-flight sends are this
 * process's.
 */
export function sendsOnce(store: Store) {
  const inFlight = new Map<string, Promise<SendAnswer>>();
  return (who: { workspaceId: string; userId: string; clientMsgId?: string }, send: () => Promise<SendAnswer>): Promise<SendAnswer> => {
    const { workspaceId, userId, clientMsgId } = who;
    if (!clientMsgId) return send();
    const key = `${workspaceId}\u0000${userId}\u0000${clientMsgId}`;
    const pending = inFlight.get(key);
    if (pending) return pending;
    const once = (async (): Promise<SendAnswer> => {
      const sent = await store.sentMessage(workspaceId, userId, clientMsgId);
      if (!sent) return send();
      const message = await store.getMessage(workspaceId, sent.conversationId, sent.ts);
      return { channel: sent.conversationId, ts: sent.ts, ...(message ? { message } : {}) };
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, once);
    return once;
  };
}
