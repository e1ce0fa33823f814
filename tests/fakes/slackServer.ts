/**
 * A local server that speaks Slack's real protocols, for testing Sift's Slack connector through
 * Slack's official clients (`@slack/web-api` WebClient with `slackApiUrl: fake.apiUrl`, and
 * `@slack/socket-mode` SocketModeClient with `clientOptions: { slackApiUrl: fake.apiUrl }`).
 * node:http and ws only. The workspace it serves is generated deterministically
 * (tests/fakes/slackWorkspace.ts) and held in `fake.workspace`, which tests may read and mutate.
 *
 * Speaks:
 * - Web API, `POST /api/<method>` (form-urlencoded as WebClient sends it, or JSON) and GET with a
 *   query; the token from `Authorization: Bearer` or a `token` param. Answers `{ok: true, …}` or
 *   `{ok: false, error}` (HTTP 200), 429 + Retry-After when `rateLimit` says so. Methods:
 *   auth.test, auth.revoke, oauth.v2.access (authorization_code, and refresh_token when
 *   `tokenRotation`), users.list, users.info (also the Slack Connect people of other teams the
 *   workspace shares conversations with: not in users.list, their own team_id), users.conversations,
 *   conversations.list, conversations.info (any public channel, joined or not; `is_ext_shared`,
 *   `shared_team_ids`, `conversation_host_id` on shared channels), conversations.members,
 *   conversations.history, conversations.replies (messages as stored: blocks, attachments, files,
 *   bot_profile, user_profile, room, root…; a broadcast reply's ts names its thread),
 *   chat.postMessage, conversations.mark, apps.connections.open, bots.info (`bot`; app bots with
 *   `user_id`, webhook bots without, a deleted one), usergroups.list (objs_subteam; `include_users`,
 *   `include_count`, `include_disabled`), emoji.list (name → URL on this host, or `alias:name`;
 *   `cache_ts`).
 *   Errors: not_authed, invalid_auth, token_revoked, token_expired, not_allowed_token_type,
 *   missing_scope (+ needed/provided), channel_not_found, not_in_channel, is_archived, no_text,
 *   msg_too_long, user_not_found, bot_not_found, thread_not_found, invalid_cursor, invalid_types,
 *   invalid_ts_latest/oldest, invalid_timestamp, invalid_code, bad_redirect_uri,
 *   invalid_client_id, bad_client_secret, invalid_grant_type, invalid_refresh_token,
 *   unknown_method, ratelimited.
 *   Scopes are enforced per conversation type (channels:/groups:/im:/mpim: read, history, write;
 *   users:read (users.*, bots.info); usergroups:read; emoji:read; chat:write); `email` in profiles
 *   only with users:read.email. Responses carry `x-oauth-scopes` like Slack's. Cursors are opaque
 *   base64 (`user:U…`, `team:C…`, `next_ts:…`); `limit` defaults to 100 and is capped by `pageLimitMax`.
 * - The workspace (tests/fakes/slackWorkspace.ts) holds, beside its seeded chatter, what a real one
 *   has (unless `appPosts: false`): app and webhook posts in Slack's shapes (tests/fixtures/
 *   slackAppPosts.ts), a bots registry, a Slack Connect channel and DM, a guest and a deactivated
 *   poster, user groups, custom emoji, system subtypes, a tombstoned thread parent, a broadcast reply,
 *   a huddle, a /me message; `workspace.extras` names where each lives.
 * - OAuth v2: `GET /oauth/v2/authorize?client_id&scope&user_scope&redirect_uri&state` answers a
 *   plain HTML consent page (team, consenting user, requested user scopes) with an "Allow" and a
 *   "Cancel" button: GET forms to `redirect_uri?code=…&state=…` / `?error=access_denied&state=…`
 *   (each form also carries its full target URL in `data-url`). Codes are single-use, expire
 *   after 10 minutes, and remember client_id and redirect_uri. User tokens `xoxp-…`, or with
 *   `tokenRotation` `xoxe.xoxp-1-…` expiring after `accessTokenTtlSeconds` with a refresh token
 *   `xoxe-1-…` (single-use: a refresh answers a new access token and a new refresh token; the old
 *   access token stays valid until it expires). A bot token `xoxb-…` only when `scope` asked for
 *   bot scopes.
 * - Socket Mode: apps.connections.open (app token only) answers `ws://…/link/?ticket=…&app_id=…`;
 *   the WebSocket (single-use ticket) says `hello`, then delivers each event as an `events_api`
 *   envelope to one open connection (round-robin), queueing them while none is open. The client
 *   acknowledges with `{envelope_id}` (recorded in `acked`); an envelope not acknowledged within
 *   `ackTimeoutMs` (3 s) is re-sent once as a new envelope with the same event_id, retry_attempt 1,
 *   retry_reason 'timeout'. `sendDisconnect(reason)` sends Slack's `disconnect` message. The server
 *   pings every 10 s (the client answers pongs itself).
 *   Events: message (user posts, replies with thread_ts, any message object through `postMessage`:
 *   bot_message, app posts, file_share, thread_broadcast…; channel_join/leave, channel_name,
 *   channel_archive), message_changed, message_deleted, channel_marked / group_marked (private
 *   channels and MPIMs) / im_marked, member_joined_channel (with `inviter` from `addMember`),
 *   member_left_channel, channel_left / group_left (to the removed user, with actor_id),
 *   channel_archive / group_archive, channel_deleted / group_deleted, channel_rename / group_rename
 *   (`channel: {id, name, name_normalized, created, is_channel, is_mpim}`). Inner shapes as
 *   @slack/types and Slack's event pages give them. An event is delivered only when an authorized
 *   user (one who was issued a user token, or the member) is in the conversation (channel_left:
 *   only to the removed user); its `authorizations` names that user.
 * - `GET /avatars/<id>_<size>.png`: an SVG with the initials of a user (any team, or a Slack Connect
 *   person) or a bot (profile images and bot icons). `GET /emoji/<name>.png`: an SVG for a custom
 *   emoji of emoji.list.
 * - Several workspaces (`teams: n`): one app installed in n teams (`fake.teams`), each generated
 *   from seed + i with its own team id, name and domain; the member is the same person in each
 *   (same name and e-mail) under each team's own user id. The authorize page's workspace switcher
 *   (links in `nav#teams`, each the same page with Slack's `team` parameter) chooses the team the
 *   code, and so the token, is bound to (default: `setConsentTeam`, else the first). Every Web API
 *   method answers from its token's team, so another team's channel is channel_not_found; one app
 *   token and one Socket Mode link carry every team's events, each with its own team_id.
 *
 * Deliberately not: bot-token semantics beyond auth.test/users/conversations reads and posting;
 * blocks/attachments validation or rendering (stored and answered as given); files.* methods and
 * file downloads (file objects live only inside messages; their URLs answer 404), reactions.*,
 * pins.*, search, usergroups.users.list, team.info, conversations.open/join/create/kick/archive/
 * rename/invite as Web API methods (the handle does them), a channel_join message on addMember;
 * message_replied / parent message_changed on replies; Slack Connect invitations, `is_stranger`,
 * external teams' own users.list; enterprise grid; HTTP Events API delivery (request URLs, signing
 * secrets); user_change / emoji_changed / subteam_* events; per-method rate-limit tiers (only the
 * scripted `rateLimit`); scopes on the app token. IDs are legacy-style (private channels and MPIMs
 * `G…`, `is_group: true`).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket } from 'ws';
import {
  compareTs,
  generateWorkspace,
  microsFromTs,
  NEVER_READ,
  randomClientMsgId,
  refreshThreadParent,
  tsFromMicros,
  type FakeConversation,
  type FakeConversationKind,
  type FakeMessage,
  type FakeUser,
  type FakeWorkspace,
} from './slackWorkspace';

export type {
  FakeBot,
  FakeBotProfile,
  FakeConversation,
  FakeConversationKind,
  FakeExtras,
  FakeMessage,
  FakeProfile,
  FakeReaction,
  FakeUser,
  FakeUsergroup,
  FakeWorkspace,
} from './slackWorkspace';

export interface FakeSlackOptions {
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Deterministic workspace (default 1): same seed → same users, conversations, texts, threads and
   *  read marks; timestamps are relative to `now`, so fix `now` too for a byte-identical workspace. */
  seed?: number;
  /** small: 8 users, 12 conversations; default: 40 users, 273 conversations. */
  size?: 'small' | 'default';
  /** ms; the seeded messages span the 14 days before it. Default Date.now(). */
  now?: number;
  /** Default '1111.2222'. */
  clientId?: string;
  /** Default 'fake-secret'. */
  clientSecret?: string;
  /** Default 'xapp-1-A…-1-fake'. */
  appToken?: string;
  /** User tokens expire and come with a refresh token. */
  tokenRotation?: boolean;
  /** Default 43200. */
  accessTokenTtlSeconds?: number;
  /** Max page size honoured for cursors (default 200). */
  pageLimitMax?: number;
  /** Re-send an unacknowledged Socket Mode envelope after this long (default 3000 ms). */
  ackTimeoutMs?: number;
  /** Workspaces (teams) the app is installed in (default 1). Team i is generated from seed + i, with
   *  its own id, name and domain; the member is the same person in each, under each team's own user id. */
  teams?: number;
  /** The real-Slack content (app posts, bots, Slack Connect, user groups, emoji…; see
   *  slackWorkspace.ts `FakeExtras`), default true. */
  appPosts?: boolean;
}

