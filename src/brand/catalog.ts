/**
 * The brand catalog: everything the brand API and the MCP tools answer, computed once from a
 * validated brand folder. It holds the domain views (manifest, tokens, themes, assets, docs,
 * fonts, llms.txt) and, for HTTP, a precomputed response per path.
 */
import type { FlatToken } from './dtcg.js';
import { resolveValue } from './dtcg.js';
import { buildAssets } from './build-assets.js';
import { contrastRatio, wcagLevel } from './contrast.js';
import { BRAND_CSS, DOC_HTML_BUILD, markdownToHtml, renderDocIndex, renderDocPage } from './doc-pages.js';
import { buildFonts, type FontStack } from './fonts.js';
import { buildLlmsTxt } from './llms-txt.js';
import { buildManifest, type Manifest } from './manifest.js';
import type { BrandSource } from './read-brand-folder.js';
import type { Renderer } from './render.js';
import { THEME_KEYS, type ThemeKey, type ThemesFile } from './schema.js';
import { themeIconAlt, themeIconPaths } from './theme-icons.js';
import { cacheKey, type DiskCache } from './disk-cache.js';
import { cachedTokensCss, cssColor } from './tokens-css.js';
import {
  ANDROID_NIGHT_FILE,
  cachedTokenFormats,
  EXTRA_FILES,
  FORMAT_FILES,
  TOKEN_FORMATS,
  type TokenFormat,
} from './token-formats.js';
import { themedTokenFormats, type ThemedTokenFormats } from './theme-tokens.js';
import { precompute, type Precomputed } from '../core/precomputed.js';
import { tokensDocument } from './tokens-document.js';
import { buildingTokens } from './token-build.js';
import { SD_MODULE_FILE, sdModuleText } from './sd-module-text.js';
import { brandVersionHeaders } from './versions.js';
import type { AssetItem, ColorContrast, DocGroup, ThemeView } from './views.js';

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
  readonly themes: {
    keys: readonly ThemeKey[];
    surfaces: { light: string; dark: string };
    official: ThemeView[];
    funnels: ThemeView[];
  };
  readonly assets: {
    count: number;
    items: AssetItem[];
    logo: Record<string, string>;
    icons: Record<string, string>;
  };
  readonly docs: { count: number; groups: DocGroup[] };
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

const API_CACHE = 'public, max-age=60, stale-while-revalidate=600';
const STATIC_CACHE = 'public, max-age=3600, stale-while-revalidate=86400';
const FONT_CACHE = 'public, max-age=604800';
const JSON_TYPE = 'application/json; charset=utf-8';

function hexOf(token: FlatToken | undefined, known: Map<string, FlatToken>, fallback: string): string {
  const v = resolveValue(token?.value, known);
  const css = v === undefined ? fallback : cssColor(v);
  return /^#[0-9a-f]{6}$/i.test(css) ? css.toLowerCase() : fallback;
}

