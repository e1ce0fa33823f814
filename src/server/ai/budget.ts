/**
 * The per-member daily AI budget (issue 12 §2): each member may spend so many AI tokens per UTC
 * day (SIFT_AI_DAILY_TOKENS, 200,000 by default, 0 = unlimited). The tokens are what the
 * provider reports: the OpenAI API's `usage`, or an estimate (characters / 4) where a provider
 * reports none (the local one). The count is stored per member and day, so a restart keeps it.
 * Over budget, AI calls answer 429 with Retry-After until the next 00:00 UTC.
 */
import type { Store } from '../store/types';
import { AiError, type UsageMeter } from './types';

export const DEFAULT_DAILY_TOKENS = 200_000;
export const BUDGET_EXCEEDED_MESSAGE = "You have used today's AI allowance. It resets at 00:00 UTC.";

const DAY_MS = 86_400_000;

/** About one token per four characters: the estimate where a provider reports no usage. */
export function estimateTokens(...texts: string[]): number {
  return Math.ceil(texts.reduce((n, t) => n + t.length, 0) / 4);
}

/** '2026-11-20': the UTC day of an epoch ms. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whole seconds from `ms` to the next 00:00 UTC (at least 1). */
export function secondsToMidnight(ms: number): number {
  return Math.max(1, Math.ceil((Math.floor(ms / DAY_MS + 1) * DAY_MS - ms) / 1000));
}

export interface Member {
  workspaceId: string;
  userId: string;
}

export class AiBudget {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    /** Tokens per member per UTC day; 0: unlimited. */
    readonly dailyTokens: number = DEFAULT_DAILY_TOKENS,
  ) {}

  /** Throws AiError(429) with Retry-After until midnight when the member has used today's tokens. */
  async check(member: Member): Promise<void> {
    if (this.dailyTokens === 0) return;
    const now = this.now();
    if ((await this.store.aiTokensUsed(member.workspaceId, member.userId, utcDay(now))) >= this.dailyTokens) {
      throw new AiError(BUDGET_EXCEEDED_MESSAGE, 429, secondsToMidnight(now));
    }
  }

  /**
   * Runs AI work for the member: refused when over budget; the tokens the work reports through the
   * meter are counted afterwards, also when it fails or is aborted half way.
   */
  async spend<T>(member: Member, work: (meter: UsageMeter) => Promise<T>): Promise<T> {
    await this.check(member);
    const counter = tokenCounter();
    try {
      return await work(counter.meter);
    } finally {
      await this.record(member, counter.tokens());
    }
  }

  /** A stream of AI output for the member: refused before it starts when over budget, counted when it ends however it ends. */
  async stream<T>(member: Member, open: (meter: UsageMeter) => AsyncIterable<T>): Promise<AsyncIterable<T>> {
    await this.check(member);
    const record = (tokens: number) => this.record(member, tokens);
    return (async function* () {
      const counter = tokenCounter();
      try {
        yield* open(counter.meter);
      } finally {
        await record(counter.tokens());
      }
    })();
  }

  private async record(member: Member, tokens: number): Promise<void> {
    if (tokens > 0) await this.store.addAiTokens(member.workspaceId, member.userId, utcDay(this.now()), tokens);
  }
}

function tokenCounter(): { meter: UsageMeter; tokens(): number } {
  let total = 0;
  return {
    meter: (n) => {
      if (Number.isFinite(n) && n > 0) total += n;
    },
    tokens: () => total,
  };
}
