/**
 * Every image the brand serves, built from the folder's SVG sources: outlined SVG + PNG of each
 * logo, shield and icon; the web icon set (favicon.ico, icon.svg, apple-touch, 192/512, maskable,
 * web manifest); each theme's drawn icon (SVG + PNG); and one 1200×630 Open Graph image per theme
 * from the social template.
 */
import type { BrandSource } from './read-brand-folder.js';
import { pngSize, svgSize, type Renderer } from './render.js';
import type { AssetEntry, AssetFile } from './asset-types.js';
import { buildThemeIcons } from './theme-icons.js';

export interface BuiltAssets {
  files: AssetFile[];
  entries: AssetEntry[];
}

const escapeXml = (s: string) =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

/** Splits a tagline into at most two balanced lines for the social image. */
export function twoLines(text: string, max = 26): [string, string] {
  if (text.length <= max) return [text, ''];
  const words = text.split(/\s+/);
  let best: [string, string] = [text, ''];
  let bestScore = Infinity;
  for (let i = 1; i < words.length; i++) {
    const a = words.slice(0, i).join(' ');
    const b = words.slice(i).join(' ');
    const score = Math.max(a.length, b.length);
    if (score < bestScore) {
      best = [a, b];
      bestScore = score;
    }
  }
  return best;
}

export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => escapeXml(values[k] ?? ''));
}

/** A square tile: a background color with an SVG mark centered at `scale` of the side. */
function tile(markSvg: string, side: number, background: string, scale: number): string {
  const inner = Math.round(side * scale);
  const offset = Math.round((side - inner) / 2);
  const href = `data:image/svg+xml;base64,${Buffer.from(markSvg).toString('base64')}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}"><rect width="${side}" height="${side}" fill="${background}"/><image x="${offset}" y="${offset}" width="${inner}" height="${inner}" href="${href}"/></svg>`;
}

export async function buildAssets(src: BrandSource, render: Renderer): Promise<BuiltAssets> {
  const files: AssetFile[] = [];
  const entries: AssetEntry[] = [];
  const add: Add = (file, entry) => {
    files.push(file);
    entries.push({ ...entry, file: file.name });
  };
  await addLogos(src, render, add);
  await addIconSet(src, render, add);
  for (const { file, entry } of await buildThemeIcons(src, render)) add(file, entry);
  await addSocialImages(src, render, add);
  return { files, entries };
}

/** Records a built file and its catalog entry, in the order the catalog lists them. */
type Add = (file: AssetFile, entry: Omit<AssetEntry, 'file'>) => void;

const svgOf = (src: BrandSource, name: string) => src.svgs.get(name) ?? '';

/** Each logo, shield and icon of assets.json: outlined SVG, then PNG. */
async function addLogos(src: BrandSource, render: Renderer, add: Add): Promise<void> {
  for (const f of src.assets.files) {
    const outlined = await render.outline(svgOf(src, f.file));
    const size = svgSize(outlined);
    const base = {
      id: f.id,
      group: f.group,
      layout: f.layout,
      variant: f.variant,
      theme: null,
      alt: f.alt,
    } as const;
    add(
      { name: `${f.id}.svg`, body: Buffer.from(outlined), mediaType: 'image/svg+xml' },
      { ...base, format: 'svg', ...size },
    );
    const png = await render.png(svgOf(src, f.file), f.pngWidth);
    add(
      { name: `${f.id}.png`, body: png, mediaType: 'image/png' },
      { ...base, format: 'png', ...pngSize(png) },
    );
  }
}

const ICON = { group: 'icon', layout: 'mark', theme: null } as const;

/** The web icon set: favicon.ico, icon.svg, then the PNGs (apple-touch, 192, 512, maskable). */
async function addIconSet(src: BrandSource, render: Renderer, add: Add): Promise<void> {
  const { source } = src.assets.iconSet;
  const mark = svgOf(src, source);
  add(
    { name: 'icons/favicon.ico', body: await render.ico(mark, [16, 32, 48]), mediaType: 'image/x-icon' },
    {
      ...ICON,
      id: 'favicon',
      variant: 'light',
      format: 'ico',
      purpose: 'favicon (16, 32, 48)',
      width: 48,
      height: 48,
      alt: 'Favicon',
    },
  );
  add(
    { name: 'icons/icon.svg', body: Buffer.from(mark), mediaType: 'image/svg+xml' },
    {
      ...ICON,
      id: 'icon-svg',
      variant: 'any',
      format: 'svg',
      purpose: 'favicon (scalable, follows dark mode)',
      ...svgSize(mark),
      alt: 'Favicon (SVG)',
    },
  );
  for (const r of iconRasters(src, mark)) {
    const png = await render.png(r.svgText, r.side);
    add(
      { name: r.name, body: png, mediaType: 'image/png' },
      {
        ...ICON,
        id: r.id,
        variant: r.purpose === 'any' ? 'light' : 'any',
        format: 'png',
        purpose: r.purpose,
        ...pngSize(png),
        alt: `${src.info.name} icon`,
      },
    );
  }
}

function iconRasters(src: BrandSource, mark: string) {
  const { tileSource, tileBackground } = src.assets.iconSet;
  const tileMark = svgOf(src, tileSource);
  const rasters: { id: string; side: number; svgText: string; purpose: string; name: string }[] = [
    {
      id: 'apple-touch-icon',
      side: 180,
      svgText: tile(tileMark, 180, tileBackground, 0.72),
      purpose: 'apple-touch-icon',
      name: 'icons/apple-touch-icon.png',
    },
    { id: 'icon-192', side: 192, svgText: mark, purpose: 'any', name: 'icons/icon-192.png' },
    { id: 'icon-512', side: 512, svgText: mark, purpose: 'any', name: 'icons/icon-512.png' },
    // Maskable icons must keep their content inside the central 80% circle.
    {
      id: 'icon-maskable-512',
      side: 512,
      svgText: tile(tileMark, 512, tileBackground, 0.56),
      purpose: 'maskable',
      name: 'icons/icon-maskable-512.png',
    },
  ];
  return rasters;
}

/** One Open Graph image per theme, official ones first, from the social template. */
async function addSocialImages(src: BrandSource, render: Renderer, add: Add): Promise<void> {
  const template = svgOf(src, src.assets.social.template);
  const allThemes = [
    ...Object.entries(src.themes.official).map(([k, t]) => ({ key: k, ...t })),
    ...Object.entries(src.themes.funnels).map(([k, t]) => ({ key: k, ...t })),
  ];
  for (const t of allThemes) {
    const [tagline1, tagline2] = twoLines(t.tagline);
    const values = {
      name: t.name,
      tagline: t.tagline,
      tagline1,
      tagline2,
      color: t.color,
      color2: t.color2,
      brand: src.info.name,
    };
    const png = await render.png(fillTemplate(template, values), 1200);
    add(
      { name: `social/og-${t.key}.png`, body: png, mediaType: 'image/png' },
      {
        id: `og-${t.key}`,
        group: 'social',
        layout: 'og',
        variant: 'dark',
        theme: t.key,
        format: 'png',
        purpose: 'Open Graph / Twitter summary_large_image',
        ...pngSize(png),
        alt: src.assets.social.alt.replace(/\{\{(\w+)\}\}/g, (_, k: string) =>
          k === 'name' ? t.name : k === 'tagline' ? t.tagline : '',
        ),
      },
    );
  }
}
