/** The business constants of SPEC §9. Every number the product uses comes from here. */

export const REQUEST_TIMEOUT_MS = 30_000;
export const AI_CLASSIFY_TIMEOUT_MS = 120_000;
export const MAX_MESSAGE_LENGTH = 40_000;
export const MESSAGE_BOX_MIN_HEIGHT_PX = 96;
export const MESSAGE_BOX_MAX_HEIGHT_PX = 250;
export const TOAST_DEFAULT_MS = 3_000;
export const TOAST_CATEGORY_MS = 2_500;
export const MESSAGE_HIGHLIGHT_MS = 3_000;
export const PREVIEW_LENGTH = 120;
export const PREVIEW_LENGTH_DETAIL_OPEN = 80;
export const THREAD_TITLE_LENGTH = 50;
export const MEMBER_AVATARS_SHOWN = 3;
export const AVATAR_COLOUR_PAIRS = 26;
export const SEARCH_DEBOUNCE_MS = 300;
export const SEARCH_MIN_QUERY_LENGTH = 2;
export const SEARCH_DEFAULT_LIMIT = 20;
export const ASK_DEFAULTS = { max_sources: 5, temperature: 0.3, top_k: 10, verbose: false } as const;
export const AGGREGATE_CACHE_MS = 30_000;

export const LIVE_MAX_RECONNECT_ATTEMPTS = 10;
export const LIVE_BASE_DELAY_MS = 500;
export const LIVE_MAX_DELAY_MS = 30_000;
/** Random jitter up to this share of the delay is added. */
export const LIVE_JITTER_RATIO = 0.3;
/** The longest wait a server's `retry:` can ask of a live stream's client (issue 15 §2). */
export const LIVE_MAX_RETRY_HINT_MS = 60_000;
/**
 * A server that stops asks each open stream to come back after a random wait in [min, min + spread) ms: 1,000
 * clients return at about 100 a second, never most of them in one (issue 15 §2).
 */
export const LIVE_RESTART_RETRY_MS = { min: 1_000, spread: 10_000 } as const;
export const LIVE_CHECK_INTERVAL_MS = 5_000;
/** Server: a comment line keeps idle streams open through proxies. */
export const LIVE_HEARTBEAT_MS = 15_000;

export const NOTIFICATION_AUTO_CLOSE_MS = 5_000;
export const NOTIFICATION_TEXT_LIMIT = 100;
export const NOTIFICATION_PERMISSION_DELAY_MS = 2_000;
export const MARK_READ_GUARD_MS = 100;
export const DEFERRED_PENDING_APPLY_MS = 500;
export const MARK_READ_AFTER_REPLY_MS = 500;
export const VOICE_AUTO_SEND_SILENCE_MS = 1_500;
export const SPEECH_LANGUAGE = 'en-US';
export const WAITLIST_SUCCESS_CLOSE_MS = 2_000;
export const MISSING_VIEW_POSITION = 999;
export const DEFAULT_THEME = 'dark';
export const OAUTH_RECHECK_DELAY_MS = 100;
export const CATCHUP_INITIAL_QUESTION_DELAY_MS = 100;
export const ERROR_LOG_CAP = 50;
export const SLOW_OPERATION_MS = 1_000;

export const DEFAULT_ERROR_MESSAGE = 'An unexpected error occurred';
export const NO_TOKEN_MESSAGE = 'No authentication token found. Please log in again.';

/** Where the page keeps its session-local data (SPEC §3). */
export const STORAGE_KEYS = {
  /** Where earlier versions kept the session token: removed on start (the session is only in its HttpOnly cookie now). */
  legacyToken: 'sift_token',
  theme: 'theme',
  debug: 'debug',
  errorLog: 'sift_error_log',
  emptyStateImage: 'sift_empty_state_image',
  sortModePrefix: 'sift_sort_mode:',
} as const;
