/** Toasts for feedback (SPEC §2.10): 3000 ms by default, announced politely; their text (often a name) without bidi or control characters (issue 12 §4). */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { TOAST_DEFAULT_MS } from '../../model/constants';
import { stripBidi } from '../../model/linkSafety';

interface Toast {
  id: number;
  text: string;
  ms: number;
}

type Show = (text: string, ms?: number) => void;
const ToastContext = createContext<Show>(() => {});

export function useToast(): Show {
  return useContext(ToastContext);
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((x) => x.id !== id)), []);
  const show = useCallback<Show>((text, ms = TOAST_DEFAULT_MS) => {
    const id = next.current++;
    setToasts((current) => [...current.slice(-2), { id, text, ms }]);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} onDone={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** Each toast keeps its own timer from when it appeared; others coming and going do not restart it. */
function ToastItem({ toast, onDone }: { toast: Toast; onDone: (id: number) => void }) {
  useEffect(() => {
    const timer = window.setTimeout(() => onDone(toast.id), toast.ms);
    return () => window.clearTimeout(timer);
  }, [toast.id, toast.ms, onDone]);
  return <div className="toast">{stripBidi(toast.text)}</div>;
}
