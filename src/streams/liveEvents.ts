import { asyncScheduler, defer, map, merge, mergeMap, scan, type Observable, type SchedulerLike } from 'rxjs';
import type { Logger } from '../model/logger';
import type { LiveEvent } from '../model/types';

export interface AppliedEvent {
  event: LiveEvent;
  isReplay: boolean;
}

export type LiveEventsOutput =
  /** Apply this event. */
  | ({ kind: 'event' } & AppliedEvent)
  /** The last applied sequence changed (feed it back as the connection's lastSequence$). */
  | { kind: 'sequence'; lastSequence: number }
  /** The replay flag changed. */
  | { kind: 'replaying'; replaying: boolean };

export interface LiveEventsInputs {
  /** Raw SSE messages of the live connection, in order. */
  messages$: Observable<{ data: string; id?: string }>;
  /** True while the initial snapshot loads: events are held, and released in order when it turns false. */
  loading$: Observable<boolean>;
  log: Pick<Logger, 'warn' | 'error'>;
  /** A last applied sequence already known. */
  initialSequence?: number;
}

type Input = { kind: 'loading'; loading: boolean } | { kind: 'message'; data: string };

interface Loop {
  lastSequence: number | undefined;
  replaying: boolean;
  loading: boolean;
  /** Validated events held while loading (owned by one subscription, appended in place). */
  held: LiveEvent[];
  /** What the last input produced. */
  out: LiveEventsOutput[];
}

const isSequence = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** Parses and validates one message; logs and returns undefined when it is not a usable event. */
function parseEvent(data: string, log: LiveEventsInputs['log']): LiveEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    log.error('Live event is not JSON; ignored', { data, error: String(error) });
    return undefined;
  }
  const event = value as Partial<LiveEvent> | null;
  const valid =
    typeof event === 'object' &&
    event !== null &&
    !Array.isArray(event) &&
    typeof event.type === 'string' &&
    (event.sequence === undefined || isSequence(event.sequence)) &&
    (event.type !== 'connection' || isSequence((event.data as { currentSequence?: unknown } | null)?.currentSequence));
  if (!valid) {
    log.warn('Live event has an invalid shape; ignored', { data });
    return undefined;
  }
  return event as LiveEvent;
}

/** Applies one event to the loop: drops duplicates, tracks the replay flag and the last sequence. */
function applyEvent(loop: Loop, event: LiveEvent): Loop {
  const out: LiveEventsOutput[] = [];
  let { lastSequence, replaying } = loop;
  const isReplay = event.isReplay === true;
  if (isReplay && !replaying) {
    replaying = true;
    out.push({ kind: 'replaying', replaying });
  }
  if (event.sequence !== undefined && lastSequence !== undefined && event.sequence <= lastSequence) {
    return { ...loop, replaying, out }; // a duplicate
  }
  if (event.type === 'replay_complete' && replaying) {
    replaying = false;
    out.push({ kind: 'replaying', replaying });
  }
  out.push({ kind: 'event', event, isReplay });
  const next =
    event.sequence ?? (event.type === 'connection' && lastSequence === undefined ? (event.data as { currentSequence: number }).currentSequence : undefined);
  if (next !== undefined) {
    lastSequence = next;
    out.push({ kind: 'sequence', lastSequence });
  }
  return { ...loop, lastSequence, replaying, out };
}

/** Runs one event's handling in its own error boundary: a throw logs and leaves the loop as it was. */
function guarded(loop: Loop, log: LiveEventsInputs['log'], handle: () => Loop): Loop {
  try {
    return handle();
  } catch (error) {
    try {
      log.error('Live event handling failed; event skipped', { error: String(error) });
    } catch {
      // The logger itself failed: nothing more to do for this event.
    }
    return { ...loop, out: [] };
  }
}

function step(loop: Loop, input: Input, log: LiveEventsInputs['log']): Loop {
  const idle = { ...loop, out: [] };
  if (input.kind === 'loading') {
    if (input.loading) return { ...idle, loading: true };
    const out: LiveEventsOutput[] = [];
    let released: Loop = { ...idle, loading: false, held: [] };
    for (const event of loop.held) {
      const before = released;
      released = guarded(before, log, () => applyEvent(before, event));
      out.push(...released.out);
    }
    return { ...released, out };
  }
  return guarded(idle, log, () => {
    const event = parseEvent(input.data, log);
    if (event === undefined) return idle;
    if (loop.loading) {
      loop.held.push(event);
      return idle;
    }
    return applyEvent(idle, event);
  });
}

/**
 * The live event loop, as in Zulip's (DESIGN §4): validate each message as it arrives, hold
 * events during the initial load, drop any at or below the last applied sequence, track the
 * replay flag, and handle each event in its own error boundary.
 *
 *   loading$:   t-------f--------------------------
 *   messages$:  --a--a--------b----j----c----R-----
 *   output:     --------(A1)--(B2)------(rC3)(nR)--
 *
 * Legend: a, b events with sequences 1, 2 (the second a, held with the first, is a
 * duplicate at release); c a replayed event with sequence 3; R replay_complete;
 * j unparseable (logged, skipped). Output: A, B, C, R the events to apply; 1, 2, 3 the new
 * last sequence; r, n the replay flag turning on, off.
 *
 * Events without a sequence (connection, replay_complete) are never dropped as duplicates.
 * A connection event's data.currentSequence becomes the last sequence while none is known.
 * The scheduler is accepted for the common pipeline signature; nothing here waits.
 */
export function liveEvents(inputs: LiveEventsInputs, _scheduler: SchedulerLike = asyncScheduler): Observable<LiveEventsOutput> {
  const { messages$, loading$, log, initialSequence } = inputs;
  return defer(() => {
    const seed: Loop = { lastSequence: initialSequence, replaying: false, loading: false, held: [], out: [] };
    return merge(
      loading$.pipe(map((loading): Input => ({ kind: 'loading', loading }))),
      messages$.pipe(map((message): Input => ({ kind: 'message', data: message.data }))),
    ).pipe(
      scan((loop, input) => step(loop, input, log), seed),
      mergeMap((loop) => loop.out),
    );
  });
}
