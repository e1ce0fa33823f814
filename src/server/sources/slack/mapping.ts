/**
 * Slack's wire objects (users.list, users.conversations, conversations.history / .replies,
 * Events API payloads) → the store's records. The one mapping of both the sync and the live
 * paths, so a message looks the same however it arrived. A message is kept as Slack sends it:
 * its text in Slack's mrkdwn markup, its blocks, attachments, files, reactions, bot and external
 * author as given (model/slack SlackContent), next to the derived text everything else reads
 * (model/slackText). A thread conversation's id is `channelId:threadTs` (SPEC §3).
 */
import type { Message, User } from '../../../model/types';
import { stripBidi } from '../../../model/linkSafety';
import { threadTitle } from '../../../model/mrkdwn';
import { SLACK_CONTENT_KEYS, type SlackBotProfile, type SlackContent } from '../../../model/slack';
import { derivedText } from '../../../model/slackText';
import { threadId } from '../../../model/validation';
import type { ConversationRecord } from '../../store/types';

export interface SlackUser {
  id: string;
  name?: string;
  real_name?: string;
  deleted?: boolean;
  is_bot?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  profile?: { real_name?: string; display_name?: string; title?: string; email?: string; team?: string; bot_id?: string };
  team_id?: string;
}

/** bots.info's bot. */
export interface SlackBot {
  id: string;
  name?: string;
  deleted?: boolean;
  app_id?: string;
  user_id?: string;
}

export interface SlackConversation {
  id: string;
  name?: string;
  is_channel?: boolean;
  is_group?: boolean;
  is_im?: boolean;
  is_mpim?: boolean;
  is_private?: boolean;
  is_archived?: boolean;
  user?: string;
  last_read?: string;
}

export interface SlackMessage extends SlackContent {
  type?: string;
  ts: string;
  user?: string;
  text?: string;
  subtype?: string;
  bot_id?: string;
  thread_ts?: string;
  reply_count?: number;
  reply_users?: string[];
  latest_reply?: string;
  last_read?: string;
  client_msg_id?: string;
  subscribed?: boolean;
}

/** Slack's "never read" mark. */
export const NEVER_READ = '0000000000.000000';

/** Slack shows a deactivated account as its name with '(deactivated)'. */
export const DEACTIVATED = ' (deactivated)';

export function toUser(u: SlackUser): User {
  const suffix = u.deleted ? DEACTIVATED : '';
  const real = (u.profile?.real_name || u.real_name || u.name || u.id) + suffix;
  const display = u.profile?.display_name ? u.profile.display_name + suffix : real;
  const user: User = { id: u.id, name: u.name ?? u.id, real_name: real, display_name: display };
  if (u.profile?.title) user.title = u.profile.title;
  if (u.team_id) user.team = u.team_id;
  if (u.profile?.email) user.email = u.profile.email;
  if (u.is_bot) user.is_bot = true;
  // Slack's avatar URLs are on Slack's hosts; the client only shows same-origin pictures (SPEC §3 avatar), so none is kept.
  return user;
}

/**
 * The author record of an app or webhook post: the bot's name from its bot_profile, else from
 * bots.info, else the name it posted under. Keyed by the bot id (B…): its posts have no user.
 */
export function botUser(botId: string, names: { profile?: SlackBotProfile; info?: SlackBot | null; username?: string }): User | null {
  const name = names.profile?.name || names.info?.name || names.username;
  if (!name) return null;
  const clean = name.trim().slice(0, 80) || botId;
  return { id: botId, name: clean, real_name: clean, display_name: clean, is_bot: true };
}

/** Who wrote a message: its user, else the bot's user (a bot with a user account), else the bot id. */
export function authorOf(m: Pick<SlackMessage, 'user' | 'bot_id'>, d: Pick<Directory, 'bots'>): string | undefined {
  if (m.user) return m.user;
  if (m.bot_id) return d.bots.get(m.bot_id) ?? m.bot_id;
  return undefined;
}

export interface Directory {
  me: string;
  users: Map<string, User>;
  /** bot_id → the bot's user id (bot messages carry only the bot id). */
  bots: Map<string, string>;
}

export function directoryOf(me: string, users: readonly SlackUser[]): Directory {
  const directory: Directory = { me, users: new Map(), bots: new Map() };
  for (const u of users) {
    directory.users.set(u.id, toUser(u));
    if (u.profile?.bot_id) directory.bots.set(u.profile.bot_id, u.id);
  }
  return directory;
}

