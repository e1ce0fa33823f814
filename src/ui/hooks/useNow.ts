import { useEffect, useState } from 'react';

/** The time now, in ms, read again every `intervalMs`: for relative times ('5m', 'Yesterday') that must not go stale. */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
