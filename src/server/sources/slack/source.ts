/**
 * The Slack workspace source: sign-in with Slack's OAuth v2 (user token), sync through the
 * Web API, live events through Socket Mode (or polling without an app token), sending and
 * read marks with the member's own token. The store stays the one copy the routes read.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { LiveHub } from '../../live/hub';
import type { ServerLogger } from '../../log';
import { HttpProblem } from '../../http';
import { MessagingError } from '../../messaging';
import type { OAuthAddTo, Store } from '../../store/types';
import { parseThreadId } from '../../../model/validation';
import type { FetchSummary, SignIn, WorkspaceSource } from '../types';
import { SlackApiError, SlackCaller } from './client';
import type { SlackConfig } from './config';
import { TokenCipher, TokenKeyring, TokenVault } from './tokens';
import { syncMember, type SyncSummary } from './sync';
import { SlackLive } from './live';
import { SlackNames } from './names';
import { SourceError } from '../../errors';

/** How long a sign-in may take between the redirect to Slack and the callback. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

export interface SlackSourceOptions {
  config: SlackConfig;
  /** Where the generated key lives when SIFT_SECRET is not set. */
  dataDir?: string;
  now: () => number;
  logger: ServerLogger;
  /** Page size of list calls (Slack allows up to 1000; 200 is its recommendation). */
  pageLimit?: number;
  /** Injectable for tests (rate-limit waits). */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Runs `fn` while no other server runs the same name (main.ts: leadership.ts's `oneAtATime` on PostgreSQL): a
   * member's syncs take turns across servers, as they do within one. Absent: one server, nothing to wait for.
   */
  exclusive?: <T>(name: string, fn: () => Promise<T>) => Promise<T>;
}

/** A sign-in that cannot complete; `code` goes into /auth?error=…, `message` is for the member. */
/** A Slack sign-in that failed; its code names the page's text (errors.ts's hierarchy: never shown as is). */
export class SignInError extends SourceError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export class SlackSource implements WorkspaceSource {
  readonly mode = 'slack' as const;
  readonly caller: SlackCaller;
  private readonly keys: TokenKeyring;
  private vaultOf: TokenVault | null = null;
  private namesOf: SlackNames | null = null;
  private storeOf: Store | null = null;
  private hub: LiveHub | null = null;
  private live: SlackLive | null = null;
  /** Stops the polling (or gives up its lead, when another server may take it). */
  private stopPolling: (() => Promise<void>) | null = null;
  /** One sync at a time per member: a second request joins the one running. */
  private readonly syncs = new Map<string, Promise<SyncSummary>>();

  constructor(readonly options: SlackSourceOptions) {
    const { config } = options;
    this.caller = new SlackCaller({ apiUrl: config.apiUrl, rate: config.rate, logger: options.logger, sleep: options.sleep });
    let current: TokenCipher;
    if (config.secret) current = TokenCipher.fromSecret(config.secret);
    else if (options.dataDir) current = TokenCipher.fromKeyFile(options.dataDir);
    else throw new Error('Slack mode needs SIFT_SECRET or a data dir for the generated key');
    this.keys = new TokenKeyring(
      current,
      (config.previousSecrets ?? []).map((s) => TokenCipher.fromSecret(s)),
    );
  }

  get config(): SlackConfig {
    return this.options.config;
  }

  private get store(): Store {
    if (!this.storeOf) throw new Error('SlackSource.prepare was not called');
    return this.storeOf;
  }

  /** People, bots, channels, user groups and emoji the workspace's lists do not name (looked up once). */
  get names(): SlackNames {
    if (!this.namesOf) throw new Error('SlackSource.prepare was not called');
    return this.namesOf;
  }

  get vault(): TokenVault {
    if (!this.vaultOf) throw new Error('SlackSource.prepare was not called');
    return this.vaultOf;
  }

  async prepare(store: Store): Promise<void> {
    this.storeOf = store;
    this.namesOf = new SlackNames({ store, caller: this.caller, logger: this.options.logger });
    this.vaultOf = new TokenVault({
      store,
      keys: this.keys,
      caller: this.caller,
      clientId: this.config.clientId,
      clientSecret: this.config.clientSecret,
      now: this.options.now,
      logger: this.options.logger,
    });
    // Before any request: tokens under a previous key or in the unbound format are re-encrypted, bound to their rows.
    await this.vaultOf.upgradeAll();
  }

