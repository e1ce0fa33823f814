import { Navigate, Route, Routes } from 'react-router';
import { useAuth } from './hooks/useAuth';
import { AuthScreen } from './screens/AuthScreen';
import { Shell } from './screens/Shell';
import { ProfileScreen } from './screens/ProfileScreen';
import { LoadingScreen } from './components/LoadingScreen';
import { ToastProvider } from './components/Toasts';

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
          <Route path="/auth" element={<AuthScreen />} />
          <Route path="*" element={<Navigate to="/auth" replace />} />
        </Routes>
      );
    case 'authenticated':
      return (
        <ToastProvider>
        <Routes>
          <Route path="/" element={<Navigate to="/inbox" replace />} />
          <Route path="/auth" element={<Navigate to="/inbox" replace />} />
          <Route path="/inbox" element={<Shell page="inbox" status={state.status} onLogout={logout} />} />
          <Route path="/conversations" element={<Shell page="conversations" status={state.status} onLogout={logout} />} />
          <Route path="/ask-ai" element={<Shell page="ask-ai" status={state.status} onLogout={logout} />} />
          <Route path="/catchup" element={<Shell page="ask-ai" status={state.status} onLogout={logout} />} />
          <Route path="/profile/me" element={<ProfileScreen status={state.status} />} />
          <Route path="/profile/:userId" element={<ProfileScreen status={state.status} />} />
          <Route path="*" element={<Navigate to="/inbox" replace />} />
        </Routes>
        </ToastProvider>
      );
  }
}
