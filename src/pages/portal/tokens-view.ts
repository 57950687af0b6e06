/**
 * The design tokens as the portal shows them: read from the catalog's flattened token maps,
 * each with its CSS custom property (only if the published tokens CSS really defines it), its
 * resolved value for display, and a class whose rule in portal.css paints it with that property.
 */
import type { BrandCatalog } from '../../brand/catalog.js';
import { contrastRatio, wcagLevel } from '../../brand/contrast.js';
import { resolveValue, type FlatToken } from '../../brand/dtcg.js';
import { cssValue } from '../../brand/tokens-css.js';
import { cssSafe } from './html.js';

export type Level = ReturnType<typeof wcagLevel>;
export type Ratio = { ratio: number; level: Level };

export interface TokenEntry {
  path: string;
  /** The path without its group, e.g. "palette.navy.50" for colors.palette.navy.50. */
  name: string;
  type: FlatToken['type'];
  cssVar: string | null;
  /** Resolved CSS value, for display (and as the var() fallback when safe). */
  value: string;
  alias: string | null;
  description: string | null;
  cls: string;
}

export interface ModeValue {
  value: string;
  alias: string | null;
  hex: string | null;
  /** Contrast in that mode against what `against` names. */
  ratio: Ratio | null;
}

export interface ColorEntry extends TokenEntry {
  hex: string | null;
  /** Palette colors: as text on the light and on the dark page surface. */
  onLight: Ratio | null;
  onDark: Ratio | null;
  /** Semantic colors: the value and contrast per mode (dark only when the brand overrides it). */
  light: ModeValue;
  dark: ModeValue | null;
  against: string;
}

export interface TokensView {
  palette: { family: string; colors: ColorEntry[] }[];
  semantic: { role: string; colors: ColorEntry[] }[];
  sizes: TokenEntry[];
  styles: TokenEntry[];
  metrics: TokenEntry[];
  spacing: TokenEntry[];
  radius: TokenEntry[];
  shadows: TokenEntry[];
  durations: TokenEntry[];
  easings: TokenEntry[];
  transitions: TokenEntry[];
  gradients: TokenEntry[];
  breakpoints: TokenEntry[];
  /** The slowest duration token, used to make every easing curve visible (CSS, and for display). */
  demoDuration: string;
  demoDurationLabel: string;
  surfaces: { light: string; dark: string };
  rules: string[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Follows aliases everywhere inside a value (shadow layers, gradient stops, typography parts). */
function deepResolve(value: unknown, known: Map<string, FlatToken>, depth = 0): unknown {
  if (depth > 20) return undefined;
  const v = resolveValue(value, known);
  if (Array.isArray(v)) return v.map((x) => deepResolve(x, known, depth + 1));
  if (isObj(v))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deepResolve(x, known, depth + 1)]));
  return v;
}

