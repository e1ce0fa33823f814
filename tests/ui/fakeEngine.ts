/**
 * A stand-in for the worker's EngineApi (src/worker/api.ts) for page tests on happy-dom.
 *
 * Its type derives from EngineApi: every command is a vitest mock (same arguments, same result
 * types, always as promises, as they come through Comlink); those written out below answer what
 * the real engine answers, and any other answers a default (undefined; a stream that never emits),
 * so a new command is written once, in the engine. Streams take an observer
 * and hand back an unsubscribe handle that, like a Comlink proxy, can be released. Values
 * are pushed with `next`; a stream with a current value gives it to each new subscriber,
 * as the engine's BehaviorSubject-backed streams do.
 *
 * List windows, ids at slots, counts and facts come from the real EngineStore
 * (src/worker/store.ts), so rows, group headers and the in-view filter have the real
 * shapes and the real layout arithmetic; only the server and the transport are faked.
 */
import * as Comlink from 'comlink';
import type { RefineEvent, RefineMode, UnreadSummary } from '../../src/model/ai';
import { vi, type Mock } from 'vitest';
import { PREVIEW_LENGTH } from '../../src/model/constants';
import { FLAT_LAYOUT, type Layout } from '../../src/model/layout';
import { displayName, type ViewWindow } from '../../src/model/rows';
import type { AiCategory, ConversationSummary, LiveState, UserData } from '../../src/model/types';
import { setEngineForTests, type RemoteEngine } from '../../src/ui/engine';
import type { EngineApi, RemoteObserver, RemoteSubscription, Unsubscribe, ViewCounts } from '../../src/worker/api';
import type { ConversationDetail, IncomingMessage, LoadState } from '../../src/worker/engine';
import { markReadAndNext } from '../../src/worker/engine/reads';
import { EngineStore } from '../../src/worker/store';
import { conversationFacts } from '../../src/worker/engine/reads';
import { catchupStreams } from '../../src/worker/ai';
import { chooserCommands } from '../../src/worker/choosers';
import type { Observable } from 'rxjs';
import { BUILTIN_VIEWS, type View } from '../../src/model/views';

/** An unsubscribe handle as the page receives it: callable, and releasable like a Comlink proxy. */
export type Handle = Unsubscribe & { [Comlink.releaseProxy]: () => void };

type AsCommand<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
type AsStream<F> = F extends (...args: infer A) => unknown ? (...args: A) => Handle : never;

/** The API's streams, found by their answer (a subscription handle); every other method is a command. */
type StreamName = { [K in keyof EngineApi]: ReturnType<EngineApi[K]> extends RemoteSubscription ? K : never }[keyof EngineApi];
type CommandName = Exclude<keyof EngineApi, StreamName>;

/** The page's view of the engine: every command a vitest mock answering a promise, every stream an observer in and a handle out. */
export type FakeApi = { [K in CommandName]: Mock<AsCommand<EngineApi[K]>> } & { [K in StreamName]: AsStream<EngineApi[K]> };

/** Names a Promise, vitest or React may look up on any object: never a command. */
const NOT_COMMANDS = new Set(['then', 'toJSON', 'asymmetricMatch', 'constructor', '$$typeof', 'nodeType']);

const isObserver = (value: unknown): value is RemoteObserver<unknown> =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as RemoteObserver<unknown>).next === 'function' &&
  typeof (value as RemoteObserver<unknown>).complete === 'function';

/**
 * The API with a default for every method not written out: a vitest mock made on first use that,
 * called as a stream (an observer last), subscribes to a stream that never emits, and called as a
 * command answers undefined. A new command or stream of the engine needs nothing here.
 */
function withDefaults(written: Partial<FakeApi>): FakeApi {
  const made = new Map<string, Mock>();
  return new Proxy(written as FakeApi, {
    get(target, name, receiver) {
      if (typeof name === 'symbol' || name in target || NOT_COMMANDS.has(name)) return Reflect.get(target, name, receiver) as unknown;
      let fn = made.get(name);
      if (!fn) {
        fn = vi.fn((...args: unknown[]) => {
          const last = args[args.length - 1];
          return isObserver(last) ? new FakeStream<unknown>().subscribe(last) : Promise.resolve(undefined);
        });
        made.set(name, fn);
      }
      return fn;
    },
  });
}

