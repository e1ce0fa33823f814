/**
 * Catch-up sessions (SPEC §7.8): a conversation with the assistant over the member's unread
 * conversations, kept in the store so it outlives a restart.
 *
 * The assistant proposes; only the member disposes (issue 12 §3). A proposal ('mark these read')
 * is kept as the session's pending proposal with a random id, and carried out only on the
 * member's own yes: their typed or spoken words, matched here (never the model's answer), or the
 * confirm button, which names the proposal's id. It marks each conversation read only up to the
 * message shown when it was proposed, and the answer says where each was read up to before, so
 * the page can undo it.
 */
import { randomUUID } from 'node:crypto';
import {
  CATCHUP_CONFIRM_LABEL,
  CATCHUP_DECLINE_LABEL,
  CAUGHT_UP_MESSAGE,
  type AskSource,
  type CatchupMarked,
  type CatchupProposal,
  type CatchupStats,
} from '../../model/ai';
import type { AiCategory } from '../../model/types';
import { tsSeconds } from '../../model/ts';
import { emojify } from '../../model/emoji';
import type { ServerLogger } from '../log';
import type { CatchupSessionRecord, Session, Store } from '../store/types';
import type { AiBudget } from './budget';
import { AiDirectory, aiMessagesOf, channelLabel, permalinkOf } from './inputs';
import { catchupGreeting, detectIntent } from './catchupText';
import { AiError, type AiProvider, type CatchupAction, type CatchupContext, type CatchupConversation, type CatchupReply } from './types';

/** Catch-up sessions end after this long without a turn. */
export const CATCHUP_IDLE_MS = 60 * 60 * 1000;
/** A member keeps at most this many open catch-up sessions (the oldest is ended). */
const CATCHUP_SESSIONS_PER_MEMBER = 5;
/** The unread conversations a catch-up session reads (newest first). */
const CATCHUP_CONVERSATIONS = 200;
/** Where a conversation never read was read up to (what mark-unread takes to make it all unread again). */
export const NEVER_READ = '0000000000.000000';
export const STALE_PROPOSAL_MESSAGE = 'This proposal is no longer open. Ask again.';

export interface CatchupDeps {
  store: Store;
  provider: AiProvider;
  budget: AiBudget;
  now: () => number;
  logger: ServerLogger;
  /** Labels the member's unread conversations before a session starts. */
  classifyUnread(session: Session): Promise<unknown>;
}

/** One turn: the member's words (typed or spoken), or a press of a proposal's button. */
export type CatchupTurnInput = { message: string } | { proposalId: string; confirm: boolean };

/** Marks one conversation read up to a ts (the route's own mark-read, with its event). */
export type MarkRead = (conversationId: string, upTo?: string) => Promise<void>;

export interface CatchupChatReply {
  message: string;
  sources: AskSource[];
  /** The session's pending proposal after this turn, if any (a new one has a new id). */
  proposal?: CatchupProposal;
  marked?: CatchupMarked[];
}

export class CatchupSessions {
  constructor(private readonly deps: CatchupDeps) {}

  /** Starts a session over the member's unread conversations (classifying them first). */
  async start(session: Session): Promise<{ sessionId?: string; message: string; stats: CatchupStats }> {
    await this.deps.classifyUnread(session).catch((error: unknown) => {
      this.deps.logger.log('warn', 'catch-up: classification failed; going on with existing labels', { error: String(error) });
    });
    const context = await this.context(session, null);
    const stats = statsOf(context.conversations, 0);
    if (context.conversations.length === 0) return { message: CAUGHT_UP_MESSAGE, stats };
    const now = this.deps.now();
    // Idle sessions end, and the member keeps room for this one.
    await this.deps.store.pruneCatchupSessions(session.workspaceId, session.userId, now - CATCHUP_IDLE_MS, CATCHUP_SESSIONS_PER_MEMBER - 1);
    const message = emojify(catchupGreeting(context));
    const state: CatchupSessionRecord = {
      id: randomUUID(),
      workspaceId: session.workspaceId,
      userId: session.userId,
      createdAt: now,
      touchedAt: now,
      history: [{ role: 'assistant', content: message, at: now }],
      pending: null,
      cleared: 0,
    };
    await this.deps.store.saveCatchupSession(state);
    return { sessionId: state.id, message, stats };
  }

