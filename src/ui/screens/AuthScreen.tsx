import { useState } from 'react';
import { WaitlistModal, type WaitlistPlatform } from '../components/WaitlistModal';

/** SPEC §2.2: the sign-up / sign-in page. */
export function AuthScreen() {
  const [connecting, setConnecting] = useState(false);
  const [waitlist, setWaitlist] = useState<WaitlistPlatform | null>(null);

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
