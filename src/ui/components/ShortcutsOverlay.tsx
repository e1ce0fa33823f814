/**
 * The keyboard shortcuts overlay (SPEC §2.10): every action of the registry with its keys, by
 * where it applies. A dialog (issue 13 §2): it takes the focus, any key or click closes it (but
 * the scroll keys, which scroll it: it is taller than a small screen), and the focus goes back
 * where it was.
 */
import { useEffect, useRef } from 'react';
import { ACTIONS, formatKeys, SCOPE_LABELS, type ActionSpec, type Scope } from '../keyboard/registry';
import '../styles-keyboard.css';

/** The registry's actions, grouped by scope in the registry's order. */
function sections(): Array<[Scope, ActionSpec[]]> {
  const out = new Map<Scope, ActionSpec[]>();
  for (const action of ACTIONS) out.set(action.scope, [...(out.get(action.scope) ?? []), action]);
  return [...out];
}

/** Keys that scroll the overlay instead of closing it. */
const SCROLL_KEYS = new Set(['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End', ' ']);

function Keys({ action }: { action: ActionSpec }) {
  if ('keysLabel' in action && action.keysLabel) return <kbd>{action.keysLabel}</kbd>;
  return (
    <>
      {action.keys.map((key, i) => (
        <span key={key} className="shortcut-keys">
          {i > 0 && <span className="muted"> or </span>}
          {formatKeys(key).map((part, j) =>
            part === 'then' ? (
              <span key={j} className="muted">
                {' '}
                then{' '}
              </span>
            ) : (
              <kbd key={j}>{part}</kbd>
            ),
          )}
        </span>
      ))}
    </>
  );
}

export function ShortcutsOverlay({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.focus();
    const close = (event: Event) => {
      // The scroll keys scroll the list (it is taller than a small screen); any other key closes it.
      if (event instanceof KeyboardEvent && SCROLL_KEYS.has(event.key)) {
        event.stopPropagation();
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      onClose();
    };
    // Capture, so the dismissing key does nothing else.
    window.addEventListener('keydown', close, { capture: true });
    window.addEventListener('pointerdown', close, { capture: true });
    return () => {
      window.removeEventListener('keydown', close, { capture: true });
      window.removeEventListener('pointerdown', close, { capture: true });
      if (before?.isConnected) before.focus();
    };
  }, [onClose]);
  return (
    <div className="modal-backdrop">
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        aria-describedby="shortcuts-hint"
        className="modal shortcuts"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- it scrolls (taller than a small screen): a scrolling region takes the focus from Tab (axe: scrollable-region-focusable)
        tabIndex={0}
      >
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <p id="shortcuts-hint" className="muted small">
          Press any key to close (the arrows and Page Up / Page Down scroll)
        </p>
        {sections().map(([scope, actions]) => (
          <section key={scope} aria-labelledby={`shortcuts-${scope}`}>
            <h3 id={`shortcuts-${scope}`} className="shortcuts-section">
              {SCOPE_LABELS[scope]}
            </h3>
            <dl>
              {actions.map((action) => (
                <div key={action.id} className="shortcut">
                  <dt>
                    <Keys action={action} />
                  </dt>
                  <dd>{action.label}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </div>
  );
}
