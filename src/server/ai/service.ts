/**
 * The AI service: reads the store, builds the provider's inputs, calls the provider, writes
 * the results (labels with their events, lessons) and keeps catch-up sessions. Routes
 * (routes/ai.ts) validate requests and call it; providers never touch storage.
 */
import { randomUUID } from 'node:crypto';
import { ASK_DEFAULTS } from '../../model/constants';
import { CAUGHT_UP_MESSAGE, type AskAnswer, type AskOptions, type AskSource, type AskTurn, type CatchupStats, type RefineMode } from '../../model/ai';
import type { AiCategory, ConversationSummary, ConversationUpdateData } from '../../model/types';
import { tsSeconds } from '../../model/ts';
import { emojify } from '../../model/emoji';
import type { LiveHub } from '../live/hub';
import type { ServerLogger } from '../log';
import type { AiLabel, CatchupSessionRecord, Session, Store, UnreadConversation } from '../store/types';
import { messageScore } from '../routes/search';
import { AiDirectory, aiMessagesOf, classifyInputOf, needsClassification, type AiConversationRef } from './inputs';
import { catchupGreeting, detectIntent } from './local/catchup';
import { lessonWords } from './local/classify';
import { searchTerms } from './local/answer';
import {
  AiError,
  type AiProvider,
  type AudioInput,
  type CatchupAction,
  type CatchupReply,
  type ClassifyInput,
  type CatchupContext,
  type CatchupConversation,
  type Lesson,
  type RetrievedMessage,
} from './types';

export interface AiServiceDeps {
  store: Store;
  hub: LiveHub;
  provider: AiProvider;
  now: () => number;
  logger: ServerLogger;
  /** Models a request may name in `options.model` besides the provider's own (SIFT_AI_MODELS); any other is refused. */
  models?: readonly string[];
}

/** How many conversations go to the provider per classify call, and are written per transaction. */
const CLASSIFY_BATCH = 200;
/** classify-unread answers once this many (the newest) are labelled; the rest continue in the background. */
export const CLASSIFY_SYNC_LIMIT = 2_000;

interface ClassifyRun {
  /** The summary the request answers with. */
  first: ClassifySummary;
}
/** New messages are re-triaged in batches this long after the first of them. */
export const LIVE_TRIAGE_DELAY_MS = 300;
/** Catch-up sessions end after this long without a turn. */
export const CATCHUP_IDLE_MS = 60 * 60 * 1000;
/** A member keeps at most this many open catch-up sessions (the oldest is ended). */
const CATCHUP_SESSIONS_PER_MEMBER = 5;
/** The unread conversations a catch-up session reads (newest first). */
const CATCHUP_CONVERSATIONS = 200;


export interface ClassifySummary {
  classified: number;
  /** Unread conversations that needed nothing (labelled by hand, or unchanged since their label). */
  skipped: number;
  /** Still being classified in the background (their labels arrive as live events). */
  pending: number;
  unread: number;
  provider: string;
  model: string;
}

const memberKey = (s: Pick<Session, 'workspaceId' | 'userId'>) => `${s.workspaceId}\u0000${s.userId}`;

export class AiService {
  private readonly running = new Map<string, Promise<ClassifyRun>>();
  private readonly lastRun = new Map<string, { at: number; summary: ClassifySummary }>();

  private readonly dueLive = new Map<string, { workspaceId: string; userId: string; conversationId: string }>();
  private liveTimer: NodeJS.Timeout | null = null;
  private readonly untap: () => void;

  constructor(private readonly deps: AiServiceDeps) {
    this.untap = deps.hub.tap((workspaceId, events) => this.onPublished(workspaceId, events));
  }

  /** Stops the live triage (tests and shutdown). */
  close(): void {
    this.untap();
    if (this.liveTimer) clearTimeout(this.liveTimer);
    this.liveTimer = null;
  }

  /* ---------- live triage ---------- */

  /**
   * A new message from someone else to a member who has Sift open re-triages that
   * conversation for them shortly after (batched over LIVE_TRIAGE_DELAY_MS), so a
   * conversation that turns unread arrives in its group instead of 'Not Categorized'.
   */
  private onPublished(workspaceId: string, events: ReadonlyArray<{ userId: string; type: string; data: unknown }>): void {
    for (const event of events) {
      if (event.type !== 'message_update') continue;
      const data = event.data as { action?: string; conversation_id?: string; message?: { user?: string; subtype?: string }; is_thread?: boolean };
      if (data.action !== 'new_message' || !data.conversation_id || data.is_thread) continue;
      if (data.message?.user === event.userId || data.message?.subtype) continue;
      if (!this.deps.hub.listening(workspaceId, event.userId)) continue;
      this.dueLive.set(`${workspaceId}\u0000${event.userId}\u0000${data.conversation_id}`, { workspaceId, userId: event.userId, conversationId: data.conversation_id });
    }
    if (this.dueLive.size > 0 && !this.liveTimer) {
      this.liveTimer = setTimeout(() => {
        this.liveTimer = null;
        void this.triageDue();
      }, LIVE_TRIAGE_DELAY_MS);
      this.liveTimer.unref();
    }
  }

