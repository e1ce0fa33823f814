/**
 * Sync of one member's Slack workspace into the store.
 *
 * Full: users.list, the member's conversations (users.conversations over public and
 * private channels, IMs and group DMs), each one's members, read mark (conversations.info)
 * and recent history (conversations.history), and the replies of the threads the member
 * takes part in (conversations.replies). Incremental: the same, asking history only after the
 * newest few stored messages (`oldest`; re-reading those finds a first reply to one of them),
 * replies only for what is newer than the thread's newest, and read marks only where
 * something changed or is unread.
 *
 * What a sync finds is announced when `publish` is given: an incremental sync's new messages
 * become the members' message_update events (as a live event would: polling without Socket
 * Mode relies on it), and a full sync reports its progress to the member as sync_progress
 * events ({phase: 'users' | 'conversations', done, total}; the page ignores them, SPEC §4.8).
 *
 * Every list is paged by cursor to its end. Each conversation is written in one batch of
 * upserts keyed by ts, and recorded in the member's sync progress, so a sync stopped by an
 * error resumes with the conversations it had not finished, and nothing is stored twice.
 */
import type { ServerLogger } from '../../log';
import { messageEvents } from '../../messaging';
import type { MemberEvent, SourceBatch, SourceBatchResult, StoredEvent, Store } from '../../store/types';
import { threadId } from '../../../model/validation';
import { compareTs } from '../../../model/ts';
import type { SlackCaller, SlackResult } from './client';
import { referencedBy, type SlackNames } from './names';
import { derivedText } from '../../../model/slackText';
import { directoryOf, readMark, takesPart, toConversation, toMessage, toThread, type SlackConversation, type SlackMessage, type SlackUser } from './mapping';

export interface SyncProgress {
  /** The run in progress (epoch ms), and the conversations it finished. */
  runStartedAt: number | null;
  mode: 'full' | 'incremental' | null;
  done: string[];
  lastFullSyncAt: number | null;
  lastSyncAt: number | null;
}

export interface SyncSummary {
  workspaces: number;
  users: number;
  conversations: number;
  messages: number;
  new_messages: number;
}

export interface SyncDeps {
  store: Store;
  caller: SlackCaller;
  logger: ServerLogger;
  now: () => number;
  historyLimit: number;
  pageLimit: number;
  /** Looks up people, bots and channels the workspace's lists do not name. */
  names: SlackNames;
  /** Sends written events to the members' open streams; absent, a sync announces nothing. */
  publish?: (workspaceId: string, events: Array<StoredEvent & { userId: string }>) => void;
}

/** A full sync reports progress about 20 times, whatever the number of conversations. */
const PROGRESS_STEPS = 20;

const TYPES = 'public_channel,private_channel,mpim,im';

/** How many of a conversation's newest stored messages an incremental sync reads again (for new threads on them). */
export const RECHECKED_MESSAGES = 20;

