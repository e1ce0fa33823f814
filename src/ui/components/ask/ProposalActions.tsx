/**
 * The buttons under a catch-up proposal (issue 12 §3): 'Mark these read' and 'Not now'. Each
 * sends the proposal's id, so the server carries out exactly the proposal the member saw, and
 * only while it is still open. Typing or saying yes works as well; these are for the hand.
 * The group is named by what the proposal does. When the buttons go (the answer came) and one
 * of them had focus, focus returns to the message box (in voice mode, the microphone button).
 */
import { useLayoutEffect, useRef } from 'react';
import { CATCHUP_CONFIRM_LABEL, CATCHUP_DECLINE_LABEL, type CatchupProposal } from '../../../model/ai';

export interface ProposalActionsProps {
  proposal: CatchupProposal;
  /** Waiting for a reply: the buttons wait too (marked aria-disabled, not disabled, so a focused one keeps focus). */
  busy: boolean;
  onAnswer(proposalId: string, confirm: boolean): void;
}

export function ProposalActions({ proposal, busy, onAnswer }: ProposalActionsProps) {
  const group = useRef<HTMLDivElement>(null);
  // Before the buttons leave the page (a layout effect's cleanup runs while they are still in it).
  useLayoutEffect(() => {
    const el = group.current;
    return () => {
      if (el && el.contains(document.activeElement)) el.closest('.ask-conversation')?.querySelector<HTMLElement>('textarea, .ask-mic')?.focus();
    };
  }, []);
  return (
    <div ref={group} className="ask-proposal" role="group" aria-label={proposal.description}>
      <button type="button" className="button primary small-button" aria-disabled={busy} onClick={() => busy || onAnswer(proposal.id, true)}>
        {CATCHUP_CONFIRM_LABEL}
      </button>
      <button type="button" className="button small-button" aria-disabled={busy} onClick={() => busy || onAnswer(proposal.id, false)}>
        {CATCHUP_DECLINE_LABEL}
      </button>
    </div>
  );
}