export interface FakeSlackCall {
  method: string;
  /** Decoded params, without `token`. */
  params: Record<string, string>;
  token: string | null;
  /** The team of the token (null: no token, an unknown one, or the app-level token). */
  team: string | null;
  /** Date.now() when the request arrived. */
  at: number;
  status: number;
}

/** A Socket Mode envelope the server sent. */
export interface FakeEnvelope {
  envelope_id: string;
  event_id: string;
  event_type: string;
  retry_attempt: number;
  at: number;
}

/** One workspace the fake serves. */
export interface FakeTeam {
  team: { id: string; name: string; domain: string };
  /** The team's content, as Slack holds it. */
  workspace: FakeWorkspace;
  /** The member in this team: the same person in every team, under this team's user id. */
  member: FakeUser;
}

export interface FakeSlack {
  /** http://127.0.0.1:PORT */
  url: string;
  /** `${url}/api/` — WebClient's slackApiUrl. */
  apiUrl: string;
  /** `${url}/oauth/v2/authorize` */
  authorizeUrl: string;
  clientId: string;
  clientSecret: string;
  appToken: string;
  /** The first team (`teams[0]`). */
  team: { id: string; name: string; domain: string };
  /** The first team's content, as Slack holds it. */
  workspace: FakeWorkspace;
  /** The first team's member: who consents on its authorize page by default (its first human user). */
  member: FakeUser;
  /** Every team, the first one first. */
  teams: FakeTeam[];
  /** Who consents on the authorize page of that user's team (default: the team's member). */
  setConsentUser(userId: string): void;
  /** The team the authorize page shows when its `team` parameter does not choose one (default: the first). */
  setConsentTeam(teamId: string): void;
  /** Posts as a user (as if from Slack's own client): stores it and delivers the Socket Mode events. */
  post(userId: string, channel: string, text: string, options?: { thread_ts?: string }): { ts: string };
  /** Edits a message (message_changed event). */
  edit(channel: string, ts: string, text: string): void;
  /** Deletes a message (message_deleted event); a thread parent with replies becomes a tombstone. */
  remove(channel: string, ts: string): void;
  /** member_joined_channel + a channel_join message. */
  join(userId: string, channel: string): void;
  /** member_left_channel + a channel_leave message. */
  leave(userId: string, channel: string): void;
  /**
   * Posts any message object as Slack stores it (app and webhook posts, file shares, huddles…): `type`
   * defaults to 'message' and `ts` to a fresh one; a `thread_ts` naming another message makes it a
   * reply (a `thread_broadcast` reply is also shown in the channel). Delivers its `message` event.
   */
  postMessage(channel: string, message: Record<string, unknown>): { ts: string };
  /** conversations.kick: removes the user; member_left_channel to the remaining authorized members, and
   *  channel_left / group_left (with actor_id) to the removed user when authorized. No message. */
  kick(userId: string, channel: string, by?: string): void;
  /** Archives a channel: the channel_archive message, then channel_archive / group_archive. */
  archive(channel: string, by?: string): void;
  /** Deletes a channel: channel_deleted / group_deleted, and the channel is gone from every list. */
  deleteChannel(channel: string, by?: string): void;
  /** Renames a channel: a channel_name message, then channel_rename / group_rename. */
  rename(channel: string, name: string, by?: string): void;
  /** conversations.invite: adds the user (member_joined_channel, with `inviter` when given); no message.
   *  The channel then appears in users.conversations for them. */
  addMember(userId: string, channel: string, inviter?: string): void;
  /** The next `times` calls of `method` answer HTTP 429 with this Retry-After (null: no header). */
  rateLimit(method: string, times: number, retryAfter: string | number | null): void;
  /** Later calls with this token answer {ok:false, error:'token_revoked'}. */
  revoke(token: string): void;
  /** Makes a token expire now (token_expired), as if its expires_in had passed. */
  expireToken(token: string): void;
  /** A user token without going through OAuth (default: the member, all user scopes). */
  issueToken(userId?: string, scopes?: string[]): string;
  /** The next Socket Mode event is sent twice (same event_id, the second with retry_attempt 1). */
  duplicateNextEvent(): void;
  /** Sends Slack's `{type:'disconnect', reason}` to every open Socket Mode connection. */
  sendDisconnect(reason?: 'refresh_requested' | 'warning' | 'link_disabled'): void;
  /** Every Web API call. */
  calls: FakeSlackCall[];
  /** Open Socket Mode connections. */
  sockets(): number;
  /** Envelope ids acknowledged by the client. */
  acked: string[];
  /** Envelopes sent over Socket Mode. */
  envelopes: FakeEnvelope[];
  close(): Promise<void>;
}

/** Every user scope the fake knows (what `issueToken` grants by default). */
export const ALL_USER_SCOPES = [
  'channels:read',
  'groups:read',
  'im:read',
  'mpim:read',
  'channels:history',
  'groups:history',
  'im:history',
  'mpim:history',
  'channels:write',
  'groups:write',
  'im:write',
  'mpim:write',
  'users:read',
  'users:read.email',
  'chat:write',
  'usergroups:read',
  'emoji:read',
];

const READ_SCOPE: Record<FakeConversationKind, string> = { public_channel: 'channels:read', private_channel: 'groups:read', mpim: 'mpim:read', im: 'im:read' };
const HISTORY_SCOPE: Record<FakeConversationKind, string> = {
  public_channel: 'channels:history',
  private_channel: 'groups:history',
  mpim: 'mpim:history',
  im: 'im:history',
};
const WRITE_SCOPE: Record<FakeConversationKind, string> = {
  public_channel: 'channels:write',
  private_channel: 'groups:write',
  mpim: 'mpim:write',
  im: 'im:write',
};
const CHANNEL_TYPE: Record<FakeConversationKind, string> = { public_channel: 'channel', private_channel: 'group', mpim: 'mpim', im: 'im' };
const CODE_TTL_MS = 10 * 60 * 1000;
const MAX_TS = '9999999999.999999';

interface TokenRecord {
  token: string;
  teamId: string;
  kind: 'user' | 'bot' | 'app';
  userId: string;
  scopes: string[];
  /** ms */
  expiresAt?: number;
  revoked: boolean;
}

interface CodeRecord {
  clientId: string;
  teamId: string;
  userId: string;
  userScopes: string[];
  botScopes: string[];
  redirectUri: string | null;
  createdAt: number;
  used: boolean;
}

class ApiError extends Error {
  constructor(
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(error);
  }
}

type Params = Record<string, string>;
type Handler = (params: Params, auth: TokenRecord, t: TeamState) => Record<string, unknown>;

/** One team's state inside the fake. */
interface TeamState {
  workspace: FakeWorkspace;
  team: { id: string; name: string; domain: string };
  member: FakeUser;
  consentUser: FakeUser;
  /** Users who were issued user tokens, in order (events are delivered for them). */
  installed: string[];
  botUserId: string;
}

/** Names and domains of the teams after the first. */
const OTHER_TEAMS: Array<[string, string]> = [
  ['Globex Labs', 'globex-labs'],
  ['Initech', 'initech'],
  ['Umbrella Research', 'umbrella-research'],
  ['Hooli', 'hooli'],
  ['Stark Industries', 'stark-industries'],
];

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const encodeCursor = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
function decodeCursor(cursor: string, prefix: string): string {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  if (encodeCursor(text) !== cursor || !text.startsWith(`${prefix}:`)) throw new ApiError('invalid_cursor');
  return text.slice(prefix.length + 1);
}

