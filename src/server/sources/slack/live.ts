/**
 * Live events through Socket Mode (@slack/socket-mode's SocketModeClient, which opens the
 * connection with apps.connections.open and the app-level token, answers hello / disconnect
 * and reconnects). Every envelope is acknowledged at once; its event is then applied to the
 * store and becomes the members' message_update / conversation_update events, one at a time
 * in arrival order. Slack re-sends an event it thinks was lost (same event_id): ids already
 * processed are skipped (kept a day, then pruned), and a message is keyed by its ts, so the
 * echo of a message Sift sent is not stored twice either.
 */
import { SocketModeClient } from '@slack/socket-mode';
import type { ConversationSummary, MessageUpdateData } from '../../../model/types';
import { threadId } from '../../../model/validation';
import type { LiveHub } from '../../live/hub';
import type { ServerLogger } from '../../log';
import { messageEvents } from '../../messaging';
import type { ConversationRecord, MemberEvent, SourceBatch, SourceBatchResult, Store } from '../../store/types';
import { slackLogger } from './client';
import { authorOf, toMessage, toThread, type Directory, type SlackMessage } from './mapping';
import { referencedBy } from './names';
import { accessRemovedEvents } from './sync';
import { derivedText } from '../../../model/slackText';
import type { User, UserData } from '../../../model/types';
import type { SlackSource } from './source';

const EVENT_ID_TTL_MS = 24 * 60 * 60 * 1000;

interface EventBody {
  type?: string;
  team_id?: string;
  event_id?: string;
  event?: SlackEvent;
  authorizations?: Array<{ user_id?: string }>;
}

interface SlackEvent extends Partial<SlackMessage> {
  type: string;
  /** A channel id; channel_rename / group_rename: the channel object. */
  channel?: string | { id?: string; name?: string };
  user?: string;
  message?: SlackMessage;
  previous_message?: SlackMessage;
  deleted_ts?: string;
  hidden?: boolean;
}

