/**
 * The AI features' shapes and texts (SPEC §2.6, §2.9, §3 'AI answer' and 'Catch-up session',
 * §4.7, §4.11–4.13, §7.4, §7.8, §8, §9), shared by the server, the worker and the page.
 */
import type { AiCategory, AiTrigger, ConversationType } from './types';

export type { AiTrigger };

/** The refinement modes, in the toolbar's order (SPEC §2.6). */
export const REFINE_MODES = ['polish', 'shorter', 'simplify', 'professional', 'list'] as const;
export type RefineMode = (typeof REFINE_MODES)[number];
export const REFINE_MODE_LABELS: Record<RefineMode, string> = {
  polish: 'Polish',
  shorter: 'Shorter',
  simplify: 'Simplify',
  professional: 'Professional',
  list: 'List',
};

/** One event of POST /api/messages/refine's stream (SSE `data:` lines, JSON). */
export type RefineEvent = { chunk: string } | { done: true; text: string } | { error: string };

export const REFINE_ERROR_DEFAULT = 'Failed to refine message';
export const refineErrorText = (reason?: string): string => `Error refining message: ${reason || REFINE_ERROR_DEFAULT}`;

/** POST /api/ask options (SPEC §7.4); absent ones take ASK_DEFAULTS (model.ts constants). */
export interface AskOptions {
  max_sources?: number;
  temperature?: number;
  model?: string;
  verbose?: boolean;
  top_k?: number;
}

/** An earlier turn of the conversation a question follows up on (POST /api/ask `history`, a Sift addition). */
export interface AskTurn {
  role: 'user' | 'assistant';
  content: string;
}
/** How many earlier turns a question carries. */
export const ASK_HISTORY_LIMIT = 10;

/** One source of an answer (SPEC §3 'AI answer'). `id` is `conversationId:ts`; `permalink` opens it in Sift. */
export interface AskSource {
  id: string;
  author: string;
  channel: string;
  text: string;
  /** Slack ts of the message. */
  timestamp: string;
  permalink: string;
  score: number;
  /** Sift additions: where the source lives, to open it. */
  conversation_id: string;
}

export interface AskAnswer {
  answer: string;
  sources: AskSource[];
  confidence: number;
  processing_time_ms: number;
  tokens_used: number;
  search_iterations: number;
  model: string;
}

/** The label a confidence is shown as (SPEC §3: 'confidence, shown as a label'). */
export function confidenceLabel(confidence: number): 'High confidence' | 'Medium confidence' | 'Low confidence' {
  if (confidence >= 0.75) return 'High confidence';
  if (confidence >= 0.45) return 'Medium confidence';
  return 'Low confidence';
}

export const AI_CHAT_ERROR_DEFAULT = 'Failed to get AI response';
export const aiChatErrorText = (message: string): string => `Sorry, I encountered an error: ${message}`;

/* catch-up (SPEC §7.8) */

export interface CatchupStats {
  urgent: number;
  can_wait: number;
  fyi: number;
  /** Unread conversations in all (some may have no category yet). */
  total: number;
  /** Conversations handled during the session (marked read through it). */
  cleared: number;
}

export interface CatchupStartResponse {
  success: boolean;
  sessionId?: string;
  message?: string;
  stats?: CatchupStats;
  error?: string;
}

/** Sift addition: a proposal waiting for the member's yes (typed, spoken, or its confirm button, which sends the id). */
export interface CatchupProposal {
  id: string;
  /** 'Mark 3 FYI conversations as read' */
  description: string;
  conversation_ids: string[];
}

/** The buttons under a proposal, and what the session's history records when one is pressed. */
export const CATCHUP_CONFIRM_LABEL = 'Mark these read';
export const CATCHUP_DECLINE_LABEL = 'Not now';

/** Sift addition: a conversation a yes marked read, and where it was read up to before (what undo restores). */
export interface CatchupMarked {
  conversation_id: string;
  last_read: string;
}

export interface CatchupChatResponse {
  success: boolean;
  message?: string;
  error?: string;
  /** Sift addition: the sources the reply refers to (conversations to open). */
  sources?: AskSource[];
  /** Sift addition: the proposal waiting for a yes after this turn, if any (shown with 'Mark these read' and 'Not now'; a new one has a new id). */
  proposal?: CatchupProposal;
  /** Sift addition: the reply carried out a proposal; Cmd/Ctrl+Z restores these read positions. */
  marked?: CatchupMarked[];
}

export interface CatchupTurn {
  role: 'user' | 'assistant';
  content: string;
  at: number;
}

