/**
 * Routing in the UI tests: the app's own wouter routes over happy-dom's real history. A test
 * opens the app at an address (and, for Back, the pages before it), as a browser tab would.
 */
import { useState, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { markEntryPage } from '../../src/ui/router';

/** Puts the window at `path` (the last of `path` when it is a history: the first is the entry page). */
export function openAt(path: string | string[]): void {
  const entries = Array.isArray(path) ? path : [path];
  window.history.replaceState(null, '', entries[0]);
  markEntryPage();
  for (const entry of entries.slice(1)) window.history.pushState(null, '', entry);
}

/** Opens the window at `path` before its children first render. */
export function TestRouter({ path = '/', children }: { path?: string | string[]; children: ReactNode }) {
  useState(() => openAt(path));
  return <>{children}</>;
}

/** The address as the app sees it. */
export function useTestLocation(): { pathname: string; search: string } {
  const [pathname] = useLocation();
  const search = useSearch();
  return { pathname, search: search ? `?${search}` : '' };
}
