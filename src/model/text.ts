/** Plain-text renderings of Slack message markup, for previews and notifications. */

export interface NameLookup {
  user(id: string): string | undefined;
  /** A channel's name, for `<#C…>` and `<#C…|>` (no label). */
  channel?(id: string): string | undefined;
  /** A user group's handle, for `<!subteam^S…>`. */
  usergroup?(id: string): string | undefined;
}

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&' };

/**
 * Slack markup as plain text: `<@U1>` → @name, `<#C1|name>` → #name (`<#C1>` and `<#C1|>` → the
 * lookup's name), `<url|label>` → label, `<!here>` → @here, `<!subteam^S1>` → @handle, entities
 * decoded. Emphasis markers and emoji codes are kept.
 */
export function plainText(text: string, names: NameLookup): string {
  return text
    .replace(/<([^<>]*)>/g, (_m, inner: string) => {
      const [target = '', label] = inner.split('|', 2);
      if (target.startsWith('@')) return `@${label || names.user(target.slice(1)) || target.slice(1)}`;
      if (target.startsWith('#')) return `#${label || names.channel?.(target.slice(1)) || target.slice(1)}`;
      if (target.startsWith('!')) {
        // <!here>, <!channel>, <!subteam^S1|@team> are mentions; <!date^…|fallback> shows its fallback.
        const [command = '', id = ''] = target.slice(1).split('^');
        const mention = ['here', 'channel', 'everyone', 'subteam'].includes(command);
        if (label) return mention && !label.startsWith('@') ? `@${label}` : label;
        if (command === 'subteam') return `@${names.usergroup?.(id) || 'subteam'}`;
        return mention ? `@${command}` : '';
      }
      return label ?? target;
    })
    .replace(/&(lt|gt|amp);/g, (m) => ENTITIES[m] ?? m);
}

/** Cuts text to `limit` characters on one line, ending with an ellipsis when cut. */
export function cutText(text: string, limit: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= limit) return line;
  return `${line.slice(0, Math.max(0, limit - 1)).trimEnd()}…`;
}

/** Up to two initials of a name, for avatar fallbacks. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  // Whole characters, not UTF-16 halves: a name may start with an emoji.
  const first = Array.from(words[0]!)[0]!;
  const last = words.length > 1 ? Array.from(words[words.length - 1]!)[0]! : '';
  return (first + last).toUpperCase();
}

/** A stable colour index in [0, pairs) for an id. */
export function colourIndex(id: string, pairs: number): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) | 0;
  return Math.abs(h) % pairs;
}
