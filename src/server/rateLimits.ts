/**
 * Rate limits (issue 12 §2): named budgets per member (the session's workspace and user) and per address
 * (the connection's), each answering 429 with Retry-After and a text that says how long to wait.
 *
 * Budgets are fixed windows counted by rate-limiter-flexible's RateLimiterMemory, one limiter per name.
 * They are this process's own: once Sift runs several servers, the same library's RateLimiterPostgres (or
 * RateLimiterCluster) takes the same `consume` calls with the counts shared.
 *
 * The address is the TCP peer's. `X-Forwarded-For` is believed only when the operator says how many proxies
 * stand in front (SIFT_TRUST_PROXY), and then only the entry the outermost of them wrote; anything to its left
 * is the client's own words.
 */
import { isIPv6 } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppEnv } from './context';

/** A budget: at most `points` requests in each window of `seconds`. */
export interface RateLimit {
  points: number;
  seconds: number;
}

export const RATE_LIMIT_NAMES = ['signIn', 'waitlist', 'search', 'send', 'ask', 'catchup', 'refine', 'classify', 'transcribe', 'api'] as const;
export type RateLimitName = (typeof RATE_LIMIT_NAMES)[number];

/**
 * Budgets a fast keyboard user never reaches and a script soon does. The AI routes by cost: classifying every
 * unread conversation is the dearest, then an answer (search plus a model call with sources) and a transcription,
 * then a refinement or a catch-up turn. The general budget covers every authenticated API call.
 */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitName, RateLimit>> = {
  /** Per address: GET /auth/slack and its OAuth callback (a sign-in is one or two requests). */
  signIn: { points: 60, seconds: 600 },
  /** Per address: POST /api/waitlist/signup. */
  waitlist: { points: 30, seconds: 3600 },
  /** Per member: GET /api/search (the palette asks at most once per 300 ms pause in typing). */
  search: { points: 120, seconds: 60 },
  /** Per member: POST /api/messages/send (thread replies included). */
  send: { points: 60, seconds: 60 },
  /** Per member: POST /api/ask. */
  ask: { points: 20, seconds: 60 },
  /** Per member: starting a catch-up and each of its turns. */
  catchup: { points: 30, seconds: 60 },
  /** Per member: POST /api/messages/refine. */
  refine: { points: 30, seconds: 60 },
  /** Per member: POST /api/features/ai-sort/classify-unread. */
  classify: { points: 10, seconds: 600 },
  /** Per member: POST /api/features/voice-catchup/transcribe. */
  transcribe: { points: 20, seconds: 60 },
  /** Per member: every /api call. */
  api: { points: 1200, seconds: 60 },
};

export interface RateLimitConfig {
  /** No limits at all (SIFT_RATE_LIMITS=off, for load tests). */
  off?: boolean;
  /** Multiplies every default budget (SIFT_RATE_LIMITS=2 allows twice as many requests). */
  scale?: number;
  /** Budgets that replace the defaults exactly (not scaled). */
  limits?: Partial<Record<RateLimitName, RateLimit>>;
  /** How many proxies in front of Sift append to X-Forwarded-For (SIFT_TRUST_PROXY; 0: the header is ignored). */
  trustedProxies?: number;
}

/** Which budget a path spends, besides the member's general one; the method is not looked at (HEAD is GET). */
const BY_ADDRESS = new Map<string, RateLimitName>([
  ['/auth/slack', 'signIn'],
  ['/auth/slack/callback', 'signIn'],
  ['/api/waitlist/signup', 'waitlist'],
]);
const BY_MEMBER = new Map<string, RateLimitName>([
  ['/api/search', 'search'],
  ['/api/messages/send', 'send'],
  ['/api/ask', 'ask'],
  ['/api/features/voice-catchup/start', 'catchup'],
  ['/api/features/voice-catchup/chat', 'catchup'],
  ['/api/messages/refine', 'refine'],
  ['/api/features/ai-sort/classify-unread', 'classify'],
  ['/api/features/voice-catchup/transcribe', 'transcribe'],
]);

