/**
 * The catalog's themes view: every official theme and funnel with its colours' contrast on the
 * brand's surfaces and text colours, which come from the tokens, so contrast follows a token edit.
 */
import { contrastRatio, wcagLevel } from './contrast.js';
import { resolveValue, type FlatToken } from './dtcg.js';
import type { BrandSource } from './read-brand-folder.js';
import { THEME_KEYS, type ThemeKey, type ThemesFile } from './schema.js';
import { themeIconAlt, themeIconPaths } from './theme-icons.js';
import { cssColor } from './tokens-css.js';
import type { ColorContrast, ThemeView } from './views.js';

export interface ThemesView {
  keys: readonly ThemeKey[];
  surfaces: { light: string; dark: string };
  official: ThemeView[];
  funnels: ThemeView[];
}

/** What a theme's contrast is measured against. */
interface Palette {
  surfaces: { light: string; dark: string };
  ink: string;
  paper: string;
}

export function hexOf(token: FlatToken | undefined, known: Map<string, FlatToken>, fallback: string): string {
  const v = resolveValue(token?.value, known);
  const css = v === undefined ? fallback : cssColor(v);
  return /^#[0-9a-f]{6}$/i.test(css) ? css.toLowerCase() : fallback;
}

function contrastFor(color: string, { surfaces, ink, paper }: Palette): ColorContrast {
  const onInk = contrastRatio(color, ink);
  const onPaper = contrastRatio(color, paper);
  const text = onPaper >= onInk ? paper : ink;
  const textRatio = Math.max(onInk, onPaper);
  return {
    onLight: contrastRatio(color, surfaces.light),
    onDark: contrastRatio(color, surfaces.dark),
    text,
    textRatio,
    textLevel: wcagLevel(textRatio),
  };
}

function themeView(
  key: string,
  kind: ThemeView['kind'],
  t: ThemesFile['official'][string] & { business?: string },
  palette: Palette,
  staticUrl: (p: string) => string,
): ThemeView {
  const contrast = { color: contrastFor(t.color, palette), color2: contrastFor(t.color2, palette) };
  const selector = kind === 'funnel' ? `[data-funnel="${key}"]` : `[data-fleet="${key}"]`;
  return {
    key,
    kind,
    name: t.name,
    business: t.business ?? null,
    color: t.color.toLowerCase(),
    color2: t.color2.toLowerCase(),
    tagline: t.tagline,
    icon: t.icon,
    ...(t.iconFile
      ? {
          iconSvg: staticUrl(`assets/${themeIconPaths(key).svg}`),
          iconPng: staticUrl(`assets/${themeIconPaths(key).png}`),
          iconAlt: themeIconAlt(t),
        }
      : {}),
    contrast,
    css: {
      selector,
      variables: {
        '--theme-color': t.color.toLowerCase(),
        '--theme-color2': t.color2.toLowerCase(),
        '--theme-on-color': contrast.color.text,
      },
    },
    socialImage: staticUrl(`assets/social/og-${key}.png`),
  };
}

export function themesView(src: BrandSource, staticUrl: (p: string) => string): ThemesView {
  const { flat, darkFlat } = src.tokens;
  const all = new Map([...flat, ...darkFlat]);
  const palette: Palette = {
    surfaces: {
      light: hexOf(flat.get('colors.surface.page'), flat, '#ffffff'),
      dark: hexOf(darkFlat.get('colors.surface.page'), all, '#000000'),
    },
    ink: hexOf(flat.get('colors.text.default'), flat, '#000000'),
    paper: hexOf(flat.get('colors.text.inverse'), flat, '#ffffff'),
  };
  const official = Object.entries(src.themes.official).map(([k, t]) =>
    themeView(k, 'official', t, palette, staticUrl),
  );
  const funnels = THEME_KEYS.map((k) => {
    const t = src.themes.funnels[k];
    if (!t) throw new Error(`validated brand lacks funnel ${k}`);
    return themeView(k, 'funnel', t, palette, staticUrl);
  });
  return { keys: THEME_KEYS, surfaces: palette.surfaces, official, funnels };
}