  private async triageDue(): Promise<void> {
    const due = [...this.dueLive.values()];
    this.dueLive.clear();
    for (const item of due) {
      try {
        await this.triageOne(item.workspaceId, item.userId, item.conversationId);
      } catch (error) {
        this.deps.logger.log('warn', 'live triage failed', { conversationId: item.conversationId, error: String(error) });
      }
    }
  }

  private async triageOne(workspaceId: string, userId: string, conversationId: string): Promise<void> {
    const { store } = this.deps;
    const summary = await store.getConversation(workspaceId, userId, conversationId);
    if (!summary || summary.unread_count === 0 || summary.ai_source === 'manual') return;
    // One conversation on a live event: only the people its messages name are read.
    const input = await classifyInputOf(store, new AiDirectory(store, workspaceId), workspaceId, summary, userId);
    const [result] = await this.deps.provider.classify([input], await store.listLessons(workspaceId, userId));
    if (!result) return;
    const label: AiLabel = { conversationId, category: result.category, reason: result.reason, confidence: result.confidence, triggers: result.triggers, basisTs: summary.latest_message?.ts ?? '' };
    const written = await store.setAiLabels(workspaceId, userId, [label], this.deps.now(), (done) =>
      done.map((l) => ({ userId, type: 'conversation_update', data: labelUpdate(l) })),
    );
    this.deps.hub.publish(workspaceId, written.events);
  }

  get provider(): AiProvider {
    return this.deps.provider;
  }

  /* ---------- classification ---------- */

  /**
   * Classifies the member's unread conversations that have no label yet or changed since
   * theirs, newest first; a manual label is never overwritten. The answer comes once the
   * newest CLASSIFY_SYNC_LIMIT are labelled; the rest go on in the background and reach the
   * page as live events. One run per member at a time: a call while one runs waits for the
   * same first part.
   */
  async classifyUnread(session: Session, signal?: AbortSignal): Promise<ClassifySummary> {
    const key = memberKey(session);
    let run = this.running.get(key);
    if (!run) {
      run = this.startClassification(session, signal);
      this.running.set(key, run);
    }
    return (await run).first;
  }

  private async startClassification(session: Session, signal?: AbortSignal): Promise<ClassifyRun> {
    const key = memberKey(session);
    try {
      const { store } = this.deps;
      const unread = await store.unreadConversations(session.workspaceId, session.userId);
      const due = unread.filter(needsClassification);
      if (due.length === 0) {
        const first = this.summary(0, unread.length, 0);
        this.finish(session, first);
        return { first };
      }
      const lessons = await store.listLessons(session.workspaceId, session.userId);
      const directory = await new AiDirectory(store, session.workspaceId).load();
      const now = due.slice(0, CLASSIFY_SYNC_LIMIT);
      const later = due.slice(CLASSIFY_SYNC_LIMIT);
      const classified = await this.classifyBatches(session, directory, now, lessons, signal);
      const first = this.summary(classified, unread.length, later.length);
      if (later.length === 0) {
        this.finish(session, first);
        return { first };
      }
      // The rest runs detached from the request (its client may go away).
      void this.classifyBatches(session, directory, later, lessons)
        .then((more) => this.finish(session, this.summary(classified + more, unread.length, 0)))
        .catch((error: unknown) => {
          this.running.delete(key);
          this.deps.logger.log('warn', 'background classification failed', { error: String(error) });
        });
      return { first };
    } catch (error) {
      this.running.delete(key);
      throw error;
    }
  }

  private summary(classified: number, unread: number, pending: number): ClassifySummary {
    return { classified, skipped: unread - classified - pending, pending, unread, provider: this.deps.provider.kind, model: this.deps.provider.model };
  }

  private finish(session: Session, summary: ClassifySummary): void {
    this.running.delete(memberKey(session));
    this.lastRun.set(memberKey(session), { at: this.deps.now(), summary });
    this.deps.logger.log('info', 'classified unread conversations', { ...summary });
  }