export class SlackLive {
  private client: SocketModeClient | null = null;
  private queue: Promise<void> = Promise.resolve();
  /** The reconciliation after the latest (re)connection. */
  private reconciling: Promise<void> = Promise.resolve();
  private pruneTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: { source: SlackSource; store: Store; hub: LiveHub; logger: ServerLogger; now: () => number }) {}

  async start(): Promise<void> {
    const { source, logger } = this.deps;
    const client = new SocketModeClient({
      appToken: source.config.appToken!,
      clientOptions: { slackApiUrl: source.config.apiUrl },
      logger: slackLogger(logger, 'socket-mode'),
    });
    client.on('slack_event', async ({ ack, type, body }: { ack: () => Promise<void>; type: string; body: EventBody }) => {
      try {
        await ack();
      } catch (error) {
        logger.log('warn', 'Socket Mode ack failed', { error: String(error) });
      }
      if (type === 'events_api' && body?.type === 'event_callback') this.enqueue(body);
    });
    client.on('connected', () => {
      logger.log('info', 'Socket Mode connected');
      // Events may have been missed while no connection was open: every member is reconciled with Slack.
      this.reconciling = this.reconciling
        .then(() => (this.client ? source.syncEveryone('reconnect') : undefined))
        .catch((error: unknown) => logger.log('warn', 'Slack reconciliation failed', { error: String(error) }));
    });
    client.on('disconnected', () => logger.log('info', 'Socket Mode disconnected'));
    this.client = client;
    await client.start();
    await this.prune();
    this.pruneTimer = setInterval(() => void this.prune(), 60 * 60 * 1000);
    this.pruneTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    const client = this.client;
    this.client = null;
    if (client) await client.disconnect().catch(() => undefined);
    await this.queue;
    await this.reconciling;
  }

  /** Resolves once every event received so far is applied, and the reconciliation after the latest connection ended (tests). */
  async idle(): Promise<void> {
    await this.reconciling;
    await this.queue;
  }

  private async prune(): Promise<void> {
    await this.deps.store.pruneSourceEvents(this.deps.now() - EVENT_ID_TTL_MS).catch(() => 0);
  }

  private enqueue(body: EventBody): void {
    this.queue = this.queue
      .then(() => this.handle(body))
      .catch((error: unknown) => this.deps.logger.log('warn', 'Slack event failed', { event: body.event?.type, error: String(error) }));
  }

  /** Applies one event unless its id was processed before. */
  async handle(body: EventBody): Promise<void> {
    const { store } = this.deps;
    const ws = body.team_id;
    const event = body.event;
    if (!ws || !event || !(await store.getWorkspace(ws))) return;
    if (body.event_id && (await store.sourceEventSeen(ws, body.event_id))) {
      this.deps.logger.log('debug', 'Slack event already processed', { event_id: body.event_id });
      return;
    }
    await this.apply(ws, event, body.authorizations?.[0]?.user_id);
    if (body.event_id) await store.recordSourceEvent(ws, body.event_id, this.deps.now());
  }

  private async apply(ws: string, event: SlackEvent, authorizedUser: string | undefined): Promise<void> {
    switch (event.type) {
      case 'message': {
        if (!isChannelEvent(event)) return;
        if (event.subtype === 'message_changed') return this.changed(ws, event, authorizedUser);
        if (event.subtype === 'message_deleted') return this.deleted(ws, event);
        if (event.subtype === 'message_replied' || event.hidden) return;
        return this.posted(ws, event, authorizedUser);
      }
      case 'channel_marked':
      case 'im_marked':
      case 'group_marked': {
        if (!isChannelEvent(event)) return;
        const userId = event.user ?? authorizedUser;
        if (!userId || !event.channel || !event.ts) return;
        return this.write(ws, { readMarks: [{ conversation_id: event.channel, user_id: userId, last_read: event.ts }] }, (result) =>
          result.marked.map((mark) => {
            const data: MessageUpdateData = {
              action: 'channel_marked',
              conversation_id: mark.conversation_id,
              unread_count: mark.unread_count,
              unread_count_display: mark.unread_count,
              last_read: mark.last_read,
            };
            return { userId: mark.userId, type: 'message_update', data };
          }),
        );
      }
      case 'member_left_channel':
        return this.leave(ws, channelIdOf(event), event.user);
      case 'channel_left':
      case 'group_left':
        // Sent to the member who left (or was removed): `user` is absent, the authorization names them.
        return this.leave(ws, channelIdOf(event), authorizedUser);
      case 'channel_archive':
      case 'group_archive':
      case 'channel_deleted':
      case 'group_deleted':
        return this.close(ws, channelIdOf(event), event.type.endsWith('archive') ? 'archived' : 'deleted');
      case 'channel_rename':
      case 'group_rename':
        return this.rename(ws, event.channel);
      case 'member_joined_channel': {
        const channel = channelIdOf(event);
        if (!channel || !event.user) return;
        const record = await this.deps.store.conversationRecord(ws, channel);
        // A Sift member added to a conversation nobody here holds yet: their sync brings it with its history.
        if (!record) return this.syncJoined(ws, event.user);
        if (record.member_ids.includes(event.user)) return;
        const user = event.user;
        const next: ConversationRecord = { ...record, member_ids: [...record.member_ids, user] };
        delete next.truth;
        await this.write(ws, { conversations: [next] }, (result) => {
          const touched = result.touched.get(record.id);
          if (!touched || result.joined.length === 0) return [];
          return touched.members.map((m) => {
            // The member who joined gets the whole conversation; the others its new member list.
            if (m.userId !== user)
              return {
                userId: m.userId,
                type: 'conversation_update',
                data: {
                  conversation_id: record.id,
                  conversation: { id: record.id, member_ids: touched.conversation.member_ids },
                  reason: 'member_joined',
                  user,
                },
              };
            const conversation: ConversationSummary = {
              ...touched.conversation,
              last_read: m.last_read,
              unread_count: m.unread_count,
              unread_count_display: m.unread_count,
            };
            return { userId: user, type: 'conversation_update', data: { conversation_id: record.id, conversation, reason: 'access_added', added: true } };
          });
        });
        return;
      }
      default:
        return;
    }
  }

  /**
   * The directory a live message is mapped with, as a sync would: stored people, and whoever the
   * message names that Sift has not met yet, looked up with the token of the member the event was
   * delivered for (SlackNames, once per id). Answers the new author records for the batch.
   */
  private async directory(
    ws: string,
    me: string,
    messages: SlackMessage[],
    authorizedUser: string | undefined,
  ): Promise<{ directory: Directory; users: User[] }> {
    const stored = await this.deps.store.listUsers(ws);
    const directory: Directory = { me, users: new Map(stored.map((u) => [u.id, u])), bots: new Map() };
    if (!authorizedUser) return { directory, users: [] };
    const refs = referencedBy(messages, (m) => derivedText({ ...m, text: typeof m.text === 'string' ? m.text : '' }));
    const users = await this.deps.source
      .withMember(ws, authorizedUser, 'names', (token) => this.deps.source.names.complete(ws, token, directory, refs))
      .catch((error: unknown) => {
        this.deps.logger.log('info', 'Slack names for a live event failed', { error: String(error) });
        return [] as User[];
      });
    return { directory, users };
  }

  /** A new message or thread reply. */
  private async posted(ws: string, event: ChannelEvent, authorizedUser: string | undefined): Promise<void> {
    const { store } = this.deps;
    if (!event.channel || !event.ts) return;
    const channel = await store.conversationRecord(ws, event.channel);
    if (!channel) return; // a conversation no signed-in member has synced
    const message = event as SlackMessage;
    const { directory, users: named } = await this.directory(ws, event.user ?? '', [message], authorizedUser);
    const batch: SourceBatch = { users: named, conversations: [], messages: [] };
    let parent: ConversationRecord | null = null;
    let conversationId = channel.id;
    if (event.thread_ts && event.thread_ts !== event.ts) {
      const stored = await store.getMessage(ws, channel.id, event.thread_ts);
      if (!stored) return; // a reply to a message Sift does not hold
      parent = channel;
      conversationId = threadId(channel.id, event.thread_ts);
      const thread = await store.conversationRecord(ws, conversationId);
      const parentSlack: SlackMessage = { ...stored, thread_ts: stored.ts, reply_count: (stored.reply_count ?? 0) + 1 };
      if (!thread) batch.conversations!.push(toThread(channel, parentSlack, [message], directory, false));
      else if (authorOf(message, directory) && !thread.member_ids.includes(authorOf(message, directory)!)) {
        const next = { ...thread, member_ids: [...thread.member_ids, authorOf(message, directory)!] };
        delete next.truth;
        batch.conversations!.push(next);
      }
      batch.messages!.push(toMessage(parentSlack, channel.id, directory));
    }
    batch.messages!.push(toMessage(message, conversationId, directory));
    const author = authorOf(message, directory);
    const users = author
      ? await store
          .userData(ws, [author])
          .then((known) => ({ ...known, ...Object.fromEntries(named.filter((u) => u.id === author).map((u) => [u.id, userDataOf(u)])) }))
      : {};
    await this.write(ws, batch, (result) => {
      const inserted = result.inserted.find((m) => m.ts === event.ts && m.channel === conversationId);
      const touched = result.touched.get(conversationId);
      if (!inserted || !touched) return [];
      return messageEvents({ message: inserted, conversation: touched.conversation, members: touched.members }, users, parent);
    });
  }

  /** A member left or was removed: they lose the conversation and its threads; the others see the new member list. */
  private async leave(ws: string, channelId: string | undefined, userId: string | undefined): Promise<void> {
    if (!channelId || !userId) return;
    const record = await this.deps.store.conversationRecord(ws, channelId);
    if (!record) return;
    const others = record.member_ids.filter((m) => m !== userId);
    const written = await this.deps.store.revokeAccess(ws, userId, [channelId], this.deps.now(), (lost) => [
      ...accessRemovedEvents(userId, lost, 'member_left'),
      ...others.map((m) => ({
        userId: m,
        type: 'conversation_update',
        data: { conversation_id: channelId, conversation: { id: channelId, member_ids: others }, reason: 'member_left', user: userId },
      })),
    ]);
    if (written.events.length) this.deps.hub.publish(ws, written.events);
  }

  /** A conversation archived or deleted in Slack: every member loses it, and its threads. */
  private async close(ws: string, channelId: string | undefined, reason: 'archived' | 'deleted'): Promise<void> {
    if (!channelId) return;
    const record = await this.deps.store.conversationRecord(ws, channelId);
    if (!record) return;
    for (const userId of record.member_ids) {
      const written = await this.deps.store.revokeAccess(ws, userId, [channelId], this.deps.now(), (lost) => accessRemovedEvents(userId, lost, reason));
      if (written.events.length) this.deps.hub.publish(ws, written.events);
    }
  }

  private async rename(ws: string, channel: SlackEvent['channel']): Promise<void> {
    if (typeof channel !== 'object' || !channel?.id || typeof channel.name !== 'string' || !channel.name.trim()) return;
    const id = channel.id;
    const name = channel.name.trim().slice(0, 200);
    const written = await this.deps.store.renameConversation(ws, id, name, this.deps.now(), (members) =>
      members.map((userId) => ({ userId, type: 'conversation_update', data: { conversation_id: id, conversation: { id, name }, reason: 'renamed' } })),
    );
    if (written?.events.length) this.deps.hub.publish(ws, written.events);
  }

  /** A member with Sift was added to a conversation Sift does not hold: their sync brings it, with its history. */
  private async syncJoined(ws: string, userId: string): Promise<void> {
    if (!(await this.deps.store.getCredential(ws, userId))) return;
    await this.deps.source.fetchNew(this.deps.store, ws, userId).catch((error: unknown) => {
      this.deps.logger.log('warn', 'Slack sync after a join failed', { workspace: ws, user: userId, error: String(error) });
    });
  }

  private async locate(ws: string, channelId: string, ts: string, threadTs?: string): Promise<string | null> {
    const candidates = threadTs && threadTs !== ts ? [threadId(channelId, threadTs), channelId] : [channelId];
    for (const id of candidates) if (await this.deps.store.getMessage(ws, id, ts)) return id;
    return null;
  }

  private async changed(ws: string, event: ChannelEvent, authorizedUser: string | undefined): Promise<void> {
    const m = event.message;
    if (!event.channel || !m?.ts) return;
    const conversationId = await this.locate(ws, event.channel, m.ts, m.thread_ts ?? event.previous_message?.thread_ts);
    if (!conversationId) return;
    const { directory, users } = await this.directory(ws, m.user ?? '', [m], authorizedUser);
    await this.write(ws, { users, messages: [toMessage(m, conversationId, directory)] }, (result) =>
      result.edited.flatMap((message) => this.updates(result, message.channel, 'message_changed', { message })),
    );
  }

  private async deleted(ws: string, event: ChannelEvent): Promise<void> {
    if (!event.channel || !event.deleted_ts) return;
    const conversationId = await this.locate(ws, event.channel, event.deleted_ts, event.previous_message?.thread_ts);
    if (!conversationId) return;
    await this.write(ws, { deletedMessages: [{ conversation_id: conversationId, ts: event.deleted_ts }] }, (result) =>
      result.deleted.flatMap((d) => this.updates(result, d.conversation_id, 'message_deleted', { deleted_ts: d.ts })),
    );
  }

  /** A conversation_update per member of a touched conversation: their summary after the change. */
  private updates(result: SourceBatchResult, conversationId: string, reason: string, extra: Record<string, unknown>): MemberEvent[] {
    const touched = result.touched.get(conversationId);
    if (!touched) return [];
    return touched.members.map((member) => {
      const conversation: ConversationSummary = {
        ...touched.conversation,
        last_read: member.last_read,
        unread_count: member.unread_count,
        unread_count_display: member.unread_count,
      };
      return { userId: member.userId, type: 'conversation_update', data: { conversation_id: conversationId, conversation, reason, ...extra } };
    });
  }

  private async write(ws: string, batch: SourceBatch, build: (result: SourceBatchResult) => MemberEvent[]): Promise<void> {
    const written = await this.deps.store.applySourceBatch(ws, batch, this.deps.now(), build);
    if (written.events.length) this.deps.hub.publish(ws, written.events);
  }
}

/** A message or read-mark event: its channel is an id. */
type ChannelEvent = SlackEvent & { channel?: string };

function isChannelEvent(event: SlackEvent): event is ChannelEvent {
  return event.channel === undefined || typeof event.channel === 'string';
}

/** The channel id an event names (a string, or the channel object of a rename). */
function channelIdOf(event: SlackEvent): string | undefined {
  if (typeof event.channel === 'string') return event.channel;
  return typeof event.channel?.id === 'string' ? event.channel.id : undefined;
}

function userDataOf(u: User): UserData {
  return { id: u.id, name: u.name, real_name: u.real_name, display_name: u.display_name };
}
