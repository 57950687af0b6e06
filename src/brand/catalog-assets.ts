/**
 * The catalog's assets view: every built image served under /static/fleet/assets/ (SVGs under a
 * CSP that runs nothing), the favicon at /favicon.ico too, and the web app manifest listing the
 * icons; then the logo and icon URLs the view names.
 */
import type { BuiltAssets } from './build-assets.js';
import { json, STATIC_CACHE, type CatalogResponses } from './catalog-responses.js';
import { hexOf } from './catalog-themes.js';
import type { BrandSource } from './read-brand-folder.js';
import type { AssetItem } from './views.js';

export interface AssetsView {
  count: number;
  items: AssetItem[];
  logo: Record<string, string>;
  icons: Record<string, string>;
}

const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** Each built image as an item, its response put. */
function imageItems(
  out: CatalogResponses,
  built: BuiltAssets,
  staticUrl: (p: string) => string,
): AssetItem[] {
  return built.entries.map((e) => {
    const file = built.files.find((f) => f.name === e.file);
    if (!file) throw new Error(`asset ${e.file} was listed but not built`);
    const r = out.put(
      `/static/fleet/assets/${file.name}`,
      file.body,
      file.mediaType,
      STATIC_CACHE,
      file.mediaType === 'image/svg+xml' ? { 'content-security-policy': SVG_CSP } : undefined,
    );
    return {
      ...e,
      url: staticUrl(`assets/${file.name}`),
      mediaType: file.mediaType,
      bytes: r.bytes,
      sha256: r.sha256,
    };
  });
}

/** The web app manifest over the PNG icons, its response put; its own item. */
function webManifestItem(
  out: CatalogResponses,
  src: BrandSource,
  items: AssetItem[],
  background: string,
  staticUrl: (p: string) => string,
): AssetItem {
  const webManifest = {
    name: src.info.name,
    short_name: src.info.name.split(' ')[0] ?? src.info.name,
    description: src.info.tagline,
    start_url: '/',
    display: 'standalone',
    background_color: background,
    theme_color: hexOf(src.tokens.flat.get('colors.brand.primary'), src.tokens.flat, '#000000'),
    icons: items
      .filter(
        (i) =>
          i.group === 'icon' &&
          i.format === 'png' &&
          i.purpose !== 'apple-touch-icon' &&
          i.id.startsWith('icon-'),
      )
      .map((i) => ({
        src: i.url,
        sizes: `${i.width}x${i.height}`,
        type: 'image/png',
        purpose: i.purpose ?? 'any',
      })),
  };
  const wm = out.put(
    '/static/fleet/assets/icons/site.webmanifest',
    json(webManifest),
    'application/manifest+json; charset=utf-8',
    STATIC_CACHE,
  );
  return {
    id: 'web-manifest',
    group: 'icon',
    layout: 'manifest',
    variant: 'any',
    theme: null,
    format: 'webmanifest',
    purpose: 'web app manifest listing the icons',
    file: 'icons/site.webmanifest',
    width: null,
    height: null,
    alt: 'Web app manifest',
    url: staticUrl('assets/icons/site.webmanifest'),
    mediaType: 'application/manifest+json',
    bytes: wm.bytes,
    sha256: wm.sha256,
  };
}

export function assetsView(
  out: CatalogResponses,
  src: BrandSource,
  built: BuiltAssets,
  background: string,
  staticUrl: (p: string) => string,
): AssetsView {
  const items = imageItems(out, built, staticUrl);
  out.alias('/favicon.ico', '/static/fleet/assets/icons/favicon.ico');
  items.push(webManifestItem(out, src, items, background, staticUrl));
  const urlOf = (id: string) => items.find((i) => i.id === id && i.format === 'svg')?.url ?? '';
  const pngOf = (id: string) => items.find((i) => i.id === id && i.format === 'png')?.url ?? '';
  return {
    count: items.length,
    logo: {
      light: urlOf('logo-horizontal-light'),
      dark: urlOf('logo-horizontal-dark'),
      lightPng: pngOf('logo-horizontal-light'),
      darkPng: pngOf('logo-horizontal-dark'),
    },
    icons: {
      favicon: staticUrl('assets/icons/favicon.ico'),
      svg: staticUrl('assets/icons/icon.svg'),
      appleTouch: staticUrl('assets/icons/apple-touch-icon.png'),
      manifest: staticUrl('assets/icons/site.webmanifest'),
    },
    items,
  };
}
