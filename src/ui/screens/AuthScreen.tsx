import { useState } from 'react';
import { useSearch } from 'wouter';
import { useNavigate } from '../router';
import { WaitlistModal, type WaitlistPlatform } from '../components/WaitlistModal';

/**
 * What a failed Slack sign-in says, by its error code: fixed texts only. The address's own
 * `message` is never shown, so a link cannot put words on Sift's sign-in page.
 */
const SIGN_IN_ERRORS: Record<string, string> = {
  access_denied: 'Slack sign-in was cancelled. Connect again to give Sift access.',
  invalid_state: 'This sign-in link is not valid, was already used, or was started elsewhere. Please try again.',
  expired_state: 'The sign-in took too long. Please try again.',
  missing_code: 'Slack did not send an authorization code. Please try again.',
  exchange_failed: 'Slack refused the sign-in. Please try again.',
  slack_error: 'Slack could not complete the sign-in. Please try again.',
  already_linked: 'This Slack account already belongs to another Sift account. Sign out and sign in with it instead.',
  not_signed_in: 'Sign in first, then add another workspace.',
};
const SIGN_IN_ERROR_DEFAULT = 'Slack sign-in did not complete. Please try again.';

/** SPEC §2.2: the sign-up / sign-in page. A failed Slack sign-in lands here with ?error=…&message=…, shown above the buttons. */
export function AuthScreen() {
  const [connecting, setConnecting] = useState(false);
  const [waitlist, setWaitlist] = useState<WaitlistPlatform | null>(null);
  const params = new URLSearchParams(useSearch());
  const navigate = useNavigate();
  const errorCode = params.get('error');
  const signInError = errorCode ? (Object.hasOwn(SIGN_IN_ERRORS, errorCode) ? SIGN_IN_ERRORS[errorCode]! : SIGN_IN_ERROR_DEFAULT) : null;

  const connect = () => {
    setConnecting(true);
    window.location.assign('/auth/slack');
  };

  return (
    <main className="auth-screen">
      <section className="auth-card" aria-labelledby="auth-title">
        <div className="brand-mark" aria-hidden="true">
          <span />
          <span />
          <span />
        </div>
        <h1 id="auth-title">Sign up to Sift</h1>
        <p className="muted">One triage inbox over your DMs, channels and threads.</p>
        {signInError && (
          <div className="banner error" role="alert">
            <span>{signInError}</span>
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => navigate('/auth', { replace: true })}>
              ×
            </button>
          </div>
        )}
        <div className="auth-actions">
          <button type="button" className="button primary wide" onClick={connect} disabled={connecting}>
            {connecting ? 'Connecting...' : 'Connect to Slack'}
          </button>
          <button type="button" className="button wide" onClick={() => setWaitlist('teams')}>
            Connect to Teams <span className="tag">Waitlist</span>
          </button>
          <button type="button" className="button wide" onClick={() => setWaitlist('email')}>
            Connect to Email <span className="tag">Waitlist</span>
          </button>
        </div>
        <p className="muted small">
          Already have an account?{' '}
          <a
            href="/auth/slack"
            onClick={(e) => {
              e.preventDefault();
              connect();
            }}
          >
            Sign in
          </a>{' '}
          or{' '}
          <a href="https://sift.example.com" target="_blank" rel="noopener noreferrer">
            learn more
          </a>
          .
        </p>
      </section>
      {/* Mounted only while open: each opening starts with an empty field. */}
      {waitlist && <WaitlistModal platform={waitlist} onClose={() => setWaitlist(null)} />}
    </main>
  );
}
