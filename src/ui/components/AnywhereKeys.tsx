/**
 * The registry's 'anywhere' actions (issue 13 §1) on every signed-in screen: the go-to keys, the
 * regions, the theme, the `?` overlay, the menu, the account's workspaces and sign-out. The shell
 * and the profile page mount it; a screen passes what it has (the profile page has no palette and
 * no menu, so their keys do nothing there and the palette does not list them).
 */
import { useState } from 'react';
import type { AuthStatus } from '../../model/types';
import { useFeatureFlag } from '../hooks/useFeatureFlag';
import { useActionHandlers } from '../keyboard/dispatch';
import { moveRegion } from '../keyboard/regions';
import { useNavigate } from '../router';
import { applyTheme, readTheme } from '../session';
import { addWorkspace, nextWorkspace, switchLabel, switchWorkspace } from '../workspaces';
import { ShortcutsOverlay } from './ShortcutsOverlay';
import { useToast } from './Toasts';

export interface AnywhereKeysProps {
  status: AuthStatus;
  onLogout: () => void;
  /** Opens the search palette, where there is one. */
  onSearch?: () => void;
  /** Opens the side menu, where there is one. */
  onMenu?: () => void;
}

export function AnywhereKeys({ status, onLogout, onSearch, onMenu }: AnywhereKeysProps) {
  const navigate = useNavigate();
  const toast = useToast();
  const profiles = useFeatureFlag('userProfile') === true;
  // Slack mode only: the demo workspace has no Slack sign-in to add another with.
  const slack = useFeatureFlag('demoMode') === false;
  const [theme, setTheme] = useState(readTheme);
  const [showShortcuts, setShowShortcuts] = useState(false);
  const next = nextWorkspace(status);

  useActionHandlers({
    search: { run: () => onSearch?.(), enabled: () => onSearch !== undefined },
    'go-inbox': { run: () => navigate('/inbox') },
    'go-conversations': { run: () => navigate('/conversations') },
    'go-ask-ai': { run: () => navigate('/ask-ai') },
    'go-profile': { run: () => navigate('/profile/me'), enabled: () => profiles },
    'next-region': { run: () => moveRegion(1) },
    'previous-region': { run: () => moveRegion(-1) },
    'switch-theme': {
      run: () => {
        const theme = readTheme() === 'dark' ? 'light' : 'dark';
        applyTheme(theme);
        setTheme(theme);
      },
      label: () => (theme === 'dark' ? 'Switch to Light Mode' : 'Switch to Dark Mode'),
    },
    'show-shortcuts': { run: () => setShowShortcuts(true) },
    'open-menu': { run: () => onMenu?.(), enabled: () => onMenu !== undefined },
    'switch-workspace': { run: () => next && switchWorkspace(next, toast), enabled: () => next !== null, label: () => (next ? switchLabel(next) : '') },
    'add-workspace': { run: addWorkspace, enabled: () => slack },
    'sign-out': { run: onLogout },
  });

  return showShortcuts ? <ShortcutsOverlay onClose={() => setShowShortcuts(false)} /> : null;
}
