/** The catch-up pipelines' calls for marble tests: each answers what the test gives it, and is logged. */
import type { Observable } from 'rxjs';
import type { CatchupIo } from '../../src/streams/catchupTurn';

/** The calls, each answering what the test gives it; any other call fails the test. */
export function ioOf(calls: Partial<{ [K in keyof CatchupIo]: (...args: Parameters<CatchupIo[K]>) => Observable<unknown> }>): CatchupIo & { log: string[] } {
  const log: string[] = [];
  const io = {} as Record<string, unknown>;
  for (const name of ['start', 'chat', 'answer', 'ask', 'stats', 'end', 'markUnread'] as const) {
    io[name] = (...args: unknown[]) => {
      log.push(`${name}(${args.join(', ')})`);
      const run = calls[name] as ((...a: unknown[]) => Observable<unknown>) | undefined;
      if (!run) throw new Error(`unexpected ${name}`);
      return run(...args);
    };
  }
  return Object.assign(io as unknown as CatchupIo, { log });
}
