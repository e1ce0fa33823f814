/**
 * The catch-up flow of the Ask AI page (SPEC §4.12): idle start screen, then start a session,
 * then the conversation. With an initial question, it is sent 100 ms after the session
 * starts. No session (nothing unread, or the start failed): the start's message or 'You're
 * all caught up! No unread messages.' is shown, and questions go to `ask` instead, so read
 * messages can still be asked about. After each reply the session's stats are refreshed.
 * Leaving ends the session on the server and resets; so does unmounting. A reload is not
 * leaving: the tab's session is picked up again, with its history and stats.
 *
 * Each step is one stream of the worker (issue 14 §1): the start with its question (catchupBegin),
 * a turn with the stats after it (catchupTurn), an undo with the stats after it (catchupUndo).
 * Leaving unsubscribes: an answer that comes back after the user left is dropped, and a session
 * that started after the user left is ended at once by the worker.
 *
 * A proposal ('Mark these read?') is answered by the member's own yes or no, typed or spoken, or
 * by its buttons, which send the proposal's id (issue 12 §3). What a yes marked read can be
 * undone with Cmd/Ctrl+Z while the page is open (see useCatchupUndo): each conversation goes back
 * to where it was read up to before.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Subscription } from 'rxjs';
import {
  CATCHUP_CONFIRM_LABEL,
  CATCHUP_DECLINE_LABEL,
  CATCHUP_ERRORS,
  CAUGHT_UP_MESSAGE,
  type AskSource,
  type CatchupMarked,
  type CatchupProposal,
  type CatchupStats,
} from '../../../model/ai';
import { command, remoteStream } from '../../engine';
import { isTyping } from '../../keyboard/shortcuts';
import { useActionHandlers } from '../../keyboard/dispatch';
import { useLatest } from '../../hooks/useLatest';
import { useToast } from '../Toasts';
import type { CatchupEvent } from '../../../streams/catchupTurn';

export interface ChatMessage {
  id: number;
  role: 'user' | 'assistant';
  text: string;
  sources?: AskSource[];
  /** Answers of `ask` carry a confidence. */
  confidence?: number;
  /** The reply that made a proposal: its buttons show under it while the proposal is open. */
  proposalId?: string;
}

export interface CatchupView {
  screen: 'start' | 'conversation';
  sessionId: string | null;
  stats: CatchupStats | null;
  messages: ChatMessage[];
  /** Starting the session, or waiting for a reply. */
  pending: boolean;
  error: string | null;
  /** The session's open proposal, waiting for a yes. */
  proposal: CatchupProposal | null;
}

/** The tab's open session, so a reload picks it up (sessionStorage: per tab, gone with it). */
const SESSION_KEY = 'sift_catchup_session';

function rememberedSession(): string | null {
  try {
    return sessionStorage.getItem(SESSION_KEY);
  } catch {
    return null;
  }
}

function rememberSession(id: string | null): void {
  try {
    if (id) sessionStorage.setItem(SESSION_KEY, id);
    else sessionStorage.removeItem(SESSION_KEY);
  } catch {
    /* storage unavailable: a reload starts over */
  }
}

export const START_VIEW: CatchupView = { screen: 'start', sessionId: null, stats: null, messages: [], pending: false, error: null, proposal: null };

export interface Catchup {
  view: CatchupView;
  /** Starts a session and shows the conversation; the question, if any, is sent 100 ms later. */
  begin(question?: string): void;
  /** Sends a message (ignored when blank or while waiting). */
  send(text: string): void;
  /** A proposal's button: 'Mark these read' (true) or 'Not now' (false), naming the proposal. */
  answerProposal(proposalId: string, confirm: boolean): void;
  /** Restores what the last yes marked read, answering whether it all worked; null (at once) when there is nothing to undo. */
  undo(): Promise<boolean> | null;
  /** Ends the session and goes back to the start screen. */
  leave(): void;
  dismissError(): void;
}

