/**
 * The AI chat inside the search palette (SPEC §2.8, §4.10, §4.11, §8 'AI chat').
 *
 * A question is appended as the user's message, loading dots show, then the answer (with its
 * sources and confidence label) or 'Sorry, I encountered an error: {message}' is appended.
 * Input is ignored while an answer is loading or when blank. Follow-ups are typed below the
 * thread and carry the earlier questions and answers, so 'and who fixed it?' reads in context. The palette owns the keys that leave the chat: Cmd/Ctrl+Backspace goes back to the
 * search, Esc closes.
 *
 * The thread lives in `usePaletteChat`, held by the palette, so it survives a trip back to
 * the search and an answer that arrives meanwhile still lands in it.
 */
import { useCallback, useEffect, useRef, useState, type JSX } from 'react';
import { AI_CHAT_ERROR_DEFAULT, ASK_HISTORY_LIMIT, aiChatErrorText, confidenceLabel, type AskAnswer, type AskSource, type AskTurn } from '../../model/ai';
import { stripBidi } from '../../model/linkSafety';
import type { AskResult } from '../../worker/ai';
import { command } from '../engine';
import '../styles-ai.css';

export type ChatTurn =
  { id: number; role: 'user'; text: string } | { id: number; role: 'assistant'; answer: AskAnswer } | { id: number; role: 'error'; text: string };

export interface PaletteChat {
  turns: ChatTurn[];
  loading: boolean;
  /** Asks a question; false (and nothing happens) when it is blank or an answer is loading. */
  ask(question: string): boolean;
}

export const THINKING_LABEL = 'AI is thinking';
export const FOLLOW_UP_PLACEHOLDER = 'Ask a follow-up...';
/** How much of a source's text is shown. */
export const SOURCE_TEXT_LENGTH = 100;

export function usePaletteChat(): PaletteChat {
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);
  const nextId = useRef(0);

  // The thread so far, for follow-ups (errors are left out: they are not part of the conversation).
  const thread = useRef<AskTurn[]>([]);

  const ask = useCallback((question: string) => {
    const text = question.trim();
    if (!text || busy.current) return false;
    busy.current = true;
    setLoading(true);
    setTurns((t) => [...t, { id: nextId.current++, role: 'user', text }]);
    const history = thread.current.slice(-ASK_HISTORY_LIMIT);
    void command<AskResult>((api) => api.ask(text, undefined, history))
      .then(
        (result): ChatTurn =>
          result.ok
            ? { id: nextId.current++, role: 'assistant', answer: result.answer }
            : { id: nextId.current++, role: 'error', text: aiChatErrorText(result.error || AI_CHAT_ERROR_DEFAULT) },
        (error: unknown): ChatTurn => ({ id: nextId.current++, role: 'error', text: aiChatErrorText((error as Error)?.message || AI_CHAT_ERROR_DEFAULT) }),
      )
      .then((turn) => {
        busy.current = false;
        setLoading(false);
        setTurns((t) => [...t, turn]);
        if (turn.role === 'assistant')
          thread.current = [...thread.current, { role: 'user', content: text }, { role: 'assistant', content: turn.answer.answer }];
      });
    return true;
  }, []);

  return { turns, loading, ask };
}

