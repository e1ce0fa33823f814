/**
 * Slack tokens at rest: AES-256-GCM under a key derived from SIFT_SECRET, or, without it,
 * a random key generated once into `<dataDir>/secret.key` (mode 0600). A stored value is
 * `v2:<keyId>:<iv>:<tag>:<data>` (base64url parts): the key id is a short hash of the key (never
 * the key), so SIFT_SECRET can be rotated, and the AES-GCM additional data is the value's own
 * (workspace, user) row, so a value copied into another member's row does not decrypt there.
 * The database never holds a usable token, and a tampered value fails instead of yielding garbage.
 *
 * The previous version wrote `v1.<iv>.<tag>.<data>`: unbound and without a key id. Such a value
 * is read only by the startup pass (TokenVault.upgradeAll), which re-encrypts it, bound, in the
 * row where it finds it; on the request path it is refused like any value that does not open.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, scryptSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceCredential, Store } from '../../store/types';
import type { ServerLogger } from '../../log';
import type { SlackCaller } from './client';
import { SourceError } from '../../errors';

const ALGORITHM = 'aes-256-gcm';
/** The scrypt salt of a secret's key; unchanged since v1, so a secret derives the key it always did. */
const SALT = 'sift-slack-token-key-v1';
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** The row a stored token belongs to. */
export interface TokenRow {
  workspaceId: string;
  userId: string;
}

/** Why a stored token does not open. Logged (with the key id, never the token) and treated as missing. */
export type UnreadableReason = 'malformed' | 'unknown_key' | 'not_this_row' | 'legacy_format';

export class TokenUnreadable extends SourceError {
  constructor(
    readonly reason: UnreadableReason,
    readonly keyId?: string,
  ) {
    super(`Stored token unreadable: ${reason}`);
  }
}

/** AES-GCM additional data: the row, unambiguous (JSON, so no id can borrow the other's characters). */
const rowData = (row: TokenRow) => Buffer.from(JSON.stringify(['sift/slack-token/v2', row.workspaceId, row.userId]), 'utf8');

/** One key and its id. */
export class TokenCipher {
  /** 12 hex digits of SHA-256 over a label and the key: names the key, and tells nothing of it. */
  readonly keyId: string;

  private constructor(private readonly key: Buffer) {
    this.keyId = createHash('sha256').update('sift/token-key-id\0').update(key).digest('hex').slice(0, 12);
  }

  /** A key from a passphrase (SIFT_SECRET, or one of SIFT_SECRET_PREVIOUS); scrypt, so a short secret is not a cheap guess. */
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

  /** `v2:<keyId>:<iv>:<tag>:<data>`, opening only in `row`. */
  encrypt(plain: string, row: TokenRow): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, this.key, iv);
    cipher.setAAD(rowData(row));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v2', this.keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(':');
  }

  /** A v2 value of `row` under this key; throws TokenUnreadable. */
  decrypt(stored: string, row: TokenRow): string {
    const value = parseStored(stored);
    if (value.version !== 'v2') throw new TokenUnreadable('legacy_format');
    if (value.keyId !== this.keyId) throw new TokenUnreadable('unknown_key', value.keyId);
    return this.open(value, rowData(row), 'not_this_row');
  }

  /** A value of the previous, unbound format (`v1.…`) under this key; throws TokenUnreadable. */
  decryptLegacy(stored: string): string {
    const value = parseStored(stored);
    if (value.version !== 'v1') throw new TokenUnreadable('malformed');
    return this.open(value, null, 'unknown_key');
  }

  private open(value: Parsed, aad: Buffer | null, failure: UnreadableReason): string {
    try {
      const decipher = createDecipheriv(ALGORITHM, this.key, value.iv);
      if (aad) decipher.setAAD(aad);
      decipher.setAuthTag(value.tag);
      return Buffer.concat([decipher.update(value.body), decipher.final()]).toString('utf8');
    } catch {
      // The tag does not match: under the right key (its id says so), the row is not this one
      // (or the value was altered); a legacy value names no key, so it was not this key.
      throw new TokenUnreadable(failure, value.keyId);
    }
  }
}

interface Parsed {
  version: 'v1' | 'v2';
  keyId?: string;
  iv: Buffer;
  tag: Buffer;
  body: Buffer;
}

function parseStored(stored: string): Parsed {
  const v2 = stored.split(':');
  const v1 = stored.split('.');
  let parsed: { version: 'v1' | 'v2'; keyId?: string; parts: string[] } | null = null;
  if (v2.length === 5 && v2[0] === 'v2') parsed = { version: 'v2', keyId: v2[1], parts: v2.slice(2) };
  else if (v1.length === 4 && v1[0] === 'v1') parsed = { version: 'v1', parts: v1.slice(1) };
  if (!parsed || !parsed.parts.every((p) => BASE64URL.test(p)) || (parsed.keyId !== undefined && !/^[0-9a-f]{12}$/.test(parsed.keyId))) {
    throw new TokenUnreadable('malformed');
  }
  const [iv, tag, body] = parsed.parts.map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
  if (iv.length !== 12 || tag.length !== 16) throw new TokenUnreadable('malformed', parsed.keyId);
  return { version: parsed.version, keyId: parsed.keyId, iv, tag, body };
}

/**
 * The current key (SIFT_SECRET or the key file), which writes, and the previous ones
 * (SIFT_SECRET_PREVIOUS), which only read. `stale`: the value should be re-encrypted under the
 * current key (it was under a previous one, or in the unbound format).
 */
export class TokenKeyring {
  private readonly byId = new Map<string, TokenCipher>();

