/**
 * The profile screen (SPEC §2.1): /profile/me and /profile/{userId}, only while the
 * userProfile feature flag is on (otherwise the route redirects to /inbox).
 */
import { useFeatureFlag } from '../hooks/useFeatureFlag';
import { useCallback, useId } from 'react';
import { Link, Redirect, useParams } from 'wouter';
import { canGoBack, useNavigate } from '../router';
import { useActionHandlers } from '../keyboard/dispatch';
import { AnywhereKeys } from '../components/AnywhereKeys';
import { useObservable, useObservableState } from 'observable-hooks';
import { catchError, defer, map, of, startWith, switchMap } from 'rxjs';
import type { AuthStatus, User } from '../../model/types';
import { avatarOf, displayName } from '../../model/rows';
import { command } from '../engine';
import { Avatar } from '../components/Avatar';
import { ArrowLeftIcon, MailIcon } from '../components/Icons';
import '../styles-menu.css';

/** One feature flag of the session (SPEC §7.1): undefined until the engine answers, false when it fails. */
type Picture = Pick<User, 'avatar' | 'avatar_url' | 'image_48' | 'image_72' | 'image_192' | 'image_512'>;

/** An address an <img> may load: http(s), an image data: URL, or a same-origin path. */
function usablePicture(value: string | undefined): value is string {
  return typeof value === 'string' && (/^https?:\/\//i.test(value) || /^data:image\//i.test(value) || /^\/(?!\/)/.test(value));
}

/** The member's picture for a given display size, or undefined for the coloured-initials fallback. */
export function pictureOf(user: Picture, size: 'small' | 'large'): string | undefined {
  const order =
    size === 'large'
      ? [user.image_192, user.image_512, user.avatar, user.avatar_url, user.image_72]
      : [user.avatar, user.image_72, user.image_48, user.avatar_url, user.image_192];
  return order.find(usablePicture);
}

/** The avatar record for a full User: the picture when usable, else initials on the id's colour pair. */
export function userAvatar(user: User, size: 'small' | 'large') {
  const base = avatarOf(user, user.id);
  const image = pictureOf(user, size);
  return image ? { ...base, image } : { ...base, image: undefined };
}

type Lookup = { state: 'loading' } | { state: 'found'; user: User } | { state: 'missing' };

const LOADING: Lookup = { state: 'loading' };
const MISSING: Lookup = { state: 'missing' };

/** The person behind a profile id, as the engine knows them (null id: nobody to look up). */
function useUser(id: string | null): Lookup {
  const lookup$ = useObservable(
    (inputs$) =>
      inputs$.pipe(
        switchMap(([userId]) =>
          userId === null
            ? of(MISSING)
            : defer(() => command((api) => api.user(userId))).pipe(
                map((user): Lookup => (user ? { state: 'found', user } : MISSING)),
                catchError(() => of(MISSING)),
                startWith(LOADING),
              ),
        ),
      ),
    [id],
  );
  return useObservableState(lookup$, LOADING);
}

export function ProfileScreen({ status, onLogout }: { status: AuthStatus; onLogout: () => void }) {
  const enabled = useFeatureFlag('userProfile');
  const { userId } = useParams();
  const meId = status.user?.id ?? null;
  const isMe = userId === undefined || userId === 'me' || userId === meId;
  // My own record comes with the auth status; anybody else is looked up in the engine.
  const lookup = useUser(isMe ? null : (userId ?? null));
  const navigate = useNavigate();
  // The page Sift was opened on has nothing of Sift's to go back to: Back goes to the inbox.
  const back = useCallback(() => {
    if (canGoBack()) window.history.back();
    else navigate('/inbox');
  }, [navigate]);
  useActionHandlers({ 'profile-back': { run: back } });

  if (enabled === false) return <Redirect to="/inbox" replace />;

  let body;
  if (enabled === undefined || (!isMe && lookup.state === 'loading')) {
    body = (
      <p className="profile-status muted" role="status">
        Loading profile...
      </p>
    );
  } else {
    const person = isMe ? status.user : lookup.state === 'found' ? lookup.user : null;
    body = person ? <ProfileCard user={person} isMe={isMe} /> : <NotInWorkspace />;
  }

  return (
    <div className="profile-page">
      {/* The go-to keys, the theme, the overlay and the workspaces work here too (issue 13 §1). */}
      <AnywhereKeys status={status} onLogout={onLogout} />
      <header className="top-bar profile-bar">
        <button type="button" className="button profile-back" onClick={back}>
          <ArrowLeftIcon size={16} />
          Back
        </button>
        <span className="profile-bar-title">Profile</span>
      </header>
      <main className="profile-main">{body}</main>
    </div>
  );
}

function ProfileCard({ user, isMe }: { user: User; isMe: boolean }) {
  const headingId = useId();
  const name = displayName(user, user.id);
  const handle = user.display_name || user.name;
  return (
    <article className="profile-card" aria-labelledby={headingId}>
      <div className="profile-avatar">
        <Avatar avatar={userAvatar(user, 'large')} size={192} />
      </div>
      <h1 id={headingId} className="profile-name">
        {name}
      </h1>
      {handle && <p className="profile-handle">@{handle}</p>}
      {isMe && <p className="profile-you">This is you</p>}
      {user.title && <p className="profile-title">{user.title}</p>}
      {(user.team || user.email) && (
        <dl className="profile-facts">
          {user.team && (
            <div>
              <dt>Team</dt>
              <dd>{user.team}</dd>
            </div>
          )}
          {user.email && (
            <div>
              <dt>Email</dt>
              <dd>
                <a className="profile-email" href={`mailto:${user.email}`}>
                  <MailIcon size={15} />
                  {user.email}
                </a>
              </dd>
            </div>
          )}
        </dl>
      )}
    </article>
  );
}

function NotInWorkspace() {
  return (
    <section className="profile-card profile-missing">
      <h1 className="profile-name">This person is not in your workspace</h1>
      <p className="muted">They may have left, or the link may be wrong.</p>
      <Link className="button primary" href="/inbox">
        Back to Inbox
      </Link>
    </section>
  );
}
