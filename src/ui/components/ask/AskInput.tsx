/**
 * The Ask AI text box with its send button (SPEC §2.9): Enter sends, Shift+Enter starts a new
 * line, the send button is disabled while the text is blank (or a reply is awaited). Grows with
 * its text between 96 and 250 px, like the conversation composer.
 */
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { MESSAGE_BOX_MAX_HEIGHT_PX } from '../../../model/constants';
import { SendIcon } from './AskIcons';

export interface AskInputProps {
  value: string;
  onChange(text: string): void;
  onSubmit(text: string): void;
  /** The accessible name of the box. */
  label: string;
  placeholder: string;
  /** Waiting for a reply: the text stays, sending waits. */
  busy?: boolean;
  autoFocus?: boolean;
  /** More controls beside the send button (the voice button). */
  children?: ReactNode;
  className?: string;
}

export function AskInput({ value, onChange, onSubmit, label, placeholder, busy = false, autoFocus, children, className }: AskInputProps) {
  const box = useRef<HTMLTextAreaElement>(null);
  const blank = value.trim() === '';

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = 'auto';
    if (el.scrollHeight > 0) el.style.height = `${Math.min(MESSAGE_BOX_MAX_HEIGHT_PX, el.scrollHeight)}px`;
  }, [value]);

  const submit = () => {
    if (blank || busy) return;
    onSubmit(value.trim());
  };

  return (
    <form
      className={`ask-input${className ? ` ${className}` : ''}`}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <textarea
        ref={box}
        aria-label={label}
        placeholder={placeholder}
        rows={1}
        value={value}
        autoFocus={autoFocus}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <div className="ask-input-actions">
        {children}
        <button type="submit" className="ask-send" aria-label="Send" title="Send (Enter)" disabled={blank || busy}>
          <SendIcon size={16} />
        </button>
      </div>
    </form>
  );
}
