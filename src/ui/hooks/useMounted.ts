import { useLayoutEffect, useRef, type RefObject } from 'react';

/** A ref that reads true while the component is mounted: an await that ends after unmount checks it before setting state. */
export function useMounted(): RefObject<boolean> {
  const mounted = useRef(true);
  useLayoutEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}
