/**
 * Names a Slack workspace does not hand over in users.list and users.conversations, looked up
 * when first met and then kept (in the store, and in memory for this process):
 * - people missing from users.list (Slack Connect members of other teams, some deleted and guest
 *   accounts): `users.info`, once per id;
 * - bots that post without a bot_profile (webhooks, legacy integrations): `bots.info`, once per
 *   bot id; a bot with a user account is that user, any other gets an author record of its own
 *   under its bot id (model: mapping.botUser);
 * - channels mentioned as `<#C…>` that are not the member's own: `conversations.info`, once per id;
 * - user group handles (`usergroups.list`, scope usergroups:read) and custom emoji (`emoji.list`,
 *   scope emoji:read): the whole list at a full sync, and once in a process that never had it.
 * A lookup that fails (not found, missing scope, an error) is not tried again in this process: a
 * mention then shows its label or id, an author their message's own profile, as Slack's client does.
 */
import type { User } from '../../../model/types';
import type { ServerLogger } from '../../log';
import type { Store } from '../../store/types';
import { SlackApiError, type SlackCaller, type SlackResult } from './client';
import { channelMentions, userMentions } from '../../../model/slack';
import { botUser, toUser, type Directory, type SlackBot, type SlackMessage, type SlackUser } from './mapping';

const ID = /^[A-Z0-9]{2,24}$/;

export interface NameDeps {
  store: Store;
  caller: SlackCaller;
  logger: ServerLogger;
}

/** The ids a batch of messages refers to. */
export interface Referenced {
  users: Set<string>;
  bots: Map<string, SlackMessage>;
  channels: Set<string>;
}

/** Collects who and what messages name: authors, repliers, mentioned people and channels, bots without a profile. */
export function referencedBy(messages: Iterable<SlackMessage & { resolved_text?: string }>, readable: (m: SlackMessage) => string): Referenced {
  const refs: Referenced = { users: new Set(), bots: new Map(), channels: new Set() };
  for (const m of messages) {
    if (typeof m.user === 'string' && ID.test(m.user)) refs.users.add(m.user);
    for (const u of Array.isArray(m.reply_users) ? m.reply_users : []) if (typeof u === 'string' && ID.test(u)) refs.users.add(u);
    if (!m.user && typeof m.bot_id === 'string' && ID.test(m.bot_id)) refs.bots.set(m.bot_id, m);
    const text = readable(m);
    for (const id of userMentions(text)) if (id[0] !== 'B') refs.users.add(id);
    for (const id of channelMentions(text)) refs.channels.add(id);
  }
  return refs;
}

export class SlackNames {
  /** `${ws}\0${id}` of lookups made in this process (found or not), per kind. */
  private readonly tried = { users: new Set<string>(), bots: new Set<string>(), channels: new Set<string>() };
  /** Workspaces whose user groups and emoji were listed in this process. */
  private readonly listed = new Set<string>();

  constructor(private readonly deps: NameDeps) {}

