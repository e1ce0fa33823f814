/**
 * The composer's refinement toolbar and its Original / Suggested view (SPEC §2.6, §4.7, §8
 * 'Sending and refining').
 *
 * States: idle → streaming ('Generating...') → done. A mode button (or Alt+1..5 in the message
 * box) streams a suggestion for the box's text; Apply copies it into the box (focused, caret
 * at the end); Cancel or Esc discards it and unsubscribes, which cancels the request. A failure
 * closes the view and shows an in-app alert 'Error refining message: {reason}' with Dismiss.
 * The mode buttons are disabled while the box is blank or a suggestion is streaming.
 * The page's announcer says when a refinement starts and, once done, the suggestion itself
 * (issue 13 §3); the streamed text is not read piece by piece (the view is aria-busy meanwhile).
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { Subscription } from 'rxjs';
import { REFINE_MODES, REFINE_MODE_LABELS, refineErrorText, type RefineEvent, type RefineMode } from '../../model/ai';
import { remoteStream } from '../engine';
import { isTyping } from '../keyboard/shortcuts';
import { matchesAction } from '../keyboard/dispatch';
import { actionSpec, formatKeys, type ActionId, type KeyPress } from '../keyboard/registry';
import { useLatest } from '../hooks/useLatest';
import { useAnnounce } from './Announcer';
import '../styles-ai.css';

export const GENERATING = 'Generating...';

/** What the announcer says as a refinement starts, and when its suggestion is ready. */
export function refineStartedText(mode: RefineMode): string {
  return `${REFINE_MODE_LABELS[mode]}: generating a suggestion`;
}
export function refineDoneText(mode: RefineMode, suggestion: string): string {
  return `${REFINE_MODE_LABELS[mode]} suggestion ready: ${suggestion}`;
}

/** Each mode's action in the key registry (issue 13 §1): its keys (Alt+1..5, in toolbar order) live there. */
const MODE_ACTIONS = {
  polish: 'refine-polish',
  shorter: 'refine-shorter',
  simplify: 'refine-simplify',
  professional: 'refine-professional',
  list: 'refine-list',
} as const satisfies Record<RefineMode, ActionId>;

/** The mode a key press picks, or null (matched by physical key too: Option+digit types a symbol on macOS). */
export function refineModeForKey(event: KeyPress): RefineMode | null {
  return REFINE_MODES.find((mode) => matchesAction(event, MODE_ACTIONS[mode])) ?? null;
}

type RefineState = { status: 'idle' } | { status: 'streaming' | 'done'; mode: RefineMode; original: string; suggestion: string };

export interface RefinePanelProps {
  /** The message box's text: what a mode refines. */
  text: string;
  /** The message box: Alt+1..5 typed there start a refinement; Apply and Cancel give it focus back. */
  input: RefObject<HTMLTextAreaElement | null>;
  /** Apply: the suggestion becomes the box's text. */
  onApply(text: string): void;
}

