/**
 * The page's regions for F6 / Shift+F6 (issue 13 §2, as Slack's web client does): the top bar,
 * the conversation list, the open conversation and its message box, each marked
 * `data-region`. Moving to a region focuses its own focus target: the listbox, the message box,
 * else the region itself (made focusable for it).
 */
const ORDER = ['topbar', 'list', 'conversation', 'composer'] as const;
export type Region = (typeof ORDER)[number];

function regions(doc: Document): HTMLElement[] {
  return ORDER.flatMap((name) => [...doc.querySelectorAll<HTMLElement>(`[data-region="${name}"]`)]);
}

/** Where each region's focus goes, when not the region itself. */
const TARGETS: Partial<Record<Region, string>> = { list: '[role="listbox"]', composer: 'textarea' };

/** The element a region's focus goes to: its own target (the listbox, the message box), else the region. */
export function focusTarget(region: HTMLElement): HTMLElement {
  const selector = TARGETS[region.getAttribute('data-region') as Region];
  const own = selector ? region.querySelector<HTMLElement>(selector) : null;
  if (own) return own;
  if (!region.hasAttribute('tabindex')) region.tabIndex = -1;
  return region;
}

/** Focuses a region by name; answers whether it is there. */
export function focusRegion(name: Region, doc: Document = document): boolean {
  const region = doc.querySelector<HTMLElement>(`[data-region="${name}"]`);
  if (!region) return false;
  focusTarget(region).focus();
  return true;
}

/** Moves the focus to the next (1) or previous (-1) region, wrapping around. */
export function moveRegion(step: 1 | -1, doc: Document = document): void {
  const all = regions(doc);
  if (all.length === 0) return;
  const active = doc.activeElement;
  const at = all.findIndex((region) => region === active || region.contains(active));
  // A nested region (the message box inside the conversation) counts as itself, not its parent.
  const current = at < 0 ? -1 : all.reduce((found, region, i) => (region === active || region.contains(active) ? i : found), at);
  const next = current < 0 ? (step === 1 ? 0 : all.length - 1) : (current + step + all.length) % all.length;
  focusTarget(all[next]!).focus();
}