  /**
   * One turn of a session. A pending proposal is carried out on the member's yes as the server
   * reads it, or on the confirm button when it names that very proposal (another id: 409, nothing
   * changes). Anything else goes to the model, whose answer is text and at most a new proposal.
   */
  async chat(session: Session, sessionId: string, turn: CatchupTurnInput, markRead: MarkRead, signal?: AbortSignal): Promise<CatchupChatReply> {
    const state = await this.sessionOf(session, sessionId);
    const pending = state.pending;
    if ('proposalId' in turn && (!pending || pending.id !== turn.proposalId)) throw new AiError(STALE_PROPOSAL_MESSAGE, 409);
    const said = 'message' in turn ? turn.message : turn.confirm ? CATCHUP_CONFIRM_LABEL : CATCHUP_DECLINE_LABEL;
    const answer = 'proposalId' in turn ? (turn.confirm ? 'confirm' : 'decline') : pending ? detectIntent(turn.message) : null;
    const context = await this.context(session, state);
    let reply: Pick<CatchupReply, 'message' | 'conversationIds'> & { marked?: CatchupMarked[] };
    if (pending && answer === 'confirm') {
      reply = await this.perform(session, state, pending, context, markRead);
    } else if (pending && answer === 'decline') {
      state.pending = null;
      reply = { message: 'OK, I left them unread.', conversationIds: [] };
    } else {
      // The model's reply is text and a proposal at most: whatever it says about doing something is not acted on.
      const answered = await this.deps.budget.spend(session, (meter) => this.deps.provider.catchup(context, said, signal, meter));
      if (answered.proposal) state.pending = { ...withUpTo(answered.proposal, context), id: randomUUID() };
      reply = answered;
    }
    const now = this.deps.now();
    state.history.push({ role: 'user', content: said, at: now }, { role: 'assistant', content: reply.message, at: now });
    state.touchedAt = now;
    await this.deps.store.saveCatchupSession(state);
    const byId = new Map(context.conversations.map((c) => [c.conversationId, c]));
    const sources = reply.conversationIds
      .map((id) => byId.get(id))
      .filter((c): c is CatchupConversation => Boolean(c))
      .slice(0, 10)
      .map(catchupSource);
    const open = state.pending?.id ? proposalOf(state.pending) : undefined;
    return { message: emojify(reply.message), sources, ...(open ? { proposal: open } : {}), ...(reply.marked ? { marked: reply.marked } : {}) };
  }

  /** Marks the proposal's conversations read (each up to what it showed); answers where each was read up to before. */
  private async perform(session: Session, state: CatchupSessionRecord, action: CatchupAction, context: CatchupContext, markRead: MarkRead) {
    const marked: CatchupMarked[] = [];
    for (const id of action.conversationIds) {
      try {
        const before = await this.deps.store.getConversation(session.workspaceId, session.userId, id);
        if (!before) continue;
        await markRead(id, action.upTo?.[id]);
        marked.push({ conversation_id: id, last_read: before.last_read || NEVER_READ });
      } catch (error) {
        this.deps.logger.log('warn', 'catch-up: mark read failed', { conversationId: id, error: String(error) });
      }
    }
    const done = marked.length;
    state.cleared += done;
    state.pending = null;
    const left = context.conversations.filter((c) => !action.conversationIds.includes(c.conversationId)).length;
    const failed = action.conversationIds.length - done;
    return {
      message: `Done. I marked ${countOf(done, 'conversation')} as read. ${left === 0 ? "You're all caught up!" : `${countOf(left, 'unread conversation')} left.`}${failed ? ` (${failed} could not be marked read.)` : ''}`,
      conversationIds: action.conversationIds.slice(0, 10),
      marked,
    };
  }

  async session(session: Session, sessionId: string) {
    const state = await this.sessionOf(session, sessionId);
    return {
      sessionId: state.id,
      createdAt: state.createdAt,
      history: state.history,
      stats: await this.stats(session, sessionId),
      pending: state.pending?.id ? proposalOf(state.pending) : null,
    };
  }

