/**
 * The drawn theme icons: each theme's iconFile (an SVG in the brand folder) served as SVG and as
 * a PNG, so a theme has an icon that renders without an emoji font. Names and alt text live here
 * so the asset list and the theme views cannot disagree.
 */
import type { AssetEntry, AssetFile } from './asset-types.js';
import type { BrandSource } from './read-brand-folder.js';
import { pngSize, svgSize, type Renderer } from './render.js';

/** 4× the 48-unit drawings: sharp at 96 CSS px on a 2× screen. */
export const THEME_ICON_PNG_WIDTH = 192;

type ThemeIconSource = { name: string; iconFile?: string | undefined; iconAlt?: string | undefined };

/** Paths below /static/fleet/assets/ of a theme's drawn icon (by key, like its social image). */
export const themeIconPaths = (key: string) => ({ svg: `themes/${key}.svg`, png: `themes/${key}.png` });

export const themeIconAlt = (t: ThemeIconSource) => t.iconAlt ?? `${t.name} icon`;

/** Every theme with an iconFile, official accents first, in the order themes.json lists them. */
function themesWithIcons(src: BrandSource): { key: string; iconFile: string; alt: string }[] {
  return [...Object.entries(src.themes.official), ...Object.entries(src.themes.funnels)].flatMap(
    ([key, t]) => (t.iconFile ? [{ key, iconFile: t.iconFile, alt: themeIconAlt(t) }] : []),
  );
}

export async function buildThemeIcons(
  src: BrandSource,
  render: Renderer,
): Promise<{ file: AssetFile; entry: Omit<AssetEntry, 'file'> }[]> {
  const out: { file: AssetFile; entry: Omit<AssetEntry, 'file'> }[] = [];
  for (const { key, iconFile, alt } of themesWithIcons(src)) {
    const source = src.svgs.get(iconFile) ?? '';
    const paths = themeIconPaths(key);
    // Each drawing carries its own tile, so it suits any background.
    const base = {
      id: `theme-icon-${key}`,
      group: 'icon',
      layout: 'theme',
      variant: 'any',
      theme: key,
      alt,
    } as const;
    const outlined = await render.outline(source);
    out.push({
      file: { name: paths.svg, body: Buffer.from(outlined), mediaType: 'image/svg+xml' },
      entry: { ...base, format: 'svg', ...svgSize(outlined) },
    });
    const png = await render.png(source, THEME_ICON_PNG_WIDTH);
    out.push({
      file: { name: paths.png, body: png, mediaType: 'image/png' },
      entry: { ...base, format: 'png', ...pngSize(png) },
    });
  }
  return out;
}
