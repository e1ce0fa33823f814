/**
 * The celebration shown when a list is empty (SPEC §2.4): a nature image picked at random
 * from four that ship with the app, remembered for the browser session (SPEC §3).
 */
import { useEffect, useId, useState } from 'react';
import { STORAGE_KEYS } from '../../model/constants';
import mountains from '../assets/nature/mountains.svg?no-inline';
import lake from '../assets/nature/lake.svg?no-inline';
import forest from '../assets/nature/forest.svg?no-inline';
import dunes from '../assets/nature/dunes.svg?no-inline';
import '../styles-menu.css';

// Served as files (not inlined into the script): only the one shown is downloaded.

export type NatureImage = 'mountains' | 'lake' | 'forest' | 'dunes';

export const NATURE_IMAGES: readonly NatureImage[] = ['mountains', 'lake', 'forest', 'dunes'];

const IMAGES: Record<NatureImage, { url: string; alt: string }> = {
  mountains: { url: mountains, alt: 'Mountain ranges at sunrise' },
  lake: { url: lake, alt: 'A still lake under the moon' },
  forest: { url: forest, alt: 'A misty pine forest in the morning' },
  dunes: { url: dunes, alt: 'Desert dunes at sunset' },
};

const isNatureImage = (value: string | null): value is NatureImage => value !== null && (NATURE_IMAGES as readonly string[]).includes(value);

/**
 * The image to show: the one stored for this session when it is one of the four, else one
 * chosen by `random()` (a number in [0, 1), as Math.random gives).
 */
export function pickImage(random: () => number, stored: string | null): NatureImage {
  if (isNatureImage(stored)) return stored;
  const r = random();
  const index = Number.isFinite(r) ? Math.min(NATURE_IMAGES.length - 1, Math.max(0, Math.floor(r * NATURE_IMAGES.length))) : 0;
  return NATURE_IMAGES[index]!;
}

function readStored(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEYS.emptyStateImage);
  } catch {
    return null;
  }
}

function store(image: NatureImage): void {
  try {
    sessionStorage.setItem(STORAGE_KEYS.emptyStateImage, image);
  } catch {
    /* storage unavailable: the choice lasts for this screen only */
  }
}

export function InboxZero() {
  const [image] = useState(() => pickImage(Math.random, readStored()));
  const headingId = useId();
  useEffect(() => store(image), [image]);
  const { url, alt } = IMAGES[image];
  return (
    <section className="inbox-zero" aria-labelledby={headingId}>
      <img className="inbox-zero-image" src={url} alt={alt} draggable={false} />
      <div className="inbox-zero-scrim" aria-hidden="true" />
      <div className="inbox-zero-card">
        <h2 id={headingId} className="inbox-zero-title">
          You've hit Inbox Zero!
        </h2>
        <p className="inbox-zero-subtitle">Time to enjoy the view...</p>
      </div>
    </section>
  );
}
