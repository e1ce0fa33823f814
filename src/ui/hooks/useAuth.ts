/**
 * The authentication state machine of SPEC §4.1 and the OAuth return of §2.3:
 * loading → authenticated | unauthenticated; with auth_success=true in the address, the
 * query string is cleared, 'completing' shown, and the status re-checked after 100 ms. The
 * session is the server's HttpOnly cookie: a token in the address is never read or kept (issue
 * 12 §1), and the engine learns who is signed in from the status it fetches.
 */
import { useCallback, useEffect, useState } from 'react';
import { OAUTH_RECHECK_DELAY_MS } from '../../model/constants';
import type { AuthStatus } from '../../model/types';
import { command, engine } from '../engine';
import { liveState$ } from './useEngine';
import { forgetStoredToken } from '../session';

export type AuthState =
  | { phase: 'initializing' }
  | { phase: 'loading' }
  | { phase: 'completing' }
  | { phase: 'authenticated'; status: AuthStatus }
  | { phase: 'unauthenticated' }
  | { phase: 'error'; message: string };

function returnedFromSignIn(): boolean {
  return new URLSearchParams(window.location.search).get('auth_success') === 'true';
}

export function useAuth() {
  // Back from Slack's sign-in (?auth_success=true): the session is being completed, checked after a pause.
  const [state, setState] = useState<AuthState>(() => ({ phase: returnedFromSignIn() ? 'completing' : 'initializing' }));

  const check = useCallback(async (resume: boolean) => {
    let resumed = false;
    try {
      forgetStoredToken();
      // 'Initializing...' while the engine starts, then 'Loading...' while the status is on its way.
      const api = await engine();
      // The member signed in last opens at once from their local copy while the server confirms (issue 14 §4).
      const last = resume ? await api.resumeLastSession() : null;
      if (last) {
        resumed = true;
        setState({ phase: 'authenticated', status: last });
      } else setState((current) => (current.phase === 'initializing' ? { phase: 'loading' } : current));
      const status = await api.authStatus();
      setState(status.authenticated ? { phase: 'authenticated', status } : { phase: 'unauthenticated' });
    } catch (error) {
      // Resumed, the member keeps working from their copy; the live stream reports the server's trouble.
      if (!resumed) setState({ phase: 'error', message: (error as Error).message || 'Failed to initialize' });
    }
  }, []);

  // The session ended while Sift was open (a 401: revoked, expired, signed out in another tab): the engine
  // signed out and wiped the member's copy; the page goes back to sign-in (issue 14 §2).
  const authenticated = state.phase === 'authenticated';
  useEffect(() => {
    if (!authenticated) return undefined;
    let seen = false;
    const subscription = liveState$.subscribe((live) => {
      if (live.status !== 'unauthenticated') seen = true;
      else if (seen) setState({ phase: 'unauthenticated' });
    });
    return () => subscription.unsubscribe();
  }, [authenticated]);

  useEffect(() => {
    if (returnedFromSignIn()) {
      window.history.replaceState(null, '', window.location.pathname);
      const timer = window.setTimeout(() => void check(false), OAUTH_RECHECK_DELAY_MS);
      return () => window.clearTimeout(timer);
    }
    // Not on the sign-in page: whoever opens it means to sign in, and must not see the last member's inbox first.
    // check sets state only after awaiting the engine; the rule does not follow the await.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- nothing is set synchronously here
    void check(!window.location.pathname.startsWith('/auth'));
    return undefined;
  }, [check]);

  const logout = useCallback(async () => {
    try {
      await command((api) => api.logout());
    } finally {
      forgetStoredToken();
      setState({ phase: 'unauthenticated' });
    }
  }, []);

  return { state, logout, retry: () => check(false) };
}
