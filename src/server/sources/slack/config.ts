/**
 * Slack mode's configuration, from the environment (README "Connecting Slack"):
 *   SLACK_CLIENT_ID + SLACK_CLIENT_SECRET  switch the server to Slack (both or neither)
 *   SLACK_APP_TOKEN (xapp-…)               live events through Socket Mode; without it, polling
 *   SLACK_API_URL                          Web API base (default https://slack.com/api/)
 *   SLACK_AUTHORIZE_URL                    OAuth v2 authorize page (default https://slack.com/oauth/v2/authorize)
 *   SIFT_PUBLIC_URL                        the origin of the redirect URI (default: the request's)
 *   SIFT_SECRET                            key of the stored tokens (default: <dataDir>/secret.key)
 *   SIFT_SECRET_PREVIOUS                   older secrets, comma-separated: read (and re-encrypted at startup), never written
 *   SIFT_SLACK_POLL_SECONDS                incremental sync period without Socket Mode (default 30, 0 = off)
 */

/**
 * The user scopes Sift asks for (README lists why each one is needed). Checked against the
 * `security` section of each method in Slack's OpenAPI description:
 * users.list → users:read; users.conversations / conversations.info / conversations.members →
 * *:read; conversations.history / .replies → *:history; conversations.mark → *:write;
 * chat.postMessage → chat:write (the user-token form of chat:write:user); users.info and bots.info →
 * users:read; usergroups.list → usergroups:read; emoji.list → emoji:read.
 */
export const SLACK_USER_SCOPES = [
  'channels:history',
  'channels:read',
  'channels:write',
  'groups:history',
  'groups:read',
  'groups:write',
  'im:history',
  'im:read',
  'im:write',
  'mpim:history',
  'mpim:read',
  'mpim:write',
  'users:read',
  'chat:write',
  'usergroups:read',
  'emoji:read',
] as const;

export interface RatePolicy {
  /** The longest wait for one Retry-After (an absurd value is cut to this). */
  maxWaitSeconds: number;
  /** The wait when a 429 carries no usable Retry-After. */
  defaultWaitSeconds: number;
  /** How many times one call is tried in all before the rate limit is an error. */
  maxAttempts: number;
}

export const DEFAULT_RATE_POLICY: RatePolicy = { maxWaitSeconds: 120, defaultWaitSeconds: 5, maxAttempts: 6 };

export interface SlackConfig {
  clientId: string;
  clientSecret: string;
  appToken?: string;
  apiUrl: string;
  authorizeUrl: string;
  publicUrl?: string;
  secret?: string;
  /** SIFT_SECRET_PREVIOUS: secrets whose stored tokens are still read, and re-encrypted under the current key at startup. */
  previousSecrets?: string[];
  pollSeconds: number;
  scopes: readonly string[];
  rate: RatePolicy;
  /** Messages of a conversation's history one sync keeps (newest first, paged). */
  historyLimit: number;
}

export const DEFAULT_SLACK_API_URL = 'https://slack.com/api/';
export const DEFAULT_SLACK_AUTHORIZE_URL = 'https://slack.com/oauth/v2/authorize';

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) URL, not ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL, not ${raw}`);
  return raw;
}

/** Slack mode's configuration, or null for demo mode; throws on a half or malformed configuration. */
export function slackConfigFromEnv(env: NodeJS.ProcessEnv): SlackConfig | null {
  const clientId = env.SLACK_CLIENT_ID?.trim() ?? '';
  const clientSecret = env.SLACK_CLIENT_SECRET?.trim() ?? '';
  if (!clientId && !clientSecret) return null;
  if (!clientId || !clientSecret) {
    throw new Error('Set both SLACK_CLIENT_ID and SLACK_CLIENT_SECRET for Slack mode, or neither for the demo workspace');
  }
  const appToken = env.SLACK_APP_TOKEN?.trim() || undefined;
  if (appToken && !appToken.startsWith('xapp-')) throw new Error('SLACK_APP_TOKEN must be an app-level token (xapp-…)');
  let apiUrl = httpUrl('SLACK_API_URL', env.SLACK_API_URL?.trim() || DEFAULT_SLACK_API_URL);
  if (!apiUrl.endsWith('/')) apiUrl += '/';
  const authorizeUrl = httpUrl('SLACK_AUTHORIZE_URL', env.SLACK_AUTHORIZE_URL?.trim() || DEFAULT_SLACK_AUTHORIZE_URL);
  const publicUrl = env.SIFT_PUBLIC_URL?.trim() ? httpUrl('SIFT_PUBLIC_URL', env.SIFT_PUBLIC_URL.trim()).replace(/\/+$/, '') : undefined;
  const rawPoll = env.SIFT_SLACK_POLL_SECONDS?.trim();
  const pollSeconds = rawPoll ? Number(rawPoll) : 30;
  if (!Number.isFinite(pollSeconds) || pollSeconds < 0) throw new Error(`SIFT_SLACK_POLL_SECONDS must be a non-negative number, not ${rawPoll}`);
  const config: SlackConfig = {
    clientId,
    clientSecret,
    apiUrl,
    authorizeUrl,
    pollSeconds,
    scopes: SLACK_USER_SCOPES,
    rate: DEFAULT_RATE_POLICY,
    historyLimit: 1000,
  };
  if (appToken) config.appToken = appToken;
  if (publicUrl) config.publicUrl = publicUrl;
  if (env.SIFT_SECRET) config.secret = env.SIFT_SECRET;
  const previousSecrets = (env.SIFT_SECRET_PREVIOUS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (previousSecrets.some((s) => s.length < 8)) throw new Error('SIFT_SECRET_PREVIOUS: each secret (comma-separated) must be at least 8 characters');
  if (previousSecrets.length > 0) config.previousSecrets = previousSecrets;
  return config;
}
