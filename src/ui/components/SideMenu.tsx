import {
  Fragment,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
} from 'react';
import { Link, useRoute } from 'wouter';
import { useNavigate } from '../router';
import type { AuthStatus } from '../../model/types';
import { displayName } from '../../model/rows';
import { applyTheme, readTheme, type Theme } from '../session';
import { userAvatar } from '../screens/ProfileScreen';
import { useFeatureFlag } from '../hooks/useFeatureFlag';
import { Avatar } from './Avatar';
import {
  AnalyticsIcon,
  AutomationsIcon,
  ChevronDownIcon,
  CloseIcon,
  ConversationsIcon,
  InboxIcon,
  IntegrationsIcon,
  LogoutIcon,
  MoonIcon,
  PlusIcon,
  SparklesIcon,
  SwitchIcon,
  SunIcon,
  UserIcon,
  type IconProps,
} from './Icons';
import { focusables } from '../hooks/useDialog';
import { addWorkspace, otherWorkspaces, switchLabel, switchWorkspace } from '../workspaces';
import { useToast } from './Toasts';
import '../styles-menu.css';

const PAGES: Array<{ to: string; label: string; icon: ComponentType<IconProps> }> = [
  { to: '/inbox', label: 'Inbox', icon: InboxIcon },
  { to: '/conversations', label: 'Conversations', icon: ConversationsIcon },
  { to: '/ask-ai', label: 'Ask AI', icon: SparklesIcon },
];

const COMING_SOON: Array<{ label: string; icon: ComponentType<IconProps> }> = [
  { label: 'Analytics', icon: AnalyticsIcon },
  { label: 'Automations', icon: AutomationsIcon },
  { label: 'Integrations', icon: IntegrationsIcon },
];

/**
 * SPEC §2.5: a drawer with the member and their account menu (View Profile, theme, Logout)
 * and the page list. Focus moves in when it opens and back to the opener when it closes;
 * Esc or a click outside closes it. While it is open, keys typed in it stay in it.
 */