  constructor(
    readonly current: TokenCipher,
    previous: readonly TokenCipher[] = [],
  ) {
    for (const cipher of [current, ...previous]) if (!this.byId.has(cipher.keyId)) this.byId.set(cipher.keyId, cipher);
  }

  encrypt(plain: string, row: TokenRow): string {
    return this.current.encrypt(plain, row);
  }

  /** Opens a stored value in `row`; `legacy` also accepts the unbound format (the startup pass only). Throws TokenUnreadable. */
  decrypt(stored: string, row: TokenRow, options: { legacy?: boolean } = {}): { plain: string; stale: boolean } {
    if (stored.startsWith('v1.')) {
      if (!options.legacy) throw new TokenUnreadable('legacy_format');
      for (const cipher of this.byId.values()) {
        try {
          return { plain: cipher.decryptLegacy(stored), stale: true };
        } catch (error) {
          if (!(error instanceof TokenUnreadable) || error.reason !== 'unknown_key') throw error;
        }
      }
      throw new TokenUnreadable('unknown_key');
    }
    const keyId = parseStored(stored).keyId!;
    const cipher = this.byId.get(keyId);
    if (!cipher) throw new TokenUnreadable('unknown_key', keyId);
    return { plain: cipher.decrypt(stored, row), stale: cipher !== this.current };
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
      keys: TokenKeyring;
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
      secret: this.deps.keys.encrypt(JSON.stringify(sealed), { workspaceId, userId }),
      expiresAt: grant.expiresIn ? this.deps.now() + grant.expiresIn * 1000 : null,
      updatedAt: this.deps.now(),
    });
  }

  /**
   * The startup pass: every stored token under a previous key, or in the previous unbound
   * format, is re-encrypted under the current key in its own row. After it the database holds
   * only values bound to their rows under the current key, so the request path never accepts an
   * unbound one, and SIFT_SECRET_PREVIOUS can be dropped after one restart (even for members
   * who do not come back). Values that open under no key are logged and left as they are.
   */
  async upgradeAll(): Promise<{ rows: number; upgraded: number; unreadable: number }> {
    const credentials = await this.deps.store.listCredentials();
    let upgraded = 0;
    let unreadable = 0;
    const current = `v2:${this.deps.keys.current.keyId}:`;
    for (const credential of credentials) {
      // Already under the current key: nothing to do (whether it opens in its row is checked on every read).
      if (credential.secret.startsWith(current)) continue;
      const read = this.read(credential, true);
      if (!read) unreadable++;
      else if (read.stale && (await this.reseal(credential, read.sealed))) upgraded++;
    }
    if (upgraded > 0 || unreadable > 0) {
      this.deps.logger.log(unreadable > 0 ? 'warn' : 'info', 'Slack tokens re-encrypted under the current key', {
        rows: credentials.length,
        upgraded,
        unreadable,
        keyId: this.deps.keys.current.keyId,
      });
    }
    return { rows: credentials.length, upgraded, unreadable };
  }

  /**
   * The member's working access token (refreshed first when it is about to expire); null
   * when there is none, or none that opens in this member's row. `stale`: a token Slack just
   * called expired; it is refreshed unless another request already replaced it (then the
   * replacement is answered).
   */
  async access(workspaceId: string, userId: string, stale?: string): Promise<string | null> {
    const key = `${workspaceId}\u0000${userId}`;
    const inFlight = this.refreshing.get(key);
    if (inFlight) return inFlight;
    const credential = await this.deps.store.getCredential(workspaceId, userId);
    const sealed = await this.open(credential);
    if (!credential || !sealed) return null;
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
    const a = answer as {
      access_token?: string;
      refresh_token?: string;
      expires_in?: number;
      authed_user?: { access_token?: string; refresh_token?: string; expires_in?: number };
    };
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

  /** The raw stored pair, for auth.revoke; null as in access(). */
  async sealed(workspaceId: string, userId: string): Promise<Sealed | null> {
    return this.open(await this.deps.store.getCredential(workspaceId, userId));
  }

  /** The pair of a stored row on the request path (bound values only); one under a previous key is re-encrypted under the current one. */
  private async open(credential: SourceCredential | null): Promise<Sealed | null> {
    const read = credential && this.read(credential, false);
    if (!read) return null;
    if (read.stale) await this.reseal(credential, read.sealed);
    return read.sealed;
  }

  /** Decrypts a row's value in that row; one that does not open is logged (never the value) and treated as missing. */
  private read(credential: SourceCredential, legacy: boolean): { sealed: Sealed; stale: boolean } | null {
    const row = { workspaceId: credential.workspaceId, userId: credential.userId };
    try {
      const { plain, stale } = this.deps.keys.decrypt(credential.secret, row, { legacy });
      let sealed: Sealed;
      try {
        sealed = JSON.parse(plain) as Sealed;
      } catch {
        throw new TokenUnreadable('malformed');
      }
      if (typeof sealed?.access !== 'string') throw new TokenUnreadable('malformed');
      return { sealed, stale };
    } catch (error) {
      if (!(error instanceof TokenUnreadable)) throw error;
      this.deps.logger.log('warn', 'Stored Slack token unreadable; treated as missing (the member signs in again)', {
        workspace: credential.workspaceId,
        user: credential.userId,
        reason: error.reason,
        ...(error.keyId ? { keyId: error.keyId } : {}),
      });
      return null;
    }
  }

  /** Writes the pair again under the current key, unless the row changed since it was read (a refresh, a new sign-in). */
  private async reseal(credential: SourceCredential, sealed: Sealed): Promise<boolean> {
    const row = { workspaceId: credential.workspaceId, userId: credential.userId };
    return this.deps.store.replaceCredentialSecret(row.workspaceId, row.userId, credential.secret, this.deps.keys.encrypt(JSON.stringify(sealed), row));
  }
}