  /** Starts live events (Socket Mode with an app token, else polling); answers the function that stops them. */
  /**
   * Starts the live side. Socket Mode runs on every server (Slack hands each event to one of the app's
   * connections, and an event id is recorded in the database, so a redelivery is applied once). Polling runs once
   * across servers: `runOnce` (main.ts: leadership.ts's `lead`) starts it on one server and moves it when that
   * server dies; without it, here.
   */
  async start(deps: { hub: LiveHub; runOnce?: (name: string, start: () => () => void) => { stop(): Promise<void> } }): Promise<() => Promise<void>> {
    this.hub = deps.hub;
    if (this.config.appToken) {
      this.live = new SlackLive({ source: this, store: this.store, hub: deps.hub, logger: this.options.logger, now: this.options.now });
      await this.live.start();
    } else if (this.config.pollSeconds > 0) {
      const poll = () => {
        const timer = setInterval(() => void this.syncEveryone('poll'), this.config.pollSeconds * 1000);
        timer.unref();
        return () => clearInterval(timer);
      };
      if (deps.runOnce) {
        const job = deps.runOnce('slack-polling', poll);
        this.stopPolling = () => job.stop();
      } else {
        const stop = poll();
        this.stopPolling = async () => stop();
      }
    }
    return () => this.stop();
  }

  /** Resolves once every live event received so far is applied (tests). */
  async idle(): Promise<void> {
    await this.live?.idle();
  }

  async stop(): Promise<void> {
    await this.stopPolling?.();
    this.stopPolling = null;
    await this.live?.stop();
    this.live = null;
    await Promise.allSettled([...this.syncs.values()]);
  }

  /* ---------- sign-in (OAuth v2, user token) ---------- */

  /**
   * The authorize page's address with a new single-use state; `browserNonce` goes into the
   * short-lived cookie that binds it to this browser. `addTo`: an 'Add workspace' sign-in, bound to
   * the account and the session that started it.
   */
  async beginSignIn(redirectUri: string, addTo?: OAuthAddTo): Promise<{ url: string; browserNonce: string }> {
    const state = randomBytes(24).toString('base64url');
    const browserNonce = randomBytes(24).toString('base64url');
    await this.store.saveOAuthState(sha256(state), sha256(browserNonce), this.options.now() + OAUTH_STATE_TTL_MS, addTo);
    const url = new URL(this.config.authorizeUrl);
    url.searchParams.set('client_id', this.config.clientId);
    url.searchParams.set('user_scope', this.config.scopes.join(','));
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', state);
    return { url: url.toString(), browserNonce };
  }

