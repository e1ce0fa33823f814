/** The in-view filter bar (SPEC §2.4): matching runs in the worker; Esc clears and closes. */
import { useEffect, useRef } from 'react';

export function FilterBar({ value, onChange, onClose }: { value: string; onChange: (value: string) => void; onClose: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <div className="filter-bar" role="search">
      <input
        ref={input}
        type="search"
        aria-label="Filter this view"
        placeholder="Filter by name, message or person..."
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.nativeEvent.stopImmediatePropagation();
            onClose();
          } else if (e.key === 'Enter' || e.key === 'ArrowDown') {
            e.preventDefault();
            input.current?.blur();
          }
        }}
      />
      <button type="button" className="icon-button" aria-label="Close filter" onClick={onClose}>
        ×
      </button>
    </div>
  );
}
