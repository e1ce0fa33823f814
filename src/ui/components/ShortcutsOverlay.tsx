/** The keyboard shortcut hints overlay: every shortcut; any key or click dismisses it. */
import { useEffect } from 'react';
import { SHORTCUTS } from '../keyboard/shortcuts';

export function ShortcutsOverlay({ onClose }: { onClose: () => void }) {
  useEffect(() => {
    const close = (event: Event) => {
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
    };
  }, [onClose]);
  return (
    <div className="modal-backdrop">
      <div role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" className="modal shortcuts">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <dl>
          {SHORTCUTS.map((s) => (
            <div key={s.action} className="shortcut">
              <dt>
                {s.keys.map((k, i) => (
                  <kbd key={`${k}-${i}`}>{k}</kbd>
                ))}
              </dt>
              <dd>{s.action}</dd>
            </div>
          ))}
        </dl>
        <p className="muted small">Press any key to close</p>
      </div>
    </div>
  );
}