  /** Classifies conversations batch by batch, writing each batch's labels (and events) as it goes; answers how many were written. */
  private async classifyBatches(session: Session, directory: AiDirectory, due: UnreadConversation[], lessons: Lesson[], signal?: AbortSignal): Promise<number> {
    const { store, provider } = this.deps;
    let written = 0;
    for (let i = 0; i < due.length; i += CLASSIFY_BATCH) {
      // The store answers synchronously under its promises: without a turn of the event loop
      // between batches, a long run would hold every other request (the page's first load) until it ends.
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const batch: Array<{ input: ClassifyInput; basisTs: string }> = [];
      for (const summary of due.slice(i, i + CLASSIFY_BATCH)) {
        batch.push({ input: await classifyInputOf(store, directory, session.workspaceId, summary, session.userId), basisTs: summary.latest_ts });
      }
      const results = await provider.classify(
        batch.map((c) => c.input),
        lessons,
        signal,
      );
      const labels: AiLabel[] = batch.map((c, k) => {
        const r = results[k]!;
        return { conversationId: c.input.conversationId, category: r.category, reason: r.reason, confidence: r.confidence, triggers: r.triggers, basisTs: c.basisTs };
      });
      const result = await store.setAiLabels(session.workspaceId, session.userId, labels, this.deps.now(), (done) =>
        done.map((l) => ({ userId: session.userId, type: 'conversation_update', data: labelUpdate(l) })),
      );
      this.deps.hub.publish(session.workspaceId, result.events);
      written += result.result.length;
    }
    return written;
  }

  /** GET /api/features/ai-sort/status: the provider, the member's unread counts by category, the last run. */
  async status(session: Session) {
    const unread = await this.deps.store.unreadConversations(session.workspaceId, session.userId);
    const counts = { urgent: 0, can_wait: 0, fyi: 0, uncategorized: 0, manual: 0 };
    for (const conversation of unread) {
      if (conversation.ai_category) counts[conversation.ai_category] += 1;
      else counts.uncategorized += 1;
      if (conversation.ai_source === 'manual') counts.manual += 1;
    }
    const last = this.lastRun.get(memberKey(session));
    return {
      success: true,
      enabled: true,
      provider: this.deps.provider.kind,
      model: this.deps.provider.model,
      running: this.running.has(memberKey(session)),
      unread: unread.length,
      counts,
      lessons: (await this.deps.store.listLessons(session.workspaceId, session.userId)).length,
      last_run: last ? { at: new Date(last.at).toISOString(), ...last.summary } : null,
    };
  }

  /** The member's unread conversations of one category, newest first. */
  async conversationsIn(session: Session, category: AiCategory): Promise<ConversationSummary[]> {
    const { store } = this.deps;
    const unread = await store.unreadConversations(session.workspaceId, session.userId);
    const conversations: ConversationSummary[] = [];
    for (const u of unread) {
      if (u.ai_category !== category) continue;
      const summary = await store.getConversation(session.workspaceId, session.userId, u.id);
      if (summary) conversations.push(summary);
    }
    return conversations;
  }

  /** A manual category is a lesson for the local classifier (stored per member). */
  async learn(session: Session, conversationId: string, category: AiCategory): Promise<void> {
    const { store } = this.deps;
    const summary = await store.getConversation(session.workspaceId, session.userId, conversationId);
    if (!summary) return;
    const directory = new AiDirectory(store, session.workspaceId);
    const input = await classifyInputOf(store, directory, session.workspaceId, summary, session.userId);
    const fromOthers = input.messages.filter((m) => m.user !== session.userId);
    const sender = fromOthers[fromOthers.length - 1];
    const lesson: Lesson = {
      category,
      conversationId,
      conversationName: input.name,
      type: summary.type,
      senderId: sender?.user ?? null,
      senderName: sender?.author ?? null,
      words: lessonWords(input.messages),
      at: this.deps.now(),
    };
    await store.addLesson(session.workspaceId, session.userId, lesson);
  }

  /* ---------- refinement ---------- */

  refine(text: string, mode: RefineMode, signal?: AbortSignal): AsyncIterable<string> {
    return this.deps.provider.refine(text, mode, signal);
  }

  /* ---------- answers ---------- */

  /** Retrieves the member's messages for the question and answers from them (POST /api/ask). */
  /** The models a request may ask for: the provider's own and the configured ones. */
  get models(): string[] {
    return [...new Set([this.deps.provider.model, ...(this.deps.models ?? [])])];
  }

