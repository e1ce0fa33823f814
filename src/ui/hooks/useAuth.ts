/**
 * The authentication state machine of SPEC §4.1 and the OAuth return of §2.3:
 * loading → authenticated | unauthenticated; with auth_success=true in the address, the
 * token is stored, the query string cleared, 'completing' shown, and the status re-checked
 * after 100 ms.
 */
import { useCallback, useEffect, useState } from 'react';
import { OAUTH_RECHECK_DELAY_MS } from '../../model/constants';
import type { AuthStatus } from '../../model/types';
import { command } from '../engine';
import { clearSession, readToken, storeToken } from '../session';

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
      const token = readToken();
      await command((api) => api.setToken(token));
      setState((current) => (current.phase === 'initializing' ? { phase: 'loading' } : current));
      const status = await command((api) => api.authStatus());
      setState(status.authenticated ? { phase: 'authenticated', status } : { phase: 'unauthenticated' });
      if (!status.authenticated) await command((api) => api.setToken(null));
    } catch (error) {
      setState({ phase: 'error', message: (error as Error).message || 'Failed to initialize' });
    }
  }, []);

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    if (params.get('auth_success') === 'true') {
      const token = params.get('token');
      if (token) storeToken(token);
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
      clearSession();
      setState({ phase: 'unauthenticated' });
    }
  }, []);

  return { state, logout, retry: check };
}