  async stats(session: Session, sessionId: string): Promise<CatchupStats> {
    const state = await this.sessionOf(session, sessionId);
    const unread = await this.deps.store.unreadConversations(session.workspaceId, session.userId, CATCHUP_CONVERSATIONS);
    return statsOf(
      unread.map((u) => ({ category: u.ai_category ?? null })),
      state.cleared,
    );
  }

  async end(session: Session, sessionId: string): Promise<void> {
    if (!(await this.deps.store.deleteCatchupSession(session.workspaceId, session.userId, sessionId))) throw new AiError('Catch-up session not found', 404);
  }

  /** The member's session; a missing, idle-expired or another member's session is 'not found'. */
  private async sessionOf(session: Session, sessionId: string): Promise<CatchupSessionRecord> {
    const state = await this.deps.store.getCatchupSession(session.workspaceId, session.userId, sessionId);
    if (!state || state.touchedAt < this.deps.now() - CATCHUP_IDLE_MS) throw new AiError('Catch-up session not found', 404);
    return state;
  }

  private async context(session: Session, state: CatchupSessionRecord | null): Promise<CatchupContext> {
    const { store } = this.deps;
    // At most CATCHUP_CONVERSATIONS conversations: only the people they name are read.
    const directory = await new AiDirectory(store, session.workspaceId).ensure([session.userId]);
    const unread = await store.unreadConversations(session.workspaceId, session.userId, CATCHUP_CONVERSATIONS);
    const conversations: CatchupConversation[] = [];
    for (const conversation of unread) {
      const messages = await aiMessagesOf(store, directory, session.workspaceId, conversation, session.userId);
      conversations.push({
        conversationId: conversation.id,
        type: conversation.type,
        title: await channelLabel(directory, conversation),
        category: conversation.ai_category ?? null,
        reason: conversation.ai_reason ?? null,
        unreadCount: conversation.unread_count,
        latestActivity: conversation.latest_ts ? tsSeconds(conversation.latest_ts) : 0,
        ...(conversation.latest_ts ? { latestTs: conversation.latest_ts } : {}),
        messages: messages.slice(-10),
      });
    }
    return {
      memberId: session.userId,
      memberName: directory.nameOf(session.userId),
      now: this.deps.now(),
      conversations,
      history: (state?.history ?? []).map(({ role, content }) => ({ role, content })),
    };
  }
}

/** '1 conversation', '3 conversations'. */
function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** A proposal limited to the context's conversations, each up to its latest message shown now. */
function withUpTo(action: CatchupAction, context: CatchupContext): CatchupAction {
  const shown = new Map(context.conversations.map((c) => [c.conversationId, c.latestTs]));
  const ids = action.conversationIds.filter((id) => shown.has(id));
  const upTo: Record<string, string> = {};
  for (const id of ids) {
    const ts = shown.get(id);
    if (ts) upTo[id] = ts;
  }
  return { ...action, conversationIds: ids, upTo };
}

/** What the page shows of a pending proposal: its id (for the buttons), what it does, what it covers. */
function proposalOf(action: CatchupAction): CatchupProposal {
  return { id: action.id ?? '', description: action.description, conversation_ids: action.conversationIds };
}

function catchupSource(c: CatchupConversation): AskSource {
  const last = c.messages[c.messages.length - 1];
  return {
    id: last ? `${c.conversationId}:${last.ts}` : c.conversationId,
    author: last?.author ?? '',
    channel: emojify(c.title),
    text: emojify(last?.text ?? ''),
    timestamp: last?.ts ?? String(c.latestActivity),
    permalink: permalinkOf(c.conversationId, last?.ts ?? ''),
    score: 1,
    conversation_id: c.conversationId,
  };
}

function statsOf(conversations: ReadonlyArray<{ category: AiCategory | null }>, cleared: number): CatchupStats {
  const stats: CatchupStats = { urgent: 0, can_wait: 0, fyi: 0, total: conversations.length, cleared };
  for (const c of conversations) if (c.category) stats[c.category] += 1;
  return stats;
}
