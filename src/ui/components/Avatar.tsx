import type { Face } from '../../model/rows';

/** A picture when the member has one, else coloured initials (one of the theme's colour pairs). */
export function Avatar({ avatar, size }: { avatar: Face; size: number }) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.42) };
  if (avatar.image) return <img className="avatar" src={avatar.image} alt="" style={style} />;
  return (
    <span className={`avatar initials c${avatar.colour}`} style={style} aria-hidden="true">
      {avatar.initials}
    </span>
  );
}
