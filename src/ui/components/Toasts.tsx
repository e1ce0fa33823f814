/**
 * Toasts for feedback (SPEC §2.10): 3000 ms by default; their text (often a name) without bidi or
 * control characters (issue 12 §4). Each is said through the page's one polite announcer
 * (issue 13 §3), which the provider brings; the stack itself is a labelled region, not live, so
 * nothing is said twice.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { TOAST_DEFAULT_MS } from '../../model/constants';
import { stripBidi } from '../../model/linkSafety';
import { AnnouncerProvider, useAnnounce } from './Announcer';

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

/** Toasts, and the page's announcer (unless an outer one is there). */
export function ToastProvider({ children }: { children: ReactNode }) {
  return (
    <AnnouncerProvider>
      <ToastStack>{children}</ToastStack>
    </AnnouncerProvider>
  );
}

function ToastStack({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const announce = useAnnounce();
  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((x) => x.id !== id)), []);
  const show = useCallback<Show>(
    (text, ms = TOAST_DEFAULT_MS) => {
      const id = next.current++;
      setToasts((current) => [...current.slice(-2), { id, text, ms }]);
      announce(text);
    },
    [announce],
  );
  return (
    <ToastContext.Provider value={show}>
      {children}
      <section className="toasts" aria-label="Notifications">
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} onDone={dismiss} />
        ))}
      </section>
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
