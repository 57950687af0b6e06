/**
 * The tokens as every format's renderer reads them: Style Dictionary has loaded the DTCG tree,
 * named each token for the platform and resolved its aliases; each token keeps its value as
 * authored too (aliases and all), its comment-safe description, and the light/dark split.
 */
import type { TransformedToken } from 'style-dictionary/types';
import { commentText } from './comment-text.js';

export interface Tok {
  path: string[];
  /** The dotted path. */
  key: string;
  /** The platform's name for it (kebab, camel, snake or Tailwind's). */
  name: string;
  type: string;
  /** Aliases resolved, inside composites too. */
  value: unknown;
  /** As authored: aliases kept. */
  original: unknown;
  /** One line, safe inside any comment (comment-text.ts). */
  description?: string;
}

/** What every renderer gets: both modes of one platform's tokens. */
export interface RenderInput {
  light: Tok[];
  /** Every token whose value differs in dark mode (what a format of resolved values must carry). */
  dark: Tok[];
  /** Only the dark file's own overrides (enough where aliases stay references, as var() chains). */
  darkOverrides: Tok[];
  /** Our one-line provenance note, comment-safe. */
  note: string;
}

export function tokList(tokens: TransformedToken[], descriptions: Map<string, string>): Tok[] {
  return tokens.map((t) => {
    const key = t.path.join('.');
    const d = descriptions.get(key);
    const original = (t.original as Record<string, unknown>)['$value'];
    return {
      path: t.path,
      key,
      name: t.name,
      type: String(t.$type ?? t.type ?? ''),
      value: (t.$value ?? t.value) as unknown,
      original,
      ...(d !== undefined ? { description: commentText(d) } : {}),
    };
  });
}

/** The light and dark token lists of one platform, split as RenderInput wants them. */
export function modes(
  light: Tok[],
  merged: Tok[],
  darkPaths: ReadonlySet<string>,
  note: string,
): RenderInput {
  const before = new Map(light.map((t) => [t.key, JSON.stringify(t.value)]));
  return {
    light,
    dark: merged.filter((t) => darkPaths.has(t.key) || before.get(t.key) !== JSON.stringify(t.value)),
    darkOverrides: merged.filter((t) => darkPaths.has(t.key)),
    note,
  };
}

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A number written compactly (at most four decimals, no trailing zeros). */
export const num = (n: number): string => String(Math.round(n * 10000) / 10000);

/** A DTCG dimension in px (16px to the rem): what dp, sp and points are counted in. */
export function px(v: unknown): number {
  if (!isObj(v) || typeof v['value'] !== 'number') return NaN;
  return v['unit'] === 'rem' ? v['value'] * 16 : v['value'];
}

/** A DTCG duration in milliseconds. */
export const millis = (v: unknown): number =>
  isObj(v) && typeof v['value'] === 'number' ? v['value'] * (v['unit'] === 's' ? 1000 : 1) : NaN;

/** The numeric weight of a DTCG fontWeight (its named weights are the spec's). */
export function weightNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  const named: Record<string, number> = {
    thin: 100,
    hairline: 100,
    'extra-light': 200,
    'ultra-light': 200,
    light: 300,
    normal: 400,
    regular: 400,
    book: 400,
    medium: 500,
    'semi-bold': 600,
    'demi-bold': 600,
    bold: 700,
    'extra-bold': 800,
    'ultra-bold': 800,
    black: 900,
    heavy: 900,
    'extra-black': 950,
    'ultra-black': 950,
  };
  return named[String(v)] ?? 400;
}

/** Every `{a.b}` alias inside a value. */
export function aliasesIn(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] ?? '');
  if (Array.isArray(value)) return value.flatMap(aliasesIn);
  if (isObj(value)) return Object.values(value).flatMap(aliasesIn);
  return [];
}

/** The tokens in their order, except that each comes after the tokens its value refers to. */
export function referencesFirst(tokens: Tok[]): Tok[] {
  const byKey = new Map(tokens.map((t) => [t.key, t]));
  const out: Tok[] = [];
  const seen = new Set<string>();
  const visit = (t: Tok) => {
    if (seen.has(t.key)) return;
    seen.add(t.key);
    for (const a of aliasesIn(t.original)) {
      const target = byKey.get(a);
      if (target) visit(target);
    }
    out.push(t);
  };
  tokens.forEach(visit);
  return out;
}