export async function syncMember(
  deps: SyncDeps,
  input: { workspaceId: string; userId: string; token: () => Promise<string>; mode: 'full' | 'incremental' },
): Promise<SyncSummary> {
  const { store, caller, logger } = deps;
  const { workspaceId: ws, userId: me } = input;
  const started = deps.now();
  const previous = (await store.getSyncState<SyncProgress>(ws, me)) ?? { runStartedAt: null, mode: null, done: [], lastFullSyncAt: null, lastSyncAt: null };
  // A run that stopped part-way is resumed (its finished conversations are skipped); a full
  // sync requested over an unfinished incremental one starts over.
  const resuming = previous.runStartedAt !== null && (previous.mode === input.mode || previous.mode === 'full');
  const mode = resuming && previous.mode === 'full' ? 'full' : input.mode;
  const progress: SyncProgress = { ...previous, runStartedAt: resuming ? previous.runStartedAt : started, mode, done: resuming ? [...previous.done] : [] };
  await store.setSyncState(ws, me, progress, deps.now());
  const done = new Set(progress.done);

  const call = async <T extends SlackResult>(method: string, params: Record<string, unknown>) => caller.call<T>(await input.token(), method, params);
  const all = async <T extends SlackResult, I>(method: string, params: Record<string, unknown>, key: string): Promise<I[]> => {
    const items: I[] = [];
    for await (const page of caller.pages<T>(await input.token(), method, params)) items.push(...((page[key] as I[] | undefined) ?? []));
    return items;
  };

  // People: every page of users.list, stored first so names resolve.
  const slackUsers = await all<SlackResult, SlackUser>('users.list', { limit: deps.pageLimit }, 'members');
  const directory = directoryOf(me, slackUsers);
  await store.applySourceBatch(ws, { users: [...directory.users.values()] }, deps.now());
  // People and bots looked up before (users.info, bots.info) are named without asking again.
  for (const u of await store.listUsers(ws)) if (!directory.users.has(u.id)) directory.users.set(u.id, u);
  await deps.names.listWorkspace(ws, input.token, mode === 'full');
  const publish = deps.publish;
  const report = async (phase: 'users' | 'conversations', done: number, total: number) => {
    if (mode !== 'full' || !publish) return;
    publish(ws, await store.appendEvents(ws, [{ userId: me, type: 'sync_progress', data: { phase, done, total } }], deps.now()));
  };
  await report('users', slackUsers.length, slackUsers.length);

  const conversations = (
    await all<SlackResult, SlackConversation>('users.conversations', { types: TYPES, exclude_archived: true, limit: deps.pageLimit }, 'channels')
  ).filter((c) => !c.is_archived);
  const ownChannels = new Set(conversations.map((c) => c.id));
  // Access follows Slack: what the member no longer has there (left, removed, archived, deleted) goes at once.
  await revokeMissing(deps, ws, me, ownChannels);
  /** Names what these messages (and people) need, and answers the new author records for the batch. */
  const nameAll = (messages: SlackMessage[], people: readonly string[] = []) => {
    const refs = referencedBy(messages, (m) => derivedText({ ...m, text: typeof m.text === 'string' ? m.text : '' }));
    for (const p of people) refs.users.add(p);
    return deps.names.complete(ws, input.token, directory, refs, ownChannels);
  };
  logger.log('info', 'Slack sync started', { workspace: ws, user: me, mode, conversations: conversations.length, resumed: done.size });

  const knownByChannel = mode === 'full' ? new Map<string, string[]>() : await knownThreads(store, ws, me);
  let newMessages = 0;
  let finished = done.size;
  const step = Math.max(1, Math.ceil(conversations.length / PROGRESS_STEPS));
  await report('conversations', finished, conversations.length);
  for (const c of conversations) {
    if (done.has(c.id)) continue;
    const stored = await store.conversationRecord(ws, c.id);
    const fresh = mode === 'full' || !stored;
    const batch: SourceBatch = { conversations: [], messages: [], readMarks: [] };

    // Members: the whole list on a full sync or a new conversation; otherwise as stored (live events keep it).
    let members: string[];
    if (c.is_im) members = [me, c.user ?? me];
    else if (fresh) members = await all<SlackResult, string>('conversations.members', { channel: c.id, limit: deps.pageLimit }, 'members');
    else members = stored!.member_ids;
    if (!members.includes(me)) members.push(me);

    // History: newest first, paged. Incremental asks only for what is newer than the last
    // RECHECKED_MESSAGES stored ones: re-reading those few finds a first reply to one of them
    // (history never returns an older parent again), and upserts by ts store nothing twice.
    const recent = fresh ? [] : await store.listMessages(ws, c.id, RECHECKED_MESSAGES);
    const oldest = recent[0]?.ts;
    const newestStored = recent[recent.length - 1]?.ts;
    const history: SlackMessage[] = [];
    for await (const page of caller.pages<SlackResult>(await input.token(), 'conversations.history', {
      channel: c.id,
      limit: Math.min(deps.pageLimit, deps.historyLimit),
      ...(oldest ? { oldest } : {}),
    })) {
      history.push(...((page.messages as SlackMessage[] | undefined) ?? []));
      if (history.length >= deps.historyLimit) break;
    }
    // Everyone the conversation names first (a DM's person, authors, mentions), so records and messages read them.
    const named = await nameAll(history, c.is_im || c.is_mpim ? members : []);
    batch.users = named;
    const record = toConversation(c, members, directory);
    batch.conversations!.push(record);
    for (const m of history) batch.messages!.push(toMessage(m, c.id, directory));

    // Read mark: conversations.info answers the member's last_read.
    let lastRead: string | undefined;
    const summary = stored ? await store.getConversation(ws, me, c.id) : null;
    const newer = newestStored ? history.filter((m) => compareTs(m.ts, newestStored) > 0) : history;
    if (fresh || newer.length > 0 || (summary?.unread_count ?? 0) > 0) {
      const info = await call<SlackResult>('conversations.info', { channel: c.id });
      lastRead = readMark((info.channel as SlackConversation | undefined)?.last_read) ?? (c.last_read ? readMark(c.last_read) : undefined);
      if (lastRead) batch.readMarks!.push({ conversation_id: c.id, user_id: me, last_read: lastRead });
    }

    // Threads the member takes part in: new parents, and (incremental) the threads already stored.
    const parents = history.filter((m) => takesPart(m, me));
    const known = fresh ? [] : (knownByChannel.get(c.id) ?? []);
    const threadTs = new Set([...parents.map((p) => p.ts), ...known]);
    for (const ts of threadTs) {
      const id = threadId(c.id, ts);
      const since = fresh ? undefined : ((await store.listMessages(ws, id, 1))[0]?.ts ?? undefined);
      const replies: SlackMessage[] = [];
      let parent: SlackMessage | undefined = parents.find((p) => p.ts === ts);
      for await (const page of caller.pages<SlackResult>(await input.token(), 'conversations.replies', {
        channel: c.id,
        ts,
        limit: deps.pageLimit,
        ...(since ? { oldest: since } : {}),
      })) {
        for (const m of (page.messages as SlackMessage[] | undefined) ?? []) {
          if (m.ts === ts) parent = m;
          else replies.push(m);
        }
      }
      batch.users.push(...(await nameAll(replies)));
      if (!parent) {
        const stored = await store.getMessage(ws, c.id, ts);
        if (!stored) continue;
        parent = { ...stored, thread_ts: ts, reply_count: stored.reply_count };
      } else if (!history.includes(parent)) {
        // The parent's reply count changed with the new replies.
        batch.messages!.push(toMessage(parent, c.id, directory));
      }
      const thread = toThread(record, parent, replies, directory);
      const existing = fresh ? null : await store.conversationRecord(ws, thread.id);
      if (existing) thread.member_ids = [...new Set([...existing.member_ids, ...thread.member_ids])];
      batch.conversations!.push(thread);
      for (const r of replies) batch.messages!.push(toMessage(r, thread.id, directory));
      // Slack keeps no public read mark per thread; the parent's last_read when it has one, else the channel's.
      const threadRead = readMark(parent.last_read) ?? lastRead;
      if (threadRead && (fresh || !existing || replies.length > 0)) batch.readMarks!.push({ conversation_id: thread.id, user_id: me, last_read: threadRead });
    }

    // An incremental sync announces the messages it stored first (oldest first), as live events
    // would; of a conversation new to Sift, only its newest message (which brings its summary).
    const announce = mode === 'incremental' && publish && batch.messages!.length > 0;
    const users = announce
      ? await store.userData(
          ws,
          batch.messages!.flatMap((m) => (m.user ? [m.user] : [])),
        )
      : {};
    const build = (result: SourceBatchResult): MemberEvent[] => {
      const news = [...result.inserted].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
      return (fresh ? news.filter((m) => m.channel === c.id).slice(-1) : news).flatMap((message) => {
        const touched = result.touched.get(message.channel);
        if (!touched) return [];
        const parent = touched.conversation.type === 'thread' ? record : null;
        return messageEvents({ message, conversation: touched.conversation, members: touched.members }, users, parent);
      });
    };
    const written = await store.applySourceBatch(ws, batch, deps.now(), announce ? build : undefined);
    if (announce && written.events.length) publish(ws, written.events);
    newMessages += written.result.inserted.length;
    done.add(c.id);
    progress.done.push(c.id);
    await store.setSyncState(ws, me, progress, deps.now());
    finished += 1;
    if (finished % 25 === 0 || finished === conversations.length) {
      logger.log('info', 'Slack sync progress', { workspace: ws, user: me, done: finished, total: conversations.length });
    }
    if (finished % step === 0 || finished === conversations.length) await report('conversations', finished, conversations.length);
  }

  const at = deps.now();
  await store.setSyncState(
    ws,
    me,
    {
      runStartedAt: null,
      mode: null,
      done: [],
      lastFullSyncAt: mode === 'full' ? at : progress.lastFullSyncAt,
      lastSyncAt: at,
    } satisfies SyncProgress,
    at,
  );
  if (mode === 'full') await store.markWorkspaceImported(ws);
  const { total } = await store.listConversations(ws, me, { limit: 0 });
  const summary: SyncSummary = {
    workspaces: 1,
    users: slackUsers.length,
    conversations: total,
    messages: await store.countMessages(ws),
    new_messages: newMessages,
  };
  logger.log('info', 'Slack sync finished', { workspace: ws, user: me, mode, ms: deps.now() - started, ...summary });
  return summary;
}

