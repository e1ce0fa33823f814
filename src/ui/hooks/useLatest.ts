import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * A ref to the latest value a component rendered with, for listeners and timers set up once that
 * must call today's props (a window keydown listener, a close timer). It is written when React
 * commits, not during render (a render React throws away must not change it), and before any
 * effect of the component runs, so effects, listeners and handlers all read the committed value.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const latest = useRef(value);
  useLayoutEffect(() => {
    latest.current = value;
  });
  return latest;
}
