import { Redirect, Route, Switch } from 'wouter';
import { useAuth } from './hooks/useAuth';
import { AuthScreen } from './screens/AuthScreen';
import { Shell, type Page } from './screens/Shell';
import { ProfileScreen } from './screens/ProfileScreen';
import { LoadingScreen } from './components/LoadingScreen';
import { ToastProvider } from './components/Toasts';
import { ScreenBoundary } from './components/ErrorBoundary';
import type { AuthStatus } from '../model/types';

/** The route table of SPEC §2.1, split by the authentication state. */
export function App() {
  const { state, logout, retry } = useAuth();
  switch (state.phase) {
    case 'initializing':
      return <LoadingScreen text="Initializing..." />;
    case 'loading':
      return <LoadingScreen text="Loading..." />;
    case 'completing':
      return <LoadingScreen text="Completing authentication..." />;
    case 'error':
      return (
        <LoadingScreen text="Failed to initialize" detail={state.message}>
          <button type="button" className="button primary" onClick={() => void retry()}>
            Retry
          </button>
        </LoadingScreen>
      );
    case 'unauthenticated':
      return (
        <Switch>
          <Route path="/auth">
            <ScreenBoundary>
              <AuthScreen />
            </ScreenBoundary>
          </Route>
          <Route>
            <Redirect to="/auth" replace />
          </Route>
        </Switch>
      );
    case 'authenticated':
      return <SignedInRoutes status={state.status} onLogout={logout} />;
  }
}

/**
 * The signed-in routes. Each screen has its own error boundary (issue 12 §4): one that throws
 * shows a message in its place and the others still open.
 */
export function SignedInRoutes({ status, onLogout }: { status: AuthStatus; onLogout: () => void }) {
  const shell = (page: Page) => (
    <ScreenBoundary>
      <Shell page={page} status={status} onLogout={onLogout} />
    </ScreenBoundary>
  );
  const profile = (
    <ScreenBoundary>
      <ProfileScreen status={status} onLogout={onLogout} />
    </ScreenBoundary>
  );
  return (
    <ToastProvider>
      <Switch>
        <Route path="/inbox">{shell('inbox')}</Route>
        <Route path="/conversations">{shell('conversations')}</Route>
        <Route path="/ask-ai">{shell('ask-ai')}</Route>
        <Route path="/catchup">{shell('ask-ai')}</Route>
        <Route path="/profile/:userId">{profile}</Route>
        {/* '/', '/auth' and any unknown address. */}
        <Route>
          <Redirect to="/inbox" replace />
        </Route>
      </Switch>
    </ToastProvider>
  );
}