/**
 * A person's name in the names Sift builds (a DM's, a group DM's 'a, b, c', mentions in thread
 * titles): without bidi or control characters, which would reverse or hide what follows them.
 */
const nameOf = (d: Directory) => (id: string) => {
  const u = d.users.get(id);
  return (u && stripBidi(u.display_name || u.real_name).trim()) || undefined;
};

export function conversationType(c: SlackConversation): 'dm' | 'channel' {
  return c.is_im || c.is_mpim ? 'dm' : 'channel';
}

/** A channel, private channel, IM or group DM; `members` is its whole member list. */
export function toConversation(c: SlackConversation, members: string[], d: Directory): ConversationRecord {
  const isPrivate = Boolean(c.is_im || c.is_mpim || c.is_private || (c.is_group && !c.is_channel));
  if (c.is_im) {
    const other = c.user ?? members.find((m) => m !== d.me) ?? d.me;
    const ids = [...new Set([d.me, other])];
    return { id: c.id, name: nameOf(d)(other) ?? other, type: 'dm', is_private: true, dm_user: other, member_ids: ids };
  }
  if (c.is_mpim) {
    const others = members.filter((m) => m !== d.me);
    const name = others.map((m) => nameOf(d)(m) ?? m).join(', ') || stripBidi(c.name ?? '') || c.id;
    return { id: c.id, name, type: 'dm', is_private: true, member_ids: members };
  }
  return { id: c.id, name: c.name ?? c.id, type: 'channel', is_private: isPrivate, member_ids: members };
}

/** The longest subtype kept (Slack's are short words; anything else is not a subtype). */
const SUBTYPE = /^[a-z_]{1,40}$/;

/** A message of a conversation (or, with `conversationId` a thread id, a thread reply), as Slack sent it. */
export function toMessage(m: SlackMessage, conversationId: string, d: Pick<Directory, 'bots'>): Omit<Message, 'channel'> & { conversation_id: string } {
  const text = typeof m.text === 'string' ? m.text : '';
  const message: Omit<Message, 'channel'> & { conversation_id: string } = { conversation_id: conversationId, ts: m.ts, text };
  const user = authorOf(m, d);
  if (user) message.user = user;
  if (typeof m.subtype === 'string' && SUBTYPE.test(m.subtype)) message.subtype = m.subtype;
  for (const key of SLACK_CONTENT_KEYS) {
    if (m[key] !== undefined && m[key] !== null) (message as Record<string, unknown>)[key] = m[key];
  }
  const resolved = derivedText({ ...m, text });
  if (resolved !== text) message.resolved_text = resolved;
  if (m.thread_ts) message.thread_ts = m.thread_ts;
  if (m.reply_count) message.reply_count = m.reply_count;
  if (m.client_msg_id) message.client_msg_id = m.client_msg_id;
  return message;
}

/** Whether the member takes part in a thread: they started it, replied, or follow it. */
export function takesPart(parent: SlackMessage, me: string): boolean {
  if (!parent.reply_count || parent.thread_ts !== parent.ts) return false;
  return parent.user === me || Boolean(parent.reply_users?.includes(me)) || parent.subscribed === true;
}

/** The thread conversation of a parent message, with its people: the parent's author and every replier. */
export function toThread(channel: ConversationRecord, parent: SlackMessage, replies: readonly SlackMessage[], d: Directory, withMe = true): ConversationRecord {
  const members = new Set<string>();
  for (const m of [parent, ...replies]) {
    const author = authorOf(m, d);
    if (author) members.add(author);
  }
  for (const u of parent.reply_users ?? []) members.add(u);
  if (withMe) members.add(d.me);
  return {
    id: threadId(channel.id, parent.ts),
    name: threadTitle(derivedText({ ...parent, text: parent.text ?? '' }), { user: nameOf(d) }) || 'Thread',
    type: 'thread',
    is_private: channel.is_private,
    member_ids: [...members],
    parent_conversation_id: channel.id,
    thread_ts: parent.ts,
  };
}

/** A read mark as the store keeps it ('' is not used: Slack's "never read" is the zero ts). */
export function readMark(lastRead: string | undefined): string | undefined {
  return lastRead && /^\d+\.\d+$/.test(lastRead) ? lastRead : undefined;
}