/** An engine pipeline's observable as a remote stream: the observer in, a releasable handle out. */
function observe<T>(source: Observable<T>, observer: RemoteObserver<T>): Handle {
  const subscription = source.subscribe({
    next: (v) => observer.next(v),
    error: (e: Error) => observer.error({ name: e.name, message: e.message }),
    complete: () => observer.complete(),
  });
  const handle = (() => subscription.unsubscribe()) as Handle;
  handle[Comlink.releaseProxy] = () => undefined;
  return handle;
}

/** One engine stream: observers in, values out. */
export class FakeStream<T> {
  private readonly observers = new Set<RemoteObserver<T>>();
  /** How many subscriptions were ever opened, and how many handles were released. */
  opened = 0;
  released = 0;

  constructor(private current?: T) {}

  get value(): T | undefined {
    return this.current;
  }

  get subscribers(): number {
    return this.observers.size;
  }

  subscribe(observer: RemoteObserver<T>): Handle {
    this.opened += 1;
    this.observers.add(observer);
    if (this.current !== undefined) observer.next(this.current);
    const handle = (() => {
      this.observers.delete(observer);
    }) as Handle;
    handle[Comlink.releaseProxy] = () => {
      this.released += 1;
    };
    return handle;
  }

  next(value: T): void {
    this.current = value;
    for (const observer of [...this.observers]) observer.next(value);
  }

  error(error: { name: string; message: string }): void {
    for (const observer of [...this.observers]) observer.error(error);
  }
}

interface Range {
  viewId: string;
  start: number;
  end: number;
  layout: Layout;
  previewLength: number;
}

export interface FakeEngineOptions {
  conversations?: ConversationSummary[];
  users?: UserData[];
  me?: string;
  /** The load state at start (default: loaded, with the conversations given). */
  load?: LoadState;
  /** Push view counts by hand instead of computing them from the store. */
  viewCounts?: ViewCounts;
  /** The session's feature flags (default: what the engine answers when they cannot be read). */
  flags?: Record<string, boolean>;
  /** The member's views (default: the built-in ones). */
  views?: View[];
  /** The Ask AI start screen's unread summary. */
  unreadSummary?: UnreadSummary;
}