export function useCatchup({ onReply }: { onReply?: (text: string) => void } = {}): Catchup {
  // A reload is not leaving: this tab's session (if any) shows as pending until it is picked up below.
  const [view, setView] = useState<CatchupView>(() => (rememberedSession() ? { ...START_VIEW, screen: 'conversation', pending: true } : START_VIEW));
  const generation = useRef(0);
  const session = useRef<string | null>(null);
  const busy = useRef(false);
  /** The streams in flight (the start, a turn): leaving unsubscribes them. */
  const flows = useRef(new Subscription());
  const nextId = useRef(0);
  /** What the last yes marked read, and where each was read up to before (for undo). */
  const lastMarked = useRef<CatchupMarked[] | null>(null);
  const replyListener = useLatest(onReply);

  const message = (role: ChatMessage['role'], text: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({ id: ++nextId.current, role, text, ...extra });

  /** Ends the current session (if any) and forgets everything in flight. */
  const end = useCallback(() => {
    generation.current += 1;
    flows.current.unsubscribe();
    flows.current = new Subscription();
    busy.current = false;
    lastMarked.current = null;
    const id = session.current;
    session.current = null;
    rememberSession(null);
    if (id) void command((api) => api.catchupEnd(id)).catch(() => undefined);
  }, []);

  // A reload is not leaving: the session of this tab is picked up where it was (a page that
  // starts a new one right away ends this attempt through `end`).
  useEffect(() => {
    const id = rememberedSession();
    if (!id) return;
    const g = generation.current;
    void command((api) => api.catchupSession(id))
      .catch((error: unknown) => ({ success: false as const, error: (error as Error)?.message ?? '' }))
      .then((result) => {
        if (g !== generation.current) return;
        const restored = 'session' in result ? result.session : undefined;
        if (!result.success || !restored) {
          rememberSession(null);
          setView(START_VIEW);
          return;
        }
        session.current = id;
        const proposal = restored.pending ?? null;
        const messages = restored.history.map((turn) => message(turn.role, turn.content));
        // An open proposal's buttons come back under the last reply.
        const last = messages.map((m) => m.role).lastIndexOf('assistant');
        if (proposal && last >= 0) messages[last] = { ...messages[last]!, proposalId: proposal.id };
        setView({ ...START_VIEW, screen: 'conversation', sessionId: id, stats: restored.stats, messages, proposal });
      });
  }, []);

  /** What a step of the worker says, shown; `answer` is the proposal's button of this turn, `waiting` whether the start has a question to send. */
  const apply = useCallback(
    (event: CatchupEvent, context: { answer?: boolean; waiting?: boolean }) => {
      const fail = (error: string) => setView((v) => ({ ...v, pending: false, error }));
      switch (event.kind) {
        case 'started': {
          const { result } = event;
          const waiting = context.waiting ?? false;
          if (result.sessionId) {
            session.current = result.sessionId;
            rememberSession(result.sessionId);
            const { sessionId, stats, message: greeting } = result;
            setView((v) => ({
              ...v,
              sessionId,
              stats: stats ?? null,
              pending: waiting,
              messages: greeting ? [...v.messages, message('assistant', greeting)] : v.messages,
            }));
            if (greeting) replyListener.current?.(greeting);
          } else if (result.success) {
            const text = result.message || CAUGHT_UP_MESSAGE;
            setView((v) => ({ ...v, pending: waiting, messages: [...v.messages, message('assistant', text)] }));
            replyListener.current?.(text);
          } else {
            setView((v) => ({ ...v, pending: waiting, error: result.error || CATCHUP_ERRORS.start }));
          }
          return;
        }
        case 'asked':
          busy.current = true;
          setView((v) => ({ ...v, pending: true, messages: [...v.messages, message('user', event.text)] }));
          return;
        case 'replied': {
          const { result } = event;
          busy.current = false;
          if (!result.success) {
            // A button of a proposal that is no longer open goes.
            if (context.answer) setView((v) => ({ ...v, proposal: null }));
            return fail(result.error || CATCHUP_ERRORS.chat);
          }
          if (result.marked?.length) lastMarked.current = result.marked;
          // The open proposal after this turn: its buttons stay under the reply that first showed it.
          const proposal = result.proposal ?? null;
          const said = result.message ?? '';
          setView((v) => {
            const shown = proposal !== null && v.messages.some((m) => m.proposalId === proposal.id);
            const extra = { sources: result.sources, ...(proposal && !shown ? { proposalId: proposal.id } : {}) };
            return { ...v, pending: false, proposal, messages: [...v.messages, message('assistant', said, extra)] };
          });
          replyListener.current?.(said);
          return;
        }
        case 'answered': {
          const { result } = event;
          busy.current = false;
          if (!result.ok) return fail(result.error);
          const { answer, sources, confidence } = result.answer;
          setView((v) => ({ ...v, pending: false, messages: [...v.messages, message('assistant', answer, { sources, confidence })] }));
          replyListener.current?.(answer);
          return;
        }
        case 'stats': {
          const { result } = event;
          if (result.success && result.stats) {
            const fresh = result.stats;
            setView((v) => ({ ...v, stats: fresh }));
          } else setView((v) => ({ ...v, error: result.error || CATCHUP_ERRORS.stats }));
          return;
        }
        case 'undone':
          return;
      }
    },
    [replyListener],
  );

  /** Follows one step of the worker until it ends or the member leaves. */
  const follow = useCallback(
    (open: Parameters<typeof remoteStream<CatchupEvent>>[0], context: { answer?: boolean; waiting?: boolean }) => {
      flows.current.add(
        remoteStream<CatchupEvent>(open).subscribe({
          next: (event) => apply(event, context),
          error: (error: unknown) => {
            busy.current = false;
            setView((v) => ({ ...v, pending: false, error: (error as Error)?.message || CATCHUP_ERRORS.chat }));
          },
        }),
      );
    },
    [apply],
  );

  /** One turn: the member's words, or a proposal's button (`answer`). */
  const talk = useCallback(
    (raw: string, answer?: { proposalId: string; confirm: boolean }) => {
      const text = raw.trim();
      if (!text || busy.current) return;
      busy.current = true;
      setView((v) => ({ ...v, pending: true, messages: [...v.messages, message('user', text)] }));
      const input = { sessionId: session.current, text, ...(answer ? { answer } : {}) };
      follow((api, o) => api.catchupTurn(input, o), { answer: answer !== undefined });
    },
    [follow],
  );

  const send = useCallback((text: string) => talk(text), [talk]);

  const answerProposal = useCallback(
    (proposalId: string, confirm: boolean) => talk(confirm ? CATCHUP_CONFIRM_LABEL : CATCHUP_DECLINE_LABEL, { proposalId, confirm }),
    [talk],
  );

  const undo = useCallback((): Promise<boolean> | null => {
    const marked = lastMarked.current;
    if (!marked) return null;
    lastMarked.current = null;
    const id = session.current;
    return new Promise<boolean>((resolve) => {
      remoteStream<CatchupEvent>((api, o) => api.catchupUndo(id, marked, o)).subscribe({
        next: (event) => (event.kind === 'undone' ? resolve(event.ok) : apply(event, {})),
        error: () => resolve(false),
        complete: () => resolve(false),
      });
    });
  }, [apply]);

  const begin = useCallback(
    (question?: string) => {
      end();
      setView({ ...START_VIEW, screen: 'conversation', pending: true });
      const waiting = question !== undefined && question.trim() !== '';
      follow((api, o) => api.catchupBegin(question, o), { waiting });
    },
    [end, follow],
  );

  const leave = useCallback(() => {
    end();
    setView(START_VIEW);
  }, [end]);

  const dismissError = useCallback(() => setView((v) => ({ ...v, error: null })), []);

  // Navigating away from the page ends the session too.
  useEffect(() => end, [end]);

  return { view, begin, send, answerProposal, undo, leave, dismissError };
}

/**
 * Cmd/Ctrl+Z on the Ask AI page undoes the catch-up's last mark read and says 'Undone' (or 'Could
 * not undo') in a toast. In a text box with text in it, the key stays the box's own undo; with
 * nothing to undo here, it does nothing.
 */
export function useCatchupUndo(undo: Catchup['undo']): void {
  const toast = useToast();
  useActionHandlers({
    'undo-catchup': {
      run: () => void undo()?.then((ok) => toast(ok ? 'Undone' : 'Could not undo')),
      // In a text box with text in it, the key stays the box's own undo.
      enabled: () => !(isTyping(document.activeElement) && Boolean((document.activeElement as HTMLTextAreaElement).value)),
    },
  });
}
