/**
 * A screen's error boundary (issue 12 §4): a screen that throws while rendering shows a clear
 * message in its place, with 'Reload' and a way back to the inbox, while the rest of the app (the
 * menu, the search palette, the other routes) keeps working. The error goes to the page's log
 * (fatal entries are kept in local storage). The boundary starts over when the route changes.
 */
import { useEffect, useRef, type ErrorInfo, type ReactNode } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { Link, useLocation } from 'wouter';
import { log } from '../log';

export const SCREEN_ERROR_TITLE = 'Something went wrong on this screen';

function logScreenError(error: unknown, info: ErrorInfo): void {
  log.fatal(SCREEN_ERROR_TITLE, {
    name: error instanceof Error ? error.name : typeof error,
    error: error instanceof Error ? error.message : String(error),
    component: info.componentStack?.trim().split('\n')[0]?.trim(),
  });
}

/** What the failed screen shows in its place; `menuButton` keeps the side menu reachable. */
function ScreenError({ resetErrorBoundary, menuButton }: FallbackProps & { menuButton?: ReactNode }) {
  const [pathname] = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <>
      {menuButton && <header className="top-bar">{menuButton}</header>}
      <main className="center-screen" aria-labelledby="screen-error-title">
        <div role="alert">
          <h1 id="screen-error-title" className="center-title" tabIndex={-1} ref={heading}>
            {SCREEN_ERROR_TITLE}
          </h1>
          <p className="muted">The rest of Sift still works. Reload to try again, or go back to your inbox.</p>
        </div>
        <button type="button" className="button primary" onClick={() => window.location.reload()}>
          Reload
        </button>
        {/* Another route starts the boundary over by itself; the inbox's own failure tries it again. */}
        <Link className="button" href="/inbox" onClick={() => pathname === '/inbox' && resetErrorBoundary()}>
          Go to Inbox
        </Link>
      </main>
    </>
  );
}

/** Wraps one routed screen (or the page area of the shell). */
export function ScreenBoundary({ children, menuButton }: { children: ReactNode; menuButton?: ReactNode }) {
  const [pathname] = useLocation();
  return (
    <ErrorBoundary resetKeys={[pathname]} onError={logScreenError} fallbackRender={(props) => <ScreenError {...props} menuButton={menuButton} />}>
      {children}
    </ErrorBoundary>
  );
}
