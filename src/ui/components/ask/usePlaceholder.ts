/** The typing placeholder of the Ask AI input (SPEC §2.9), bound to React: runs while `on`, still under prefers-reduced-motion. */
import { useEffect, useState } from 'react';
import { useObservable, useObservableState } from 'observable-hooks';
import { of, switchMap } from 'rxjs';
import { EXAMPLE_PROMPTS } from '../../../model/ai';
import { typingPlaceholder } from '../../../streams/typingPlaceholder';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function reducedMotionQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(REDUCED_MOTION) : null;
}

export function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(() => reducedMotionQuery()?.matches === true);
  useEffect(() => {
    const query = reducedMotionQuery();
    if (!query) return undefined;
    const update = () => setReduced(query.matches);
    query.addEventListener?.('change', update);
    return () => query.removeEventListener?.('change', update);
  }, []);
  return reduced;
}

/** The placeholder text: typed and deleted while `on`; the first prompt, still, otherwise or with reduced motion. */
export function useTypingPlaceholder(on: boolean): string {
  const reduced = usePrefersReducedMotion();
  const animate = on && !reduced;
  const text$ = useObservable((inputs$) => inputs$.pipe(switchMap(([run]) => (run ? typingPlaceholder(EXAMPLE_PROMPTS) : of(null)))), [animate]);
  const typed = useObservableState(text$, null);
  return animate ? (typed ?? '') : EXAMPLE_PROMPTS[0];
}
