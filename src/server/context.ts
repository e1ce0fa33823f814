/**
 * What the server's parts share: the injected dependencies (store, workspace source, clock, hub, logger, AI),
 * the configuration, and the request context's variables. Routes and middleware take their types from here;
 * app.ts (the composition root, which nothing in src imports but main.ts, the other root) builds them (issue 15 §1).
 */
import type { AiService } from './ai/service';
import type { AiProvider } from './ai/types';
import type { LiveHub } from './live/hub';
import type { ServerLogger } from './log';
import type { RateLimitConfig } from './rateLimits';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from './sessions';
import type { SessionCookie } from './auth';
import type { WorkspaceSource } from './sources/types';
import type { Session, Store } from './store/types';

export interface Clock {
  now(): number;
}

export interface AppConfig {
  /** Where the built client lives; without it only the API is served. */
  staticDir?: string;
  /** Sift's public address (SIFT_PUBLIC_URL): its origin is the one a cookie-authenticated change must come from. */
  publicUrl?: string;
  /** Models /api/ask may be asked to use besides the provider's own (SIFT_AI_MODELS). */
  aiModels?: string[];
  /** AI tokens each member may use per UTC day (SIFT_AI_DAILY_TOKENS; 200,000 by default; 0: unlimited). */
  aiDailyTokens?: number;
  /** Session lifetimes (default: 30 days from sign-in, 7 days unused). */
  sessions?: SessionLimits;
  /** Rate limits per member and address (default: DEFAULT_RATE_LIMITS; SIFT_RATE_LIMITS, SIFT_TRUST_PROXY). */
  rateLimits?: RateLimitConfig;
  heartbeatMs?: number;
  /** Feature switches (SPEC §3 feature flags); the user profile is on unless turned off. */
  features?: { userProfile?: boolean };
  demo?: { seed: number; size: string };
}

export interface AppDeps {
  store: Store;
  source: WorkspaceSource;
  clock: Clock;
  hub?: LiveHub;
  logger?: ServerLogger;
  config?: AppConfig;
  /** The AI provider; absent: the local one; null: no AI (the aiEnabled flag is off and AI calls answer 503). */
  ai?: AiProvider | null;
}

export interface AppEnv {
  Variables: { session: Session; tokenHash: string };
}

export type AppContext = Required<Pick<AppDeps, 'store' | 'source' | 'clock' | 'hub' | 'logger'>> & {
  config: AppConfig;
  ai: AiService | null;
  /** The session cookie's name and flags (`__Host-` and Secure over https). */
  cookie: SessionCookie;
};

/** What the session checks need of the app. */
export function sessionDeps(ctx: AppContext) {
  return { store: ctx.store, hub: ctx.hub, now: () => ctx.clock.now(), limits: ctx.config.sessions ?? DEFAULT_SESSION_LIMITS };
}
