/**
 * Generated avatars: the person's initials on a colour, as an SVG data: URL. Nothing is
 * fetched from anywhere (the xmlns attribute is a namespace name, not a request).
 */
import { AVATAR_COLOUR_PAIRS } from '../../../model/constants';

/** Background colours, each dark enough for white initials. */
const PALETTE: readonly string[] = [
  '#1f6feb',
  '#8250df',
  '#bf3989',
  '#cf222e',
  '#bc4c00',
  '#9a6700',
  '#1a7f37',
  '#0969da',
  '#6639ba',
  '#a40e26',
  '#953800',
  '#116329',
  '#0550ae',
  '#4d2d8f',
  '#99286e',
  '#82071e',
  '#7d4e00',
  '#0e7490',
  '#0f766e',
  '#4338ca',
  '#be185d',
  '#b45309',
  '#15803d',
  '#1d4ed8',
  '#7e22ce',
  '#475569',
];

/** The palette index for a user id: stable, and spread over the palette. */
export function avatarColourIndex(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (Math.imul(h, 31) + id.charCodeAt(i)) | 0;
  return (h >>> 0) % Math.min(PALETTE.length, AVATAR_COLOUR_PAIRS);
}

/** Up to two initials of a name ("Alex Morgan" → "AM", "deploybot" → "D"). */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = [...words[0]!][0] ?? '?';
  const last = words.length > 1 ? ([...words[words.length - 1]!][0] ?? '') : '';
  return (first + last).toUpperCase();
}

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** An SVG data: URL showing `name`'s initials on a colour chosen from `id`; bots get a square. */
export function avatarDataUrl(id: string, name: string, isBot = false): string {
  const colour = PALETTE[avatarColourIndex(id)]!;
  const text = escapeXml(initials(name));
  const radius = isBot ? 14 : 36;
  const size = text.length > 1 ? 30 : 36;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="72" height="72" viewBox="0 0 72 72">` +
    `<rect width="72" height="72" rx="${radius}" fill="${colour}"/>` +
    `<text x="36" y="36" dy=".35em" text-anchor="middle" font-family="system-ui,-apple-system,Segoe UI,sans-serif" ` +
    `font-size="${size}" font-weight="600" fill="#ffffff">${text}</text></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
