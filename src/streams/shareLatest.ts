import { ReplaySubject, share, type MonoTypeOperatorFunction } from 'rxjs';

/**
 * The one way to share a stream's output between subscribers (DESIGN §4): a multicast that
 * replays the latest value to late subscribers, and forgets everything (unsubscribing from
 * the source) when the last subscriber leaves, the source errors or it completes, so the
 * next subscriber starts afresh.
 *
 *   source:  --a----b----c--|
 *   sub 1:   ^--------!
 *   sub 2:   -----^-------!
 *   sees 1:  --a----b--
 *   sees 2:  -----a-b----c        (a is replayed on subscription)
 */
export function shareLatest<T>(): MonoTypeOperatorFunction<T> {
  return share<T>({
    connector: () => new ReplaySubject<T>(1),
    resetOnError: true,
    resetOnComplete: true,
    resetOnRefCountZero: true,
  });
}
