import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { applyTheme, readTheme } from './session';
import { installPageLogger, log } from './log';
import { markEntryPage } from './router';
import { engine } from './engine';
import './styles.css';

applyTheme(readTheme());
installPageLogger();
markEntryPage();
// The engine's worker starts now, not after React's first render: it reads the member's local copy while the
// page draws (issue 14 §4).
void engine();

// The service worker keeps the app shell so Sift opens with the server down (issue 14 §3; src/sw/sw.ts).
// Production builds only (the dev server has no /sw.js), after the page has loaded so its install does not
// compete with the first paint. A failure is logged; the page works without it.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () =>
    navigator.serviceWorker
      .register('/sw.js', { scope: '/', updateViaCache: 'none' })
      .catch((error: unknown) => log.warn('Service worker not registered', { error: String(error) }));
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
