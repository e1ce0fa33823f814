import { useEffect, useState } from 'react';
import { NavLink } from 'react-router';
import type { AuthStatus } from '../../model/types';
import { avatarOf, displayName } from '../../model/rows';
import { applyTheme, readTheme, type Theme } from '../session';
import { Avatar } from './Avatar';

/** SPEC §2.5: the member, the theme toggle, logout and the page list. */
export function SideMenu({ open, onClose, status, onLogout }: { open: boolean; onClose: () => void; status: AuthStatus; onLogout: () => void }) {
  const [theme, setTheme] = useState<Theme>(readTheme);
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onClose]);
  if (!open) return null;
  const user = status.user;
  const toggleTheme = () => {
    const next = theme === 'dark' ? 'light' : 'dark';
    applyTheme(next);
    setTheme(next);
  };
  return (
    <div className="modal-backdrop side" onClick={onClose}>
      <nav className="side-menu" aria-label="Menu" onClick={(e) => e.stopPropagation()}>
        {user && (
          <div className="side-user">
            <Avatar avatar={avatarOf(user, user.id)} size={36} />
            <div>
              <div className="side-name">{displayName(user, user.name)}</div>
              <div className="muted small">{status.workspace?.name}</div>
            </div>
          </div>
        )}
        <ul className="side-pages">
          <li>
            <NavLink to="/inbox" onClick={onClose}>
              Inbox
            </NavLink>
          </li>
          <li>
            <NavLink to="/conversations" onClick={onClose}>
              Conversations
            </NavLink>
          </li>
          <li>
            <NavLink to="/ask-ai" onClick={onClose}>
              Ask AI
            </NavLink>
          </li>
        </ul>
        <div className="side-actions">
          <button type="button" className="button wide" onClick={toggleTheme}>
            {theme === 'dark' ? 'Light Mode' : 'Dark Mode'}
          </button>
          <button type="button" className="button wide" onClick={onLogout}>
            Logout
          </button>
        </div>
      </nav>
    </div>
  );
}