export function createFakeEngine(options: FakeEngineOptions = {}) {
  const store = new EngineStore({ warn: () => undefined });
  store.me = options.me ?? '';
  store.mergeUsers(Object.fromEntries((options.users ?? []).map((u) => [u.id, u])));
  store.addMany(options.conversations ?? []);

  const countsFromStore = (): ViewCounts => ({ total: store.counts(), unread: store.unreadCounts() });
  const manualCounts = options.viewCounts !== undefined;
  const n = store.conversations.size;
  const streams = {
    loadState: new FakeStream<LoadState>(options.load ?? { status: 'loaded', loaded: n, total: n }),
    viewCounts: new FakeStream<ViewCounts>(options.viewCounts ?? countsFromStore()),
    liveState: new FakeStream<LiveState>({ status: 'connected', attempt: 0 }),
    incoming: new FakeStream<IncomingMessage>(),
    views: new FakeStream<View[]>(options.views ?? [...BUILTIN_VIEWS]),
    unreadSummary: new FakeStream<UnreadSummary>(options.unreadSummary ?? { total: 0, urgent: 0, can_wait: 0, fyi: 0 }),
  };
  /* Refinements: each call opens a fresh stream (the latest is `refines.at(-1)`); tests push RefineEvents. */
  const refines: Array<{ text: string; mode: RefineMode; stream: FakeStream<RefineEvent> }> = [];

  /* List windows: the engine keeps one range per list key, re-sending its window when the range or the store changes. */
  const ranges = new Map<string, Range>();
  const windowStreams = new Map<string, FakeStream<ViewWindow>>();
  const windowOf = (range: Range) => store.window(range.viewId, range.start, range.end, range.layout, range.previewLength);
  const rangeOf = (key: string): Range => {
    let range = ranges.get(key);
    if (!range) ranges.set(key, (range = { viewId: 'inbox', start: 0, end: 0, layout: FLAT_LAYOUT, previewLength: PREVIEW_LENGTH }));
    return range;
  };
  const windowStream = (key: string) => {
    let stream = windowStreams.get(key);
    if (!stream) windowStreams.set(key, (stream = new FakeStream<ViewWindow>(windowOf(rangeOf(key)))));
    return stream;
  };

  /* Open conversations: one stream per id; tests push ConversationDetail values. */
  const conversationStreams = new Map<string, FakeStream<ConversationDetail>>();
  const conversation = (id: string) => {
    let stream = conversationStreams.get(id);
    if (!stream) conversationStreams.set(id, (stream = new FakeStream<ConversationDetail>()));
    return stream;
  };

  /** The store changed: re-send every window and the counts, as the engine does on a new store version. */
  const changed = () => {
    for (const [key, stream] of windowStreams) stream.next(windowOf(rangeOf(key)));
    if (!manualCounts) streams.viewCounts.next(countsFromStore());
  };

  const api = withDefaults({
    featureFlags: vi.fn<AsCommand<EngineApi['featureFlags']>>(async () => options.flags ?? { aiEnabled: false }),
    memberNames: vi.fn<AsCommand<EngineApi['memberNames']>>(async (id) => {
      const c = store.conversations.get(id);
      return c ? c.member_ids.filter((m) => m !== store.me).map((m) => displayName(store.users.get(m), m)) : [];
    }),
    reload: vi.fn<AsCommand<EngineApi['reload']>>(async () => undefined),
    refresh: vi.fn<AsCommand<EngineApi['refresh']>>(async () => null),
    markRead: vi.fn<AsCommand<EngineApi['markRead']>>(async (id) => {
      const c = store.conversations.get(id);
      if (!c) return false;
      store.applyMessageUpdate({
        action: 'channel_marked',
        conversation_id: id,
        unread_count: 0,
        unread_count_display: 0,
        last_read: c.latest_message?.ts ?? c.last_read,
      });
      changed();
      return true;
    }),
    markReadAndNext: vi.fn<AsCommand<EngineApi['markReadAndNext']>>((viewId, id, layout) => markReadAndNext(store, (x) => api.markRead(x), viewId, id, layout)),
    markUnread: vi.fn<AsCommand<EngineApi['markUnread']>>(async (id) => {
      if (!store.applyMessageUpdate({ action: 'channel_marked', conversation_id: id, unread_count: 1 })) return false;
      changed();
      return true;
    }),
    release: vi.fn<AsCommand<EngineApi['release']>>(async () => undefined),
    setCategory: vi.fn<AsCommand<EngineApi['setCategory']>>(async (id: string, category: AiCategory | null) => {
      if (!store.conversations.has(id)) return false;
      const fields = category ? { id, ai_category: category, ai_source: 'manual' } : { id, ai_category: null, ai_source: null, ai_reason: null };
      store.applyConversationUpdate({ conversation_id: id, conversation: fields as unknown as ConversationSummary });
      changed();
      return true;
    }),
    send: vi.fn<AsCommand<EngineApi['send']>>(async () => ({ ok: true })),
    facts: vi.fn<AsCommand<EngineApi['facts']>>(async (id) => conversationFacts(store, id)),
    idAt: vi.fn<AsCommand<EngineApi['idAt']>>(async (viewId, index, layout) => store.idAt(viewId, index, layout)),
    slotAt: vi.fn<AsCommand<EngineApi['slotAt']>>(async (viewId, index, layout) => store.slotAt(viewId, index, layout)),
    indexOf: vi.fn<AsCommand<EngineApi['indexOf']>>(async (viewId, id, layout) => store.indexOf(viewId, id, layout)),
    setWindow: vi.fn<AsCommand<EngineApi['setWindow']>>(async (key, viewId, start, end, opts = {}) => {
      const range: Range = {
        viewId,
        start: Math.max(0, start),
        end: Math.max(0, end),
        layout: opts.layout ?? FLAT_LAYOUT,
        previewLength: opts.previewLength ?? PREVIEW_LENGTH,
      };
      ranges.set(key, range);
      windowStreams.get(key)?.next(windowOf(range));
    }),

    ask: vi.fn<AsCommand<EngineApi['ask']>>(async () => ({ ok: false, error: 'No answer configured in this test' })),
    classifyUnread: vi.fn<AsCommand<EngineApi['classifyUnread']>>(async () => ({ ok: true, classified: 0, skipped: 0 })),
    setAiSort: vi.fn<AsCommand<EngineApi['setAiSort']>>(async () => undefined),
    catchupStart: vi.fn<AsCommand<EngineApi['catchupStart']>>(async () => ({
      success: true,
      sessionId: 's1',
      message: 'Ready',
      stats: { urgent: 0, can_wait: 0, fyi: 0, total: 0, cleared: 0 },
    })),
    catchupChat: vi.fn<AsCommand<EngineApi['catchupChat']>>(async () => ({ success: true, message: 'OK' })),
    catchupAnswer: vi.fn<AsCommand<EngineApi['catchupAnswer']>>(async () => ({ success: true, message: 'OK' })),
    catchupSession: vi.fn<AsCommand<EngineApi['catchupSession']>>(async () => ({ success: false, error: 'Failed to get session' })),
    catchupStats: vi.fn<AsCommand<EngineApi['catchupStats']>>(async () => ({ success: true, stats: { urgent: 0, can_wait: 0, fyi: 0, total: 0, cleared: 0 } })),
    catchupEnd: vi.fn<AsCommand<EngineApi['catchupEnd']>>(async () => ({ success: true })),
    transcribe: vi.fn<AsCommand<EngineApi['transcribe']>>(async () => ({ ok: true, transcript: '' })),
    /* The catch-up's steps: the engine's real pipelines over the AI calls above (mocks). */
    catchupBegin: (question, o) => observe(catchup.catchupBegin(question), o),
    catchupTurn: (input, o) => observe(catchup.catchupTurn(input), o),
    catchupUndo: (sessionId, marked, o) => observe(catchup.catchupUndo(sessionId, marked), o),
    /* The focus inbox's choosers: the worker's real ones over the store. */
    chooserWindow: vi.fn<AsCommand<EngineApi['chooserWindow']>>(async (...args) => choosers.chooserWindow(...args)),
    chooserIds: vi.fn<AsCommand<EngineApi['chooserIds']>>(async (...args) => choosers.chooserIds(...args)),
    chooserLabels: vi.fn<AsCommand<EngineApi['chooserLabels']>>(async (...args) => choosers.chooserLabels(...args)),
    refine: (text, mode, o) => {
      const stream = new FakeStream<RefineEvent>();
      refines.push({ text, mode, stream });
      return stream.subscribe(o);
    },
    unreadSummary: (o) => streams.unreadSummary.subscribe(o),
    loadState: (o) => streams.loadState.subscribe(o),
    viewCounts: (o) => streams.viewCounts.subscribe(o),
    liveState: (o) => streams.liveState.subscribe(o),
    incoming: (o) => streams.incoming.subscribe(o),
    views: (o) => streams.views.subscribe(o),
    viewWindow: (key, o) => windowStream(key).subscribe(o),
    conversation: (id, o) => conversation(id).subscribe(o),
  });

  const catchup = catchupStreams(api);
  const choosers = chooserCommands(store);

  setEngineForTests(Promise.resolve(api as unknown as RemoteEngine));
  return { api, store, streams, conversation, changed, refines };
}

export type FakeEngine = ReturnType<typeof createFakeEngine>;

/** A conversation summary with everything a list row needs; vary what the test is about. */
export function summary(over: Partial<ConversationSummary> & { id: string }): ConversationSummary {
  return {
    name: over.id.toLowerCase(),
    type: 'channel',
    is_private: false,
    member_ids: [],
    unread_count: 0,
    unread_count_display: 0,
    last_read: '',
    message_count: 1,
    latest_activity: 0,
    ...over,
  };
}
