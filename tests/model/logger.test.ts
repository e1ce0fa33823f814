import { describe, expect, it, vi } from 'vitest';
import { ERROR_LOG_CAP, SLOW_OPERATION_MS } from '../../src/model/constants';
import {
  appendFatal,
  createLogger,
  LOG_LEVELS,
  memoryLogger,
  minLevelFor,
  silenceConsole,
  type ConsoleLike,
  type FatalEntry,
  type FatalStore,
  type LoggerOptions,
  type LogLevel,
} from '../../src/model/logger';

const FAKE_NOW = Date.UTC(2024, 2, 15, 12, 0, 0);

function fakeConsole() {
  return { log: vi.fn(), info: vi.fn(), debug: vi.fn(), trace: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies ConsoleLike;
}

function memoryStore(initial: FatalEntry[] = []): FatalStore & { entries: FatalEntry[] } {
  const store = {
    entries: initial,
    read: () => store.entries,
    write: (entries: FatalEntry[]) => {
      store.entries = entries;
    },
  };
  return store;
}

function setup(overrides: Partial<LoggerOptions> = {}) {
  const out = fakeConsole();
  const clock = { now: FAKE_NOW };
  const logger = createLogger({ debug: false, console: out, now: () => clock.now, ...overrides });
  return { out, clock, logger };
}

/** How many console lines each level wrote. */
function written(out: ReturnType<typeof fakeConsole>) {
  const all = [
    ...out.log.mock.calls,
    ...out.info.mock.calls,
    ...out.debug.mock.calls,
    ...out.trace.mock.calls,
    ...out.warn.mock.calls,
    ...out.error.mock.calls,
  ];
  return all.map((args) => String(args[0]));
}

describe('levels', () => {
  it('orders the six SPEC levels', () => {
    expect(LOG_LEVELS).toEqual(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
  });

  it.each<[boolean, LogLevel]>([
    [false, 'warn'],
    [true, 'info'],
  ])('debug %s: minimum level %s', (debug, min) => {
    expect(minLevelFor(debug)).toBe(min);
    expect(setup({ debug }).logger.minLevel).toBe(min);
  });

  it.each<[LogLevel, boolean, boolean]>([
    // level, written with debug off, written with debug on
    ['trace', false, false],
    ['debug', false, false],
    ['info', false, true],
    ['warn', true, true],
    ['error', true, true],
    ['fatal', true, true],
  ])('%s is written: debug off %s, debug on %s', (level, whenOff, whenOn) => {
    for (const [debug, expected] of [
      [false, whenOff],
      [true, whenOn],
    ] as const) {
      const { out, logger } = setup({ debug });
      expect(logger.enabled(level)).toBe(expected);
      logger[level]('hello', { n: 1 });
      const lines = written(out);
      expect(lines).toEqual(expected ? [`[${level}] hello`] : []);
    }
  });

  it('sends warn to console.warn, error and fatal to console.error, info to console.info, with the metadata', () => {
    const { out, logger } = setup({ debug: true });
    logger.info('i');
    logger.warn('w', { a: 1 });
    logger.error('e', 'meta');
    logger.fatal('f');
    expect(out.info).toHaveBeenCalledWith('[info] i');
    expect(out.warn).toHaveBeenCalledWith('[warn] w', { a: 1 });
    expect(out.error).toHaveBeenNthCalledWith(1, '[error] e', 'meta');
    expect(out.error).toHaveBeenNthCalledWith(2, '[fatal] f');
    expect(out.log).not.toHaveBeenCalled();
  });
});

describe('fatal entries', () => {
  it('are stored with timestamp, message, metadata, page address and browser agent', () => {
    const store = memoryStore();
    const { logger, out } = setup({ fatalStore: store, url: () => 'http://localhost/inbox', userAgent: 'TestAgent/1.0' });
    logger.fatal('Engine crashed', { code: 42 });
    expect(store.entries).toEqual([
      {
        timestamp: '2024-03-15T12:00:00.000Z',
        message: 'Engine crashed',
        metadata: { code: 42 },
        url: 'http://localhost/inbox',
        userAgent: 'TestAgent/1.0',
      },
    ]);
    expect(out.error).toHaveBeenCalledWith('[fatal] Engine crashed', { code: 42 });
  });

  it.each<LogLevel>(['trace', 'debug', 'info', 'warn', 'error'])('%s is not stored', (level) => {
    const store = memoryStore();
    setup({ debug: true, fatalStore: store }).logger[level]('x');
    expect(store.entries).toEqual([]);
  });

  it(`keeps only the latest ${ERROR_LOG_CAP}`, () => {
    expect(ERROR_LOG_CAP).toBe(50);
    const store = memoryStore();
    const { logger, clock } = setup({ fatalStore: store });
    for (let i = 0; i < 57; i++) {
      clock.now = FAKE_NOW + i * 1000;
      logger.fatal(`m${i}`);
    }
    expect(store.entries).toHaveLength(50);
    expect(store.entries[0]!.message).toBe('m7');
    expect(store.entries[49]!.message).toBe('m56');
    expect(store.entries.map((e) => e.message)).toEqual(Array.from({ length: 50 }, (_, i) => `m${i + 7}`));
    expect(store.entries[49]!.timestamp).toBe(new Date(FAKE_NOW + 56_000).toISOString());
  });

  it('appends to what the store already holds', () => {
    const old: FatalEntry = { timestamp: '2024-01-01T00:00:00.000Z', message: 'old' };
    const store = memoryStore([old]);
    setup({ fatalStore: store }).logger.fatal('new');
    expect(store.entries.map((e) => e.message)).toEqual(['old', 'new']);
  });

  it.each([
    [0, 1],
    [49, 50],
    [50, 50],
    [80, 50],
  ])('appendFatal to %i entries leaves %i, the new one last', (before, after) => {
    const entries = Array.from({ length: before }, (_, i) => ({ timestamp: '', message: `e${i}` }));
    const next = appendFatal(entries, { timestamp: '', message: 'new' });
    expect(next).toHaveLength(after);
    expect(next[next.length - 1]!.message).toBe('new');
    expect(entries).toHaveLength(before);
  });

  it('still writes the console line when the store throws', () => {
    const store: FatalStore = {
      read: () => [],
      write: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const { logger, out } = setup({ fatalStore: store });
    expect(() => logger.fatal('boom')).not.toThrow();
    expect(out.error).toHaveBeenCalledWith('[fatal] boom');
  });
});

describe('time() and timeAsync()', () => {
  it.each([
    [0, false],
    [SLOW_OPERATION_MS, false],
    [SLOW_OPERATION_MS + 1, true],
    [5_000, true],
  ])('an operation of %i ms warns: %s', (ms, warns) => {
    expect(SLOW_OPERATION_MS).toBe(1000);
    const { logger, clock, out } = setup();
    const result = logger.time('load', () => {
      clock.now += ms;
      return 'value';
    });
    expect(result).toBe('value');
    if (warns) {
      expect(out.warn).toHaveBeenCalledTimes(1);
      expect(out.warn.mock.calls[0]![0]).toBe(`[warn] Slow operation: load took ${ms} ms`);
      expect(out.warn.mock.calls[0]![1]).toEqual({ operation: 'load', ms });
    } else {
      expect(out.warn).not.toHaveBeenCalled();
    }
  });

  it.each([
    [SLOW_OPERATION_MS, false],
    [SLOW_OPERATION_MS + 1, true],
  ])('an async operation of %i ms warns: %s', async (ms, warns) => {
    const { logger, clock, out } = setup();
    const result = await logger.timeAsync('fetch', async () => {
      await Promise.resolve();
      clock.now += ms;
      return 7;
    });
    expect(result).toBe(7);
    expect(out.warn).toHaveBeenCalledTimes(warns ? 1 : 0);
    if (warns) expect(String(out.warn.mock.calls[0]![0])).toContain('fetch');
  });

  it('rethrows a failure, and still warns when it was slow', async () => {
    const { logger, clock, out } = setup();
    expect(() =>
      logger.time('sync', () => {
        clock.now += 2_000;
        throw new Error('nope');
      }),
    ).toThrow('nope');
    await expect(
      logger.timeAsync('async', async () => {
        clock.now += 2_000;
        throw new Error('nope async');
      }),
    ).rejects.toThrow('nope async');
    expect(out.warn).toHaveBeenCalledTimes(2);
  });
});

describe('silenceConsole', () => {
  it('with debug off silences log, info, debug and trace, keeps warn and error, and restores', () => {
    const target = fakeConsole();
    const original = { ...target };
    const restore = silenceConsole(target, false);
    target.log('a');
    target.info('b');
    target.debug('c');
    target.trace('d');
    target.warn('e');
    target.error('f');
    expect(original.log).not.toHaveBeenCalled();
    expect(original.info).not.toHaveBeenCalled();
    expect(original.debug).not.toHaveBeenCalled();
    expect(original.trace).not.toHaveBeenCalled();
    expect(original.warn).toHaveBeenCalledWith('e');
    expect(original.error).toHaveBeenCalledWith('f');
    expect(target.warn).toBe(original.warn);
    expect(target.error).toBe(original.error);

    restore();
    expect(target).toEqual(original);
    for (const key of ['log', 'info', 'debug', 'trace'] as const) expect(target[key]).toBe(original[key]);
    target.log('after');
    expect(original.log).toHaveBeenCalledWith('after');
  });

  it('with debug on changes nothing', () => {
    const target = fakeConsole();
    const original = { ...target };
    const restore = silenceConsole(target, true);
    for (const key of ['log', 'info', 'debug', 'trace', 'warn', 'error'] as const) expect(target[key]).toBe(original[key]);
    target.info('x');
    expect(original.info).toHaveBeenCalledWith('x');
    restore();
    expect(target.info).toBe(original.info);
  });
});

describe('memoryLogger', () => {
  it('records every level with its metadata', () => {
    const log = memoryLogger();
    log.trace('t');
    log.fatal('f', { x: 1 });
    expect(log.entries).toEqual([
      { level: 'trace', message: 't', meta: undefined },
      { level: 'fatal', message: 'f', meta: { x: 1 } },
    ]);
    expect(log.time('op', () => 3)).toBe(3);
  });
});
