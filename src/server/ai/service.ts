/**
 * The AI service: reads the store, builds the provider's inputs, calls the provider, writes
 * the results (labels with their events, lessons); catch-up sessions are ./catchupSessions.
 * Every provider call is made for a member and counted against their daily token budget
 * (./budget). Routes (routes/ai.ts) validate requests and call it; providers never touch storage.
 */
import { ASK_DEFAULTS } from '../../model/constants';
import type { AskAnswer, AskOptions, AskSource, AskTurn, RefineMode } from '../../model/ai';
import type { AiCategory, ConversationSummary, ConversationUpdateData } from '../../model/types';
import { emojify } from '../../model/emoji';
import type { LiveHub } from '../live/hub';
import type { ServerLogger } from '../log';
import type { AiLabel, Session, Store, TextQuery, UnreadConversation } from '../store/types';
import { messageScore } from '../search';
import { AiBudget, DEFAULT_DAILY_TOKENS } from './budget';
import { CatchupSessions } from './catchupSessions';
import { AiDirectory, channelLabel, classifyInputOf, needsClassification, permalinkOf } from './inputs';
import { lessonFor, searchTerms } from './words';
import { AiError, type AiProvider, type AudioInput, type ClassifyInput, type Lesson, type RetrievedMessage } from './types';

export interface AiServiceDeps {
  store: Store;
  hub: LiveHub;
  provider: AiProvider;
  now: () => number;
  logger: ServerLogger;
  /** Models a request may name in `options.model` besides the provider's own (SIFT_AI_MODELS); any other is refused. */
  models?: readonly string[];
  /** AI tokens per member per UTC day (SIFT_AI_DAILY_TOKENS; 200,000 by default; 0: unlimited). */
  dailyTokens?: number;
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
  readonly budget: AiBudget;
  readonly catchup: CatchupSessions;

  constructor(private readonly deps: AiServiceDeps) {
    this.untap = deps.hub.tap((workspaceId, events) => this.onPublished(workspaceId, events));
    this.budget = new AiBudget(deps.store, deps.now, deps.dailyTokens ?? DEFAULT_DAILY_TOKENS);
    this.catchup = new CatchupSessions({ ...deps, budget: this.budget, classifyUnread: (session) => this.classifyUnread(session) });
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
      this.dueLive.set(`${workspaceId}\u0000${event.userId}\u0000${data.conversation_id}`, {
        workspaceId,
        userId: event.userId,
        conversationId: data.conversation_id,
      });
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
    const lessons = await store.listLessons(workspaceId, userId);
    // Over the member's daily budget, the conversation waits for tomorrow's triage (the budget throws; logged above).
    const [result] = await this.budget.spend({ workspaceId, userId }, (meter) => this.deps.provider.classify([input], lessons, undefined, meter));
    if (!result) return;
    const label: AiLabel = {
      conversationId,
      category: result.category,
      reason: result.reason,
      confidence: result.confidence,
      triggers: result.triggers,
      basisTs: summary.latest_message?.ts ?? '',
    };
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
      // Checked per batch: a long background run stops once the member's daily budget is spent.
      const results = await this.budget.spend(session, (meter) =>
        provider.classify(
          batch.map((c) => c.input),
          lessons,
          signal,
          meter,
        ),
      );
      const labels: AiLabel[] = batch.map((c, k) => {
        const r = results[k]!;
        return {
          conversationId: c.input.conversationId,
          category: r.category,
          reason: r.reason,
          confidence: r.confidence,
          triggers: r.triggers,
          basisTs: c.basisTs,
        };
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
    const lesson = lessonFor({ ...input, type: summary.type }, category, this.deps.now());
    await store.addLesson(session.workspaceId, session.userId, lesson);
  }

  /* ---------- refinement ---------- */

  /** The suggestion as a stream; refused (429) before it starts when the member's daily budget is spent. */
  refine(session: Session, text: string, mode: RefineMode, signal?: AbortSignal): Promise<AsyncIterable<string>> {
    return this.budget.stream(session, (meter) => this.deps.provider.refine(text, mode, signal, meter));
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
    const request = {
      question,
      history,
      retrieved,
      maxSources,
      temperature: options.temperature ?? ASK_DEFAULTS.temperature,
      memberName: directory.nameOf(session.userId),
      now: this.deps.now(),
      ...(options.model ? { model: options.model } : {}),
    };
    const result = await this.budget.spend(session, (meter) => this.deps.provider.answer(request, signal, meter));
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
  private async retrieve(
    session: Session,
    directory: AiDirectory,
    question: string,
    topK: number,
  ): Promise<{ retrieved: RetrievedMessage[]; iterations: number }> {
    const { store } = this.deps;
    const terms = searchTerms(question);
    if (terms.length === 0) return { retrieved: [], iterations: 0 };
    const queries: TextQuery[] = [{ words: terms }, { words: terms, any: true }];
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

  /* ---------- transcription ---------- */

  transcribe(session: Session, audio: AudioInput, signal?: AbortSignal): Promise<string> {
    return this.budget.spend(session, (meter) => this.deps.provider.transcribe(audio, signal, meter));
  }
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

const clamp01 = (n: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);