export function SideMenu({ open, onClose, status, onLogout }: { open: boolean; onClose: () => void; status: AuthStatus; onLogout: () => void }) {
  const drawer = useRef<HTMLElement>(null);
  const profileEnabled = useFeatureFlag('userProfile') === true;

  // Focus in on open; back to whatever had it (the opener) on close.
  useLayoutEffect(() => {
    if (!open) return undefined;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const node = drawer.current;
    if (node) (focusables(node)[0] ?? node).focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);

  // Esc while focus is outside the drawer (e.g. on the page body) still closes it, before page shortcuts see it.
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (drawer.current && event.target instanceof Node && drawer.current.contains(event.target)) return;
      event.preventDefault();
      onClose();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open, onClose]);

  if (!open) return null;

  const onKeyDown = (event: ReactKeyboardEvent<HTMLElement>) => {
    // The list page listens on window: keep j/k, Tab and friends from acting behind the drawer.
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'Tab' && drawer.current) {
      const items = focusables(drawer.current);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && (document.activeElement === first || document.activeElement === drawer.current)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  };

  return (
    <div
      className="drawer-backdrop"
      role="presentation"
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the drawer's own keys (Esc closes, Tab kept inside), bubbled from its links and buttons */}
      <nav ref={drawer} className="drawer" aria-label="Menu" tabIndex={-1} onKeyDown={onKeyDown}>
        <div className="drawer-head">
          <AccountMenu status={status} profileEnabled={profileEnabled} onLogout={onLogout} onNavigate={onClose} />
          <button type="button" className="icon-button drawer-close" aria-label="Close menu" title="Close menu" onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <ul className="drawer-pages">
          {PAGES.map(({ to, label, icon: PageIcon }) => (
            <li key={to}>
              <PageLink to={to} onClick={onClose}>
                <PageIcon className="drawer-page-icon" />
                <span className="drawer-page-label">{label}</span>
              </PageLink>
            </li>
          ))}
        </ul>
        <ul className="drawer-pages drawer-soon">
          {COMING_SOON.map(({ label, icon: PageIcon }) => (
            <li key={label}>
              <span className="drawer-page disabled" role="link" aria-disabled="true">
                <PageIcon className="drawer-page-icon" />
                <span className="drawer-page-label">{label}</span>
                <span className="soon-badge">Coming Soon</span>
              </span>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

interface Item {
  id: string;
  label: string;
  icon: ComponentType<IconProps>;
  /** Run after the menu closes. */
  run: () => void;
  /** The focus goes back to the account button (the page stays). */
  refocus?: boolean;
}

/** A page of the menu: marked as the current page when it is (aria-current). */
function PageLink({ to, onClick, children }: { to: string; onClick: () => void; children: ReactNode }) {
  const [active] = useRoute(to);
  return (
    <Link href={to} className={`drawer-page${active ? ' active' : ''}`} aria-current={active ? 'page' : undefined} onClick={onClick}>
      {children}
    </Link>
  );
}

/** The member and a menu button (WAI-ARIA menu button pattern) with the account actions. */
function AccountMenu({
  status,
  profileEnabled,
  onLogout,
  onNavigate,
}: {
  status: AuthStatus;
  profileEnabled: boolean;
  onLogout: () => void;
  onNavigate: () => void;
}) {
  const [expanded, setExpanded] = useState(false);
  const [theme, setTheme] = useState<Theme>(readTheme);
  const [focusAt, setFocusAt] = useState<'first' | 'last'>('first');
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const triggerId = useId();
  const navigate = useNavigate();
  const user = status.user;
  const name = user ? displayName(user, user.name || user.id) : 'Signed in';

  const close = useCallback((refocus: boolean) => {
    setExpanded(false);
    if (refocus) trigger.current?.focus();
  }, []);

  const demo = useFeatureFlag('demoMode');
  const toast = useToast();
  // The account's other workspaces, and (Slack mode) 'Add workspace': a Slack sign-in bound to this session.
  const items: Item[] = [
    ...otherWorkspaces(status).map((workspace): Item => ({
      id: `switch:${workspace.id}`,
      label: switchLabel(workspace),
      icon: SwitchIcon,
      run: () => switchWorkspace(workspace, toast),
    })),
    ...(demo === false ? [{ id: 'add-workspace', label: 'Add workspace', icon: PlusIcon, run: addWorkspace }] : []),
    ...(profileEnabled
      ? [
          {
            id: 'profile',
            label: 'View Profile',
            icon: UserIcon,
            run: () => {
              onNavigate();
              navigate('/profile/me');
            },
          },
        ]
      : []),
    {
      id: 'theme',
      label: theme === 'dark' ? 'Light Mode' : 'Dark Mode',
      icon: theme === 'dark' ? SunIcon : MoonIcon,
      run: () => {
        const next: Theme = theme === 'dark' ? 'light' : 'dark';
        applyTheme(next);
        setTheme(next);
      },
      refocus: true,
    },
    {
      id: 'logout',
      label: 'Logout',
      icon: LogoutIcon,
      run: () => {
        onLogout();
      },
    },
  ];

  // Opening moves focus to the first (or, from ArrowUp, the last) item.
  useEffect(() => {
    if (!expanded || !menu.current) return;
    const entries = menu.current.querySelectorAll<HTMLElement>('[role="menuitem"]');
    entries[focusAt === 'first' ? 0 : entries.length - 1]?.focus();
  }, [expanded, focusAt]);

  // A click anywhere else closes the menu.
  useEffect(() => {
    if (!expanded) return undefined;
    const onDown = (event: MouseEvent) => {
      const target = event.target as Node | null;
      if (target && (menu.current?.contains(target) || trigger.current?.contains(target))) return;
      setExpanded(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [expanded]);

  const openAt = (at: 'first' | 'last') => {
    setFocusAt(at);
    setExpanded(true);
  };

  const onTriggerKey = (event: ReactKeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  const onMenuKey = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    const entries = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      entries[(index + entries.length) % entries.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(at + 1);
      case 'ArrowUp':
        return move(at < 0 ? entries.length - 1 : at - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(entries.length - 1);
      case 'Escape':
        // Closes the menu only, not the drawer.
        event.preventDefault();
        event.stopPropagation();
        return close(true);
      case 'Tab':
        event.preventDefault();
        return close(true);
      default:
        if (event.key.length === 1 && /\S/.test(event.key) && !event.altKey && !event.ctrlKey && !event.metaKey) {
          // Type-ahead: the next item starting with the typed character.
          const char = event.key.toLowerCase();
          for (let step = 1; step <= entries.length; step++) {
            const candidate = entries[(at + step + entries.length) % entries.length];
            if (candidate?.textContent?.trim().toLowerCase().startsWith(char)) return move(at + step);
          }
        }
        return undefined;
    }
  };

  return (
    <div className="account">
      <button
        ref={trigger}
        id={triggerId}
        type="button"
        className="account-button"
        aria-haspopup="menu"
        aria-expanded={expanded}
        aria-controls={expanded ? menuId : undefined}
        onClick={() => (expanded ? close(false) : openAt('first'))}
        onKeyDown={onTriggerKey}
      >
        {user ? <Avatar avatar={userAvatar(user, 'small')} size={36} /> : <span className="avatar account-placeholder" aria-hidden="true" />}
        <span className="account-text">
          <span className="account-name">{name}</span>
          {status.workspace?.name && <span className="account-workspace">{status.workspace.name}</span>}
        </span>
        <ChevronDownIcon className="account-chevron" size={16} />
      </button>
      {expanded && (
        <div ref={menu} id={menuId} className="account-menu" role="menu" aria-labelledby={triggerId} tabIndex={-1} onKeyDown={onMenuKey}>
          {items.map(({ id, label, icon: ItemIcon, run, refocus = false }) => (
            <Fragment key={id}>
              {id === 'logout' && <div role="separator" className="account-separator" />}
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className="account-item"
                onClick={() => {
                  close(refocus);
                  run();
                }}
              >
                <ItemIcon size={16} />
                {label}
              </button>
            </Fragment>
          ))}
        </div>
      )}
    </div>
  );
}
