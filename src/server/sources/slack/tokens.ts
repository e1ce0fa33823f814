/**
 * Slack tokens at rest: AES-256-GCM under a key derived from SIFT_SECRET, or, without it,
 * a random key generated once into `<dataDir>/secret.key` (mode 0600). A stored value is
 * `v1.<iv>.<tag>.<ciphertext>` (base64url), so the database never holds a usable token and
 * a tampered value fails to decrypt instead of yielding garbage.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../../store/types';
import type { ServerLogger } from '../../log';
import type { SlackCaller } from './client';

const ALGORITHM = 'aes-256-gcm';
const SALT = 'sift-slack-token-key-v1';

export class TokenCipher {
  private constructor(private readonly key: Buffer) {}

  /** A key from a passphrase (SIFT_SECRET); scrypt, so a short secret is not a cheap guess. */
  static fromSecret(secret: string): TokenCipher {
    if (secret.length < 8) throw new Error('SIFT_SECRET must be at least 8 characters');
    return new TokenCipher(scryptSync(secret, SALT, 32));
  }

  /** The key in `<dataDir>/secret.key`, generated (32 random bytes, mode 0600) on first use. */
  static fromKeyFile(dataDir: string): TokenCipher {
    const file = join(dataDir, 'secret.key');
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    }
    chmodSync(file, 0o600);
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
    return new TokenCipher(key);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  decrypt(stored: string): string {
    const [version, iv, tag, body] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Not an encrypted token');
    const decipher = createDecipheriv(ALGORITHM, this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/* ---------- the member's tokens: stored encrypted, refreshed once when they rotate ---------- */


export interface TokenGrant {
  accessToken: string;
  refreshToken?: string;
  /** Seconds the access token lives (token rotation); absent: it does not expire. */
  expiresIn?: number;
}

interface Sealed {
  access: string;
  refresh?: string;
}

/** Refresh a little before the expiry, so a call does not race it. */
const REFRESH_MARGIN_MS = 60_000;

export class TokenVault {
  /** One refresh in flight per member: concurrent requests wait for it instead of refreshing again. */
  private readonly refreshing = new Map<string, Promise<string>>();

  constructor(
    private readonly deps: {
      store: Store;
      cipher: TokenCipher;
      caller: SlackCaller;
      clientId: string;
      clientSecret: string;
      now: () => number;
      logger: ServerLogger;
    },
  ) {}

  async save(workspaceId: string, userId: string, grant: TokenGrant): Promise<void> {
    const sealed: Sealed = { access: grant.accessToken };
    if (grant.refreshToken) sealed.refresh = grant.refreshToken;
    await this.deps.store.saveCredential({
      workspaceId,
      userId,
      secret: this.deps.cipher.encrypt(JSON.stringify(sealed)),
      expiresAt: grant.expiresIn ? this.deps.now() + grant.expiresIn * 1000 : null,
      updatedAt: this.deps.now(),
    });
  }

  /**
   * The member's working access token (refreshed first when it is about to expire); null
   * when there is none. `stale`: a token Slack just called expired; it is refreshed unless
   * another request already replaced it (then the replacement is answered).
   */
  async access(workspaceId: string, userId: string, stale?: string): Promise<string | null> {
    const key = `${workspaceId}\u0000${userId}`;
    const inFlight = this.refreshing.get(key);
    if (inFlight) return inFlight;
    const credential = await this.deps.store.getCredential(workspaceId, userId);
    if (!credential) return null;
    const sealed = JSON.parse(this.deps.cipher.decrypt(credential.secret)) as Sealed;
    // Refresh a minute before the expiry (a quarter of the lifetime for short-lived tokens).
    const margin = credential.expiresAt === null ? 0 : Math.min(REFRESH_MARGIN_MS, (credential.expiresAt - credential.updatedAt) / 4);
    const expiring = credential.expiresAt !== null && credential.expiresAt - margin <= this.deps.now();
    const refused = stale !== undefined && stale === sealed.access;
    if ((!expiring && !refused) || !sealed.refresh) return sealed.access;
    // Checked again after the await above: another request may have started the refresh meanwhile.
    const again = this.refreshing.get(key);
    if (again) return again;
    const refresh = this.refresh(workspaceId, userId, sealed.refresh).finally(() => this.refreshing.delete(key));
    this.refreshing.set(key, refresh);
    return refresh;
  }

  private async refresh(workspaceId: string, userId: string, refreshToken: string): Promise<string> {
    const answer = await this.deps.caller.call(undefined, 'oauth.v2.access', {
      client_id: this.deps.clientId,
      client_secret: this.deps.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    });
    const a = answer as { access_token?: string; refresh_token?: string; expires_in?: number; authed_user?: { access_token?: string; refresh_token?: string; expires_in?: number } };
    const accessToken = a.authed_user?.access_token ?? a.access_token;
    if (!accessToken) throw new Error('Slack answered a token refresh without a token');
    await this.save(workspaceId, userId, {
      accessToken,
      refreshToken: a.authed_user?.refresh_token ?? a.refresh_token ?? refreshToken,
      expiresIn: a.authed_user?.expires_in ?? a.expires_in,
    });
    this.deps.logger.log('info', 'Slack token refreshed', { workspace: workspaceId, user: userId });
    return accessToken;
  }

  /** The raw stored pair, for auth.revoke. */
  async sealed(workspaceId: string, userId: string): Promise<Sealed | null> {
    const credential = await this.deps.store.getCredential(workspaceId, userId);
    return credential ? (JSON.parse(this.deps.cipher.decrypt(credential.secret)) as Sealed) : null;
  }
}