function contrastFor(
  color: string,
  surfaces: { light: string; dark: string },
  ink: string,
  paper: string,
): ColorContrast {
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

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';
const words = (md: string) => md.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * Builds the catalog in two steps: first everything that can fail (Style Dictionary, rendering,
 * fonts, documents), then, only once all of it is built, `publish` names the brand version (it
 * publishes the tokens and announces them, brand-versions.ts) and the responses are assembled
 * with that version in them. A brand that cannot be built is never published.
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
  const { baseUrl } = opts;
  const origin = new URL(baseUrl).origin;
  const staticUrl = (p: string) => `${baseUrl}/static/fleet/${p}`;

  // Surfaces and text colors come from the tokens, so contrast follows a token edit.
  const all = new Map([...src.tokens.flat, ...src.tokens.darkFlat]);
  const surfaces = {
    light: hexOf(src.tokens.flat.get('colors.surface.page'), src.tokens.flat, '#ffffff'),
    dark: hexOf(src.tokens.darkFlat.get('colors.surface.page'), all, '#000000'),
  };
  const ink = hexOf(src.tokens.flat.get('colors.text.default'), src.tokens.flat, '#000000');
  const paper = hexOf(src.tokens.flat.get('colors.text.inverse'), src.tokens.flat, '#ffffff');

  const themeView = (
    key: string,
    kind: ThemeView['kind'],
    t: ThemesFile['official'][string] & { business?: string },
  ): ThemeView => {
    const contrast = {
      color: contrastFor(t.color, surfaces, ink, paper),
      color2: contrastFor(t.color2, surfaces, ink, paper),
    };
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
  };
  const official = Object.entries(src.themes.official).map(([k, t]) => themeView(k, 'official', t));
  const funnels = THEME_KEYS.map((k) => {
    const t = src.themes.funnels[k];
    if (!t) throw new Error(`validated brand lacks funnel ${k}`);
    return themeView(k, 'funnel', t);
  });
  const themes = { keys: THEME_KEYS, surfaces, official, funnels };

  // Tokens: the DTCG document as authored, dark overrides kept beside it under $extensions.
  const tokens = tokensDocument(src, baseUrl);
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
  const tokensCss = await buildingTokens(src, () => cachedTokensCss(opts.cache, cssInput));

  // Every other platform's format, from the same document (cached like the CSS).
  const formatInput = {
    base: src.tokens.base,
    dark: src.tokens.dark,
    darkPaths: cssInput.darkPaths,
    brandName: src.info.name,
  };
  const formatTexts = await buildingTokens(src, () => cachedTokenFormats(opts.cache, formatInput));
  const sdModule = await sdModuleText(opts.cache);

  const built = await buildAssets(src, opts.render);
  const fonts = await buildFonts(src, baseUrl);
  const sorted = [...src.docs].sort((a, b) => a.group.localeCompare(b.group) || a.order - b.order);
  const docHtml = new Map<string, string>();
  for (const d of sorted) {
    const body = await opts.cache.memo(`${cacheKey(d.markdown, DOC_HTML_BUILD)}.html`, async () =>
      Buffer.from(await markdownToHtml(d.markdown)),
    );
    docHtml.set(d.slug, body.toString('utf8'));
  }

  // Everything is built: only now is the brand published, and every response names its version.
  const brandVersion = await opts.publish?.();
  const responses = new Map<string, Precomputed>();
  const versioned = brandVersionHeaders(brandVersion);
  const put = (
    p: string,
    body: string | Buffer,
    contentType: string,
    cacheControl: string,
    headers?: Record<string, string>,
  ) => {
    const r = precompute(body, {
      contentType,
      cacheControl,
      compressed: opts.cache,
      headers: { ...versioned, ...headers },
    });
    responses.set(p, r);
    return r;
  };

  // Images.
  const svgCsp = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
  const items: AssetItem[] = built.entries.map((e) => {
    const file = built.files.find((f) => f.name === e.file);
    if (!file) throw new Error(`asset ${e.file} was listed but not built`);
    const r = put(
      `/static/fleet/assets/${file.name}`,
      file.body,
      file.mediaType,
      STATIC_CACHE,
      file.mediaType === 'image/svg+xml' ? { 'content-security-policy': svgCsp } : undefined,
    );
    return {
      ...e,
      url: staticUrl(`assets/${file.name}`),
      mediaType: file.mediaType,
      bytes: r.bytes,
      sha256: r.sha256,
    };
  });
  const favicon = responses.get('/static/fleet/assets/icons/favicon.ico');
  if (favicon) responses.set('/favicon.ico', favicon);
  const webManifest = {
    name: src.info.name,
    short_name: src.info.name.split(' ')[0] ?? src.info.name,
    description: src.info.tagline,
    start_url: '/',
    display: 'standalone',
    background_color: surfaces.light,
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
  const wm = put(
    '/static/fleet/assets/icons/site.webmanifest',
    json(webManifest),
    'application/manifest+json; charset=utf-8',
    STATIC_CACHE,
  );
  items.push({
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
  });
  const urlOf = (id: string) => items.find((i) => i.id === id && i.format === 'svg')?.url ?? '';
  const pngOf = (id: string) => items.find((i) => i.id === id && i.format === 'png')?.url ?? '';
  const assets = {
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

  // Fonts.
  for (const f of fonts.files) put(`/static/fleet/fonts/${f.name}`, f.body, 'font/woff2', FONT_CACHE);
  put('/static/fleet/fonts/fonts.css', fonts.css, 'text/css; charset=utf-8', STATIC_CACHE);

  // Documents.
  const pageCsp = `default-src 'none'; style-src ${origin} 'self'; img-src ${origin} 'self' data:; font-src ${origin} 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  const docMarkdown = new Map<string, string>();
  const groups: DocGroup[] = src.info.docGroups.map((g) => ({ ...g, docs: [] }));
  for (const d of sorted) {
    const group = groups.find((g) => g.key === d.group);
    if (!group) continue;
    const url = staticUrl(`docs/${d.slug}.html`);
    const mdUrl = staticUrl(`docs/${d.slug}.md`);
    const md = `---\ntitle: ${JSON.stringify(d.title)}\nsummary: ${JSON.stringify(d.summary)}\naudience: ${JSON.stringify(d.audience)}\ngroup: ${d.group}\n---\n\n${d.markdown}`;
    docMarkdown.set(d.slug, md);
    const html = renderDocPage(d, docHtml.get(d.slug) ?? '', {
      brandName: src.info.name,
      groupTitle: group.title,
      baseUrl,
      mdUrl,
      copyright: src.info.legal.copyright,
    });
    const page = put(`/static/fleet/docs/${d.slug}.html`, html, 'text/html; charset=utf-8', STATIC_CACHE, {
      'content-security-policy': pageCsp,
      link: `<${mdUrl}>; rel="alternate"; type="text/markdown"`,
    });
    put(`/static/fleet/docs/${d.slug}.md`, md, 'text/markdown; charset=utf-8', STATIC_CACHE);
    group.docs.push({
      slug: d.slug,
      group: d.group,
      title: d.title,
      summary: d.summary,
      audience: d.audience,
      url,
      markdownUrl: mdUrl,
      words: words(d.markdown),
      bytes: page.bytes,
      sha256: page.sha256,
    });
  }
  const docs = { count: sorted.length, groups: groups.filter((g) => g.docs.length > 0) };
  put(
    '/static/fleet/docs/',
    renderDocIndex(docs.groups, { brandName: src.info.name, baseUrl, copyright: src.info.legal.copyright }),
    'text/html; charset=utf-8',
    STATIC_CACHE,
    { 'content-security-policy': pageCsp },
  );

  const manifest = buildManifest(src, baseUrl, brandVersion);
  const llmsTxt = buildLlmsTxt({ src, baseUrl, manifest, docs: docs.groups, themes: funnels });

  put('/api/brand', json(manifest), JSON_TYPE, API_CACHE);
  put('/api/brand/tokens', json(tokens), JSON_TYPE, API_CACHE, {
    link: `<${baseUrl}/api/brand/tokens.css>; rel="alternate"; type="text/css"`,
  });
  put(
    '/static/fleet/design-tokens.json',
    json(tokens),
    'application/design-tokens+json; charset=utf-8',
    STATIC_CACHE,
  );
  put('/api/brand/tokens.css', tokensCss, 'text/css; charset=utf-8', API_CACHE);
  put('/static/fleet/design-tokens.css', tokensCss, 'text/css; charset=utf-8', STATIC_CACHE);
  const tokenFormats = new Map<TokenFormat, Precomputed>();
  // Android's dark resources are a second file (qualifiers are folders): its responses link to it.
  const nightLink = {
    link: `<${staticUrl(`tokens/${ANDROID_NIGHT_FILE}`)}>; rel="alternate"; type="application/xml"; title="values-night"`,
  };
  for (const f of TOKEN_FORMATS) {
    const { file, contentType } = FORMAT_FILES[f];
    const text = f === 'json' ? json(tokens) : f === 'css' ? tokensCss : formatTexts.formats[f];
    const extra = f === 'android' ? nightLink : undefined;
    put(`/static/fleet/tokens/${file}`, text, contentType, STATIC_CACHE, extra);
    const same = f === 'json' ? '/api/brand/tokens' : f === 'css' ? '/api/brand/tokens.css' : undefined;
    const api = same ? responses.get(same) : undefined;
    tokenFormats.set(
      f,
      api ??
        precompute(text, {
          contentType,
          cacheControl: API_CACHE,
          compressed: opts.cache,
          headers: { ...versioned, ...extra },
        }),
    );
  }
  for (const [file, { contentType }] of Object.entries(EXTRA_FILES)) {
    const text = formatTexts.files[file];
    if (text !== undefined) put(`/static/fleet/tokens/${file}`, text, contentType, STATIC_CACHE);
  }
  put(`/static/fleet/tokens/${SD_MODULE_FILE}`, sdModule, 'text/javascript; charset=utf-8', STATIC_CACHE);
  const themed = themedTokenFormats({
    document: tokens,
    ...formatInput,
    baseUrl,
    funnels: cssInput.funnels,
    themes: funnels,
    cache: opts.cache,
    cacheControl: API_CACHE,
    headers: versioned,
  });
  put('/static/fleet/brand.css', BRAND_CSS, 'text/css; charset=utf-8', STATIC_CACHE);
  put('/api/brand/themes', json(themes), JSON_TYPE, API_CACHE);
  for (const f of funnels) put(`/api/brand/themes/${f.key}`, json(f), JSON_TYPE, API_CACHE);
  put('/api/brand/assets', json(assets), JSON_TYPE, API_CACHE);
  put('/api/brand/docs', json(docs), JSON_TYPE, API_CACHE);
  put('/api/brand/fonts', json(fonts.response), JSON_TYPE, API_CACHE);
  const llms = put('/api/brand/llms.txt', llmsTxt, 'text/plain; charset=utf-8', API_CACHE);
  responses.set('/llms.txt', llms);

  return {
    source: src,
    loadedAt: new Date().toISOString(),
    baseUrl,
    manifest,
    tokens,
    tokensCss,
    tokenFormats,
    themedTokenFormats: themed,
    themes,
    assets,
    docs,
    docMarkdown,
    fonts: fonts.response,
    llmsTxt,
    ...(brandVersion ? { brandVersion } : {}),
    responses,
  };
}
