/**
 * Between the engine's store and the local copy (issue 14 §2): paint the store from a saved copy at
 * start, and save what changed as the store changes.
 *
 * - The copy is saved only while the store holds a whole, consistent state (`ready`: the snapshot is
 *   loaded and no replay is under way), with the sequence it is up to date with: a copy saved in the
 *   middle of a first load would lack conversations, and a start from it would never fetch them.
 * - What changed is found by identity: the store replaces a conversation's or a person's record when
 *   it changes, so a record not `===` to the one saved last is saved again (one pass over the map,
 *   ~1 ms at 100,000 conversations), and a saved id the store no longer has is removed.
 * - Saves are serialized (one transaction at a time) and batched: the store changes many times a
 *   second under a burst of live events; the copy is written at most once per `delayMs`.
 */
import { EMPTY, Observable, auditTime, catchError, concatMap, defer, filter, from, ignoreElements, type SchedulerLike } from 'rxjs';
import type { Logger } from '../model/logger';
import type { ConversationSummary, Message, UserData } from '../model/types';
import type { View } from '../model/views';
import type { LocalCopy, CopyChanges, CopyHead, SavedCopy } from './localCopy/localCopy';
import { COMPACT_AT, HEAD_ROWS } from './localCopy/schema';
import type { EngineStore } from './store';

/** What was saved last, by identity, to tell what changed since. */
export class SavedState {
  private conversations = new Map<string, ConversationSummary>();
  private users = new Map<string, UserData>();
  private viewsVersion = -1;
  private messages = new Map<string, Message[]>();
  sequence = -1;

  /** The store's state is what the copy holds (after painting from it, or after a full save). */
  static of(store: EngineStore, sequence: number, messages: ReadonlyMap<string, Message[]> = new Map()): SavedState {
    const state = new SavedState();
    state.conversations = new Map(store.conversations);
    state.users = new Map(store.users);
    state.viewsVersion = store.viewsVersion;
    state.messages = new Map(messages);
    state.sequence = sequence;
    return state;
  }

  /**
   * What a store painted from `saved` holds: the same records (painting puts these very objects into the
   * store), so only what changes afterwards is saved. The views' version is unknown: they are saved once.
   */
  static fromCopy(saved: SavedCopy): SavedState {
    const state = new SavedState();
    state.conversations = new Map(saved.conversations.map((c) => [c.id, c]));
    state.users = new Map(saved.users.map((u) => [u.id, u]));
    state.messages = new Map(Object.entries(saved.messages));
    state.sequence = saved.sequence;
    return state;
  }

  /** What changed in the store (and the opened conversations' messages) since; null when nothing did. */
  changes(store: EngineStore, sequence: number, messages: ReadonlyMap<string, Message[]>): CopyChanges | null {
    const conversations: ConversationSummary[] = [];
    for (const [id, c] of store.conversations) if (this.conversations.get(id) !== c) conversations.push(c);
    const removed: string[] = [];
    for (const id of this.conversations.keys()) if (!store.conversations.has(id)) removed.push(id);
    const users: UserData[] = [];
    for (const [id, u] of store.users) if (this.users.get(id) !== u) users.push(u);
    const views: View[] | undefined = store.viewsVersion !== this.viewsVersion ? store.listViews() : undefined;
    const changedMessages: Array<{ id: string; messages: Message[] }> = [];
    for (const [id, list] of messages) if (this.messages.get(id) !== list) changedMessages.push({ id, messages: list });
    const nothing = !conversations.length && !removed.length && !users.length && !views && !changedMessages.length && sequence === this.sequence;
    if (nothing) return null;
    // Taken as saved now; a failed write is retried in full by the next full save (see persistCopy).
    for (const c of conversations) this.conversations.set(c.id, c);
    for (const id of removed) this.conversations.delete(id);
    for (const u of users) this.users.set(u.id, u);
    for (const { id, messages: list } of changedMessages) this.messages.set(id, list);
    this.viewsVersion = store.viewsVersion;
    this.sequence = sequence;
    return {
      sequence,
      ...(conversations.length ? { conversations } : {}),
      ...(removed.length ? { removed } : {}),
      ...(users.length ? { users } : {}),
      ...(views ? { views } : {}),
      ...(changedMessages.length ? { messages: changedMessages } : {}),
    };
  }
}

export interface PersistSources {
  store: EngineStore;
  copy: LocalCopy;
  /** Emits when the store changed. */
  version$: Observable<unknown>;
  /** The sequence the store is up to date with (undefined before the stream's first connection). */
  sequence: () => number | undefined;
  /** The store holds a whole, consistent state: saving it now is safe. */
  ready: () => boolean;
  /** The opened conversations' newest messages, by id, least recent first (each list replaced when it changes). */
  messages: ReadonlyMap<string, Message[]>;
  /** What the copy holds now (after painting from it), or null: the first save is a full one. */
  saved: SavedState | null;
  log: Pick<Logger, 'warn'>;
  delayMs?: number;
}

/** A copy's messages (the most recently saved first) as the engine keeps them: the least recent first, so the oldest go first. */
export function openedOf(messages: Record<string, Message[]>): Array<[string, Message[]]> {
  return Object.entries(messages).reverse();
}

/** The head saved with every write: the first rows of every view, so the next start paints them at once. */
export function headOf(store: EngineStore): CopyHead {
  return { ...store.head(HEAD_ROWS), total: store.conversations.size };
}

/** Saves the store into the copy as it changes; runs until unsubscribed (the session's end). */
export function persistCopy(sources: PersistSources, scheduler: SchedulerLike): Observable<never> {
  const { store, copy, log } = sources;
  let saved = sources.saved;
  const save = (): Observable<unknown> =>
    defer(() => {
      const sequence = sources.sequence();
      if (sequence === undefined || !sources.ready()) return EMPTY;
      // A sequence behind the copy's: the server started over (a reset log) and a fresh snapshot replaced the
      // store. The copy is replaced whole (a delta's sequence never goes back).
      if (saved && sequence < saved.sequence) saved = null;
      const changes = saved?.changes(store, sequence, sources.messages);
      if (changes === null) return EMPTY;
      // No copy yet, or a change of most of it (a reload swapped in fresh records): saved whole, not as
      // 100,000 changed records that the next save would fold into the chunks in one long transaction.
      if (!changes || (changes.conversations?.length ?? 0) + (changes.users?.length ?? 0) > COMPACT_AT) {
        const all = {
          sequence,
          conversations: [...store.conversations.values()],
          users: [...store.users.values()],
          views: store.listViews(),
          // Most recent first, as saveAll takes them.
          messages: Object.fromEntries([...sources.messages].reverse()),
          head: headOf(store),
        };
        saved = SavedState.of(store, sequence, sources.messages);
        return from(copy.saveAll(all));
      }
      return from(copy.saveChanges({ ...changes, head: headOf(store) }));
    }).pipe(
      // A failed write (quota, a wiped database) is logged; the next save is a full one.
      catchError((error: unknown) => {
        log.warn('The local copy could not be saved', { message: (error as Error)?.message ?? String(error) });
        saved = null;
        return EMPTY;
      }),
    );
  return sources.version$.pipe(
    filter(() => copy.isWriter),
    auditTime(sources.delayMs ?? 1_000, scheduler),
    concatMap(save),
    ignoreElements(),
  );
}
