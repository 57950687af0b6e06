/**
 * The brand catalog: everything the brand API and the MCP tools answer, computed once from a
 * validated brand folder. It holds the domain views (manifest, tokens, themes, assets, docs,
 * fonts, llms.txt) and, for HTTP, a precomputed response per path.
 */
import type { Precomputed } from '../core/precomputed.js';
import { buildAssets } from './build-assets.js';
import { assetsView, type AssetsView } from './catalog-assets.js';
import { docsView, renderDocs, type DocsView } from './catalog-docs.js';
import {
  API_CACHE,
  CatalogResponses,
  FONT_CACHE,
  json,
  JSON_TYPE,
  STATIC_CACHE,
} from './catalog-responses.js';
import { themesView, type ThemesView } from './catalog-themes.js';
import {
  buildTokenTexts,
  themedFormats,
  tokenDocumentResponses,
  tokenFormatResponses,
} from './catalog-tokens.js';
import type { DiskCache } from './disk-cache.js';
import { BRAND_CSS } from './doc-pages.js';
import { buildFonts, type FontStack } from './fonts.js';
import { buildLlmsTxt } from './llms-txt.js';
import { buildManifest, type Manifest } from './manifest.js';
import type { BrandSource } from './read-brand-folder.js';
import type { Renderer } from './render.js';
import type { ThemedTokenFormats } from './theme-tokens.js';
import type { TokenFormat } from './token-formats.js';
import { brandVersionHeaders } from './versions.js';

export { DTCG_SCHEMA } from './tokens-document.js';
export type { AssetItem, ColorContrast, DocGroup, DocItem, ThemeView } from './views.js';
export const TOKEN_GROUPS = [
  'colors',
  'type',
  'spacing',
  'radius',
  'shadows',
  'motion',
  'gradients',
  'breakpoints',
] as const;

export interface BrandCatalog {
  readonly source: BrandSource;
  readonly loadedAt: string;
  readonly baseUrl: string;
  readonly manifest: Manifest;
  readonly tokens: Record<string, unknown>;
  readonly tokensCss: string;
  /** GET /api/brand/tokens?format=<f>: each format's response, built once per brand load. */
  readonly tokenFormats: ReadonlyMap<TokenFormat, Precomputed>;
  /** GET /api/brand/tokens?theme=<key>: a funnel's every format, built on first request (theme-tokens.ts). */
  readonly themedTokenFormats: ThemedTokenFormats;
  readonly themes: ThemesView;
  readonly assets: AssetsView;
  readonly docs: DocsView;
  readonly docMarkdown: Map<string, string>;
  readonly fonts: {
    importUrl: string;
    import: string;
    html: string;
    stacks: Record<string, FontStack>;
    subsets: string[];
  };
  readonly llmsTxt: string;
  /** The brand version these tokens were published as (versions.ts); absent without a store. */
  readonly brandVersion?: string;
  /** Path (no query) → response. Only these paths exist, so nothing outside can ever be served. */
  readonly responses: Map<string, Precomputed>;
}

/**
 * Builds the catalog in two steps: first everything that can fail (Style Dictionary, rendering,
 * fonts, documents), then, only once all of it is built, `publish` names the brand version (it
 * publishes the tokens and announces them, brand-versions.ts) and the responses are assembled
 * with that version in them, one view after another. A brand that cannot be built is never
 * published. The order of the responses is kept: it is the order their paths are listed in.
 */
export async function buildCatalog(
  src: BrandSource,
  opts: {
    baseUrl: string;
    render: Renderer;
    cache: DiskCache;
    /** Publishes this brand's tokens and returns its version; without it the brand has none. */
    publish?: () => Promise<string | undefined>;
  },
): Promise<BrandCatalog> {
  const { baseUrl, cache } = opts;
  const origin = new URL(baseUrl).origin;
  const staticUrl = (p: string) => `${baseUrl}/static/fleet/${p}`;
  const themes = themesView(src, staticUrl);
  const tokenTexts = await buildTokenTexts(src, cache, themes.funnels, baseUrl);
  const built = await buildAssets(src, opts.render);
  const fonts = await buildFonts(src, baseUrl);
  const rendered = await renderDocs(src, cache);

  // Everything is built: only now is the brand published, and every response names its version.
  const brandVersion = await opts.publish?.();
  const out = new CatalogResponses(cache, brandVersionHeaders(brandVersion));
  const assets = assetsView(out, src, built, themes.surfaces.light, staticUrl);
  for (const f of fonts.files) out.put(`/static/fleet/fonts/${f.name}`, f.body, 'font/woff2', FONT_CACHE);
  out.put('/static/fleet/fonts/fonts.css', fonts.css, 'text/css; charset=utf-8', STATIC_CACHE);
  const { docs, docMarkdown } = docsView(out, src, rendered, { baseUrl, origin, staticUrl });
  const manifest = buildManifest(src, baseUrl, brandVersion);
  const llmsTxt = buildLlmsTxt({ src, baseUrl, manifest, docs: docs.groups, themes: themes.funnels });

  out.put('/api/brand', json(manifest), JSON_TYPE, API_CACHE);
  tokenDocumentResponses(out, tokenTexts, baseUrl);
  const tokenFormats = tokenFormatResponses(out, tokenTexts, staticUrl);
  const themed = themedFormats(out, tokenTexts, themes.funnels, baseUrl, cache);
  out.put('/static/fleet/brand.css', BRAND_CSS, 'text/css; charset=utf-8', STATIC_CACHE);
  out.put('/api/brand/themes', json(themes), JSON_TYPE, API_CACHE);
  for (const f of themes.funnels) out.put(`/api/brand/themes/${f.key}`, json(f), JSON_TYPE, API_CACHE);
  out.put('/api/brand/assets', json(assets), JSON_TYPE, API_CACHE);
  out.put('/api/brand/docs', json(docs), JSON_TYPE, API_CACHE);
  out.put('/api/brand/fonts', json(fonts.response), JSON_TYPE, API_CACHE);
  out.put('/api/brand/llms.txt', llmsTxt, 'text/plain; charset=utf-8', API_CACHE);
  out.alias('/llms.txt', '/api/brand/llms.txt');

  return {
    source: src,
    loadedAt: new Date().toISOString(),
    baseUrl,
    manifest,
    tokens: tokenTexts.document,
    tokensCss: tokenTexts.css,
    tokenFormats,
    themedTokenFormats: themed,
    themes,
    assets,
    docs,
    docMarkdown,
    fonts: fonts.response,
    llmsTxt,
    ...(brandVersion ? { brandVersion } : {}),
    responses: out.byPath,
  };
}