const aliasOf = (v: unknown) => (typeof v === 'string' && /^\{[^{}]+\}$/.test(v) ? v : null);
const hexOf = (css: string) => (/^#[0-9a-f]{6}$/i.test(css) ? css.toLowerCase() : null);
const ratio = (a: string | null, b: string): Ratio | null => {
  if (!a) return null;
  const r = contrastRatio(a, b);
  return { ratio: r, level: wcagLevel(r) };
};

export function buildTokensView(catalog: BrandCatalog): TokensView {
  const w = tokenWriter(catalog);
  const tokens = [...w.flat.values()];
  const under = (prefix: string, type?: FlatToken['type']) =>
    tokens.filter((t) => t.path.startsWith(prefix) && (!type || t.type === type));
  // Class names are numbered in the order entries are made: colors, motion, then the rest.
  const { palette, semantic } = colorGroups(w, under('colors.', 'color'));
  const motion = motionEntries(w, under);
  const { entry, rule } = w;
  return {
    palette: [...palette].map(([family, colors]) => ({ family, colors })),
    semantic: [...semantic].map(([role, colors]) => ({ role, colors })),
    sizes: under('type.', 'dimension')
      .filter((t) => t.path.startsWith('type.size.'))
      .map((t) => rule(entry(t), (v) => `font-size:${v}`)),
    styles: under('type.', 'typography').map((t) => rule(entry(t), (v) => `font:${v}`)),
    metrics: under('type.')
      .filter((t) => !['typography', 'fontFamily'].includes(t.type) && !t.path.startsWith('type.size.'))
      .map(entry),
    spacing: under('spacing.', 'dimension').map((t) => rule(entry(t), (v) => `width:${v}`)),
    radius: under('radius.', 'dimension').map((t) => rule(entry(t), (v) => `border-radius:${v}`)),
    shadows: under('shadows.', 'shadow').map((t) => rule(entry(t), (v) => `box-shadow:${v}`)),
    durations: motion.durations,
    easings: motion.easings,
    transitions: motion.transitions,
    gradients: under('gradients.', 'gradient').map((t) => rule(entry(t), (v) => `background:${v}`)),
    breakpoints: under('breakpoints.', 'dimension').map(entry),
    demoDuration: motion.demoDuration,
    demoDurationLabel: motion.demoDurationLabel,
    surfaces: catalog.themes.surfaces,
    rules: w.rules,
  };
}

/** Makes entries (each with the next class name) and the CSS rules that paint them. */
interface TokenWriter {
  flat: Map<string, FlatToken>;
  darkFlat: Map<string, FlatToken>;
  /** The light tokens with the dark ones over them. */
  merged: Map<string, FlatToken>;
  surfaces: { light: string; dark: string };
  rules: string[];
  entry: (t: FlatToken) => TokenEntry;
  /** var(--x, literal) when both are usable; either alone otherwise; null when neither is. */
  ref: (e: TokenEntry) => string | null;
  /** Adds `.cls{body}` when the entry has a usable value. */
  rule: (e: TokenEntry, body: (value: string) => string) => TokenEntry;
}

function tokenWriter(catalog: BrandCatalog): TokenWriter {
  const { flat, darkFlat } = catalog.source.tokens;
  const defined = new Set(
    [...catalog.tokensCss.matchAll(/(?:^|[\s{;])(--[a-z0-9-]+)\s*:/gm)].map((m) => m[1]),
  );
  const rules: string[] = [];
  let n = 0;
  const entry = (t: FlatToken): TokenEntry => {
    const candidate = `--${t.path.split('.').join('-').toLowerCase()}`;
    const value = cssValue(t.type, deepResolve(t.value, flat));
    return {
      path: t.path,
      name: t.path.split('.').slice(1).join('.'),
      type: t.type,
      cssVar: defined.has(candidate) ? candidate : null,
      value,
      alias: aliasOf(t.value),
      description: t.description ?? null,
      cls: `k${n++}`,
    };
  };
  const ref = (e: TokenEntry) => {
    const literal = cssSafe(e.value) ? e.value : null;
    if (e.cssVar) return literal ? `var(${e.cssVar}, ${literal})` : `var(${e.cssVar})`;
    return literal;
  };
  const rule = (e: TokenEntry, body: (value: string) => string) => {
    const v = ref(e);
    if (v) rules.push(`.${e.cls}{${body(v)}}`);
    return e;
  };
  const merged = new Map([...flat, ...darkFlat]);
  return { flat, darkFlat, merged, surfaces: catalog.themes.surfaces, rules, entry, ref, rule };
}

/** Palette colors by family (colors.palette.<family>.*), the others by role (colors.<role>.*). */
function colorGroups(w: TokenWriter, colors: FlatToken[]) {
  const palette = new Map<string, ColorEntry[]>();
  const semantic = new Map<string, ColorEntry[]>();
  for (const t of colors) {
    const parts = t.path.split('.');
    const isPalette = parts[1] === 'palette' && parts.length > 3;
    const key = (isPalette ? parts[2] : parts.length > 2 ? parts[1] : 'other') ?? 'other';
    const into = isPalette ? palette : semantic;
    into.set(key, [...(into.get(key) ?? []), colorEntry(w, t)]);
  }
  return { palette, semantic };
}

function colorEntry(w: TokenWriter, t: FlatToken): ColorEntry {
  const { surfaces, rules } = w;
  const e = w.entry(t);
  const hex = hexOf(e.value);
  const { judge, against } = contrastJudge(w, t.path);
  const d = w.darkFlat.get(t.path);
  const darkValue = d ? cssValue(d.type, deepResolve(d.value, w.merged)) : null;
  const dark: ModeValue | null =
    d && darkValue !== null
      ? {
          value: darkValue,
          alias: aliasOf(d.value),
          hex: hexOf(darkValue),
          ratio: judge(hexOf(darkValue), true),
        }
      : null;
  // Literal halves show both modes at once; the live var() would only show the current one.
  if (cssSafe(e.value)) rules.push(`.${e.cls} .lt{background:${e.value}}`);
  if (dark && cssSafe(dark.value)) rules.push(`.${e.cls} .dk{background:${dark.value}}`);
  w.rule(e, (v) => `background:${v}`);
  return {
    ...e,
    hex,
    onLight: ratio(hex, surfaces.light),
    onDark: ratio(hex, surfaces.dark),
    light: { value: e.value, alias: e.alias, hex, ratio: judge(hex, false) },
    dark,
    against,
  };
}

/**
 * What the color at `path` is judged against: a surface with the text meant for it
 * (text.<same name>, else text.default), a text color on its own surface when there is one
 * (text.inverse on surface.inverse), and everything else on the page.
 */
function contrastJudge(w: TokenWriter, path: string) {
  const { flat, darkFlat, merged, surfaces } = w;
  const modeHex = (path: string, dark: boolean): string | null => {
    const t = (dark ? darkFlat.get(path) : undefined) ?? flat.get(path);
    return t ? hexOf(cssValue(t.type, deepResolve(t.value, dark ? merged : flat))) : null;
  };
  const [, role, name] = path.split('.');
  const own = (group: string) => (flat.has(`colors.${group}.${name}`) ? `colors.${group}.${name}` : null);
  const textPair = role === 'surface' ? (own('text') ?? 'colors.text.default') : null;
  const surfacePair = role === 'text' && name !== 'page' ? own('surface') : null;
  const judge = (h: string | null, dark: boolean): Ratio | null => {
    if (textPair) {
      const text = modeHex(textPair, dark);
      return h && text ? ratio(text, h) : null;
    }
    const surface = surfacePair ? modeHex(surfacePair, dark) : dark ? surfaces.dark : surfaces.light;
    return surface ? ratio(h, surface) : null;
  };
  const against = textPair
    ? `with ${textPair.replace(/^colors\./, '')}`
    : surfacePair
      ? `on ${surfacePair.replace(/^colors\./, '')}`
      : 'on the page';
  return { judge, against };
}

/**
 * Durations run with the first easing, and easings at the slowest duration so every curve is
 * slow enough to see; transition tokens run exactly as defined.
 */
function motionEntries(w: TokenWriter, under: (prefix: string, type?: FlatToken['type']) => FlatToken[]) {
  const { entry, ref, rules } = w;
  const durations = under('motion.', 'duration').map(entry);
  const ms = (e: TokenEntry) => parseFloat(e.value) * (e.value.endsWith('ms') ? 1 : 1000);
  const slowest = [...durations].sort((a, b) => ms(b) - ms(a))[0];
  const demoDuration = (slowest ? ref(slowest) : null) ?? '320ms';
  const easings = under('motion.', 'cubicBezier').map(entry);
  const firstEasing = easings[0] ? ref(easings[0]) : null;
  const motion = (e: TokenEntry, transition: (v: string) => string) => {
    const v = ref(e);
    if (v) rules.push(`.${e.cls} .dot{transition:${transition(v)}}`);
    return e;
  };
  for (const d of durations) motion(d, (v) => `transform ${v} ${firstEasing ?? 'ease'}`);
  for (const e of easings) motion(e, (v) => `transform ${demoDuration} ${v}`);
  const transitions = under('motion.', 'transition').map((t) => motion(entry(t), (v) => `transform ${v}`));
  return { durations, easings, transitions, demoDuration, demoDurationLabel: slowest?.value ?? '320ms' };
}