/** The two middlewares: `byAddress` anywhere before the routes, `byMember` after the session is known. */
export function rateLimits(config: RateLimitConfig = {}): { byAddress: MiddlewareHandler<AppEnv>; byMember: MiddlewareHandler<AppEnv> } {
  if (config.off) {
    const pass: MiddlewareHandler<AppEnv> = (_c, next) => next();
    return { byAddress: pass, byMember: pass };
  }
  const limiters = new Map(
    RATE_LIMIT_NAMES.map((name) => {
      const given = config.limits?.[name];
      const points = given ? given.points : Math.max(1, Math.round(DEFAULT_RATE_LIMITS[name].points * (config.scale ?? 1)));
      return [name, new RateLimiterMemory({ keyPrefix: name, points, duration: (given ?? DEFAULT_RATE_LIMITS[name]).seconds })];
    }),
  );
  /** Spends one point of `name` for `key`; a refusal when the budget is spent. */
  const spend = async (c: Context, name: RateLimitName | undefined, key: string): Promise<Response | null> => {
    if (!name) return null;
    try {
      await limiters.get(name)!.consume(key);
      return null;
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      c.header('Retry-After', String(seconds));
      return c.json({ error: `Too many requests. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.` }, 429);
    }
  };
  return {
    byAddress: async (c, next) => (await spend(c, BY_ADDRESS.get(c.req.path), clientAddress(c, config.trustedProxies ?? 0))) ?? next(),
    byMember: async (c, next) => {
      const session = c.get('session');
      if (!session) return next();
      const member = `${session.workspaceId}:${session.userId}`;
      return (await spend(c, 'api', member)) ?? (await spend(c, BY_MEMBER.get(c.req.path), member)) ?? next();
    },
  };
}

/** The key of the client's address: the connection's peer, or what the trusted proxies say it was. */
export function clientAddress(c: Context, trustedProxies: number): string {
  let address: string | undefined;
  try {
    address = getConnInfo(c).remote.address;
  } catch {
    // No socket (a request made inside the process, as tests do).
  }
  if (trustedProxies > 0) {
    // Each proxy appends the address it was reached from: the N-th entry from the right is the one the
    // outermost trusted proxy wrote; entries left of it are whatever the client sent.
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    if (hops.length > 0) address = hops[Math.max(0, hops.length - trustedProxies)];
  }
  return addressKey(address ?? 'unknown');
}

/** One key per client: an IPv4 address as it is (IPv4-mapped IPv6 too); IPv6 by its /64, which one client usually holds whole. */
export function addressKey(address: string): string {
  const plain = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return mapped[1]!;
  if (!isIPv6(plain)) return plain;
  const [head = '', tail] = plain.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * SIFT_RATE_LIMITS: empty or `on`: the defaults; `off`: none; otherwise comma-separated items, each a scale
 * factor (`2`) or one budget `name=points/seconds` (`ask=10/60`). SIFT_TRUST_PROXY: the number of proxies in front (0).
 */
export function rateLimitsFromEnv(env: NodeJS.ProcessEnv): RateLimitConfig {
  const proxies = (env.SIFT_TRUST_PROXY ?? '').trim() || '0';
  if (!/^\d+$/.test(proxies)) throw new Error(`SIFT_TRUST_PROXY must be the number of proxies in front of Sift, not ${env.SIFT_TRUST_PROXY}`);
  const config: RateLimitConfig = {};
  const raw = (env.SIFT_RATE_LIMITS ?? '').trim();
  if (raw === 'off') config.off = true;
  else if (raw !== '' && raw !== 'on') {
    const bad = (item: string) =>
      new Error(`SIFT_RATE_LIMITS: ${item} is not off, a positive scale factor, or name=points/seconds (names: ${RATE_LIMIT_NAMES.join(', ')})`);
    for (const item of raw.split(',').map((i) => i.trim())) {
      const budget = /^(\w+)=(\d+)\/(\d+(?:\.\d+)?)$/.exec(item);
      if (budget) {
        const [, name, points, seconds] = budget;
        if (!(RATE_LIMIT_NAMES as readonly string[]).includes(name!) || Number(points) < 1 || Number(seconds) <= 0) throw bad(item);
        config.limits = { ...config.limits, [name!]: { points: Number(points), seconds: Number(seconds) } };
      } else if (/^\d+(\.\d+)?$/.test(item) && Number(item) > 0) config.scale = Number(item);
      else throw bad(item);
    }
  }
  config.trustedProxies = Number(proxies);
  return config;
}
