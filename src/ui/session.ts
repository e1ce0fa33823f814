/**
 * Session-local data (SPEC §3, §6): the auth token and the theme. The token is read, in
 * order, from the stream cookie, the session cookie, then local storage; the literal
 * values "undefined" and "null" count as missing.
 */
import { COOKIE_NAMES, DEFAULT_THEME, STORAGE_KEYS } from '../model/constants';

function cookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

const usable = (value: string | null | undefined): value is string => Boolean(value) && value !== 'undefined' && value !== 'null';

export function readToken(): string | null {
  for (const candidate of [cookie(COOKIE_NAMES.stream), cookie(COOKIE_NAMES.session), safeGet(STORAGE_KEYS.token)]) {
    if (usable(candidate)) return candidate;
  }
  return null;
}

export function storeToken(token: string): void {
  safeSet(STORAGE_KEYS.token, token);
}

/** Logout clears the token and the cookies even when the server call failed. */
export function clearSession(): void {
  try {
    localStorage.removeItem(STORAGE_KEYS.token);
  } catch {
    /* storage unavailable */
  }
  for (const name of Object.values(COOKIE_NAMES)) document.cookie = `${name}=; Max-Age=0; path=/`;
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
