/**
 * The AI provider interface (DESIGN §7): classify, refine as a stream of chunks, answer with
 * sources, catch-up chat, transcribe. Two implementations: the local one (./local, no
 * network, deterministic) and the OpenAI-compatible one (./openai.ts, the official client).
 *
 * Providers are pure of storage: the AI service (./service.ts) reads the store, builds these
 * inputs, calls the provider and writes the results.
 */
import type { AskSource, RefineMode } from '../../model/ai';
import type { AiCategory, ConversationType } from '../../model/types';
import type { AiTrigger, CatchupAction, Lesson } from '../../model/ai';
import { AppError } from '../errors';

/** Shared with the store (which knows no AI module): they live in the model. */
export type { AiTrigger, CatchupAction, Lesson };

/** One message as the AI sees it: Slack markup already resolved to plain text. */
export interface AiMessage {
  ts: string;
  /** Author id (null for system or app messages without a user). */
  user: string | null;
  /** Author's display name ('Dana Reyes'), or the bot's name. */
  author: string;
  isBot: boolean;
  /** Plain text: mentions as '@Name', channels as '#name', links as their label, emoji kept as :code:. */
  text: string;
  /** Whether the text mentions the member (`<@member>`, or @here/@channel counts as false). */
  mentionsMember: boolean;
}

/** One unread conversation to classify. */
export interface ClassifyInput {
  conversationId: string;
  type: ConversationType;
  /** Channel name without '#', the DM person's name, or the thread's parent channel name. */
  name: string;
  isPrivate: boolean;
  /** The member the classification is for. */
  memberId: string;
  memberName: string;
  /** The DM's other person (type dm). */
  dmUser?: string;
  unreadCount: number;
  /** The unread messages, oldest first (at most 20 of the newest); the last 5 when none is unread. */
  messages: AiMessage[];
}

export interface Classification {
  category: AiCategory;
  /** One sentence shown on hover: 'Dana asks you directly for a decision today'. */
  reason: string;
  triggers: AiTrigger[];
  /** 0 to 1. */
  confidence: number;
}

/** A message the retrieval found for a question. */
export interface RetrievedMessage {
  conversationId: string;
  /** '#general', 'Dana Reyes' (a DM), or 'Thread in #general'. */
  channel: string;
  ts: string;
  author: string;
  /** Plain text (see AiMessage.text). */
  text: string;
  /** Retrieval relevance, higher is better, 0..1. */
  score: number;
}

export interface AnswerRequest {
  question: string;
  /** Earlier turns the question follows up on, oldest first (may be empty). */
  history?: Array<{ role: 'user' | 'assistant'; content: string }>;
  /** The messages the retrieval found, best first. */
  retrieved: RetrievedMessage[];
  maxSources: number;
  temperature: number;
  memberName: string;
  /** Epoch ms, for 'today' and 'yesterday'. */
  now: number;
  model?: string;
}

export interface AnswerResult {
  answer: string;
  /** Indexes into AnswerRequest.retrieved that the answer uses, best first, at most maxSources. */
  sourceIndexes: number[];
  confidence: number;
  tokensUsed: number;
  model: string;
}

/** One unread conversation in a catch-up session's context. */
export interface CatchupConversation {
  conversationId: string;
  type: ConversationType;
  /** '#incidents', 'Dana Reyes', 'Thread in #general: Deploy is stuck…' */
  title: string;
  category: AiCategory | null;
  reason: string | null;
  unreadCount: number;
  /** Epoch seconds of the latest message. */
  latestActivity: number;
  /** The latest message's ts: what a 'mark read' proposed now covers, and no further. */
  latestTs?: string;
  /** The unread messages, oldest first (at most 10 of the newest). */
  messages: AiMessage[];
}

export interface CatchupContext {
  memberId: string;
  memberName: string;
  now: number;
  /** Unread conversations, newest first. */
  conversations: CatchupConversation[];
  /** Earlier turns of the session, oldest first. */
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
}

export interface CatchupReply {
  message: string;
  /** Conversations the reply is about, to list as sources (at most 10). */
  conversationIds: string[];
  /**
   * A proposal only: the session keeps it as pending, and the service carries it out when the
   * member's own yes (or the confirm button with its id) comes; a provider never performs anything.
   */
  proposal?: CatchupAction;
  tokensUsed: number;
}

/** Where a provider reports the tokens one of its calls used (the daily budget counts them). */
export type UsageMeter = (tokens: number) => void;

export interface AudioInput {
  data: Uint8Array;
  /** The upload's MIME type, without parameters ('audio/webm'). */
  mimeType: string;
  filename: string;
}

export interface AiProvider {
  /** 'local' or 'openai-compatible'. */
  readonly kind: 'local' | 'openai-compatible';
  /** The model id reported in answers ('sift-local-1', 'gpt-4o-mini'). */
  readonly model: string;
  /** Whether transcribe can work at all (the local provider has no speech model). */
  readonly canTranscribe: boolean;
  /** Classifies each input, in order. `lessons` are the member's, newest last. */
  classify(inputs: ClassifyInput[], lessons: Lesson[], signal?: AbortSignal, meter?: UsageMeter): Promise<Classification[]>;
  /** The refined text as chunks; concatenated they are the whole suggestion. Stops when the signal aborts. */
  refine(text: string, mode: RefineMode, signal?: AbortSignal, meter?: UsageMeter): AsyncIterable<string>;
  answer(request: AnswerRequest, signal?: AbortSignal, meter?: UsageMeter): Promise<AnswerResult>;
  catchup(context: CatchupContext, message: string, signal?: AbortSignal, meter?: UsageMeter): Promise<CatchupReply>;
  /** Text of the audio; throws AiError(400) for audio it cannot read. */
  transcribe(audio: AudioInput, signal?: AbortSignal, meter?: UsageMeter): Promise<string>;
}

/**
 * An AI failure with the HTTP status the route answers (502 upstream, 503 unavailable, 504 timeout,
 * 400 bad input, 404 no such session, 409 a proposal no longer open, 429 over the daily budget,
 * with the seconds to wait as Retry-After).
 */
/** An AI call that failed or was refused (errors.ts's hierarchy); the budget's 429 says when to come back. */
export class AiError extends AppError {
  constructor(message: string, status: 400 | 404 | 409 | 413 | 429 | 500 | 502 | 503 | 504 = 502, retryAfterSeconds?: number) {
    super(status, message, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
  }

  get retryAfterSeconds(): number | undefined {
    return this.options.retryAfterSeconds;
  }
}

export type { AskSource };