  /**
   * Names what `refs` needs that the directory lacks: people (users.info), bots (bots.info or the
   * post's own bot_profile / username), channels the member is not in (conversations.info).
   * Found people and bots are added to the directory and answered, for the caller to store with
   * its batch; channel names are stored at once. `ownChannels`: the member's conversations (absent:
   * those the store holds).
   */
  async complete(ws: string, token: () => Promise<string>, directory: Directory, refs: Referenced, ownChannels?: ReadonlySet<string>): Promise<User[]> {
    const found: User[] = [];
    const missing = [...refs.users].filter((id) => !directory.users.has(id));
    const stored = missing.length ? await this.deps.store.userData(ws, missing) : {};
    for (const id of missing) {
      if (stored[id]) {
        const user = await this.deps.store.getUser(ws, id);
        if (user) directory.users.set(id, user);
        continue;
      }
      const user = await this.once('users', ws, id, async () => {
        const answer = await this.deps.caller.call(await token(), 'users.info', { user: id });
        return answer.user as SlackUser | undefined;
      });
      if (user?.id === id) {
        const record = toUser(user);
        directory.users.set(id, record);
        if (user.profile?.bot_id) directory.bots.set(user.profile.bot_id, id);
        found.push(record);
      }
    }

    for (const [botId, message] of refs.bots) {
      if (directory.bots.has(botId) || directory.users.has(botId)) continue;
      const known = await this.deps.store.getUser(ws, botId);
      if (known && !message.bot_profile?.name) {
        directory.users.set(botId, known);
        continue;
      }
      // The post names its bot itself (bot_profile): no call. Else bots.info, once per bot id.
      const info = message.bot_profile?.name
        ? null
        : await this.once('bots', ws, botId, async () => {
            const answer = await this.deps.caller.call(await token(), 'bots.info', { bot: botId });
            return answer.bot as SlackBot | undefined;
          });
      if (info?.user_id && directory.users.has(info.user_id)) {
        directory.bots.set(botId, info.user_id);
        continue;
      }
      const record = botUser(botId, { profile: message.bot_profile, info, username: message.username });
      if (!record) continue;
      directory.users.set(botId, record);
      found.push(record);
    }

    const channels: string[] = [];
    for (const id of refs.channels) {
      if (ownChannels ? !ownChannels.has(id) : !(await this.deps.store.conversationRecord(ws, id))) channels.push(id);
    }
    if (channels.length) {
      const named = await this.deps.store.sourceNames(ws, 'channel', channels);
      const fresh: Record<string, string> = {};
      for (const id of channels) {
        if (named[id]) continue;
        const channel = await this.once('channels', ws, id, async () => {
          const answer = await this.deps.caller.call(await token(), 'conversations.info', { channel: id });
          return answer.channel as { id?: string; name?: string; is_private?: boolean; is_group?: boolean; is_im?: boolean; is_mpim?: boolean } | undefined;
        });
        // Names are kept for the whole workspace: only a public channel's, never a private one this member happens to see.
        const isPublic = channel && !channel.is_private && !channel.is_group && !channel.is_im && !channel.is_mpim;
        if (isPublic && typeof channel.name === 'string' && channel.name) fresh[id] = channel.name.slice(0, 200);
      }
      if (Object.keys(fresh).length) await this.deps.store.saveSourceNames(ws, 'channel', fresh);
    }
    return found;
  }

  /** User group handles and custom emoji: at every full sync, and once in a process that has not listed them. */
  async listWorkspace(ws: string, token: () => Promise<string>, force: boolean): Promise<void> {
    if (!force && this.listed.has(ws)) return;
    this.listed.add(ws);
    const groups = await this.quietly(ws, 'usergroups.list', async () => {
      const answer = await this.deps.caller.call(await token(), 'usergroups.list', {});
      const names: Record<string, string> = {};
      for (const g of (answer.usergroups as Array<{ id?: string; handle?: string; name?: string }> | undefined) ?? []) {
        if (g.id && (g.handle || g.name)) names[g.id] = (g.handle || g.name)!;
      }
      return names;
    });
    if (groups) await this.deps.store.saveSourceNames(ws, 'usergroup', groups);
    const emoji = await this.quietly(ws, 'emoji.list', async () => {
      const answer = await this.deps.caller.call<SlackResult & { emoji?: Record<string, string> }>(await token(), 'emoji.list', {});
      const names: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.emoji ?? {})) if (typeof value === 'string' && /^[a-z0-9_+'-]{1,100}$/.test(name)) names[name] = value;
      return names;
    });
    if (emoji) await this.deps.store.saveSourceNames(ws, 'emoji', emoji);
  }

  /** A lookup made once per id in this process; any failure answers null (and is logged). */
  private async once<T>(kind: keyof SlackNames['tried'], ws: string, id: string, lookup: () => Promise<T | undefined>): Promise<T | null> {
    const key = `${ws}\u0000${id}`;
    if (this.tried[kind].has(key)) return null;
    this.tried[kind].add(key);
    return (await this.quietly(ws, kind, lookup)) ?? null;
  }

  private async quietly<T>(ws: string, what: string, run: () => Promise<T | undefined>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      // An expired or revoked token is the caller's to handle; anything else only costs a name.
      if (error instanceof SlackApiError && (error.isAuthError || error.code === 'token_expired')) throw error;
      this.deps.logger.log('info', 'Slack lookup failed', { workspace: ws, lookup: what, error: error instanceof SlackApiError ? error.code : String(error) });
      return undefined;
    }
  }
}
