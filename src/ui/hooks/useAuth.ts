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
import { command } from '../engine';
import { forgetStoredToken } from '../session';

export type AuthState =
  | { phase: 'initializing' }
  | { phase: 'loading' }
  | { phase: 'completing' }
  | { phase: 'authenticated'; status: AuthStatus }
  | { phase: 'unauthenticated' }
  | { phase: 'error'; message: string };

export function useAuth() {
  const [state, setState] = useState<AuthState>({ phase: 'initializing' });

  const check = useCallback(async () => {
    try {
      forgetStoredToken();
      setState((current) => (current.phase === 'initializing' ? { phase: 'loading' } : current));
      const status = await command((api) => api.authStatus());
      setState(status.authenticated ? { phase: 'authenticated', status } : { phase: 'unauthenticated' });
    } catch (error) {
      setState({ phase: 'error', message: (error as Error).message || 'Failed to initialize' });
    }
  }, []);

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    if (params.get('auth_success') === 'true') {
      window.history.replaceState(null, '', window.location.pathname);
      setState({ phase: 'completing' });
      const timer = window.setTimeout(() => void check(), OAUTH_RECHECK_DELAY_MS);
      return () => window.clearTimeout(timer);
    }
    void check();
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

  return { state, logout, retry: check };
}