export function RefinePanel({ text, input, onApply }: RefinePanelProps) {
  const [state, setState] = useState<RefineState>({ status: 'idle' });
  const [error, setError] = useState<string | null>(null);
  /** Focus the box (caret at the end) once the parent has rendered the new text. */
  const [focusBox, setFocusBox] = useState(0);
  const subscription = useRef<Subscription | null>(null);
  /** The current run: events of a cancelled or replaced run are ignored. */
  const run = useRef(0);
  const toolbar = useRef<HTMLDivElement>(null);
  const view = useRef<HTMLDivElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const announce = useAnnounce();

  const streaming = state.status === 'streaming';
  const blank = !text.trim();

  const stop = () => {
    run.current += 1;
    subscription.current?.unsubscribe();
    subscription.current = null;
  };
  // Leaving the conversation cancels a refinement in flight.
  useEffect(() => stop, []);

  const start = (mode: RefineMode) => {
    const original = text;
    if (!original.trim() || streaming) return;
    stop();
    const mine = run.current;
    const fail = (reason?: string) => {
      if (run.current !== mine) return;
      stop();
      setState({ status: 'idle' });
      setError(refineErrorText(reason));
    };
    setError(null);
    setState({ status: 'streaming', mode, original, suggestion: '' });
    announce(refineStartedText(mode));
    subscription.current = remoteStream<RefineEvent>((api, o) => api.refine(original, mode, o)).subscribe({
      next: (event) => {
        if (run.current !== mine) return;
        if ('chunk' in event) {
          setState((s) => (s.status === 'streaming' ? { ...s, suggestion: s.suggestion + event.chunk } : s));
        } else if ('done' in event) {
          stop();
          setState((s) => (s.status === 'streaming' ? { ...s, status: 'done', suggestion: event.text } : s));
          announce(refineDoneText(mode, event.text));
        } else {
          fail(event.error);
        }
      },
      error: (e: unknown) => fail((e as Error)?.message),
      // Ended without done or error: cut off.
      complete: () => fail(),
    });
  };

  const discard = () => {
    stop();
    setState({ status: 'idle' });
    setFocusBox((n) => n + 1);
  };

  const apply = () => {
    if (state.status !== 'done') return;
    stop();
    onApply(state.suggestion);
    setState({ status: 'idle' });
    setFocusBox((n) => n + 1);
  };

  useLayoutEffect(() => {
    const box = input.current;
    if (!focusBox || !box) return;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }, [focusBox, input]);

  // A mode button activated from the keyboard gets disabled: focus moves on to Cancel.
  useEffect(() => {
    if (streaming && toolbar.current?.contains(document.activeElement)) cancelButton.current?.focus();
  }, [streaming]);

  // Alt+1..5 in the message box; Esc discards the open view (and does not close the conversation).
  const latest = useLatest({ start, discard, open: state.status !== 'idle' });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof Element && event.target.closest('[aria-modal="true"]')) return;
      const box = input.current;
      const mode = refineModeForKey(event);
      if (mode && box && event.target === box) {
        event.preventDefault();
        latest.current.start(mode);
        return;
      }
      if (event.key !== 'Escape' || !latest.current.open || event.defaultPrevented) return;
      // Another field (the conversation search) owns its Esc.
      const target = event.target;
      if (isTyping(target) && target !== box && !(target instanceof Node && view.current?.contains(target))) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      latest.current.discard();
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [input, latest]);

  return (
    <div className="refine">
      {error && (
        <div className="banner error refine-alert" role="alert">
          <span>{error}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setError(null)}>
            ×
          </button>
        </div>
      )}
      {state.status !== 'idle' && (
        <div ref={view} className="refine-view" role="region" aria-label="Refined message" aria-busy={streaming}>
          <div className="refine-columns">
            <section className="refine-column" aria-labelledby={`${headingId}-original`}>
              <h3 id={`${headingId}-original`} className="refine-heading">
                Original
              </h3>
              <div className="refine-text">{state.original}</div>
            </section>
            <section className="refine-column suggested" aria-labelledby={`${headingId}-suggested`}>
              <h3 id={`${headingId}-suggested`} className="refine-heading">
                Suggested <span className="tag">{REFINE_MODE_LABELS[state.mode]}</span>
              </h3>
              <div className="refine-text">{state.suggestion}</div>
              {streaming && <p className="refine-generating muted small">{GENERATING}</p>}
            </section>
          </div>
          <div className="refine-actions">
            <button ref={cancelButton} type="button" className="button" title="Cancel (Esc)" onClick={discard}>
              Cancel
            </button>
            <button type="button" className="button primary" disabled={state.status !== 'done'} onClick={apply}>
              Apply
            </button>
          </div>
        </div>
      )}
      <div ref={toolbar} className="refine-toolbar" role="toolbar" aria-label="Refine message">
        {REFINE_MODES.map((mode) => (
          <button
            key={mode}
            type="button"
            className="refine-mode"
            disabled={blank || streaming}
            title={`${REFINE_MODE_LABELS[mode]} (${formatKeys(actionSpec(MODE_ACTIONS[mode]).keys[0]!).join('+')})`}
            aria-keyshortcuts={formatKeys(actionSpec(MODE_ACTIONS[mode]).keys[0]!).join('+')}
            // A click keeps the caret in the message box.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => start(mode)}
          >
            {REFINE_MODE_LABELS[mode]}
          </button>
        ))}
      </div>
    </div>
  );
}
