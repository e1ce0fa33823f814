import { render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { InboxZero, NATURE_IMAGES, pickImage } from '../../src/ui/components/InboxZero';

const KEY = 'sift_empty_state_image';

const shownImage = () => screen.getByRole('img');

beforeEach(() => {
  sessionStorage.clear();
});

describe('InboxZero (SPEC §2.4)', () => {
  it('celebrates: a heading and a line of text over a nature image', () => {
    render(<InboxZero />);
    expect(screen.getByRole('heading', { name: "You've hit Inbox Zero!" })).toBeTruthy();
    expect(screen.getByText('Time to enjoy the view...')).toBeTruthy();
    expect(screen.getByRole('region', { name: "You've hit Inbox Zero!" })).toBeTruthy();
    expect(shownImage().getAttribute('src')).toMatch(/\/(mountains|lake|forest|dunes)\.svg/);
    expect(shownImage().getAttribute('alt')).not.toBe('');
  });

  it('remembers the image for the session: the same one across two renders', () => {
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.3);
    const first = render(<InboxZero />);
    const src = shownImage().getAttribute('src');
    expect(src).toMatch(/\/lake\.svg/);
    expect(sessionStorage.getItem(KEY)).toBe('lake');
    first.unmount();

    random.mockReturnValue(0.9);
    render(<InboxZero />);
    expect(shownImage().getAttribute('src')).toBe(src);
    expect(sessionStorage.getItem(KEY)).toBe('lake');
  });

  it('shows the image stored for this session', () => {
    sessionStorage.setItem(KEY, 'dunes');
    vi.spyOn(Math, 'random').mockReturnValue(0);
    render(<InboxZero />);
    expect(shownImage().getAttribute('src')).toMatch(/\/dunes\.svg/);
    expect(shownImage().getAttribute('alt')).toBe('Desert dunes at sunset');
  });

  it('replaces a stored value that is not one of the four', () => {
    sessionStorage.setItem(KEY, 'volcano');
    vi.spyOn(Math, 'random').mockReturnValue(0.55);
    render(<InboxZero />);
    expect(shownImage().getAttribute('src')).toMatch(/\/forest\.svg/);
    expect(sessionStorage.getItem(KEY)).toBe('forest');
  });

  it('ships four hand-written SVG illustrations, each under 6 KB', () => {
    expect([...NATURE_IMAGES].sort()).toEqual(['dunes', 'forest', 'lake', 'mountains']);
    for (const name of NATURE_IMAGES) {
      const text = readFileSync(resolve('src/ui/assets/nature', `${name}.svg`), 'utf8');
      expect(text.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(text).toMatch(/<linearGradient|<radialGradient/);
      expect(text).not.toMatch(/<script|<image|href="http/);
      expect(Buffer.byteLength(text)).toBeLessThan(6 * 1024);
    }
  });
});

describe('pickImage', () => {
  it.each([
    { random: 0, stored: null, expected: 'mountains' },
    { random: 0.2499, stored: null, expected: 'mountains' },
    { random: 0.25, stored: null, expected: 'lake' },
    { random: 0.5, stored: null, expected: 'forest' },
    { random: 0.74, stored: null, expected: 'forest' },
    { random: 0.75, stored: null, expected: 'dunes' },
    { random: 0.9999, stored: null, expected: 'dunes' },
    { random: 1, stored: null, expected: 'dunes' },
    { random: -0.5, stored: null, expected: 'mountains' },
    { random: Number.NaN, stored: null, expected: 'mountains' },
    { random: 0.9, stored: 'lake', expected: 'lake' },
    { random: 0, stored: 'dunes', expected: 'dunes' },
    { random: 0.3, stored: 'forest', expected: 'forest' },
    { random: 0.6, stored: 'volcano', expected: 'forest' },
    { random: 0.1, stored: '', expected: 'mountains' },
    { random: 0.8, stored: 'LAKE', expected: 'dunes' },
  ])('random $random, stored $stored → $expected', ({ random, stored, expected }) => {
    expect(pickImage(() => random, stored)).toBe(expected);
  });

  it('does not draw a number when a valid image is stored', () => {
    const random = vi.fn(() => 0.5);
    pickImage(random, 'mountains');
    expect(random).not.toHaveBeenCalled();
  });

  it('every draw in [0, 1) lands on one of the four, each reachable', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100; i++) seen.add(pickImage(() => i / 100, null));
    expect([...seen].sort()).toEqual(['dunes', 'forest', 'lake', 'mountains']);
  });
});
