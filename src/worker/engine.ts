/**
 * The engine, composed from its parts (one file each under engine/):
 *   core.ts                the shared hub: store and its version, HTTP and AI clients, load state, event signals
 *   session.ts             who is signed in; per session the live connection, its events and the loads
 *   snapshot.ts            the snapshot in pages, views, reload and refresh, starting from a saved state
 *   copy.ts                the local copy: a start from it, its saves, the last session, its wipe
 *   outbox.ts              actions taken offline, kept and sent in order when the connection returns
 *   events.ts              one live event applied to the store, the open conversation and notifications
 *   conversationDetail.ts  the open conversation's stream
 *   search.ts              the search palette
 *   windows.ts             list windows, counts, views, the unread summary
 *   reads.ts, commands.ts  one-shot reads and the member's writes
 *
 * It answers `{ commands, streams }`: commands are plain (sync or async) functions, streams are
 * functions answering an Observable. api.ts builds the one Comlink API from them generically, so a
 * new command or stream is written once, here or in its part. `store` and `sync` are for tests and the
 * local copy (issue 14 §2): `sync.storeVersion$` ticks on every store change, `sync.sequence$` is the
 * sequence the store is up to date with; EngineOptions.savedState is where a session starts from a copy.
 */
import { NEVER, distinctUntilChanged, map, merge, of, skipWhile, type Observable } from 'rxjs';
import type { LiveState } from '../model/types';
import { createCommands } from './engine/commands';
import { createConversationDetail } from './engine/conversationDetail';
import { createCopy } from './engine/copy';
import { createCore } from './engine/core';
import { createEvents } from './engine/events';
import { createOutbox, type Refusal } from './engine/outbox';
import { createReads } from './engine/reads';
import { createSearch } from './engine/search';
import { createSession } from './engine/session';
import { createSnapshot } from './engine/snapshot';
import type { EngineOptions } from './engine/types';
import { createWindows } from './engine/windows';

export type { ConversationDetail, EngineOptions, IncomingMessage, LoadState, LoadStatus, SavedState, SendResult, ViewCounts, ViewInput } from './engine/types';

export function createEngine(options: EngineOptions) {
  const core = createCore({ ...options });
  // The local copy (issue 14 §2): kept wherever there is IndexedDB (the browser's worker), unless turned off.
  const copy = (options.localCopy ?? typeof indexedDB !== 'undefined') ? createCopy(core) : null;
  if (copy) core.options.savedState ??= copy.savedState;
  const snapshot = createSnapshot(core);
  const events = createEvents(core);
  const session = createSession(core, snapshot, events, copy);
  // Actions taken offline wait in the outbox and go when the live connection is up (issue 14 §3).
  const outbox = copy ? createOutbox(core, session.streams.liveState().pipe(map((state) => state.status === 'connected'))) : null;
  const detail = createConversationDetail(core);
  const search = createSearch(core);
  const windows = createWindows(core);
  const { refine$, ...ai } = core.ai;

  return {
    commands: {
      ...session.commands,
      ...snapshot.commands,
      ...createCommands(core, outbox),
      ...createReads(core),
      ...search.commands,
      ...windows.commands,
      featureFlags: core.featureFlags,
      /* AI (SPEC §7.4, §7.8): results carry their error text, so the page never sees a thrown error */
      ...ai,
    },
    streams: {
      ...session.streams,
      loadState: () => core.load$.asObservable(),
      incoming: () => events.incoming$,
      ...detail.streams,
      ...search.streams,
      ...windows.streams,
      ...(outbox ? outbox.streams : { outboxSize: () => of(0), outboxRefused: () => NEVER as Observable<Refusal> }),
      /**
       * When the member's data last matched the server (issue 14 §3, the offline status): the moment the live
       * stream last dropped, or, before it ever connected, when the local copy was saved; null: never.
       */
      lastSynced: () => lastSynced(session.streams.liveState(), copy),
      /** A refinement as it streams: {chunk}…, then {done, text} or {error}; unsubscribing cancels it. */
      refine: refine$,
    },
    store: core.store,
    sync: { storeVersion$: core.storeVersion$.asObservable(), sequence$: core.sequence$.asObservable() },
    dispose: () => {
      session.dispose();
      outbox?.dispose();
      copy?.dispose();
    },
  };
}

/** The last moment the stream was up (a drop ends it), starting from the copy's save time. */
function lastSynced(liveState$: Observable<LiveState>, copy: ReturnType<typeof createCopy> | null): Observable<number | null> {
  const connected$ = liveState$.pipe(
    map((state) => state.status === 'connected'),
    // Before the first connection nothing is synced beyond the copy.
    skipWhile((connected) => !connected),
    distinctUntilChanged(),
    // Connected: synced now; dropped: synced until now. Either way the moment is now.
    map(() => Date.now()),
  );
  return merge(copy ? copy.savedAt$ : of(null), connected$);
}

export type Engine = ReturnType<typeof createEngine>;
