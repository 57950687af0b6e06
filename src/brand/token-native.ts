/**
 * What the native formats (SwiftUI, Jetpack Compose, Android resources) share: colours as sRGB
 * components, which dimensions are text sizes or letter spacings and which numbers are line
 * heights (so they get sp/em rather than dp), and the header that names what a format leaves out.
 */
import type ColorClass from 'colorjs.io';
import { aliasPath } from './css-values.js';
import { isObj, type Tok } from './token-list.js';

/** The DTCG types both native formats (Swift, Compose) carry as values; the rest each says why not. */
export const NATIVE_TYPES: ReadonlySet<string> = new Set([
  'color',
  'dimension',
  'number',
  'fontWeight',
  'duration',
  'fontFamily',
  'cubicBezier',
  'transition',
  'shadow',
  'gradient',
  'typography',
]);

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

let Color: typeof ColorClass | undefined;
/** Loads the colour conversions: only a format build needs them, not every start. */
export async function loadColors(): Promise<void> {
  Color ??= (await import('colorjs.io')).default;
}

/** DTCG colour spaces by colorjs.io's names for them. */
const SPACES: Record<string, string> = { 'display-p3': 'p3' };

/** A DTCG colour in sRGB, 0–1 each: its hex when it has one, else converted (and gamut-mapped). */
export function rgba(v: unknown): Rgba {
  if (!isObj(v)) return { r: 0, g: 0, b: 0, a: 1 };
  const a = typeof v['alpha'] === 'number' ? v['alpha'] : 1;
  const hex = typeof v['hex'] === 'string' ? v['hex'] : undefined;
  if (hex && /^#[0-9a-f]{6}$/i.test(hex)) {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [
      number,
      number,
      number,
    ];
    return { r, g, b, a };
  }
  const space = String(v['colorSpace']);
  const coords = (Array.isArray(v['components']) ? v['components'] : []).map((c) =>
    typeof c === 'number' ? c : 0,
  ) as [number, number, number];
  const clamp = (n: number) => Math.min(1, Math.max(0, n));
  if (space === 'srgb') return { r: clamp(coords[0]), g: clamp(coords[1]), b: clamp(coords[2]), a };
  if (!Color) throw new Error('loadColors() first');
  const srgb = new Color(SPACES[space] ?? space, coords, a).to('srgb').toGamut({ space: 'srgb' });
  const [r, g, b] = srgb.coords.map((c) => clamp(Number(c) || 0)) as [number, number, number];
  return { r, g, b, a };
}

/** #aarrggbb, what Android and Compose write. */
export function argbHex(c: Rgba): string {
  const h = (n: number) =>
    Math.round(Math.min(1, Math.max(0, n)) * 255)
      .toString(16)
      .padStart(2, '0');
  return `${h(c.a)}${h(c.r)}${h(c.g)}${h(c.b)}`;
}

export type TextRole = 'fontSize' | 'letterSpacing' | 'lineHeight';

/**
 * The text role of each dimension and number token, read from the typography tokens: a token a
 * typography token uses as its fontSize (or letterSpacing, lineHeight) has that role, and so does
 * every token of its group (type.size.xs is a text size even when no style uses it).
 */
export function textRoles(tokens: Tok[]): Map<string, TextRole> {
  const groups = new Map<string, TextRole>();
  for (const t of tokens) {
    if (t.type !== 'typography' || !isObj(t.original)) continue;
    for (const role of ['fontSize', 'letterSpacing', 'lineHeight'] as const) {
      const target = aliasPath(t.original[role]);
      if (target !== undefined) groups.set(target.split('.').slice(0, -1).join('.'), role);
    }
  }
  const roles = new Map<string, TextRole>();
  for (const t of tokens) {
    const role = groups.get(t.path.slice(0, -1).join('.'));
    const fits = role === 'lineHeight' ? t.type === 'number' : t.type === 'dimension';
    if (role && fits) roles.set(t.key, role);
  }
  return roles;
}

/** The first family of a stack (the brand font) and the stack's generic family, if it names one. */
export function familyParts(v: unknown): { families: string[]; generic?: string } {
  const families = (Array.isArray(v) ? v : [v]).map(String);
  const generics = ['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui'];
  const generic = [...families].reverse().find((f) => generics.includes(f));
  return { families, ...(generic ? { generic } : {}) };
}

/**
 * Header lines naming the tokens a format leaves out and why, by type (`reasons`), or none.
 */
export function notCarried(tokens: Tok[], reasons: Record<string, string>): string[] {
  const lines: string[] = [];
  for (const [type, why] of Object.entries(reasons)) {
    const left = tokens.filter((t) => t.type === type).map((t) => t.key);
    if (left.length > 0) lines.push(`Not carried: ${type} (${left.join(', ')}): ${why}`);
  }
  return lines;
}