export interface CatchupSessionResponse {
  success: boolean;
  session?: { sessionId: string; createdAt: number; history: CatchupTurn[]; stats: CatchupStats; pending?: CatchupProposal | null };
  error?: string;
}

export const CATCHUP_ERRORS = {
  start: 'Failed to start session',
  chat: 'Failed to send message',
  session: 'Failed to get session',
  stats: 'Failed to get stats',
  end: 'Failed to end session',
} as const;
export const CAUGHT_UP_MESSAGE = "You're all caught up! No unread messages.";

/** The six suggestion chips of the Ask AI page, in order (SPEC §2.9). */
export const SUGGESTION_CHIPS = [
  'craft suggested responses to simple messages',
  'summarize urgent messages',
  "I have 5 minutes, what's important?",
  'who should I reply to first',
  'surface team blockers',
  'clear all unread FYI messages',
] as const;

/** The eight prompts the Ask AI input's typing placeholder cycles through (SPEC §2.9). */
export const EXAMPLE_PROMPTS = [
  'What is urgent right now?',
  'Who is waiting on a reply from me?',
  'Summarize what I missed in #engineering',
  'What did Dana say about the launch?',
  'Are there any incidents I should know about?',
  'Which reviews are waiting on me?',
  'What deadlines are coming up this week?',
  'Catch me up on my direct messages',
] as const;

/** Typing placeholder timings (SPEC §9). */
export const TYPING_PLACEHOLDER = { typeMs: 50, deleteMs: 30, holdMs: 2_500, pauseMs: 800 } as const;

/* voice (SPEC §4.13, §8, §9) */
export const AUDIO_RECORDING = { channelCount: 1, sampleRate: 16_000, timesliceMs: 100 } as const;
export const AUDIO_FORMAT_PREFERENCE = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4', 'audio/wav'] as const;
export const SPEECH_SYNTHESIS = { rate: 1, pitch: 1, volume: 1 } as const;
export const SPEECH_FALLBACK_NOTICE_MS = 3_000;
export const VOICE_ERRORS = {
  unsupportedBrowser: 'Speech recognition is not supported in this browser. Please use Chrome, Edge, or Safari.',
  unsupported: 'Speech recognition not supported',
  startFailed: 'Failed to start speech recognition',
  recognition: (code: string) => `Speech recognition error: ${code}`,
  switching: 'Browser speech service unavailable. Switching to audio recording mode...',
  recordingUnsupported: 'Audio recording not supported in this browser',
  noFormat: 'No supported audio format found',
  recordingFailed: (reason: string) => `Recording failed: ${reason}`,
  recordingStartFailed: (reason: string) => `Failed to start recording: ${reason}`,
  transcription: (reason?: string) => (reason ? `Transcription failed: ${reason}` : 'Transcription failed'),
  transcribing: 'Transcribing audio...',
} as const;
/** Speech recognition error codes that show nothing (SPEC §8). */
export const SILENT_SPEECH_ERRORS: readonly string[] = ['aborted', 'no-speech'];
/** Speech recognition error codes that switch to recording (SPEC §4.13: a network or service error). */
export const FALLBACK_SPEECH_ERRORS: readonly string[] = ['network', 'service-not-allowed', 'language-not-supported'];

/** The unread summary of the Ask AI start screen: '{n} unread conversations' with per-category counts. */
export interface UnreadSummary {
  total: number;
  urgent: number;
  can_wait: number;
  fyi: number;
}

export type { AiCategory };

/**
 * A lesson: the member moved a conversation to a category by hand. The local classifier leans
 * later conversations from the same sender or channel with similar wording the same way.
 */
export interface Lesson {
  category: AiCategory;
  conversationId: string;
  /** The conversation's name as ClassifyInput.name has it. */
  conversationName: string;
  type: ConversationType;
  /** The author of the newest message by someone else than the member, when there is one. */
  senderId: string | null;
  senderName: string | null;
  /** Content words of the conversation's recent messages (lower case, stemmed by the classifier's own rules). */
  words: string[];
  /** Epoch ms. */
  at: number;
}

/** Something the catch-up assistant may do for the member, after asking. */
export type CatchupAction = {
  type: 'mark_read';
  conversationIds: string[];
  description: string;
  /** Set by the service when it keeps the proposal: the id a confirm button sends back (random). */
  id?: string;
  /** Each conversation is marked read up to the message shown when it was proposed, never a later one. */
  upTo?: Record<string, string>;
};
