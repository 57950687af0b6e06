/**
 * What a format should carry, read from the served DTCG document itself: every token with its
 * aliases followed (inside composites too), in light mode and in dark mode (the document's
 * `$extensions["org.fleetgate.modes"].dark` over the base), and which tokens differ in dark.
 */
import { flattenTokens, resolveValue, type FlatToken } from '../../src/brand/dtcg.js';

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Expected {
  token: FlatToken;
  value: unknown;
}

function deepResolve(flat: Map<string, FlatToken>) {
  const deep = (v: unknown): unknown => {
    const r = resolveValue(v, flat);
    if (Array.isArray(r)) return r.map(deep);
    if (isObj(r)) return Object.fromEntries(Object.entries(r).map(([k, x]) => [k, deep(x)]));
    return r;
  };
  return deep;
}

export function expectedTokens(doc: Obj): { light: Expected[]; dark: Expected[] } {
  const flat = flattenTokens(doc, 'tokens', []);
  const ext = isObj(doc['$extensions']) ? doc['$extensions'] : {};
  const modes = isObj(ext['org.fleetgate.modes']) ? ext['org.fleetgate.modes'] : {};
  const darkFlat = flattenTokens({ ...(modes['dark'] as Obj) }, 'dark', []);
  const merged = new Map(flat);
  for (const [k, t] of darkFlat) {
    const base = flat.get(k);
    if (base) merged.set(k, { ...base, value: t.value });
  }
  const lightDeep = deepResolve(flat);
  const darkDeep = deepResolve(merged);
  const light = [...flat.values()].map((token) => ({ token, value: lightDeep(token.value) }));
  const dark = [...merged.values()]
    .map((token) => ({ token, value: darkDeep(token.value) }))
    .filter(
      (e, i) => darkFlat.has(e.token.path) || JSON.stringify(e.value) !== JSON.stringify(light[i]?.value),
    );
  return { light, dark };
}

const words = (dotted: string) => dotted.split(/[.-]/);
export const camel = (dotted: string): string =>
  words(dotted)
    .map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
export const snake = (dotted: string): string => words(dotted).join('_');

/** A DTCG dimension in px (16 to the rem). */
export const px = (v: unknown): number =>
  isObj(v) ? Number(v['value']) * (v['unit'] === 'rem' ? 16 : 1) : NaN;
export const ms = (v: unknown): number =>
  isObj(v) ? Number(v['value']) * (v['unit'] === 's' ? 1000 : 1) : NaN;

/** A DTCG sRGB colour's red, green, blue (0–1) and alpha, from its hex. */
export function rgba(v: unknown): [number, number, number, number] {
  const o = isObj(v) ? v : {};
  const hex = String(o['hex']);
  const byte = (i: number) => parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
  return [byte(0), byte(1), byte(2), typeof o['alpha'] === 'number' ? o['alpha'] : 1];
}
