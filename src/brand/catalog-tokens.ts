/**
 * The catalog's tokens: first the texts (the DTCG document, the CSS with the funnels' accents,
 * every other platform's format and the Style Dictionary module; cached, and able to fail, so
 * they are built before the brand is published), then their responses, the API's and the static
 * files', and the funnels' formats built on first request (theme-tokens.ts).
 */
import type { Precomputed } from '../core/precomputed.js';
import { API_CACHE, json, JSON_TYPE, STATIC_CACHE, type CatalogResponses } from './catalog-responses.js';
import type { DiskCache } from './disk-cache.js';
import type { BrandSource } from './read-brand-folder.js';
import { SD_MODULE_FILE, sdModuleText } from './sd-module-text.js';
import { themedTokenFormats, type ThemedTokenFormats } from './theme-tokens.js';
import { buildingTokens } from './token-build.js';
import {
  ANDROID_NIGHT_FILE,
  cachedTokenFormats,
  EXTRA_FILES,
  FORMAT_FILES,
  TOKEN_FORMATS,
  type BuiltTokens,
  type TokenFormat,
  type TokenFormatsInput,
} from './token-formats.js';
import { cachedTokensCss, type FunnelCss } from './tokens-css.js';
import { tokensDocument } from './tokens-document.js';
import type { ThemeView } from './views.js';

export interface TokenTexts {
  /** The DTCG document as authored, dark overrides kept beside it under $extensions. */
  document: Record<string, unknown>;
  css: string;
  /** What the formats are built from (the funnels' formats too). */
  formatInput: TokenFormatsInput;
  funnels: FunnelCss[];
  formats: BuiltTokens;
  sdModule: string;
}

export async function buildTokenTexts(
  src: BrandSource,
  cache: DiskCache,
  funnels: ThemeView[],
  baseUrl: string,
): Promise<TokenTexts> {
  const document = tokensDocument(src, baseUrl);
  // Field order matters: the build cache is keyed by these inputs as JSON.
  const cssInput = {
    base: src.tokens.base,
    dark: src.tokens.dark,
    darkPaths: [...src.tokens.darkFlat.keys()],
    brandName: src.info.name,
    funnels: funnels.map((f) => ({
      key: f.key,
      color: f.color,
      color2: f.color2,
      onColor: f.contrast.color.text,
    })),
  };
  const css = await buildingTokens(src, () => cachedTokensCss(cache, cssInput));
  // Every other platform's format, from the same document (cached like the CSS).
  const formatInput = {
    base: src.tokens.base,
    dark: src.tokens.dark,
    darkPaths: cssInput.darkPaths,
    brandName: src.info.name,
  };
  const formats = await buildingTokens(src, () => cachedTokenFormats(cache, formatInput));
  const sdModule = await sdModuleText(cache);
  return { document, css, formatInput, funnels: cssInput.funnels, formats, sdModule };
}

/** The document and CSS on the API and as static files: the first of the token responses. */
export function tokenDocumentResponses(out: CatalogResponses, texts: TokenTexts, baseUrl: string): void {
  out.put('/api/brand/tokens', json(texts.document), JSON_TYPE, API_CACHE, {
    link: `<${baseUrl}/api/brand/tokens.css>; rel="alternate"; type="text/css"`,
  });
  out.put(
    '/static/fleet/design-tokens.json',
    json(texts.document),
    'application/design-tokens+json; charset=utf-8',
    STATIC_CACHE,
  );
  out.put('/api/brand/tokens.css', texts.css, 'text/css; charset=utf-8', API_CACHE);
  out.put('/static/fleet/design-tokens.css', texts.css, 'text/css; charset=utf-8', STATIC_CACHE);
}

/**
 * Every format as a static file under /static/fleet/tokens/, and as GET /api/brand/tokens?format=
 * answers it (JSON and CSS are the API's own responses); then the extra files and the module.
 */
export function tokenFormatResponses(
  out: CatalogResponses,
  texts: TokenTexts,
  staticUrl: (p: string) => string,
): Map<TokenFormat, Precomputed> {
  const tokenFormats = new Map<TokenFormat, Precomputed>();
  // Android's dark resources are a second file (qualifiers are folders): its responses link to it.
  const nightLink = {
    link: `<${staticUrl(`tokens/${ANDROID_NIGHT_FILE}`)}>; rel="alternate"; type="application/xml"; title="values-night"`,
  };
  for (const f of TOKEN_FORMATS) {
    const { file, contentType } = FORMAT_FILES[f];
    const text = f === 'json' ? json(texts.document) : f === 'css' ? texts.css : texts.formats.formats[f];
    const extra = f === 'android' ? nightLink : undefined;
    out.put(`/static/fleet/tokens/${file}`, text, contentType, STATIC_CACHE, extra);
    const same = f === 'json' ? '/api/brand/tokens' : f === 'css' ? '/api/brand/tokens.css' : undefined;
    const api = same ? out.byPath.get(same) : undefined;
    tokenFormats.set(f, api ?? out.precompute(text, contentType, API_CACHE, extra));
  }
  for (const [file, { contentType }] of Object.entries(EXTRA_FILES)) {
    const text = texts.formats.files[file];
    if (text !== undefined) out.put(`/static/fleet/tokens/${file}`, text, contentType, STATIC_CACHE);
  }
  out.put(
    `/static/fleet/tokens/${SD_MODULE_FILE}`,
    texts.sdModule,
    'text/javascript; charset=utf-8',
    STATIC_CACHE,
  );
  return tokenFormats;
}

/** GET /api/brand/tokens?theme=<key>: a funnel's every format, built on first request. */
export const themedFormats = (
  out: CatalogResponses,
  texts: TokenTexts,
  themes: ThemeView[],
  baseUrl: string,
  cache: DiskCache,
): ThemedTokenFormats =>
  themedTokenFormats({
    document: texts.document,
    ...texts.formatInput,
    baseUrl,
    funnels: texts.funnels,
    themes,
    cache,
    cacheControl: API_CACHE,
    headers: out.versioned,
  });
