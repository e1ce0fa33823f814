/**
 * The voice input of the Ask AI conversation (SPEC §2.9, §4.13): listens on mount, shows what
 * it hears, sends after 1.5 s of silence (auto-send) or on Stop; falls back to recording
 * when the browser's speech service fails, and back again on request.
 */
import { useEffect, useRef, useState } from 'react';
import { VOICE_ERRORS } from '../../../model/ai';
import { useVoiceInput, type VoiceInputOptions } from '../../voice/useVoiceInput';
import { MicIcon } from './AskIcons';
import '../../styles-ask.css';

export interface VoiceInputProps extends VoiceInputOptions {
  /** Start listening as soon as it shows (the user just turned voice mode on). */
  autoStart?: boolean;
  /** Told when listening or recording starts (the page stops reading aloud). */
  onListen?(): void;
}

export function VoiceInput({ onSend, transcribe, autoStart = true, onListen }: VoiceInputProps) {
  const voice = useVoiceInput({ onSend, transcribe });
  const { state, start } = voice;
  const primary = useRef<HTMLButtonElement>(null);

  // Once, on mount (voice mode was just turned on): autoStart as it was then; start is the same function for the component's life.
  const [startOnMount] = useState(autoStart);
  useEffect(() => {
    if (startOnMount) start();
    primary.current?.focus();
  }, [startOnMount, start]);

  const active = state.status === 'listening' || state.status === 'recording';
  useEffect(() => {
    if (active) onListen?.();
  }, [active, onListen]);

  const heard = [state.transcript, state.interim].filter(Boolean).join(' ');
  let line: string;
  switch (state.status) {
    case 'listening':
      line = heard ? '' : 'Listening...';
      break;
    case 'recording':
      line = 'Recording... press Stop and send when you are done.';
      break;
    case 'transcribing':
      line = VOICE_ERRORS.transcribing;
      break;
    default:
      line = heard ? '' : state.mode === 'speech' ? 'Press Start listening and speak.' : 'Press Start recording and speak.';
  }

  return (
    <section className={`ask-voice ${state.status}`} aria-label="Voice input">
      {state.notice && (
        <p className="ask-voice-notice" role="status">
          {state.notice}
        </p>
      )}
      <div className="ask-voice-live" aria-live="polite">
        {line && <span className="muted">{line}</span>}
        {heard && (
          <span className="ask-voice-heard">
            {state.transcript}
            {state.interim && <span className="ask-voice-interim"> {state.interim}</span>}
          </span>
        )}
      </div>
      {state.status === 'error' && state.error && (
        <div className="banner error ask-voice-error" role="alert">
          <span>{state.error}</span>
          <button type="button" className="icon-button" aria-label="Dismiss voice error" onClick={voice.dismiss}>
            ×
          </button>
        </div>
      )}
      <div className="ask-voice-controls">
        {state.status === 'listening' || state.status === 'recording' ? (
          <button ref={primary} type="button" className="ask-mic on" onClick={voice.stop}>
            <MicIcon />
            <span>{state.status === 'listening' ? 'Stop' : 'Stop and send'}</span>
          </button>
        ) : (
          <button ref={primary} type="button" className="ask-mic" disabled={state.status === 'transcribing'} onClick={voice.start}>
            <MicIcon />
            <span>{state.mode === 'speech' ? 'Start listening' : 'Start recording'}</span>
          </button>
        )}
        {state.status === 'idle' && state.transcript && (
          <button type="button" className="button primary small-button" onClick={voice.send}>
            Send
          </button>
        )}
        {(state.status !== 'idle' || state.transcript) && state.status !== 'error' && (
          <button type="button" className="button small-button" onClick={voice.cancel}>
            Cancel
          </button>
        )}
        <span className="ask-voice-options">
          {state.mode === 'speech' && (
            <label className="ask-check">
              <input type="checkbox" checked={state.autoSend} onChange={(e) => voice.setAutoSend(e.target.checked)} />
              Send after a pause
            </label>
          )}
          {state.mode === 'speech' && state.support.recording && (
            <button type="button" className="ask-link-button" disabled={state.status === 'transcribing'} onClick={() => voice.switchMode('recording')}>
              Record audio instead
            </button>
          )}
          {state.mode === 'recording' && (
            <button type="button" className="ask-link-button" disabled={state.status === 'transcribing'} onClick={() => voice.switchMode('speech')}>
              Use speech recognition
            </button>
          )}
        </span>
      </div>
    </section>
  );
}
