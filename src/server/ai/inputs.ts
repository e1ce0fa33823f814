/**
 * What the AI reads, built from the store: the member's unread conversations with their
 * unread messages as plain text (names resolved), for classification and for catch-up.
 * One builder for the classify-unread route, the catch-up session and the accuracy bench, so
 * the bench measures what the product does.
 */
import type { AiCategory, ConversationSummary, Message, User } from '../../model/types';
import { plainText } from '../../model/text';
import { compareTs } from '../../model/ts';
import type { Store, UnreadConversation } from '../store/types';
import type { AiMessage, ClassifyInput } from './types';
import { channelMentions, isQuietSubtype, readableText, usergroupMentions, userMentions } from '../../model/slack';

/** Slack's own bot: its user record says is_bot false, but nobody is waiting for a reply from it. */
const SLACKBOT = 'USLACKBOT';

/** At most this many of the newest unread messages are read per conversation. */
export const AI_UNREAD_MESSAGES = 20;
/** A conversation with nothing unread is read by its last few messages. */
export const AI_CONTEXT_MESSAGES = 5;

/** `<@U…>` mentions in Slack markup. */

/**
 * People and channel names, each looked up once per build: `load` reads every person (a run
 * over thousands of conversations), `ensure` only the ones a few messages name (a live event,
 * one answer).
 */
export class AiDirectory {
  private readonly users = new Map<string, User | null>();
  private loaded = false;
  private readonly channelNames = new Map<string, string | null>();
  /** Channels and user groups that messages mention, by id (loaded by `ensureTexts`). */
  private readonly mentioned = { channels: new Map<string, string>(), usergroups: new Map<string, string>() };

  constructor(
    private readonly store: Store,
    private readonly workspaceId: string,
  ) {}

  /** Reads every person of the workspace. */
  async load(): Promise<this> {
    if (!this.loaded) {
      for (const u of await this.store.listUsers(this.workspaceId)) this.users.set(u.id, u);
      this.loaded = true;
    }
    return this;
  }

  /** Makes sure these people (ids, or the authors and mentions of these texts' messages) are known. */
  async ensure(ids: Iterable<string | null | undefined>): Promise<this> {
    if (this.loaded) return this;
    for (const id of ids) {
      if (id && !this.users.has(id)) this.users.set(id, await this.store.getUser(this.workspaceId, id));
    }
    return this;
  }

  /** The people a message names: its author and everyone it mentions. */
  static people(message: { user?: string | null; text: string; resolved_text?: string }): string[] {
    return [message.user ?? '', ...userMentions(readableText(message))].filter(Boolean);
  }

  /** Makes sure everyone and everything these messages name is known: people, mentioned channels and user groups. */
  async ensureTexts(messages: ReadonlyArray<{ user?: string | null; text: string; resolved_text?: string }>): Promise<this> {
    await this.ensure(messages.flatMap((m) => AiDirectory.people(m)));
    const channels = new Set<string>();
    const groups = new Set<string>();
    for (const m of messages) {
      const text = readableText(m);
      for (const id of channelMentions(text)) if (!this.mentioned.channels.has(id)) channels.add(id);
      for (const id of usergroupMentions(text)) if (!this.mentioned.usergroups.has(id)) groups.add(id);
    }
    const unknown: string[] = [];
    for (const id of channels) {
      const name = await this.channelName(id);
      if (name) this.mentioned.channels.set(id, name);
      else unknown.push(id);
    }
    for (const [id, name] of Object.entries(await this.store.sourceNames(this.workspaceId, 'channel', unknown))) this.mentioned.channels.set(id, name);
    for (const [id, name] of Object.entries(await this.store.sourceNames(this.workspaceId, 'usergroup', [...groups]))) this.mentioned.usergroups.set(id, name);
    return this;
  }

  user(id: string): User | undefined {
    return this.users.get(id) ?? undefined;
  }

  /** 'Dana Reyes' (real name, else display name, else handle, else the id). */
  nameOf(id: string | null | undefined): string {
    if (!id) return 'Someone';
    const u = this.user(id);
    return u?.real_name || u?.display_name || u?.name || id;
  }

  /** Slack markup as plain text with this workspace's names. */
  plain(text: string): string {
    return plainText(text, {
      user: (id) => this.nameOf(id),
      channel: (id) => this.mentioned.channels.get(id),
      usergroup: (id) => this.mentioned.usergroups.get(id),
    });
  }

  /** The name of a channel (for a thread: its parent's), cached. */
  async channelName(conversationId: string): Promise<string | null> {
    if (!this.channelNames.has(conversationId)) {
      const record = await this.store.conversationRecord(this.workspaceId, conversationId);
      this.channelNames.set(conversationId, record?.name ?? null);
    }
    return this.channelNames.get(conversationId) ?? null;
  }

  /** A message as the AI sees it. */
  aiMessage(message: Message, memberId: string): AiMessage {
    const author = this.user(message.user ?? '');
    return {
      ts: message.ts,
      user: message.user ?? null,
      author: this.nameOf(message.user),
      isBot: author?.is_bot === true || message.subtype === 'bot_message' || message.user === SLACKBOT,
      text: this.plain(readableText(message)),
      mentionsMember: readableText(message).includes(`<@${memberId}>`) || readableText(message).includes(`<@${memberId}|`),
    };
  }
}