const splitList = (s: string | undefined): string[] => (s ?? '').split(/[\s,]+/).filter(Boolean);
const truthy = (s: string | undefined): boolean => s === 'true' || s === '1';
const nowSec = (): number => Math.floor(Date.now() / 1000);
const token = (prefix: string): string => `${prefix}${randomBytes(12).toString('hex')}`;

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const host = options.host ?? '127.0.0.1';
  const clientId = options.clientId ?? '1111.2222';
  const clientSecret = options.clientSecret ?? 'fake-secret';
  const pageLimitMax = options.pageLimitMax ?? 200;
  const ackTimeoutMs = options.ackTimeoutMs ?? 3000;
  const ttlSeconds = options.accessTokenTtlSeconds ?? 43200;
  const verificationToken = 'fake-verification-token';

  const server = createServer();
  const wss = new WebSocketServer({ noServer: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const workspace = generateWorkspace({ seed: options.seed, size: options.size, now: options.now, baseUrl: url, appPosts: options.appPosts });
  /** The one app: installed in every team, one app token and one Socket Mode link for all of them. */
  const appId = workspace.appId;
  const firstMember = workspace.users.find((u) => u.id === workspace.memberId) as FakeUser;
  const workspaces = [workspace];
  for (let i = 1; i < Math.max(1, Math.floor(options.teams ?? 1)); i++) {
    const [name, domain] = OTHER_TEAMS[(i - 1) % OTHER_TEAMS.length] as [string, string];
    const lap = Math.floor((i - 1) / OTHER_TEAMS.length);
    const other = generateWorkspace({
      seed: (options.seed ?? 1) + i,
      size: options.size,
      now: options.now,
      baseUrl: url,
      team: lap ? { name: `${name} ${lap + 1}`, domain: `${domain}-${lap + 1}` } : { name, domain },
      member: { first: firstMember.profile.first_name, last: firstMember.profile.last_name, email: firstMember.profile.email },
      appPosts: options.appPosts,
    });
    other.appId = appId;
    workspaces.push(other);
  }
  const teams: TeamState[] = workspaces.map((w) => {
    const member = w.users.find((u) => u.id === w.memberId) as FakeUser;
    return {
      workspace: w,
      team: w.team,
      member,
      consentUser: member,
      installed: [],
      botUserId: `U0APPBOT${(w === workspace ? appId : w.team.id).slice(1, 5)}`,
    };
  });
  // Ids are unique across teams (the handle's methods find a conversation or user by id alone).
  const allIds = workspaces.flatMap((w) => [w.team.id, ...w.users.filter((u) => u.id !== 'USLACKBOT').map((u) => u.id), ...w.conversations.map((c) => c.id)]);
  if (new Set(allIds).size !== allIds.length) throw new Error('fake Slack: ids collide across teams; choose another seed');
  const first = teams[0] as TeamState;
  const team = workspace.team;
  const appToken = options.appToken ?? `xapp-1-${appId}-1-fake${randomBytes(8).toString('hex')}`;
  const teamById = (id: string | undefined): TeamState | undefined => teams.find((t) => t.team.id === id);
  const userIn = (t: TeamState, id: string): FakeUser | undefined => t.workspace.users.find((u) => u.id === id);
  /** A user as users.info sees them from a team: its own users, and the Slack Connect people it shares conversations with. */
  const visibleUser = (t: TeamState, id: string): FakeUser | undefined => userIn(t, id) ?? t.workspace.externalUsers.find((u) => u.id === id);
  /** The team holding a user (Slackbot: the first team). */
  const teamOfUser = (id: string): TeamState | undefined => teams.find((t) => userIn(t, id));
  /** The team holding a conversation object. */
  const teamOf = (c: FakeConversation): TeamState => teams.find((t) => t.workspace.conversations.includes(c)) ?? first;
  const memberUser = first.member;
  let consentTeam = first;

  const tokens = new Map<string, TokenRecord>();
  tokens.set(appToken, { token: appToken, teamId: team.id, kind: 'app', userId: '', scopes: ['connections:write'], revoked: false });
  const refreshTokens = new Map<string, { teamId: string; userId: string; scopes: string[] }>();
  const codes = new Map<string, CodeRecord>();
  const rateLimits = new Map<string, Array<string | number | null>>();
  const calls: FakeSlackCall[] = [];

  // ---------------------------------------------------------------- time stamps
  let lastMicros = 0;
  for (const c of workspaces.flatMap((w) => w.conversations)) {
    for (const m of c.messages) lastMicros = Math.max(lastMicros, microsFromTs(m.ts));
    for (const rs of Object.values(c.replies)) for (const r of rs) lastMicros = Math.max(lastMicros, microsFromTs(r.ts));
  }
  const nextTs = (): string => {
    lastMicros = Math.max(lastMicros + 1, Date.now() * 1000);
    return tsFromMicros(lastMicros);
  };

  // ---------------------------------------------------------------- tokens
  const issueUserToken = (t: TeamState, userId: string, scopes: string[]): { access_token: string; refresh_token?: string; expires_in?: number } => {
    if (!t.installed.includes(userId)) t.installed.push(userId);
    const teamId = t.team.id;
    if (options.tokenRotation) {
      const access = token(`xoxe.xoxp-1-`);
      const refresh = token('xoxe-1-');
      tokens.set(access, { token: access, teamId, kind: 'user', userId, scopes, expiresAt: Date.now() + ttlSeconds * 1000, revoked: false });
      refreshTokens.set(refresh, { teamId, userId, scopes });
      return { access_token: access, refresh_token: refresh, expires_in: ttlSeconds };
    }
    const access = token(`xoxp-${teamId.slice(1)}-${userId.slice(1)}-`);
    tokens.set(access, { token: access, teamId, kind: 'user', userId, scopes, revoked: false });
    return { access_token: access };
  };

  // ---------------------------------------------------------------- lookups
  const findConversation = (t: TeamState, id: string | undefined): FakeConversation | undefined => t.workspace.conversations.find((c) => c.id === id);
  const canSee = (c: FakeConversation, userId: string): boolean => c.kind === 'public_channel' || c.members.includes(userId);
  /** The `channel` param's conversation in the token's team (another team's conversation is not found). */
  const conversationFor = (params: Params, auth: TokenRecord, t: TeamState): FakeConversation => {
    if (!params.channel) throw new ApiError('channel_not_found');
    const c = findConversation(t, params.channel);
    if (!c || !canSee(c, auth.userId)) throw new ApiError('channel_not_found');
    return c;
  };
  const requireScope = (auth: TokenRecord, ...anyOf: string[]): void => {
    if (auth.kind === 'app') return;
    if (!anyOf.some((s) => auth.scopes.includes(s))) {
      throw new ApiError('missing_scope', { needed: anyOf[0], provided: auth.scopes.join(',') });
    }
  };
  const limitOf = (params: Params, fallback = 100): number => {
    const n = Number.parseInt(params.limit ?? '', 10);
    return Math.max(1, Math.min(Number.isFinite(n) && n > 0 ? n : fallback, pageLimitMax));
  };
  /** A page of `items`; the cursor names the first item of the next page (`prefix:key`). */
  const paginate = <T>(items: T[], params: Params, prefix: string, keyOf: (t: T) => string, locate?: (items: T[], key: string) => number) => {
    let start = 0;
    if (params.cursor) {
      const key = decodeCursor(params.cursor, prefix);
      start = locate ? locate(items, key) : items.findIndex((t) => keyOf(t) === key);
      if (start < 0) throw new ApiError('invalid_cursor');
    }
    const limit = limitOf(params);
    const page = items.slice(start, start + limit);
    const following = items[start + limit];
    return { page, next: following === undefined ? '' : encodeCursor(`${prefix}:${keyOf(following)}`) };
  };

  // ---------------------------------------------------------------- shapes
  const userObject = (u: FakeUser, auth: TokenRecord): FakeUser => {
    if (auth.scopes.includes('users:read.email') || !u.profile.email) return u;
    const profile = { ...u.profile };
    delete profile.email;
    return { ...u, profile };
  };
  const unreadCounts = (c: FakeConversation, userId: string) => {
    const lastRead = c.lastRead[userId] ?? NEVER_READ;
    const unread = c.messages.filter((m) => !m.hidden && compareTs(m.ts, lastRead) > 0);
    const display = unread.filter((m) => m.user !== userId && m.subtype !== 'channel_join' && m.subtype !== 'channel_leave' && m.subtype !== 'tombstone');
    return { unread_count: unread.length, unread_count_display: display.length };
  };
  const conversationObject = (c: FakeConversation, viewer: string, extra: { info?: boolean } = {}): Record<string, unknown> => {
    const t = teamOf(c);
    const team = t.team;
    if (c.kind === 'im') {
      const other = c.members.find((id) => id !== viewer) ?? c.user ?? '';
      const o: Record<string, unknown> = {
        id: c.id,
        created: c.created,
        is_archived: false,
        is_im: true,
        is_org_shared: false,
        context_team_id: team.id,
        updated: c.created * 1000,
        user: other,
        is_user_deleted: userIn(t, other)?.deleted ?? false,
        priority: 0,
      };
      if (extra.info && c.members.includes(viewer)) {
        o.last_read = c.lastRead[viewer] ?? NEVER_READ;
        const latest = c.messages.filter((m) => !m.hidden).at(-1);
        if (latest) o.latest = latest;
        Object.assign(o, unreadCounts(c, viewer));
        o.is_open = true;
      }
      return o;
    }
    const isPrivate = c.kind !== 'public_channel';
    const o: Record<string, unknown> = {
      id: c.id,
      name: c.name,
      is_channel: c.kind === 'public_channel',
      is_group: isPrivate,
      is_im: false,
      is_mpim: c.kind === 'mpim',
      is_private: isPrivate,
      created: c.created,
      is_archived: c.is_archived,
      is_general: c.is_general,
      unlinked: 0,
      name_normalized: c.name,
      is_shared: c.shared !== undefined,
      is_org_shared: false,
      is_pending_ext_shared: false,
      pending_shared: [],
      context_team_id: team.id,
      updated: c.created * 1000,
      parent_conversation: null,
      creator: c.creator,
      is_ext_shared: c.shared !== undefined,
      shared_team_ids: c.shared?.teamIds ?? [team.id],
      ...(c.shared ? { conversation_host_id: c.shared.host } : {}),
      pending_connected_team_ids: [],
      is_member: c.members.includes(viewer),
      topic: c.topic,
      purpose: c.purpose,
      previous_names: [],
      num_members: c.members.length,
    };
    if (extra.info && c.members.includes(viewer)) o.last_read = c.lastRead[viewer] ?? NEVER_READ;
    return o;
  };

  // ---------------------------------------------------------------- Socket Mode
  interface LiveSocket {
    ws: WebSocket;
    ping: NodeJS.Timeout;
  }
  const live: LiveSocket[] = [];
  const tickets = new Set<string>();
  const acked: string[] = [];
  const envelopes: FakeEnvelope[] = [];
  const queue: Array<Record<string, unknown>> = [];
  const timers = new Set<NodeJS.Timeout>();
  let roundRobin = 0;
  let duplicateNext = false;

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const transmit = (envelope: Record<string, unknown>): void => {
    const open = live.filter((s) => s.ws.readyState === WebSocket.OPEN);
    if (open.length === 0) {
      queue.push(envelope);
      return;
    }
    const socket = open[roundRobin++ % open.length] as LiveSocket;
    const payload = envelope.payload as { event_id: string; event: { type: string } };
    envelopes.push({
      envelope_id: envelope.envelope_id as string,
      event_id: payload.event_id,
      event_type: payload.event.type,
      retry_attempt: envelope.retry_attempt as number,
      at: Date.now(),
    });
    socket.ws.send(JSON.stringify(envelope));
    if (envelope.retry_attempt === 0) {
      later(ackTimeoutMs, () => {
        if (!acked.includes(envelope.envelope_id as string) && !closed) transmit(retryOf(envelope));
      });
    }
  };
  const retryOf = (envelope: Record<string, unknown>): Record<string, unknown> => ({
    ...envelope,
    envelope_id: randomUUID(),
    retry_attempt: 1,
    retry_reason: 'timeout',
  });
  /** Delivers an event if an authorized user can see it (`asUser` or the first installed member). */
  const deliver = (c: FakeConversation, event: Record<string, unknown>, asUser?: string): void => {
    const { team, installed, member } = teamOf(c);
    const candidates = [...installed, member.id];
    const userId = asUser !== undefined ? (candidates.includes(asUser) ? asUser : undefined) : candidates.find((id) => c.members.includes(id));
    if (!userId) return;
    const eventTime = Math.floor(microsFromTs(String(event.event_ts ?? nextTs())) / 1e6);
    const envelope: Record<string, unknown> = {
      envelope_id: randomUUID(),
      payload: {
        token: verificationToken,
        team_id: team.id,
        context_team_id: team.id,
        context_enterprise_id: null,
        api_app_id: appId,
        event,
        type: 'event_callback',
        event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
        event_time: eventTime,
        authorizations: [{ enterprise_id: null, team_id: team.id, user_id: userId, is_bot: false, is_enterprise_install: false }],
        authed_users: [userId],
        is_ext_shared_channel: false,
        event_context: `4-${Buffer.from(JSON.stringify({ cid: c.id, tid: team.id })).toString('base64url')}`,
      },
      type: 'events_api',
      accepts_response_payload: false,
      retry_attempt: 0,
      retry_reason: '',
    };
    transmit(envelope);
    if (duplicateNext) {
      duplicateNext = false;
      transmit(retryOf(envelope));
    }
  };
  const messageEvent = (c: FakeConversation, m: FakeMessage): Record<string, unknown> => ({
    ...m,
    channel: c.id,
    event_ts: m.ts,
    channel_type: CHANNEL_TYPE[c.kind],
  });

  wss.on('connection', (ws: WebSocket) => {
    const socket: LiveSocket = { ws, ping: setInterval(() => ws.readyState === WebSocket.OPEN && ws.ping(), 10_000) };
    live.push(socket);
    ws.on('message', (data) => {
      try {
        const message = JSON.parse(data.toString()) as { envelope_id?: unknown };
        if (typeof message.envelope_id === 'string') acked.push(message.envelope_id);
      } catch {
        // Slack ignores what it cannot parse.
      }
    });
    ws.on('close', () => {
      clearInterval(socket.ping);
      live.splice(live.indexOf(socket), 1);
    });
    ws.on('error', () => undefined);
    const open = live.filter((s) => s.ws.readyState === WebSocket.OPEN).length;
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: open,
        debug_info: { host: `applink-fake-${port}`, build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: appId },
      }),
    );
    for (const envelope of queue.splice(0)) transmit(envelope);
  });

  server.on('upgrade', (req: IncomingMessage, duplex: Duplex, head: Buffer) => {
    const u = new URL(req.url ?? '/', url);
    const ticket = u.searchParams.get('ticket') ?? '';
    if (u.pathname !== '/link/' || !tickets.delete(ticket)) {
      duplex.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, duplex, head, (ws) => wss.emit('connection', ws, req));
  });

  // ---------------------------------------------------------------- workspace changes
  const postAs = (userId: string, c: FakeConversation, text: string, threadTs?: string, extra: Partial<FakeMessage> = {}): FakeMessage => {
    const { team } = teamOf(c);
    const author = userIn(teamOf(c), userId);
    const ts = nextTs();
    const message: FakeMessage = author?.is_bot
      ? { type: 'message', subtype: 'bot_message', ts, text, bot_id: author.profile.bot_id ?? 'B0000000000', username: author.real_name, ...extra }
      : { type: 'message', ts, user: userId, text, team: team.id, client_msg_id: randomClientMsgId(), ...extra };
    let parent: FakeMessage | undefined;
    if (threadTs) {
      parent = c.messages.find((m) => m.ts === threadTs);
      if (!parent) {
        // A reply's ts: attach to its thread.
        const owner = Object.entries(c.replies).find(([, rs]) => rs.some((r) => r.ts === threadTs));
        if (owner) parent = c.messages.find((m) => m.ts === owner[0]);
      }
    }
    if (parent) {
      message.thread_ts = parent.ts;
      if (parent.user) message.parent_user_id = parent.user;
      (c.replies[parent.ts] ??= []).push(message);
      refreshThreadParent(c, parent.ts);
    } else {
      c.messages.push(message);
    }
    deliver(c, messageEvent(c, message));
    return message;
  };
  /** A system message (channel_name, channel_archive…): no client_msg_id, as Slack writes them. */
  const postSystem = (userId: string, c: FakeConversation, subtype: string, text: string, extra: Partial<FakeMessage> = {}): FakeMessage => {
    const message: FakeMessage = { type: 'message', subtype, ts: nextTs(), user: userId, text, team: teamOf(c).team.id, ...extra };
    c.messages.push(message);
    deliver(c, messageEvent(c, message));
    return message;
  };
  /** A conversation of any team, by id. */
  const conversationOrThrow = (id: string): FakeConversation => {
    const c = teams.map((t) => findConversation(t, id)).find((x) => x !== undefined);
    if (!c) throw new Error(`fake Slack: no conversation ${id}`);
    return c;
  };
  const locateMessage = (c: FakeConversation, ts: string): { message: FakeMessage; list: FakeMessage[]; parentTs?: string } => {
    const top = c.messages.find((m) => m.ts === ts);
    if (top) return { message: top, list: c.messages };
    for (const [parentTs, rs] of Object.entries(c.replies)) {
      const r = rs.find((x) => x.ts === ts);
      if (r) return { message: r, list: rs, parentTs };
    }
    throw new Error(`fake Slack: no message ${ts} in ${c.id}`);
  };

  const markEventType = (c: FakeConversation): string => (c.kind === 'public_channel' ? 'channel_marked' : c.kind === 'im' ? 'im_marked' : 'group_marked');

  // ---------------------------------------------------------------- Web API methods
  const methods: Record<string, { auth: 'user' | 'app' | 'none'; run: Handler }> = {
    'auth.test': {
      auth: 'user',
      run: (_p, auth, t) => {
        const u = userIn(t, auth.userId);
        return {
          url: `${url}/`,
          team: t.team.name,
          user: u?.name ?? 'bot',
          team_id: t.team.id,
          user_id: auth.userId,
          ...(auth.kind === 'bot' ? { bot_id: 'B0APPBOT', is_enterprise_install: false } : { is_enterprise_install: false }),
        };
      },
    },
    'auth.revoke': {
      auth: 'user',
      run: (p, auth) => {
        if (truthy(p.test)) return { revoked: false };
        auth.revoked = true;
        return { revoked: true };
      },
    },
    'users.list': {
      auth: 'user',
      run: (p, auth, t) => {
        requireScope(auth, 'users:read');
        const { page, next } = paginate(t.workspace.users, p, 'user', (u) => u.id);
        return { members: page.map((u) => userObject(u, auth)), cache_ts: nowSec(), response_metadata: { next_cursor: next } };
      },
    },
    'users.info': {
      auth: 'user',
      run: (p, auth, t) => {
        requireScope(auth, 'users:read');
        const u = visibleUser(t, p.user ?? '');
        if (!u) throw new ApiError('user_not_found');
        return { user: userObject(u, auth) };
      },
    },
    'users.conversations': {
      auth: 'user',
      run: (p, auth, t) => {
        const types = conversationTypes(p, auth);
        const subject = p.user || auth.userId;
        if (!userIn(t, subject)) throw new ApiError('user_not_found');
        const list = t.workspace.conversations.filter(
          (c) => types.includes(c.kind) && c.members.includes(subject) && canSee(c, auth.userId) && !(truthy(p.exclude_archived) && c.is_archived),
        );
        const { page, next } = paginate(list, p, 'team', (c) => c.id);
        return { channels: page.map((c) => conversationObject(c, auth.userId)), response_metadata: { next_cursor: next } };
      },
    },
    'conversations.list': {
      auth: 'user',
      run: (p, auth, t) => {
        const types = conversationTypes(p, auth);
        const list = t.workspace.conversations.filter(
          (c) => types.includes(c.kind) && canSee(c, auth.userId) && !(truthy(p.exclude_archived) && c.is_archived),
        );
        const { page, next } = paginate(list, p, 'team', (c) => c.id);
        return { channels: page.map((c) => conversationObject(c, auth.userId)), response_metadata: { next_cursor: next } };
      },
    },
    'conversations.info': {
      auth: 'user',
      run: (p, auth, t) => {
        const c = conversationFor(p, auth, t);
        requireScope(auth, READ_SCOPE[c.kind]);
        const channel = conversationObject(c, auth.userId, { info: true });
        if (!truthy(p.include_num_members)) delete channel.num_members;
        return { channel };
      },
    },
    'conversations.members': {
      auth: 'user',
      run: (p, auth, t) => {
        const c = conversationFor(p, auth, t);
        requireScope(auth, READ_SCOPE[c.kind]);
        const { page, next } = paginate(c.members, p, 'user_id', (id) => id);
        return { members: page, response_metadata: { next_cursor: next } };
      },
    },
    'conversations.history': {
      auth: 'user',
      run: (p, auth, t) => {
        const c = conversationFor(p, auth, t);
        requireScope(auth, HISTORY_SCOPE[c.kind]);
        const { oldest, latest } = range(p);
        const inclusive = truthy(p.inclusive);
        const list = c.messages.filter((m) => inRange(m.ts, oldest, latest, inclusive)).sort((a, b) => compareTs(b.ts, a.ts));
        const { page, next } = paginate(
          list,
          p,
          'next_ts',
          (m) => m.ts,
          (items, key) => {
            if (Number.isNaN(microsFromTs(key))) return -1;
            const i = items.findIndex((m) => compareTs(m.ts, key) <= 0);
            return i < 0 ? items.length : i;
          },
        );
        return {
          messages: page,
          has_more: next !== '',
          pin_count: 0,
          channel_actions_ts: null,
          channel_actions_count: 0,
          response_metadata: { next_cursor: next },
        };
      },
    },
    'conversations.replies': {
      auth: 'user',
      run: (p, auth, t) => {
        const c = conversationFor(p, auth, t);
        requireScope(auth, HISTORY_SCOPE[c.kind]);
        if (!p.ts) throw new ApiError('thread_not_found');
        let parent = c.messages.find((m) => m.ts === p.ts);
        // A broadcast reply is also in the channel: its ts names its thread.
        if (parent?.thread_ts && parent.thread_ts !== parent.ts) parent = c.messages.find((m) => m.ts === parent?.thread_ts);
        if (!parent) {
          const owner = Object.entries(c.replies).find(([, rs]) => rs.some((r) => r.ts === p.ts));
          parent = owner ? c.messages.find((m) => m.ts === owner[0]) : undefined;
        }
        if (!parent) throw new ApiError('thread_not_found');
        const { oldest, latest } = range(p);
        const inclusive = truthy(p.inclusive);
        const replies = (c.replies[parent.ts] ?? []).filter((m) => inRange(m.ts, oldest, latest, inclusive));
        const list = [parent, ...replies];
        const { page, next } = paginate(
          list,
          p,
          'next_ts',
          (m) => m.ts,
          (items, key) => {
            if (Number.isNaN(microsFromTs(key))) return -1;
            const i = items.findIndex((m, index) => index > 0 && compareTs(m.ts, key) >= 0);
            return i < 0 ? items.length : i;
          },
        );
        return { messages: page, has_more: next !== '', response_metadata: { next_cursor: next } };
      },
    },
    'chat.postMessage': {
      auth: 'user',
      run: (p, auth, t) => {
        requireScope(auth, 'chat:write', 'chat:write:user', 'chat:write:bot');
        const target = p.channel ?? '';
        let c = findConversation(t, target);
        if (!c && target) {
          const name = target.replace(/^#/, '');
          c = t.workspace.conversations.find((x) => x.kind !== 'im' && x.name === name && canSee(x, auth.userId));
          // A user id: their IM with the poster.
          c ??= t.workspace.conversations.find((x) => x.kind === 'im' && x.members.includes(auth.userId) && x.members.includes(target));
        }
        if (!c || !canSee(c, auth.userId)) throw new ApiError('channel_not_found');
        if (c.is_archived) throw new ApiError('is_archived');
        if (!c.members.includes(auth.userId)) throw new ApiError('not_in_channel');
        const text = p.text ?? '';
        if (!text && !p.blocks && !p.attachments) throw new ApiError('no_text');
        if (text.length > 40_000) throw new ApiError('msg_too_long');
        const extra: Partial<FakeMessage> & Record<string, unknown> = {};
        for (const key of ['blocks', 'attachments'] as const) {
          if (p[key]) {
            try {
              extra[key] = JSON.parse(p[key] as string);
            } catch {
              throw new ApiError('invalid_blocks');
            }
          }
        }
        const message = postAs(auth.userId, c, text, p.thread_ts || undefined, extra as Partial<FakeMessage>);
        return { channel: c.id, ts: message.ts, message: { ...message } };
      },
    },
    'conversations.mark': {
      auth: 'user',
      run: (p, auth, t) => {
        const c = conversationFor(p, auth, t);
        requireScope(auth, WRITE_SCOPE[c.kind]);
        if (!p.ts || Number.isNaN(microsFromTs(p.ts))) throw new ApiError('invalid_timestamp');
        if (!c.members.includes(auth.userId)) throw new ApiError('not_in_channel');
        markRead(c, auth.userId, p.ts);
        return {};
      },
    },
    'bots.info': {
      auth: 'user',
      run: (p, auth, t) => {
        requireScope(auth, 'users:read');
        const b = t.workspace.bots.find((x) => x.id === p.bot);
        if (!b) throw new ApiError('bot_not_found');
        return { bot: { ...b, icons: { ...b.icons } } };
      },
    },
    'usergroups.list': {
      auth: 'user',
      run: (p, auth, t) => {
        requireScope(auth, 'usergroups:read');
        const groups = t.workspace.usergroups
          .filter((g) => truthy(p.include_disabled) || g.date_delete === 0)
          .map((g) => {
            const { users, user_count, channel_count, ...rest } = g;
            return { ...rest, ...(truthy(p.include_users) ? { users: [...users] } : {}), ...(truthy(p.include_count) ? { user_count, channel_count } : {}) };
          });
        return { usergroups: groups };
      },
    },
    'emoji.list': {
      auth: 'user',
      run: (_p, auth, t) => {
        requireScope(auth, 'emoji:read');
        return { emoji: { ...t.workspace.emoji }, cache_ts: `${nowSec()}.000000` };
      },
    },
    'apps.connections.open': {
      auth: 'app',
      run: () => {
        const ticket = randomUUID();
        tickets.add(ticket);
        return { url: `${url.replace(/^http/, 'ws')}/link/?ticket=${ticket}&app_id=${appId}` };
      },
    },
    'oauth.v2.access': { auth: 'none', run: (p) => oauthAccess(p) },
  };

  const conversationTypes = (p: Params, auth: TokenRecord): FakeConversationKind[] => {
    const names = splitList(p.types);
    const types = (names.length ? names : ['public_channel']) as FakeConversationKind[];
    for (const t of types) if (!(t in READ_SCOPE)) throw new ApiError('invalid_types');
    for (const t of types) requireScope(auth, READ_SCOPE[t]);
    return types;
  };
  const range = (p: Params): { oldest: string; latest: string } => {
    const oldest = p.oldest || '0';
    const latest = p.latest || MAX_TS;
    if (Number.isNaN(microsFromTs(oldest))) throw new ApiError('invalid_ts_oldest');
    if (Number.isNaN(microsFromTs(latest))) throw new ApiError('invalid_ts_latest');
    return { oldest, latest };
  };
  const inRange = (ts: string, oldest: string, latest: string, inclusive: boolean): boolean => {
    const lo = compareTs(ts, oldest);
    const hi = compareTs(ts, latest);
    return inclusive ? lo >= 0 && hi <= 0 : lo > 0 && hi < 0;
  };
  const markRead = (c: FakeConversation, userId: string, ts: string): void => {
    c.lastRead[userId] = ts;
    const counts = unreadCounts(c, userId);
    const eventTs = nextTs();
    deliver(
      c,
      {
        type: markEventType(c),
        channel: c.id,
        ts,
        unread_count: counts.unread_count,
        unread_count_display: counts.unread_count_display,
        num_mentions: 0,
        num_mentions_display: 0,
        mention_count: 0,
        mention_count_display: 0,
        event_ts: eventTs,
      },
      userId,
    );
  };

  const oauthAccess = (p: Params): Record<string, unknown> => {
    const grant = p.grant_type || 'authorization_code';
    if (grant !== 'authorization_code' && grant !== 'refresh_token') throw new ApiError('invalid_grant_type');
    if (!p.client_id || p.client_id !== clientId) throw new ApiError('invalid_client_id');
    if (p.client_secret !== clientSecret) throw new ApiError('bad_client_secret');
    const common = (t: TeamState) => ({ app_id: appId, team: { id: t.team.id, name: t.team.name }, enterprise: null, is_enterprise_install: false });
    if (grant === 'refresh_token') {
      const record = options.tokenRotation ? refreshTokens.get(p.refresh_token ?? '') : undefined;
      const t = teamById(record?.teamId);
      if (!record || !t) throw new ApiError('invalid_refresh_token');
      refreshTokens.delete(p.refresh_token as string);
      const issued = issueUserToken(t, record.userId, record.scopes);
      return {
        ...common(t),
        access_token: issued.access_token,
        token_type: 'user',
        scope: record.scopes.join(','),
        user_id: record.userId,
        refresh_token: issued.refresh_token,
        expires_in: issued.expires_in,
      };
    }
    const code = codes.get(p.code ?? '');
    if (!code || code.used || code.clientId !== p.client_id || Date.now() - code.createdAt > CODE_TTL_MS) throw new ApiError('invalid_code');
    if (code.redirectUri !== null && (p.redirect_uri ?? '') !== code.redirectUri) throw new ApiError('bad_redirect_uri');
    code.used = true;
    const t = teamById(code.teamId) ?? first;
    const result: Record<string, unknown> = { ok: true, ...common(t) };
    const authed: Record<string, unknown> = { id: code.userId };
    if (code.userScopes.length) {
      const issued = issueUserToken(t, code.userId, code.userScopes);
      Object.assign(authed, { scope: code.userScopes.join(','), access_token: issued.access_token, token_type: 'user' });
      if (issued.refresh_token) Object.assign(authed, { refresh_token: issued.refresh_token, expires_in: issued.expires_in });
    }
    if (code.botScopes.length) {
      const bot = token(`xoxb-${t.team.id.slice(1)}-`);
      tokens.set(bot, { token: bot, teamId: t.team.id, kind: 'bot', userId: t.botUserId, scopes: code.botScopes, revoked: false });
      Object.assign(result, { scope: code.botScopes.join(','), token_type: 'bot', access_token: bot, bot_user_id: t.botUserId });
    }
    result.authed_user = authed;
    return result;
  };

  // ---------------------------------------------------------------- HTTP
  const readBody = (req: IncomingMessage): Promise<string> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });
  const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  };
  const sendHtml = (res: ServerResponse, status: number, html: string): void => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
    res.end(html);
  };

  const handleApi = async (req: IncomingMessage, res: ServerResponse, method: string, query: URLSearchParams): Promise<void> => {
    const at = Date.now();
    const params: Params = Object.fromEntries(query);
    let tokenUsed: string | null = null;
    const body = req.method === 'POST' ? await readBody(req) : '';
    if (body) {
      if ((req.headers['content-type'] ?? '').includes('application/json')) {
        try {
          const json = JSON.parse(body) as Record<string, unknown>;
          for (const [k, v] of Object.entries(json)) if (v !== undefined && v !== null) params[k] = typeof v === 'string' ? v : JSON.stringify(v);
        } catch {
          return answer(200, { ok: false, error: 'invalid_json' });
        }
      } else {
        Object.assign(params, Object.fromEntries(new URLSearchParams(body)));
      }
    }
    const header = req.headers.authorization ?? '';
    let bearer: string | null = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? null;
    if (bearer === '') bearer = null;
    tokenUsed = bearer ?? params.token ?? null;
    delete params.token;
    // OAuth clients may send their credentials as HTTP Basic auth.
    const basic = /^Basic\s+(.+)$/i.exec(header)?.[1];
    if (basic && method === 'oauth.v2.access') {
      const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      params.client_id ??= id ?? '';
      params.client_secret ??= secret ?? '';
    }
    function answer(status: number, json: Record<string, unknown>, headers: Record<string, string> = {}): void {
      const record = tokenUsed ? tokens.get(tokenUsed) : undefined;
      calls.push({ method, params, token: tokenUsed, team: record && record.kind !== 'app' ? record.teamId : null, at, status });
      sendJson(res, status, json, headers);
    }

    const limited = rateLimits.get(method);
    if (limited && limited.length > 0) {
      const retryAfter = limited.shift();
      if (limited.length === 0) rateLimits.delete(method);
      return answer(429, { ok: false, error: 'ratelimited' }, retryAfter === null || retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) });
    }
    const spec = methods[method];
    if (!spec) return answer(200, { ok: false, error: 'unknown_method' });
    let auth: TokenRecord = { token: '', teamId: team.id, kind: 'user', userId: '', scopes: [], revoked: false };
    if (spec.auth !== 'none') {
      if (!tokenUsed) return answer(200, { ok: false, error: 'not_authed' });
      const record = tokens.get(tokenUsed);
      if (!record) return answer(200, { ok: false, error: 'invalid_auth' });
      if (record.revoked) return answer(200, { ok: false, error: 'token_revoked' });
      if (record.expiresAt !== undefined && Date.now() >= record.expiresAt) return answer(200, { ok: false, error: 'token_expired' });
      if ((spec.auth === 'app') !== (record.kind === 'app')) return answer(200, { ok: false, error: 'not_allowed_token_type' });
      auth = record;
    }
    const scopeHeaders: Record<string, string> = spec.auth === 'none' ? {} : { 'x-oauth-scopes': auth.scopes.join(',') };
    try {
      // Every method answers from the token's team: another team's ids are unknown to it.
      const result = spec.run(params, auth, teamById(auth.teamId) ?? first);
      return answer(200, { ok: true, ...result }, scopeHeaders);
    } catch (error) {
      if (error instanceof ApiError) return answer(200, { ok: false, error: error.error, ...error.extra }, scopeHeaders);
      return answer(500, { ok: false, error: 'fatal_error', detail: String(error) });
    }
  };

  const authorizePage = (res: ServerResponse, query: URLSearchParams): void => {
    const errorPage = (message: string) =>
      sendHtml(
        res,
        400,
        `<!doctype html><html><head><meta charset="utf-8"><title>Slack: error</title></head><body><h1>Something went wrong</h1><p id="error">${escapeHtml(message)}</p></body></html>`,
      );
    const id = query.get('client_id') ?? '';
    if (id !== clientId) return errorPage(`Invalid client_id parameter: "${id}"`);
    const redirect = query.get('redirect_uri');
    if (!redirect) return errorPage('Missing redirect_uri parameter');
    let redirectUrl: URL;
    try {
      redirectUrl = new URL(redirect);
    } catch {
      return errorPage('Invalid redirect_uri parameter');
    }
    const state = query.get('state') ?? '';
    const userScopes = splitList(query.get('user_scope') ?? '');
    const botScopes = splitList(query.get('scope') ?? '');
    // Slack's `team` parameter (and its workspace switcher) chooses the workspace; else the consent team.
    const t = teamById(query.get('team') ?? undefined) ?? consentTeam;
    const { team, consentUser } = t;
    const code = `${team.id.slice(1)}.${Date.now()}.${randomBytes(16).toString('hex')}`;
    codes.set(code, {
      clientId: id,
      teamId: team.id,
      userId: consentUser.id,
      userScopes,
      botScopes,
      redirectUri: redirect,
      createdAt: Date.now(),
      used: false,
    });
    const form = (label: string, add: Record<string, string>) => {
      const target = new URL(redirectUrl);
      for (const [k, v] of Object.entries(add)) target.searchParams.set(k, v);
      const action = new URL(target);
      action.search = '';
      const hidden = [...target.searchParams].map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join('');
      return `<form method="get" action="${escapeHtml(action.toString())}" data-url="${escapeHtml(target.toString())}">${hidden}<button type="submit">${label}</button></form>`;
    };
    const scopes = [
      ...userScopes.map((s) => `<li data-scope-type="user">${escapeHtml(s)}</li>`),
      ...botScopes.map((s) => `<li data-scope-type="bot">${escapeHtml(s)} (bot)</li>`),
    ].join('');
    // The workspace switcher: the same page for each team the person is in.
    const switcher =
      teams.length < 2
        ? ''
        : `<nav id="teams" aria-label="Workspaces">${teams
            .map((x) => {
              const link = new URL(`${url}/oauth/v2/authorize`);
              for (const [k, v] of query) if (k !== 'team') link.searchParams.append(k, v);
              link.searchParams.set('team', x.team.id);
              const current = x === t ? ' aria-current="true"' : '';
              return `<a href="${escapeHtml(link.toString())}" data-team-id="${x.team.id}"${current}>${escapeHtml(x.team.name)}</a>`;
            })
            .join(' ')}</nav>\n`;
    sendHtml(
      res,
      200,
      `<!doctype html><html><head><meta charset="utf-8"><title>Slack: authorize</title></head><body>
${switcher}<h1>Sift is requesting permission to access the <span id="team">${escapeHtml(team.name)}</span> Slack workspace</h1>
<p>Signed in as <strong id="user">${escapeHtml(consentUser.real_name)}</strong> (<span id="user-id">${consentUser.id}</span>) on ${escapeHtml(team.domain)}.slack.com</p>
<h2>What will Sift be able to view?</h2><ul id="scopes">${scopes}</ul>
${form('Allow', { code, state })}
${form('Cancel', { error: 'access_denied', state })}
</body></html>`,
    );
  };

  const avatar = (res: ServerResponse, id: string): void => {
    // A user (of any team, or a Slack Connect person), or a bot (its icon).
    const owner = teamOfUser(id);
    const u = owner ? userIn(owner, id) : teams.flatMap((t) => t.workspace.externalUsers).find((x) => x.id === id);
    const b = u ? undefined : teams.flatMap((t) => t.workspace.bots).find((x) => x.id === id);
    const name = u?.real_name ?? b?.name;
    const initials = (name ?? '?')
      .split(/\s+/)
      .map((w) => w.charAt(0))
      .join('')
      .slice(0, 2)
      .toUpperCase();
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" fill="#${u?.color ?? (b ? '4a154b' : '999999')}"/><text x="32" y="40" font-family="sans-serif" font-size="24" fill="#fff" text-anchor="middle">${escapeHtml(initials)}</text></svg>`;
    res.writeHead(name ? 200 : 404, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=3600' });
    res.end(svg);
  };
  /** A custom emoji's image (any team's emoji.list URL). */
  const emojiImage = (res: ServerResponse, name: string): void => {
    const known = teams.some((t) => typeof t.workspace.emoji[name] === 'string' && !t.workspace.emoji[name]?.startsWith('alias:'));
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="#e8a723"/><text x="32" y="40" font-family="sans-serif" font-size="20" fill="#000" text-anchor="middle">${escapeHtml(name.slice(0, 3))}</text></svg>`;
    res.writeHead(known ? 200 : 404, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=3600' });
    res.end(svg);
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', url);
    const api = /^\/api\/([\w.]+)$/.exec(u.pathname);
    if (api && (req.method === 'POST' || req.method === 'GET')) {
      handleApi(req, res, api[1] as string, u.searchParams).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { ok: false, error: 'fatal_error', detail: String(error) });
      });
      return;
    }
    if (u.pathname === '/oauth/v2/authorize' && req.method === 'GET') return authorizePage(res, u.searchParams);
    const av = /^\/avatars\/(\w+)_\d+\.png$/.exec(u.pathname);
    if (av && req.method === 'GET') return avatar(res, av[1] as string);
    const em = /^\/emoji\/([\w+-]+)\.png$/.exec(u.pathname);
    if (em && req.method === 'GET') return emojiImage(res, em[1] as string);
    sendJson(res, 404, { ok: false, error: 'not_found' });
  });

  // ---------------------------------------------------------------- the fake's own handle
  let closed = false;
  const fake: FakeSlack = {
    url,
    apiUrl: `${url}/api/`,
    authorizeUrl: `${url}/oauth/v2/authorize`,
    clientId,
    clientSecret,
    appToken,
    team,
    workspace,
    member: memberUser,
    teams: teams.map((t) => ({ team: t.team, workspace: t.workspace, member: t.member })),
    setConsentUser(userId) {
      const owner = teamOfUser(userId);
      if (!owner) throw new Error(`fake Slack: no user ${userId}`);
      owner.consentUser = userIn(owner, userId) as FakeUser;
    },
    setConsentTeam(teamId) {
      const t = teamById(teamId);
      if (!t) throw new Error(`fake Slack: no team ${teamId}`);
      consentTeam = t;
    },
    post(userId, channel, text, opts = {}) {
      const c = conversationOrThrow(channel);
      if (!userIn(teamOf(c), userId)) throw new Error(`fake Slack: no user ${userId} in the conversation's team`);
      return { ts: postAs(userId, c, text, opts.thread_ts).ts };
    },
    edit(channel, ts, text) {
      const c = conversationOrThrow(channel);
      const { message } = locateMessage(c, ts);
      const previous = { ...message };
      const eventTs = nextTs();
      message.text = text;
      message.edited = { user: message.user ?? message.bot_id ?? '', ts: eventTs };
      deliver(c, {
        type: 'message',
        subtype: 'message_changed',
        hidden: true,
        message: { ...message },
        channel: c.id,
        previous_message: previous,
        event_ts: eventTs,
        ts: eventTs,
        channel_type: CHANNEL_TYPE[c.kind],
      });
    },
    remove(channel, ts) {
      const c = conversationOrThrow(channel);
      const { message, list, parentTs } = locateMessage(c, ts);
      const previous = { ...message };
      const replies = c.replies[ts];
      if (replies && replies.length > 0) {
        // Slack keeps a deleted thread parent as a tombstone while it has replies.
        message.subtype = 'tombstone';
        message.text = 'This message was deleted.';
        message.user = 'USLACKBOT';
        message.hidden = true;
        delete message.client_msg_id;
        delete message.reactions;
        delete message.edited;
      } else {
        list.splice(list.indexOf(message), 1);
        if (parentTs) {
          refreshThreadParent(c, parentTs);
          // A tombstoned parent goes once its last reply is gone.
          const parent = c.messages.find((m) => m.ts === parentTs);
          if (parent?.subtype === 'tombstone' && !c.replies[parentTs]) c.messages.splice(c.messages.indexOf(parent), 1);
        }
      }
      const eventTs = nextTs();
      deliver(c, {
        type: 'message',
        subtype: 'message_deleted',
        hidden: true,
        deleted_ts: ts,
        channel: c.id,
        previous_message: previous,
        event_ts: eventTs,
        ts: eventTs,
        channel_type: CHANNEL_TYPE[c.kind],
      });
    },
    join(userId, channel) {
      const c = conversationOrThrow(channel);
      if (c.kind === 'im') throw new Error('fake Slack: cannot join an IM');
      if (c.members.includes(userId)) return;
      c.members.push(userId);
      c.lastRead[userId] = c.messages.at(-1)?.ts ?? NEVER_READ;
      const eventTs = nextTs();
      deliver(c, {
        type: 'member_joined_channel',
        user: userId,
        channel: c.id,
        channel_type: c.kind === 'public_channel' ? 'C' : 'G',
        team: teamOf(c).team.id,
        event_ts: eventTs,
      });
      postAs(userId, c, `<@${userId}> has joined the channel`, undefined, { subtype: 'channel_join' });
    },
    leave(userId, channel) {
      const c = conversationOrThrow(channel);
      if (!c.members.includes(userId)) return;
      // The channel_leave message and the event while the user is still in (so their own leave reaches them).
      postAs(userId, c, `<@${userId}> has left the channel`, undefined, { subtype: 'channel_leave' });
      const eventTs = nextTs();
      deliver(c, {
        type: 'member_left_channel',
        user: userId,
        channel: c.id,
        channel_type: c.kind === 'public_channel' ? 'C' : 'G',
        team: teamOf(c).team.id,
        event_ts: eventTs,
      });
      c.members.splice(c.members.indexOf(userId), 1);
      delete c.lastRead[userId];
    },
    postMessage(channel, input) {
      const c = conversationOrThrow(channel);
      const message = JSON.parse(JSON.stringify(input)) as FakeMessage;
      message.type = 'message';
      if (typeof message.ts !== 'string' || Number.isNaN(microsFromTs(message.ts))) message.ts = nextTs();
      else lastMicros = Math.max(lastMicros, microsFromTs(message.ts));
      const threadTs = typeof message.thread_ts === 'string' && message.thread_ts !== message.ts ? message.thread_ts : undefined;
      const parent = threadTs ? c.messages.find((m) => m.ts === threadTs) : undefined;
      if (threadTs && !parent) throw new Error(`fake Slack: no thread ${threadTs} in ${c.id}`);
      if (parent) {
        if (parent.user && message.parent_user_id === undefined) message.parent_user_id = parent.user;
        (c.replies[parent.ts] ??= []).push(message);
        c.replies[parent.ts]?.sort((a, b) => compareTs(a.ts, b.ts));
        refreshThreadParent(c, parent.ts);
        // A broadcast reply is shown in the channel too, with its thread's root.
        if (message.subtype === 'thread_broadcast') {
          message.root ??= { ...parent };
          c.messages.push({ ...message });
        }
      } else {
        c.messages.push(message);
      }
      c.messages.sort((a, b) => compareTs(a.ts, b.ts));
      deliver(c, messageEvent(c, message));
      return { ts: message.ts };
    },
    kick(userId, channel, by) {
      const c = conversationOrThrow(channel);
      if (c.kind === 'im' || c.kind === 'mpim') throw new Error('fake Slack: can only kick from a channel');
      if (!c.members.includes(userId)) return;
      const t = teamOf(c);
      c.members.splice(c.members.indexOf(userId), 1);
      delete c.lastRead[userId];
      const eventTs = nextTs();
      // The remaining members hear that someone left; the removed user that they were removed.
      deliver(c, {
        type: 'member_left_channel',
        user: userId,
        channel: c.id,
        channel_type: c.kind === 'public_channel' ? 'C' : 'G',
        team: t.team.id,
        event_ts: eventTs,
      });
      deliver(c, { type: c.kind === 'public_channel' ? 'channel_left' : 'group_left', channel: c.id, actor_id: by ?? c.creator, event_ts: nextTs() }, userId);
    },
    archive(channel, by) {
      const c = conversationOrThrow(channel);
      if (c.kind === 'im' || c.kind === 'mpim') throw new Error('fake Slack: can only archive a channel');
      if (c.is_archived) return;
      const actor = by ?? c.creator;
      postSystem(actor, c, 'channel_archive', `<@${actor}> archived the channel`, { members: [...c.members] });
      c.is_archived = true;
      const eventTs = nextTs();
      if (c.kind === 'public_channel') deliver(c, { type: 'channel_archive', channel: c.id, user: actor, event_ts: eventTs });
      else deliver(c, { type: 'group_archive', channel: c.id, user: actor, is_moved: 0, event_ts: eventTs });
    },
    deleteChannel(channel, by) {
      const c = conversationOrThrow(channel);
      if (c.kind === 'im' || c.kind === 'mpim') throw new Error('fake Slack: can only delete a channel');
      const t = teamOf(c);
      const eventTs = nextTs();
      if (c.kind === 'public_channel') deliver(c, { type: 'channel_deleted', channel: c.id, event_ts: eventTs });
      else
        deliver(c, {
          type: 'group_deleted',
          channel: c.id,
          date_deleted: Math.floor(microsFromTs(eventTs) / 1e6),
          actor_id: by ?? c.creator,
          event_ts: eventTs,
        });
      t.workspace.conversations.splice(t.workspace.conversations.indexOf(c), 1);
    },
    rename(channel, name, by) {
      const c = conversationOrThrow(channel);
      if (c.kind === 'im' || c.kind === 'mpim') throw new Error('fake Slack: can only rename a channel');
      const actor = by ?? c.creator;
      const old = c.name;
      c.name = name;
      postSystem(actor, c, 'channel_name', `<@${actor}> has renamed the channel from "${old}" to "${name}"`, { old_name: old, name });
      deliver(c, {
        type: c.kind === 'public_channel' ? 'channel_rename' : 'group_rename',
        channel: { id: c.id, name, name_normalized: name, created: c.created, is_channel: c.kind === 'public_channel', is_mpim: false },
        event_ts: nextTs(),
      });
    },
    addMember(userId, channel, inviter) {
      const c = conversationOrThrow(channel);
      if (c.kind === 'im') throw new Error('fake Slack: cannot add to an IM');
      if (!userIn(teamOf(c), userId) && !teamOf(c).workspace.externalUsers.some((u) => u.id === userId)) throw new Error(`fake Slack: no user ${userId}`);
      if (c.members.includes(userId)) return;
      c.members.push(userId);
      c.lastRead[userId] = c.messages.at(-1)?.ts ?? NEVER_READ;
      deliver(c, {
        type: 'member_joined_channel',
        user: userId,
        channel: c.id,
        channel_type: c.kind === 'public_channel' ? 'C' : 'G',
        team: teamOf(c).team.id,
        ...(inviter ? { inviter } : {}),
        event_ts: nextTs(),
      });
    },
    rateLimit(method, times, retryAfter) {
      const list = rateLimits.get(method) ?? [];
      for (let i = 0; i < times; i++) list.push(retryAfter);
      rateLimits.set(method, list);
    },
    revoke(t) {
      const record = tokens.get(t);
      if (record) record.revoked = true;
      else tokens.set(t, { token: t, teamId: team.id, kind: 'user', userId: '', scopes: [], revoked: true });
    },
    expireToken(t) {
      const record = tokens.get(t);
      if (!record) throw new Error('fake Slack: unknown token');
      record.expiresAt = Date.now();
    },
    issueToken(userId = memberUser.id, scopes = ALL_USER_SCOPES) {
      // A user id names its team (Slackbot: the first).
      const owner = teamOfUser(userId);
      if (!owner) throw new Error(`fake Slack: no user ${userId}`);
      return issueUserToken(owner, userId, [...scopes]).access_token;
    },
    duplicateNextEvent() {
      duplicateNext = true;
    },
    sendDisconnect(reason = 'refresh_requested') {
      for (const s of live) {
        if (s.ws.readyState === WebSocket.OPEN) s.ws.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: `applink-fake-${port}` } }));
      }
    },
    calls,
    sockets: () => live.filter((s) => s.ws.readyState === WebSocket.OPEN).length,
    acked,
    envelopes,
    async close() {
      if (closed) return;
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of [...live]) {
        clearInterval(s.ping);
        s.ws.terminate();
      }
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