  /** Verifies the callback, exchanges the code, stores the token; answers who signed in. */
  async completeSignIn(input: {
    code?: string;
    state?: string;
    error?: string;
    browserNonce?: string;
    redirectUri: string;
    /** The hash of the browser's current session token: an 'Add workspace' sign-in completes only in the session that started it. */
    sessionHash?: string;
  }): Promise<SignIn & { workspaceName: string; firstSignIn: boolean }> {
    const state = input.state ? await this.store.takeOAuthState(sha256(input.state)) : null;
    if (!state) throw new SignInError('invalid_state', 'This sign-in link is not valid or was already used. Please try again.');
    if (state.expiresAt < this.options.now()) throw new SignInError('expired_state', 'The sign-in took too long. Please try again.');
    if (!input.browserNonce || sha256(input.browserNonce) !== state.browserHash) {
      throw new SignInError('invalid_state', 'This sign-in was started in another browser. Please try again.');
    }
    if (state.addTo && state.addTo.sessionHash !== input.sessionHash) {
      throw new SignInError('invalid_state', 'This workspace was being added in another session. Please try again.');
    }
    if (input.error) {
      throw new SignInError(
        input.error === 'access_denied' ? 'access_denied' : 'slack_error',
        input.error === 'access_denied' ? 'Sign-in was cancelled on Slack.' : `Slack answered: ${input.error}`,
      );
    }
    if (!input.code) throw new SignInError('missing_code', 'Slack did not send an authorization code. Please try again.');
    let answer: Record<string, unknown>;
    try {
      answer = await this.caller.call(undefined, 'oauth.v2.access', {
        client_id: this.config.clientId,
        client_secret: this.config.clientSecret,
        code: input.code,
        redirect_uri: input.redirectUri,
      });
    } catch (error) {
      const code = error instanceof SlackApiError ? error.code : 'request_failed';
      this.options.logger.log('warn', 'Slack code exchange failed', { error: code });
      throw new SignInError('exchange_failed', `Slack refused the sign-in (${code}). Please try again.`);
    }
    const authed = answer.authed_user as { id?: string; access_token?: string; refresh_token?: string; expires_in?: number } | undefined;
    const team = answer.team as { id?: string; name?: string } | undefined;
    if (!authed?.id || !authed.access_token || !team?.id) {
      throw new SignInError('exchange_failed', 'Slack did not grant a user token. Please try again.');
    }
    const workspaceId = team.id;
    const userId = authed.id;
    await this.store.upsertWorkspace({ id: workspaceId, name: team.name ?? workspaceId, source: 'slack' });
    await this.vault.save(workspaceId, userId, { accessToken: authed.access_token, refreshToken: authed.refresh_token, expiresIn: authed.expires_in });
    // A sign-in signs in that Slack identity's own account; only an 'Add workspace' sign-in joins
    // another one, and never an identity that already belongs to an account.
    let accountId: string;
    if (state.addTo) {
      if (!(await this.store.addMembership(state.addTo.accountId, workspaceId, userId))) {
        throw new SignInError('already_linked', 'This Slack account already belongs to another Sift account. Sign out and sign in with it instead.');
      }
      accountId = state.addTo.accountId;
    } else accountId = await this.store.accountFor(workspaceId, userId);
    const synced = await this.store.getSyncState<{ lastFullSyncAt: number | null }>(workspaceId, userId);
    const firstSignIn = !synced?.lastFullSyncAt;
    this.options.logger.log('info', 'Slack sign-in', { workspace: workspaceId, user: userId, firstSignIn });
    return { accountId, workspaceId, userId, workspaceName: team.name ?? workspaceId, firstSignIn };
  }

  /** Revokes the member's Slack token (auth.revoke) and forgets it. */
  async revoke(workspaceId: string, userId: string): Promise<void> {
    const token = await this.vault.access(workspaceId, userId).catch(() => null);
    if (token) {
      await this.caller.call(token, 'auth.revoke', {}).catch((error: unknown) => {
        this.options.logger.log('warn', 'Slack auth.revoke failed', { error: error instanceof SlackApiError ? error.code : 'request_failed' });
      });
    }
    await this.store.deleteCredential(workspaceId, userId);
  }

  /* ---------- sync ---------- */

  async fetchAll(store: Store, workspaceId: string, userId: string): Promise<FetchSummary & { new_messages: number }> {
    return this.sync(store, workspaceId, userId, 'full');
  }

  async fetchNew(store: Store, workspaceId: string, userId: string): Promise<FetchSummary & { new_messages: number }> {
    return this.sync(store, workspaceId, userId, 'incremental');
  }

  /** The initial sync after a first sign-in, in the background; its end is a fetch_complete event. */
  syncInBackground(workspaceId: string, userId: string): void {
    void this.sync(this.store, workspaceId, userId, 'full')
      .then(async (summary) => {
        const events = await this.store.appendEvents(workspaceId, [{ userId, type: 'fetch_complete', data: { summary } }], this.options.now());
        this.hub?.publish(workspaceId, events);
      })
      .catch((error: unknown) => this.options.logger.log('warn', 'Slack initial sync failed', { workspace: workspaceId, user: userId, error: String(error) }));
  }

  private sync(store: Store, workspaceId: string, userId: string, mode: 'full' | 'incremental'): Promise<SyncSummary> {
    const key = `${workspaceId}\u0000${userId}`;
    const running = this.syncs.get(key);
    if (running) return running;
    const exclusive = this.options.exclusive ?? (<T>(_name: string, fn: () => Promise<T>) => fn());
    const run = exclusive(`slack-sync:${workspaceId}:${userId}`, () =>
      this.withMember(workspaceId, userId, 'sync', (token) =>
        syncMember(
          {
            store,
            caller: this.caller,
            logger: this.options.logger,
            now: this.options.now,
            historyLimit: this.config.historyLimit,
            pageLimit: this.options.pageLimit ?? 200,
            names: this.names,
            // New messages an incremental sync (a poll) finds, and a full sync's progress, reach the members' streams.
            publish: (ws, events) => this.hub?.publish(ws, events),
          },
          { workspaceId, userId, mode, token },
        ),
      ),
    ).finally(() => this.syncs.delete(key));
    this.syncs.set(key, run);
    return run;
  }

