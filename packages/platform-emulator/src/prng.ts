/**
 * A small deterministic PRNG (mulberry32) and helpers, so the demo data is the same on every
 * machine and every reset.
 */
export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  id(length: number, alphabet?: string): string;
  digits(length: number): string;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T,
    id: (length, alphabet = ALNUM) =>
      Array.from({ length }, () => alphabet[int(0, alphabet.length - 1)]).join(''),
    digits: (length) =>
      String(int(1, 9)) + Array.from({ length: length - 1 }, () => String(int(0, 9))).join(''),
  };
}
