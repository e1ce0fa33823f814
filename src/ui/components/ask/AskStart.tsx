/**
 * The Ask AI start screen (SPEC §2.9): the heading, the question box with its typing
 * placeholder, the six suggestion chips, and the unread summary. The placeholder runs while
 * the box is empty (focus does not stop it, so the box can take focus on arrival).
 */
import { useState } from 'react';
import { SUGGESTION_CHIPS, type UnreadSummary } from '../../../model/ai';
import { AskInput } from './AskInput';
import { MicIcon, SparkIcon } from './AskIcons';
import { useTypingPlaceholder } from './usePlaceholder';

export interface AskStartProps {
  summary: UnreadSummary | null;
  /** A question typed, or a chip chosen. */
  onAsk(question: string): void;
  /** Start the catch-up by voice. */
  onVoice(): void;
}

export function AskStart({ summary, onAsk, onVoice }: AskStartProps) {
  const [text, setText] = useState('');
  const placeholder = useTypingPlaceholder(text === '');

  return (
    <div className="ask-start">
      <div className="ask-start-inner">
        <span className="ask-badge" aria-hidden="true">
          <SparkIcon size={22} />
        </span>
        <h1 className="ask-heading">Ask Sift AI anything</h1>
        <AskInput value={text} onChange={setText} onSubmit={onAsk} label="Ask Sift AI" placeholder={placeholder} autoFocus className="ask-input-large">
          <button type="button" className="ask-voice-toggle" aria-label="Talk to Sift AI" title="Voice mode (⌘/Ctrl+Shift+V)" onClick={onVoice}>
            <MicIcon size={16} />
          </button>
        </AskInput>
        <div className="ask-chips" role="group" aria-label="Suggestions">
          {SUGGESTION_CHIPS.map((chip) => (
            <button key={chip} type="button" className="ask-chip" onClick={() => onAsk(chip)}>
              {chip}
            </button>
          ))}
        </div>
        {summary && <UnreadSummaryLine summary={summary} />}
      </div>
    </div>
  );
}

function UnreadSummaryLine({ summary }: { summary: UnreadSummary }) {
  const counts = [
    { key: 'urgent', label: 'Urgent', n: summary.urgent },
    { key: 'can-wait', label: 'Can Wait', n: summary.can_wait },
    { key: 'fyi', label: 'FYI', n: summary.fyi },
  ].filter((c) => c.n > 0);
  return (
    <section className="ask-summary" aria-label="Unread summary">
      <p className="ask-summary-total">{summary.total} unread conversations</p>
      {counts.length > 0 && (
        <ul className="ask-counts">
          {counts.map((c) => (
            <li key={c.key} className={`ask-count ${c.key}`}>
              {c.label} {c.n}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