  /**
   * An incremental sync of every member with a token: the polling period without Socket Mode, and
   * after every Socket Mode (re)connection, when events may have been missed. Each one reconciles
   * the member's access too (sync.ts).
   */
  async syncEveryone(why: 'poll' | 'reconnect'): Promise<void> {
    for (const credential of await this.store.listCredentials()) {
      try {
        const summary = await this.sync(this.store, credential.workspaceId, credential.userId, 'incremental');
        if (summary.new_messages > 0)
          this.options.logger.log('info', 'Slack sync', {
            why,
            workspace: credential.workspaceId,
            user: credential.userId,
            new_messages: summary.new_messages,
          });
      } catch (error) {
        this.options.logger.log('warn', 'Slack sync failed', { why, workspace: credential.workspaceId, user: credential.userId, error: String(error) });
      }
    }
  }

  /**
   * Runs `fn` with the member's token source. A token Slack no longer accepts ends the
   * member's Slack credential and Sift sessions: the next request answers 401 and the
   * client goes back to sign-in.
   */
  async withMember<T>(workspaceId: string, userId: string, what: string, fn: (token: () => Promise<string>) => Promise<T>): Promise<T> {
    let refreshed = false;
    let last: string | undefined;
    const token = async () => {
      const t = await this.vault.access(workspaceId, userId);
      if (!t) throw new SlackApiError(what, 'not_authed', 'platform');
      last = t;
      return t;
    };
    for (;;) {
      try {
        return await fn(token);
      } catch (error) {
        if (!(error instanceof SlackApiError)) throw error;
        // An expired rotating token: refresh once and try again.
        if (error.code === 'token_expired' && !refreshed) {
          refreshed = true;
          const fresh = await this.vault.access(workspaceId, userId, last).catch(() => null);
          if (fresh) continue;
        }
        if (error.isAuthError || error.code === 'token_expired') {
          await this.signOutMember(workspaceId, userId, error.code);
          throw new HttpProblem(401, 'Your Slack sign-in is no longer valid. Please sign in again.', { reauth: true });
        }
        throw new HttpProblem(502, `Failed to fetch data from Slack: ${error.code}`);
      }
    }
  }

  private async signOutMember(workspaceId: string, userId: string, reason: string): Promise<void> {
    await this.store.deleteCredential(workspaceId, userId);
    const sessions = await this.store.deleteSessionsOf(workspaceId, userId);
    this.hub?.endSessions(sessions);
    this.options.logger.log('warn', 'Slack token refused; member signed out', { workspace: workspaceId, user: userId, reason, sessions: sessions.length });
  }

  /* ---------- actions ---------- */

  async deliver(input: { workspaceId: string; userId: string; conversationId: string; text: string; thread_ts?: string }): Promise<{ ts: string }> {
    const thread = parseThreadId(input.conversationId);
    const channel = thread?.parentId ?? input.conversationId;
    const threadTs = input.thread_ts ?? thread?.threadTs;
    try {
      return await this.withMember(input.workspaceId, input.userId, 'chat.postMessage', async (token) => {
        const answer = await this.caller.call(await token(), 'chat.postMessage', { channel, text: input.text, ...(threadTs ? { thread_ts: threadTs } : {}) });
        if (typeof answer.ts !== 'string') throw new SlackApiError('chat.postMessage', 'no_ts', 'platform');
        return { ts: answer.ts };
      });
    } catch (error) {
      throw this.actionError(error);
    }
  }

  async markRead(input: { workspaceId: string; userId: string; conversationId: string; ts: string }): Promise<void> {
    // Slack has no public read mark per thread: a thread is marked in Sift only.
    if (parseThreadId(input.conversationId) || !input.ts) return;
    try {
      await this.withMember(input.workspaceId, input.userId, 'conversations.mark', async (token) => {
        await this.caller.call(await token(), 'conversations.mark', { channel: input.conversationId, ts: input.ts });
      });
    } catch (error) {
      throw this.actionError(error);
    }
  }

  private actionError(error: unknown): Error {
    if (error instanceof HttpProblem) {
      if (error.status === 401) return error;
      return new MessagingError(error.message.replace('Failed to fetch data from Slack: ', 'Slack answered '), 502);
    }
    return error as Error;
  }
}
