/**
 * Routing is wouter's (2 KB, hooks first; issue 13 §4): `Route`, `Switch`, `Redirect`, `Link` and
 * `useLocation` come from it. What the screens need besides:
 * - `useNavigate()`: navigate(to, { replace }) as wouter's `useLocation` gives it;
 * - whether there is an in-app page to go back to (the profile's Back): the first page Sift opens
 *   on is marked in its history entry (`markEntryPage`, from main.tsx).
 */
import { useLocation } from 'wouter';

export function useNavigate(): (to: string, options?: { replace?: boolean }) => void {
  return useLocation()[1];
}

/** Marks the history entry Sift was opened on, so Back knows it would leave the app. */
export function markEntryPage(): void {
  window.history.replaceState({ ...(window.history.state as object | null), siftEntry: true }, '');
}

/** Whether the history has a Sift page before this one. */
export function canGoBack(): boolean {
  const state = window.history.state as { siftEntry?: boolean } | null;
  return !state?.siftEntry;
}