/**
 * Ends the member's access to the channels and DMs Sift holds for them that Slack no longer
 * lists (users.conversations), with their threads, and tells the member's open streams.
 */
async function revokeMissing(deps: SyncDeps, ws: string, me: string, inSlack: ReadonlySet<string>): Promise<void> {
  const held = [
    ...(await deps.store.listConversations(ws, me, { type: 'channel', skipTotal: true })).conversations,
    ...(await deps.store.listConversations(ws, me, { type: 'dm', skipTotal: true })).conversations,
  ];
  const gone = held.filter((c) => !inSlack.has(c.id)).map((c) => c.id);
  if (!gone.length) return;
  const written = await deps.store.revokeAccess(ws, me, gone, deps.now(), (lost) => accessRemovedEvents(me, lost, 'access_removed'));
  deps.logger.log('info', 'Slack access removed', { workspace: ws, user: me, conversations: written.result.length });
  if (written.events.length) deps.publish?.(ws, written.events);
}

/** The member's events for conversations they lost: each leaves their lists at once. */
export function accessRemovedEvents(userId: string, ids: readonly string[], reason: string): MemberEvent[] {
  return ids.map((id) => ({ userId, type: 'conversation_update', data: { conversation_id: id, conversation: { id }, reason, removed: true } }));
}

/** The member's stored thread conversations, as their thread ts by parent channel. */
async function knownThreads(store: Store, ws: string, me: string): Promise<Map<string, string[]>> {
  const { conversations } = await store.listConversations(ws, me, { type: 'thread' });
  const byChannel = new Map<string, string[]>();
  for (const c of conversations) {
    if (!c.parent_conversation_id || !c.parent_message?.ts) continue;
    byChannel.set(c.parent_conversation_id, [...(byChannel.get(c.parent_conversation_id) ?? []), c.parent_message.ts]);
  }
  return byChannel;
}
