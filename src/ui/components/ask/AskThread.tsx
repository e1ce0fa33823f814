/**
 * The Ask AI message thread (SPEC §2.9): a log region (polite) of questions and answers.
 * Answers are plain text with their line breaks ('• ' bullets and [n] references as they
 * come), without bidi or control characters (issue 12 §4); their sources link to the conversation, and `ask` answers carry a confidence label.
 * The reply that made the open proposal shows its 'Mark these read' / 'Not now' buttons.
 */
import { useEffect, useRef, type MouseEvent } from 'react';
import { confidenceLabel, type AskSource, type CatchupProposal } from '../../../model/ai';
import { stripBidi } from '../../../model/linkSafety';
import { messageTime } from '../../../model/time';
import { isTs, tsToMs } from '../../../model/ts';
import { ProposalActions } from './ProposalActions';
import type { ChatMessage } from './useCatchup';

const EXCERPT_LENGTH = 140;

export function sourceHref(source: AskSource): string {
  return `/conversations?open=${encodeURIComponent(source.conversation_id)}&ts=${encodeURIComponent(source.timestamp)}`;
}

function excerpt(text: string): string {
  const flat = stripBidi(text).replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH - 1)}…` : flat;
}

export interface AskThreadProps {
  messages: ChatMessage[];
  pending: boolean;
  now: number;
  /** Opens a source's conversation at its message. */
  onOpenSource(source: AskSource): void;
  /** The catch-up's open proposal, and what its buttons do. */
  proposal?: CatchupProposal | null;
  onAnswerProposal?(proposalId: string, confirm: boolean): void;
}

export function AskThread({ messages, pending, now, onOpenSource, proposal, onAnswerProposal }: AskThreadProps) {
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, pending]);

  return (
    <div className="ask-thread" role="log" aria-live="polite" aria-label="Conversation with Sift AI">
      {messages.map((m) => (
        <article key={m.id} className={`ask-message ${m.role}`} aria-label={m.role === 'user' ? 'You' : 'Sift AI'}>
          <p className="ask-message-text">{stripBidi(m.text)}</p>
          {m.confidence !== undefined && <span className="tag ask-confidence">{confidenceLabel(m.confidence)}</span>}
          {m.sources && m.sources.length > 0 && <Sources sources={m.sources} now={now} onOpen={onOpenSource} />}
          {proposal && onAnswerProposal && m.proposalId === proposal.id && <ProposalActions proposal={proposal} busy={pending} onAnswer={onAnswerProposal} />}
        </article>
      ))}
      {pending && (
        <div className="ask-thinking" role="status" aria-label="Sift AI is thinking">
          <i />
          <i />
          <i />
        </div>
      )}
      <div ref={end} />
    </div>
  );
}

function Sources({ sources, now, onOpen }: { sources: AskSource[]; now: number; onOpen(source: AskSource): void }) {
  return (
    <ol className="ask-sources" aria-label="Sources">
      {sources.map((s) => (
        <li key={s.id}>
          <a
            href={sourceHref(s)}
            className="ask-source"
            onClick={(e: MouseEvent<HTMLAnchorElement>) => {
              // A plain click opens it here; a modified click keeps the browser's behaviour (new tab).
              if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
              e.preventDefault();
              onOpen(s);
            }}
          >
            <span className="ask-source-meta">
              <span className="ask-source-author">{stripBidi(s.author)}</span>
              <span className="ask-source-channel">{stripBidi(s.channel)}</span>
              {isTs(s.timestamp) && <time className="ask-source-time">{messageTime(tsToMs(s.timestamp), now)}</time>}
            </span>
            <span className="ask-source-text">{excerpt(s.text)}</span>
          </a>
        </li>
      ))}
    </ol>
  );
}