  async ask(session: Session, question: string, options: AskOptions, signal?: AbortSignal, history: AskTurn[] = []): Promise<AskAnswer> {
    // A model name goes to the operator's (paid) API only when the operator allowed it.
    if (options.model !== undefined && !this.models.includes(options.model)) {
      throw new AiError(`Invalid request: options.model must be one of ${this.models.join(', ')}`, 400);
    }
    const started = performance.now();
    const maxSources = options.max_sources ?? ASK_DEFAULTS.max_sources;
    const topK = options.top_k ?? ASK_DEFAULTS.top_k;
    // A follow-up ('and who fixed it?') searches with the words of the question it follows.
    const previous = [...history].reverse().find((t) => t.role === 'user')?.content;
    const searchText = previous && searchTerms(question).length < 2 ? `${previous} ${question}` : question;
    const directory = await new AiDirectory(this.deps.store, session.workspaceId).ensure([session.userId]);
    const { retrieved, iterations } = await this.retrieve(session, directory, searchText, topK);
    const result = await this.deps.provider.answer(
      {
        question,
        history,
        retrieved,
        maxSources,
        temperature: options.temperature ?? ASK_DEFAULTS.temperature,
        memberName: directory.nameOf(session.userId),
        now: this.deps.now(),
        ...(options.model ? { model: options.model } : {}),
      },
      signal,
    );
    const sources: AskSource[] = result.sourceIndexes
      .filter((i) => i >= 0 && i < retrieved.length)
      .slice(0, maxSources)
      .map((i) => toSource(retrieved[i]!));
    return {
      answer: emojify(result.answer),
      sources,
      confidence: clamp01(result.confidence),
      processing_time_ms: Math.round(performance.now() - started),
      tokens_used: result.tokensUsed,
      search_iterations: iterations,
      model: result.model,
    };
  }

  /**
   * The member's messages that match the question: first every content word must match; when
   * that finds too little, any of them (a second iteration). Ranked by relevance and age.
   */
  private async retrieve(session: Session, directory: AiDirectory, question: string, topK: number): Promise<{ retrieved: RetrievedMessage[]; iterations: number }> {
    const { store } = this.deps;
    const terms = searchTerms(question);
    if (terms.length === 0) return { retrieved: [], iterations: 0 };
    const quoted = terms.map((t) => `"${t.replace(/"/g, '""')}"`);
    const queries = [quoted.join(' AND '), quoted.join(' OR ')];
    const seen = new Map<string, { hit: Awaited<ReturnType<Store['searchMessages']>>[number]; score: number }>();
    let iterations = 0;
    const now = this.deps.now();
    for (const query of queries) {
      if (seen.size >= topK) break;
      iterations += 1;
      const hits = await store.searchMessages(session.workspaceId, session.userId, query, Math.max(50, topK * 5));
      for (const hit of hits) {
        const key = `${hit.conversation_id}:${hit.ts}`;
        if (!seen.has(key)) seen.set(key, { hit, score: messageScore(hit.bm25, hit.ts, now) });
      }
    }
    const ranked = [...seen.values()].sort((a, b) => b.score - a.score).slice(0, topK);
    const best = ranked[0]?.score ?? 1;
    await directory.ensureTexts(ranked.map(({ hit }) => hit));
    const retrieved: RetrievedMessage[] = [];
    for (const { hit, score } of ranked) {
      const summary = await store.getConversation(session.workspaceId, session.userId, hit.conversation_id);
      if (!summary) continue;
      retrieved.push({
        conversationId: hit.conversation_id,
        channel: await channelLabel(directory, summary),
        ts: hit.ts,
        author: directory.nameOf(hit.user),
        text: directory.plain(hit.text),
        score: best > 0 ? clamp01(score / best) : 0,
      });
    }
    return { retrieved, iterations };
  }

  /* ---------- catch-up ---------- */

