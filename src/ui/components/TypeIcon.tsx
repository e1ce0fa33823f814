/** The conversation type icon of SPEC §2.4: lock (private channel), # (channel), person (dm), hook arrow (thread). */
const PATHS = {
  lock: 'M5 7V5a3 3 0 0 1 6 0v2M4 7h8v6H4z',
  channel: 'M6 2 4.5 14M11.5 2 10 14M2.5 6h11M2 10h11',
  dm: 'M8 8a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM3 14c.6-2.6 2.6-4 5-4s4.4 1.4 5 4',
  thread: 'M4 2v6a3 3 0 0 0 3 3h6M10 8l3 3-3 3',
} as const;

const LABELS = { lock: 'Private channel', channel: 'Channel', dm: 'Direct message', thread: 'Thread' } as const;

export function TypeIcon({ type, isPrivate }: { type: 'dm' | 'channel' | 'thread'; isPrivate: boolean }) {
  const kind = type === 'channel' && isPrivate ? 'lock' : type;
  return (
    <svg className="type-icon" width="16" height="16" viewBox="0 0 16 16" role="img" aria-label={LABELS[kind]}>
      <path d={PATHS[kind]} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
