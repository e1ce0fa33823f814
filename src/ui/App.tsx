import { Navigate, Route, Routes } from 'react-router';
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
        <Routes>
          <Route path="/auth" element={<ScreenBoundary><AuthScreen /></ScreenBoundary>} />
          <Route path="*" element={<Navigate to="/auth" replace />} />
        </Routes>
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
      <ProfileScreen status={status} />
    </ScreenBoundary>
  );
  return (
    <ToastProvider>
      <Routes>
        <Route path="/" element={<Navigate to="/inbox" replace />} />
        <Route path="/auth" element={<Navigate to="/inbox" replace />} />
        <Route path="/inbox" element={shell('inbox')} />
        <Route path="/conversations" element={shell('conversations')} />
        <Route path="/ask-ai" element={shell('ask-ai')} />
        <Route path="/catchup" element={shell('ask-ai')} />
        <Route path="/profile/me" element={profile} />
        <Route path="/profile/:userId" element={profile} />
        <Route path="*" element={<Navigate to="/inbox" replace />} />
      </Routes>
    </ToastProvider>
  );
}
