/**
 * Session-local data (SPEC §3): the theme and the page's settings. The session itself is never
 * here: it lives in an HttpOnly cookie no script can read (issue 12 §1), so nothing in the page's
 * storage or address can be stolen or planted to sign someone in.
 */
import { DEFAULT_THEME, STORAGE_KEYS } from '../model/constants';

/** Removes a token an earlier version kept in local storage (readable by any script). */
export function forgetStoredToken(): void {
  try {
    localStorage.removeItem(STORAGE_KEYS.legacyToken);
    sessionStorage.removeItem(STORAGE_KEYS.legacyToken);
  } catch {
    /* storage unavailable */
  }
}

export type Theme = 'light' | 'dark';

export function readTheme(): Theme {
  const stored = safeGet(STORAGE_KEYS.theme);
  return stored === 'light' || stored === 'dark' ? stored : DEFAULT_THEME;
}

export function applyTheme(theme: Theme): void {
  document.documentElement.setAttribute('data-theme', theme);
  safeSet(STORAGE_KEYS.theme, theme);
}

export function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function safeSet(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* storage full or unavailable: the setting lasts for this page only */
  }
}
