/**
 * The Ask AI page at /ask-ai and /catchup (SPEC §2.9, §4.12, §4.13): the start screen, then
 * the catch-up conversation with its stats, thread, error banner, and composer or voice input.
 *
 * Entry: /catchup starts the session at once; /ask-ai?q=text starts it and sends the text.
 * Keys: Enter sends, Shift+Enter a new line, Esc leaves the conversation (ending the session),
 * Cmd/Ctrl+Shift+V turns voice mode on and off, Cmd/Ctrl+Z undoes the catch-up's last mark read,
 * ? lists the shortcuts.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useNow } from '../hooks/useNow';
import { useNavigate } from '../router';
import { useObservableState } from 'observable-hooks';
import type { AskSource, CatchupStats, UnreadSummary } from '../../model/ai';
import { AskInput } from '../components/ask/AskInput';
import { MicIcon } from '../components/ask/AskIcons';
import { AskStart } from '../components/ask/AskStart';
import { AskThread, sourceHref } from '../components/ask/AskThread';
import { useCatchup, useCatchupUndo } from '../components/ask/useCatchup';
import { VoiceInput } from '../components/ask/VoiceInput';
import { command, remoteStream } from '../engine';
import { useActionHandlers } from '../keyboard/dispatch';
import { speak, stopSpeaking } from '../voice/speech';
import type { TranscribeResult } from '../../worker/ai';
import '../styles-ask.css';

const unreadSummary$ = remoteStream<UnreadSummary>((api, o) => api.unreadSummary(o));

const transcribe = (audio: Blob, filename: string) => command<TranscribeResult>((api) => api.transcribe(audio, filename));

export interface AskAiPageProps {
  menuButton?: ReactNode;
  /** Opens a source's conversation at its message; without it, the page navigates to the source's link. */
  onOpenConversation?(conversationId: string, ts: string): void;
}

export function AskAiPage({ menuButton, onOpenConversation }: AskAiPageProps) {
  const [pathname] = useLocation();
  const search = useSearch();
  const navigate = useNavigate();
  const summary = useObservableState(unreadSummary$, null);
  const [voiceOn, setVoiceOn] = useState(false);
  const [draft, setDraft] = useState('');
  const now = useNow(30_000);

  const onReply = useCallback(
    (text: string) => {
      if (voiceOn) speak(text);
    },
    [voiceOn],
  );
  const catchup = useCatchup({ onReply });
  const { view, begin, send, answerProposal, leave, dismissError } = catchup;
  useCatchupUndo(catchup.undo);
  const inConversation = view.screen === 'conversation';

  // Entry by address: /catchup starts at once; ?q= starts with that question.
  useEffect(() => {
    const question = new URLSearchParams(search).get('q')?.trim();
    if (question) begin(question);
    else if (pathname === '/catchup') begin();
    // Once per navigation (a new address): begin is the same function for the page's life.
  }, [pathname, search, begin]);

  const back = useCallback(() => {
    stopSpeaking();
    setVoiceOn(false);
    setDraft('');
    leave();
    // Leaving forgets the question of the address, so a reload does not ask it again.
    if (new URLSearchParams(search).has('q')) navigate('/ask-ai', { replace: true });
  }, [leave, search, navigate]);

  const startVoice = useCallback(() => {
    if (!inConversation) begin();
    setVoiceOn(true);
  }, [inConversation, begin]);

  const toggleVoice = useCallback(() => {
    if (voiceOn) {
      stopSpeaking();
      setVoiceOn(false);
    } else startVoice();
  }, [voiceOn, startVoice]);

  // Speech stops when the page goes away.
  useEffect(() => () => stopSpeaking(), []);

  // The registry's keys on this page (issue 13 §1).
  useActionHandlers({
    'voice-mode': { run: toggleVoice },
    'leave-ask': { run: back, enabled: () => inConversation },
  });

  const openSource = useCallback(
    (source: AskSource) => {
      stopSpeaking();
      if (onOpenConversation) onOpenConversation(source.conversation_id, source.timestamp);
      else navigate(sourceHref(source));
    },
    [onOpenConversation, navigate],
  );

  const submit = (text: string) => {
    stopSpeaking();
    setDraft('');
    send(text);
  };

  return (
    <>
      <header className="top-bar ask-bar">
        {menuButton}
        {inConversation ? (
          <>
            <button type="button" className="icon-button" aria-label="Back" title="Back (Esc)" onClick={back}>
              ←
            </button>
            <h1 className="ask-title">Ask AI</h1>
            <button
              type="button"
              className={`icon-button ask-voice-toggle${voiceOn ? ' on' : ''}`}
              aria-label="Voice mode"
              aria-pressed={voiceOn}
              title="Voice mode (⌘/Ctrl+Shift+V)"
              onClick={toggleVoice}
            >
              <MicIcon size={18} />
            </button>
          </>
        ) : null}
      </header>
      <main className="ask-page">
        {!inConversation ? (
          <AskStart summary={summary} onAsk={(question) => begin(question)} onVoice={startVoice} />
        ) : (
          <div className="ask-conversation">
            {view.stats && <StatsHeader stats={view.stats} />}
            <AskThread
              messages={view.messages}
              pending={view.pending}
              now={now}
              onOpenSource={openSource}
              proposal={view.proposal}
              onAnswerProposal={(id, confirm) => {
                stopSpeaking();
                answerProposal(id, confirm);
              }}
            />
            {view.error && (
              <div className="banner error ask-error" role="alert">
                <span>{view.error}</span>
                <button type="button" className="icon-button" aria-label="Dismiss" onClick={dismissError}>
                  ×
                </button>
              </div>
            )}
            {voiceOn ? (
              <VoiceInput onSend={submit} transcribe={transcribe} onListen={stopSpeaking} />
            ) : (
              <AskInput
                value={draft}
                onChange={setDraft}
                onSubmit={submit}
                label="Message Sift AI"
                placeholder="Ask a follow-up..."
                busy={view.pending}
                autoFocus
                className="ask-composer"
              />
            )}
          </div>
        )}
      </main>
    </>
  );
}

function StatsHeader({ stats }: { stats: CatchupStats }) {
  const items = [
    { key: 'urgent', label: 'Urgent', n: stats.urgent },
    { key: 'can-wait', label: 'Can Wait', n: stats.can_wait },
    { key: 'fyi', label: 'FYI', n: stats.fyi },
    { key: 'cleared', label: 'Cleared', n: stats.cleared },
  ];
  return (
    <ul className="ask-stats" aria-label="Catch-up stats">
      {items.map((item) => (
        <li key={item.key} className={`ask-stat ${item.key}`}>
          <span className="ask-stat-label">{item.label}</span> <strong className="ask-stat-n">{item.n}</strong>
        </li>
      ))}
    </ul>
  );
}
