/**
 * The waitlist modal (SPEC §2.2, §2.10, §4.14, §5, §8): the sign-in page's signup for the
 * platforms Sift cannot connect yet. idle → submitting ('Joining...') → success ("You're on
 * the list!", then it closes itself after WAITLIST_SUCCESS_CLOSE_MS) or failure (an in-app
 * alert with the server's error text, else FAILED_TEXT; the typed address is kept).
 *
 * The email field is an <input type="email" required> in a form, so the browser's own
 * validation runs (and shows its message) before anything is sent; an invalid address
 * never reaches the server. While submitting, nothing closes it: Esc, the close button and
 * a backdrop click are ignored. Mount it only while open: each opening starts with an empty
 * field, which is how a success clears it.
 *
 * It talks to the server with a plain same-origin fetch from the page: the sign-in page
 * runs before the engine has a session, and the call needs none.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { WAITLIST_SUCCESS_CLOSE_MS } from '../../model/constants';
import { useDialog } from '../hooks/useDialog';
import { useLatest } from '../hooks/useLatest';
import { useMounted } from '../hooks/useMounted';
import { CloseIcon, Icon } from './Icons';
import '../styles-waitlist.css';

export type WaitlistPlatform = 'teams' | 'email';

export const WAITLIST_ENDPOINT = '/api/waitlist/signup';
export const SUCCESS_TEXT = "You're on the list!";
export const FAILED_TEXT = 'Failed to join waitlist. Please try again.';

const PLATFORMS: Record<WaitlistPlatform, { title: string; line: string }> = {
  teams: {
    title: 'Join the Teams waitlist',
    line: "Sift works with Slack today. Leave your email and we'll tell you when Microsoft Teams can be connected.",
  },
  email: {
    title: 'Join the Email waitlist',
    line: "Sift works with Slack today. Leave your email and we'll tell you when e-mail accounts can be connected.",
  },
};

type Phase = { name: 'idle' } | { name: 'submitting' } | { name: 'success' } | { name: 'failed'; message: string };

/** Answers on success; throws an Error whose message is the text to show. */
async function joinWaitlist(email: string, platform: WaitlistPlatform): Promise<void> {
  let response: Response;
  try {
    response = await fetch(WAITLIST_ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, platform }),
    });
  } catch {
    throw new Error(FAILED_TEXT);
  }
  if (response.ok) return;
  const body: unknown = await response.json().catch(() => null);
  const error = body && typeof body === 'object' && 'error' in body ? (body as { error: unknown }).error : null;
  throw new Error(typeof error === 'string' && error.trim() ? error : FAILED_TEXT);
}

export interface WaitlistModalProps {
  platform: WaitlistPlatform;
  onClose(): void;
}

export function WaitlistModal({ platform, onClose }: WaitlistModalProps) {
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const lineId = `${baseId}-line`;
  const emailId = `${baseId}-email`;
  const [email, setEmail] = useState('');
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const submitting = phase.name === 'submitting';

  const dialog = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const mounted = useMounted();
  const busy = useRef(false);
  const pressedOnBackdrop = useRef(false);
  const onCloseRef = useLatest(onClose);

  /** Every way of closing goes through here: none works while the signup is on its way. */
  const requestClose = () => {
    if (!busy.current) onCloseRef.current();
  };

  const { onKeyDown } = useDialog({ dialog, initial: input, onClose: requestClose });

  // Success: close after the pause of SPEC §9. The parent mounts the modal only while it is
  // open, so closing also clears the field: the next opening starts empty.
  useEffect(() => {
    if (phase.name !== 'success') return undefined;
    dialog.current?.focus();
    const timer = window.setTimeout(() => onCloseRef.current(), WAITLIST_SUCCESS_CLOSE_MS);
    return () => window.clearTimeout(timer);
  }, [phase.name, onCloseRef]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy.current) return;
    // The browser validates before it submits; this also covers a submit that skipped it.
    const form = event.currentTarget;
    if (!form.checkValidity()) {
      form.reportValidity();
      return;
    }
    busy.current = true;
    setPhase({ name: 'submitting' });
    try {
      await joinWaitlist(email.trim(), platform);
    } catch (error) {
      busy.current = false;
      if (!mounted.current) return;
      setPhase({ name: 'failed', message: error instanceof Error && error.message ? error.message : FAILED_TEXT });
      input.current?.focus();
      return;
    }
    busy.current = false;
    if (mounted.current) setPhase({ name: 'success' });
  };

  const { title, line } = PLATFORMS[platform];

  return (
    <div
      className="modal-backdrop"
      role="presentation"
      // Only a press that starts and ends on the backdrop closes: a text selection dragged out of the field does not.
      onMouseDown={(event) => {
        pressedOnBackdrop.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        if (pressedOnBackdrop.current && event.target === event.currentTarget) requestClose();
        pressedOnBackdrop.current = false;
      }}
    >
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the dialog's own keys (Esc, Tab kept inside), as the rule allows on <dialog> */}
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={lineId}
        aria-busy={submitting || undefined}
        className="modal waitlist"
        tabIndex={-1}
        onKeyDown={onKeyDown}
        onKeyUp={(event) => event.stopPropagation()}
      >
        <div className="waitlist-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button waitlist-close" aria-label="Close" disabled={submitting} onClick={requestClose}>
            <CloseIcon />
          </button>
        </div>
        <p id={lineId} className="muted waitlist-line">
          {line}
        </p>

        {phase.name === 'success' ? (
          <div className="waitlist-success" role="status">
            <span className="waitlist-check" aria-hidden="true">
              <Icon size={20}>
                <path d="M5 12.5l4.5 4.5L19 7.5" />
              </Icon>
            </span>
            <span>{SUCCESS_TEXT}</span>
          </div>
        ) : (
          <form className="waitlist-form" onSubmit={(event) => void submit(event)}>
            <label htmlFor={emailId} className="waitlist-label">
              Email
            </label>
            <input
              ref={input}
              id={emailId}
              name="email"
              type="email"
              required
              maxLength={254}
              autoComplete="email"
              placeholder="you@company.com"
              className="waitlist-input"
              value={email}
              readOnly={submitting}
              aria-describedby={phase.name === 'failed' ? `${baseId}-error` : undefined}
              onChange={(event) => {
                setEmail(event.target.value);
                // The alert was about the address as it was: editing it clears the alert.
                if (phase.name === 'failed') setPhase({ name: 'idle' });
              }}
            />
            {phase.name === 'failed' && (
              <p id={`${baseId}-error`} className="waitlist-error" role="alert">
                {phase.message}
              </p>
            )}
            <button type="submit" className="button primary wide" disabled={submitting}>
              {submitting ? 'Joining...' : 'Join Waitlist'}
            </button>
          </form>
        )}
      </div>
    </div>
  );
}