function shorten(text: string, max = SOURCE_TEXT_LENGTH): string {
  const flat = stripBidi(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

function Source({ source, onOpen }: { source: AskSource; onOpen?: (source: AskSource) => void }) {
  // Names and texts shown outside a message carry no bidi or control characters (issue 12 §4).
  const author = stripBidi(source.author);
  const channel = stripBidi(source.channel);
  const body = (
    <>
      <span className="pac-source-meta">
        <span className="pac-source-author">{author}</span>
        {/* A DM is named after its person: no need to say it twice. */}
        {channel !== author && <span className="pac-source-channel">{channel}</span>}
      </span>
      <span className="pac-source-text">{shorten(source.text)}</span>
    </>
  );
  return (
    <li>
      {onOpen ? (
        <button type="button" className="pac-source" title={`Open in ${channel}`} onClick={() => onOpen(source)}>
          {body}
        </button>
      ) : (
        <div className="pac-source">{body}</div>
      )}
    </li>
  );
}

function Answer({ answer, onOpenSource }: { answer: AskAnswer; onOpenSource?: (source: AskSource) => void }) {
  return (
    <div className="pac-msg assistant" role="article" aria-label="AI answer">
      <div>{stripBidi(answer.answer)}</div>
      {answer.sources.length > 0 && (
        <>
          <p className="pac-sources-label">Sources</p>
          <ul className="pac-sources" aria-label="Sources">
            {answer.sources.map((source) => (
              <Source key={source.id} source={source} onOpen={onOpenSource} />
            ))}
          </ul>
        </>
      )}
      <div className="pac-meta">
        <span className="tag">{confidenceLabel(answer.confidence)}</span>
      </div>
    </div>
  );
}

export interface PaletteAiChatProps {
  chat: PaletteChat;
  /** Back to the search (the header's back button; the palette maps Cmd/Ctrl+Backspace to it). */
  onBack(): void;
  /** A source was chosen: open its conversation at the message. */
  onOpenSource?(source: AskSource): void;
}

export function PaletteAiChat({ chat, onBack, onOpenSource }: PaletteAiChatProps): JSX.Element {
  const [draft, setDraft] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const { turns, loading, ask } = chat;

  useEffect(() => {
    input.current?.focus();
  }, []);

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [turns.length, loading]);

  const send = () => {
    if (ask(draft)) setDraft('');
  };

  return (
    <div className="pac">
      <div className="pac-header">
        <button
          type="button"
          className="icon-button"
          aria-label="Back to search"
          title="Back to search (⌘/Ctrl+Backspace)"
          onMouseDown={(event) => event.preventDefault()}
          onClick={onBack}
        >
          ←
        </button>
        <h2 className="pac-title">
          <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
            <path d="M8 1.5 9.6 6.4 14.5 8 9.6 9.6 8 14.5 6.4 9.6 1.5 8 6.4 6.4z" fill="currentColor" />
          </svg>
          Ask AI
        </h2>
      </div>
      <div className="pac-log" role="log" aria-label="AI chat" aria-live="polite">
        {turns.map((turn) =>
          turn.role === 'user' ? (
            <div key={turn.id} className="pac-msg user" role="article" aria-label="Your question">
              {stripBidi(turn.text)}
            </div>
          ) : turn.role === 'assistant' ? (
            <Answer key={turn.id} answer={turn.answer} onOpenSource={onOpenSource} />
          ) : (
            <div key={turn.id} className="pac-msg error" role="article" aria-label="AI error">
              {stripBidi(turn.text)}
            </div>
          ),
        )}
        {loading && (
          <div className="pac-msg assistant pac-loading" role="status" aria-label={THINKING_LABEL}>
            <span className="pac-dot" />
            <span className="pac-dot" />
            <span className="pac-dot" />
          </div>
        )}
        <div ref={end} />
      </div>
      <form
        className="pac-composer"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <input
          ref={input}
          type="text"
          className="pac-input"
          aria-label="Follow-up question"
          placeholder={FOLLOW_UP_PLACEHOLDER}
          autoComplete="off"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter' || event.nativeEvent.isComposing || event.shiftKey || event.metaKey || event.ctrlKey || event.altKey) return;
            event.preventDefault();
            send();
          }}
        />
        <button type="submit" className="button primary pac-send" disabled={loading || !draft.trim()}>
          Send
        </button>
      </form>
      <div className="sp-footer">
        <span className="sp-hint">
          <kbd>⌘⌫</kbd>
          <span>Back</span>
        </span>
        <span className="sp-hint">
          <kbd>Enter</kbd>
          <span>Send</span>
        </span>
        <span className="sp-hint">
          <kbd>Esc</kbd>
          <span>Close</span>
        </span>
      </div>
    </div>
  );
}