/** What the AI needs to know of a conversation (a ConversationSummary or an UnreadConversation). */
export type AiConversationRef = Pick<
  ConversationSummary,
  'id' | 'type' | 'name' | 'is_private' | 'dm_user' | 'parent_conversation_id' | 'unread_count' | 'last_read'
>;

/** The name the AI knows a conversation by: the channel's, the DM person's, or the thread's channel. */
export async function aiConversationName(directory: AiDirectory, summary: AiConversationRef): Promise<string> {
  if (summary.type === 'dm') return directory.nameOf(summary.dm_user);
  if (summary.type === 'thread' && summary.parent_conversation_id) return (await directory.channelName(summary.parent_conversation_id)) ?? summary.name;
  return summary.name;
}

/** The messages to read of a conversation: the unread ones (newest AI_UNREAD_MESSAGES), else the last few. */
export async function aiMessagesOf(
  store: Store,
  directory: AiDirectory,
  workspaceId: string,
  summary: AiConversationRef,
  memberId: string,
): Promise<AiMessage[]> {
  const recent = await store.listMessages(workspaceId, summary.id, AI_UNREAD_MESSAGES);
  const readable = recent.filter((m) => !isQuietSubtype(m.subtype));
  const unread = readable.filter((m) => compareTs(m.ts, summary.last_read) > 0 && m.user !== memberId);
  const chosen = unread.length > 0 ? unread : readable.slice(-AI_CONTEXT_MESSAGES);
  await directory.ensureTexts(chosen);
  return chosen.map((m) => directory.aiMessage(m, memberId));
}

/** '#general', 'Dana Reyes' for a DM, 'Thread in #general: …' for a thread (its name is its title). */
export async function channelLabel(directory: AiDirectory, conversation: AiConversationRef): Promise<string> {
  if (conversation.type === 'dm') return (await directory.ensure([conversation.dm_user])).nameOf(conversation.dm_user);
  if (conversation.type === 'thread') {
    const parent = conversation.parent_conversation_id ? await directory.channelName(conversation.parent_conversation_id) : null;
    return parent ? `Thread in #${parent}: ${conversation.name}` : `Thread: ${conversation.name}`;
  }
  return `#${conversation.name}`;
}

/** Where a message opens in Sift. */
export function permalinkOf(conversationId: string, ts: string): string {
  return `/conversations?open=${encodeURIComponent(conversationId)}&ts=${encodeURIComponent(ts)}`;
}

/** One conversation as a ClassifyInput. */
export async function classifyInputOf(
  store: Store,
  directory: AiDirectory,
  workspaceId: string,
  summary: AiConversationRef,
  memberId: string,
): Promise<ClassifyInput> {
  await directory.ensure([memberId, summary.dm_user]);
  const input: ClassifyInput = {
    conversationId: summary.id,
    type: summary.type,
    name: await aiConversationName(directory, summary),
    isPrivate: summary.is_private,
    memberId,
    memberName: directory.nameOf(memberId),
    unreadCount: summary.unread_count,
    messages: await aiMessagesOf(store, directory, workspaceId, summary, memberId),
  };
  if (summary.dm_user) input.dmUser = summary.dm_user;
  return input;
}

export interface ClassifyCandidate {
  input: ClassifyInput;
  /** The newest message ts (what the label will be computed from). */
  basisTs: string;
  /** The demo generator's ground truth, when the source keeps one (never sent to a client). */
  truth?: AiCategory;
}

/** Whether an unread conversation needs a (new) AI label: no label yet, or messages newer than the label's. */
export function needsClassification(unread: UnreadConversation): boolean {
  if (unread.ai_source === 'manual') return false;
  return unread.basisTs === null || compareTs(unread.latest_ts, unread.basisTs) > 0;
}

/**
 * The inputs of the member's unread conversations as the classify-unread route builds them:
 * by default only those that need a label (see needsClassification); with includeLabelled,
 * every unread conversation (the bench compares them all with the ground truth).
 */
export async function classifyCandidates(
  store: Store,
  workspaceId: string,
  memberId: string,
  options: { includeLabelled?: boolean; limit?: number } = {},
): Promise<ClassifyCandidate[]> {
  const directory = await new AiDirectory(store, workspaceId).load();
  const unread = await store.unreadConversations(workspaceId, memberId, options.limit);
  const chosen = options.includeLabelled ? unread : unread.filter(needsClassification);
  const candidates: ClassifyCandidate[] = [];
  for (const conversation of chosen) {
    const input = await classifyInputOf(store, directory, workspaceId, conversation, memberId);
    const candidate: ClassifyCandidate = { input, basisTs: conversation.latest_ts };
    if (options.includeLabelled) {
      const truth = (await store.conversationRecord(workspaceId, conversation.id))?.truth;
      if (truth) candidate.truth = truth;
    }
    candidates.push(candidate);
  }
  return candidates;
}
