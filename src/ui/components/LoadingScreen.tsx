import type { ReactNode } from 'react';

export function LoadingScreen({ text, detail, children }: { text: string; detail?: string; children?: ReactNode }) {
  return (
    <main className="center-screen" aria-busy={!children}>
      {!children && <div className="spinner" aria-hidden="true" />}
      <p className="center-title">{text}</p>
      {detail && <p className="muted">{detail}</p>}
      {children}
    </main>
  );
}
