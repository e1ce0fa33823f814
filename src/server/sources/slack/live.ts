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
import { toMessage, toThread, type Directory, type SlackMessage } from './mapping';
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
  channel?: string;
  user?: string;
  message?: SlackMessage;
  previous_message?: SlackMessage;
  deleted_ts?: string;
  hidden?: boolean;
}

export class SlackLive {
  private client: SocketModeClient | null = null;
  private queue: Promise<void> = Promise.resolve();
  private pruneTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: { source: SlackSource; store: Store; hub: LiveHub; logger: ServerLogger; now: () => number },
  ) {}

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
    client.on('connected', () => logger.log('info', 'Socket Mode connected'));
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
  }

  /** Resolves once every event received so far is applied (tests). */
  idle(): Promise<void> {
    return this.queue;
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
      case 'message':
        if (event.subtype === 'message_changed') return this.changed(ws, event);
        if (event.subtype === 'message_deleted') return this.deleted(ws, event);
        if (event.subtype === 'message_replied' || event.hidden) return;
        return this.posted(ws, event);
      case 'channel_marked':
      case 'im_marked':
      case 'group_marked': {
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
      case 'member_joined_channel':
      case 'member_left_channel': {
        if (!event.channel || !event.user) return;
        const record = await this.deps.store.conversationRecord(ws, event.channel);
        if (!record) return;
        const joined = event.type === 'member_joined_channel';
        const members = joined ? [...new Set([...record.member_ids, event.user])] : record.member_ids.filter((m) => m !== event.user);
        const next: ConversationRecord = { ...record, member_ids: members };
        delete next.truth;
        const reason = joined ? 'member_joined' : 'member_left';
        return this.write(ws, { conversations: [next] }, (result) => {
          const touched = result.touched.get(record.id);
          if (!touched || (result.joined.length === 0 && result.left.length === 0)) return [];
          const audience = new Set([...touched.members.map((m) => m.userId), ...result.left.map((l) => l.user_id)]);
          return [...audience].map((userId) => ({
            userId,
            type: 'conversation_update',
            data: { conversation_id: record.id, conversation: { id: record.id, member_ids: touched.conversation.member_ids }, reason, user: event.user },
          }));
        });
      }
      default:
        return;
    }
  }

  private async directory(ws: string, me: string): Promise<Directory> {
    const users = await this.deps.store.listUsers(ws);
    return { me, users: new Map(users.map((u) => [u.id, u])), bots: new Map() };
  }

  /** A new message or thread reply. */
  private async posted(ws: string, event: SlackEvent): Promise<void> {
    const { store } = this.deps;
    if (!event.channel || !event.ts) return;
    const channel = await store.conversationRecord(ws, event.channel);
    if (!channel) return; // a conversation no signed-in member has synced
    const directory = await this.directory(ws, event.user ?? '');
    const message = event as SlackMessage;
    const batch: SourceBatch = { conversations: [], messages: [] };
    let parent: ConversationRecord | null = null;
    let conversationId = channel.id;
    if (event.thread_ts && event.thread_ts !== event.ts) {
      const stored = await store.getMessage(ws, channel.id, event.thread_ts);
      if (!stored) return; // a reply to a message Sift does not hold
      parent = channel;
      conversationId = threadId(channel.id, event.thread_ts);
      const thread = await store.conversationRecord(ws, conversationId);
      const parentSlack: SlackMessage = { ts: stored.ts, user: stored.user, text: stored.text, thread_ts: stored.ts, reply_count: (stored.reply_count ?? 0) + 1 };
      if (!thread) batch.conversations!.push(toThread(channel, parentSlack, [message], directory, false));
      else if (event.user && !thread.member_ids.includes(event.user)) {
        const next = { ...thread, member_ids: [...thread.member_ids, event.user] };
        delete next.truth;
        batch.conversations!.push(next);
      }
      batch.messages!.push(toMessage(parentSlack, channel.id, directory));
    }
    batch.messages!.push(toMessage(message, conversationId, directory));
    const users = event.user ? await store.userData(ws, [event.user]) : {};
    await this.write(ws, batch, (result) => {
      const inserted = result.inserted.find((m) => m.ts === event.ts && m.channel === conversationId);
      const touched = result.touched.get(conversationId);
      if (!inserted || !touched) return [];
      return messageEvents({ message: inserted, conversation: touched.conversation, members: touched.members }, users, parent);
    });
  }

  private async locate(ws: string, channelId: string, ts: string, threadTs?: string): Promise<string | null> {
    const candidates = threadTs && threadTs !== ts ? [threadId(channelId, threadTs), channelId] : [channelId];
    for (const id of candidates) if (await this.deps.store.getMessage(ws, id, ts)) return id;
    return null;
  }

  private async changed(ws: string, event: SlackEvent): Promise<void> {
    const m = event.message;
    if (!event.channel || !m?.ts) return;
    const conversationId = await this.locate(ws, event.channel, m.ts, m.thread_ts ?? event.previous_message?.thread_ts);
    if (!conversationId) return;
    const directory = await this.directory(ws, m.user ?? '');
    await this.write(ws, { messages: [toMessage(m, conversationId, directory)] }, (result) =>
      result.edited.flatMap((message) => this.updates(result, message.channel, 'message_changed', { message })),
    );
  }

  private async deleted(ws: string, event: SlackEvent): Promise<void> {
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
      const conversation: ConversationSummary = { ...touched.conversation, last_read: member.last_read, unread_count: member.unread_count, unread_count_display: member.unread_count };
      return { userId: member.userId, type: 'conversation_update', data: { conversation_id: conversationId, conversation, reason, ...extra } };
    });
  }

  private async write(ws: string, batch: SourceBatch, build: (result: SourceBatchResult) => MemberEvent[]): Promise<void> {
    const written = await this.deps.store.applySourceBatch(ws, batch, this.deps.now(), build);
    if (written.events.length) this.deps.hub.publish(ws, written.events);
  }
}