  /** Starts a session over the member's unread conversations (classifying them first). */
  async startCatchup(session: Session): Promise<{ sessionId?: string; message: string; stats: CatchupStats }> {
    await this.classifyUnread(session).catch((error: unknown) => {
      this.deps.logger.log('warn', 'catch-up: classification failed; going on with existing labels', { error: String(error) });
    });
    const context = await this.catchupContext(session, null);
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
   * One turn of a session. The assistant proposes; only the member disposes: a pending action is
   * carried out when the member's own words are a yes (matched here, by the server, never taken
   * from the model's answer), and it marks read only up to the messages shown when it was proposed.
   */
  async catchupChat(
    session: Session,
    sessionId: string,
    message: string,
    markRead: (conversationId: string, upTo?: string) => Promise<void>,
    signal?: AbortSignal,
  ) {
    const state = await this.sessionOf(session, sessionId);
    const context = await this.catchupContext(session, state);
    const answer = state.pending ? detectIntent(message) : null;
    const now = this.deps.now();
    let reply: Pick<CatchupReply, 'message' | 'conversationIds' | 'proposal'>;
    if (state.pending && answer === 'confirm') {
      const action = state.pending;
      let done = 0;
      for (const id of action.conversationIds) {
        try {
          await markRead(id, action.upTo?.[id]);
          done += 1;
        } catch (error) {
          this.deps.logger.log('warn', 'catch-up: mark read failed', { conversationId: id, error: String(error) });
        }
      }
      state.cleared += done;
      state.pending = null;
      const left = context.conversations.filter((c) => !action.conversationIds.includes(c.conversationId)).length;
      const failed = action.conversationIds.length - done;
      reply = {
        message: `Done. I marked ${countOf(done, 'conversation')} as read. ${left === 0 ? "You're all caught up!" : `${countOf(left, 'unread conversation')} left.`}${failed ? ` (${failed} could not be marked read.)` : ''}`,
        conversationIds: action.conversationIds.slice(0, 10),
      };
    } else if (state.pending && answer === 'decline') {
      state.pending = null;
      reply = { message: 'OK, I left them unread.', conversationIds: [] };
    } else {
      // The model's reply is text and a proposal at most: whatever it says about doing something is not acted on.
      reply = await this.deps.provider.catchup({ ...context, pending: null }, message, signal);
      if (reply.proposal) state.pending = withUpTo(reply.proposal, context);
    }
    state.history.push({ role: 'user', content: message, at: now });
    const text = reply.message;
    state.history.push({ role: 'assistant', content: text, at: now });
    state.touchedAt = now;
    await this.deps.store.saveCatchupSession(state);
    const byId = new Map(context.conversations.map((c) => [c.conversationId, c]));
    const sources = reply.conversationIds
      .map((id) => byId.get(id))
      .filter((c): c is CatchupConversation => Boolean(c))
      .slice(0, 10)
      .map(catchupSource);
    return { message: emojify(text), sources };
  }

  async catchupSession(session: Session, sessionId: string) {
    const state = await this.sessionOf(session, sessionId);
    return { sessionId: state.id, createdAt: state.createdAt, history: state.history, stats: await this.catchupStats(session, sessionId) };
  }

  async catchupStats(session: Session, sessionId: string): Promise<CatchupStats> {
    const state = await this.sessionOf(session, sessionId);
    const unread = await this.deps.store.unreadConversations(session.workspaceId, session.userId, CATCHUP_CONVERSATIONS);
    return statsOf(
      unread.map((u) => ({ category: u.ai_category ?? null })),
      state.cleared,
    );
  }

  async endCatchup(session: Session, sessionId: string): Promise<void> {
    if (!(await this.deps.store.deleteCatchupSession(session.workspaceId, session.userId, sessionId))) throw new AiError('Catch-up session not found', 404);
  }

  /** The member's session; a missing, idle-expired or another member's session is 'not found'. */
  private async sessionOf(session: Session, sessionId: string): Promise<CatchupSessionRecord> {
    const state = await this.deps.store.getCatchupSession(session.workspaceId, session.userId, sessionId);
    if (!state || state.touchedAt < this.deps.now() - CATCHUP_IDLE_MS) throw new AiError('Catch-up session not found', 404);
    return state;
  }

  private async catchupContext(session: Session, state: CatchupSessionRecord | null): Promise<CatchupContext> {
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
      pending: state?.pending ?? null,
    };
  }

  /* ---------- transcription ---------- */

  transcribe(audio: AudioInput, signal?: AbortSignal): Promise<string> {
    return this.deps.provider.transcribe(audio, signal);
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

/** The conversation_update of a new AI label. */
function labelUpdate(label: AiLabel): ConversationUpdateData {
  const conversation = {
    id: label.conversationId,
    ai_category: label.category,
    ai_source: 'ai',
    ai_reason: label.reason,
    ai_confidence: label.confidence,
    ai_triggers: label.triggers,
  };
  return { conversation_id: label.conversationId, conversation, reason: 'ai_label' } as unknown as ConversationUpdateData;
}

/** '#general', 'Dana Reyes' for a DM, 'Thread in #general: …' for a thread (its name is its title). */
async function channelLabel(directory: AiDirectory, conversation: AiConversationRef): Promise<string> {
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

function toSource(r: RetrievedMessage): AskSource {
  return {
    id: `${r.conversationId}:${r.ts}`,
    author: r.author,
    channel: r.channel,
    text: emojify(r.text),
    timestamp: r.ts,
    permalink: permalinkOf(r.conversationId, r.ts),
    score: Math.round(r.score * 1000) / 1000,
    conversation_id: r.conversationId,
  };
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

const clamp01 = (n: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);

