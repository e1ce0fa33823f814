/**
 * Seeded randomness for the demo workspace: a small, fast PRNG (sfc32, seeded through
 * splitmix32) and the few draws the generator needs. Everything here is deterministic:
 * the same seed always yields the same sequence, on every platform.
 */

/** A source of uniform numbers in [0, 1), like Math.random. */
export type Rng = () => number;

/** splitmix32 step: a good 32-bit mixer, used to expand a seed into PRNG state. */
function splitmix32(state: number): [next: number, out: number] {
  const next = (state + 0x9e3779b9) | 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  z ^= z >>> 16;
  return [next, z >>> 0];
}

/** Folds any finite number (negative, fractional, beyond 32 bits) into a 32-bit seed. */
export function seed32(seed: number): number {
  if (!Number.isFinite(seed)) return 0;
  const whole = Math.trunc(seed);
  const low = whole >>> 0;
  const high = Math.floor(whole / 4294967296) >>> 0;
  const frac = Math.floor((seed - whole) * 4294967296) >>> 0;
  return (low ^ Math.imul(high, 0x27d4eb2d) ^ Math.imul(frac, 0x165667b1)) >>> 0;
}

/**
 * sfc32 ("small fast counting"), seeded with splitmix32 from `seed`. Returns numbers in
 * [0, 1) with 32 bits of resolution.
 */
export function createRandom(seed: number): Rng {
  let s = seed32(seed);
  let a: number, b: number, c: number;
  [s, a] = splitmix32(s);
  [s, b] = splitmix32(s);
  [s, c] = splitmix32(s);
  let d = 1; // the counter
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next(); // discard the warm-up outputs
  return next;
}

/** 32-bit FNV-1a of a string: to mix names (workspace ids) into seeds. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** An integer in [min, max], both inclusive. */
export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}

export function chance(rng: Rng, probability: number): boolean {
  return rng() < probability;
}

/** An exponential draw with mean 1. */
export function exponential(rng: Rng): number {
  return -Math.log(1 - rng());
}

/** Picks a key of `weights` with probability proportional to its weight. */
export function weighted<K extends string>(rng: Rng, weights: Readonly<Record<K, number>>): K {
  let total = 0;
  for (const key in weights) total += weights[key];
  let r = rng() * total;
  let last: K | undefined;
  for (const key in weights) {
    last = key;
    r -= weights[key];
    if (r < 0) return key;
  }
  return last!;
}
