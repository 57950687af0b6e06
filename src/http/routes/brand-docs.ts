/**
 * How the brand routes (brand-routes.ts) describe themselves: each catalog path with the schema
 * of its answer (the brand MCP tools' output schemas, the same catalog objects), and the static
 * files as one path template per folder level, since a path parameter never holds a `/`.
 */
import * as z from 'zod';
import { ENDPOINTS } from '../../brand/manifest.js';
import { THEME_KEYS } from '../../brand/schema.js';
import { FORMAT_FILES, TOKEN_FORMATS } from '../../brand/token-formats.js';
import { assetItem, docGroup, fontStack, manifest, themeView } from '../../mcp/tools/schemas.js';
import type { MediaDoc, ResponseDoc, RouteDoc } from '../openapi.js';

const text = (type: string): MediaDoc => ({ type });
const CACHED = { ETag: 'the strong validator of these bytes', 'Cache-Control': 'how long to keep them' };
const NOT_MODIFIED: Record<number, ResponseDoc> = {
  304: { description: 'Not modified: If-None-Match matched the ETag.', headers: { ETag: 'the same ETag' } },
};

/** The DTCG document: nested groups of tokens, `$value`/`$type` at the leaves. */
const dtcgDocument = z
  .record(z.string(), z.unknown())
  .describe(
    'A DTCG 2025.10 design tokens document (groups, tokens with $value and $type; dark overrides under $extensions).',
  );

const catalogAnswers: Record<string, { output?: z.ZodType; media?: MediaDoc | MediaDoc[] }> = {
  '/api/brand': { output: manifest },
  '/api/brand/tokens.css': { media: text('text/css; charset=utf-8') },
  '/api/brand/themes': {
    output: z.object({
      keys: z.array(z.string()).describe('the live funnel theme keys'),
      surfaces: z.object({ light: z.string(), dark: z.string() }),
      official: z.array(themeView),
      funnels: z.array(themeView),
    }),
  },
  '/api/brand/assets': {
    output: z.object({
      count: z.number(),
      logo: z.object({ light: z.string(), dark: z.string(), lightPng: z.string(), darkPng: z.string() }),
      icons: z.object({ favicon: z.string(), svg: z.string(), appleTouch: z.string(), manifest: z.string() }),
      items: z.array(assetItem),
    }),
  },
  '/api/brand/docs': { output: z.object({ count: z.number(), groups: z.array(docGroup) }) },
  '/api/brand/fonts': {
    output: z.object({
      importUrl: z.string(),
      import: z.string().describe('a CSS @import of the stylesheet'),
      html: z.string().describe('a <link> of the stylesheet'),
      stacks: z.record(z.string(), fontStack),
      subsets: z.array(z.string()),
    }),
  },
  '/api/brand/llms.txt': { media: text('text/plain; charset=utf-8') },
  '/llms.txt': { media: text('text/plain; charset=utf-8') },
  '/favicon.ico': {
    media: { type: 'image/x-icon', schema: { type: 'string', contentMediaType: 'image/x-icon' } },
  },
  '/static/fleet/design-tokens.css': { media: text('text/css; charset=utf-8') },
  '/static/fleet/tokens/android/values-night/tokens.xml': { media: text('application/xml; charset=utf-8') },
  '/static/fleet/tokens/style-dictionary.js': { media: text('text/javascript; charset=utf-8') },
  '/static/fleet/assets/logo-horizontal-light.png': {
    media: { type: 'image/png', schema: { type: 'string', contentMediaType: 'image/png' } },
  },
  '/static/fleet/fonts/fonts.css': { media: text('text/css; charset=utf-8') },
  '/static/fleet/docs/': { media: text('text/html; charset=utf-8') },
};

const brandDoc = (url: string, extra: Partial<RouteDoc>): RouteDoc => ({
  method: 'GET',
  url,
  summary: ENDPOINTS[`GET ${url}`] ?? 'The favicon (16, 32 and 48 px).',
  tag: 'brand',
  auth: 'none',
  headers: CACHED,
  responses: NOT_MODIFIED,
  errors: [404],
  ...extra,
});

/** One of the catalog's fixed paths (API_PATHS): its description. */
export const catalogDoc = (url: string): RouteDoc => brandDoc(url, catalogAnswers[url] ?? {});

/** GET /api/brand/tokens: the DTCG document, or one platform format with ?format=. */
export const tokensDoc = (url: string, input: z.ZodType): RouteDoc =>
  brandDoc(url, {
    input,
    output: dtcgDocument,
    media: [
      ...new Set(TOKEN_FORMATS.filter((f) => f !== 'json').map((f) => FORMAT_FILES[f].contentType)),
    ].map(text),
    responseDescription:
      'The tokens in the format asked for: the DTCG document as JSON, the other formats as text.',
    errors: [400, 404],
  });

/** GET /api/brand/themes/{key}: one live funnel theme. */
export const themeDoc = (url: string): RouteDoc =>
  brandDoc(url, {
    // Any key is read; those not live answer 404 theme_not_found.
    params: z.object({ key: z.string().describe(`a live funnel theme: ${THEME_KEYS.join(', ')}`) }),
    output: themeView,
  });

/**
 * The static files, one path template per folder depth, each level's folders as they are in
 * the catalog: `/static/fleet/*` serves any depth, a path template's parameter holds no `/`.
 */
export function staticDocs(paths: Iterable<string>): RouteDoc[] {
  const prefix = '/static/fleet/';
  // The manifest's own static files first, with their own media types; then the templates.
  const files = Object.entries(catalogAnswers)
    .filter(([url]) => url.startsWith(prefix))
    .map(([url, answer]) => brandDoc(url, answer));
  return [...files, ...staticTemplates(prefix, paths)];
}

function staticTemplates(prefix: string, paths: Iterable<string>): RouteDoc[] {
  const levels = new Map<number, Set<string>[]>();
  for (const p of paths) {
    if (!p.startsWith(prefix) || p.endsWith('/')) continue;
    const folders = p.slice(prefix.length).split('/').slice(0, -1);
    const sets = levels.get(folders.length) ?? folders.map(() => new Set<string>());
    folders.forEach((f, i) => sets[i]?.add(f));
    levels.set(folders.length, sets);
  }
  const names = ['folder', 'subfolder', 'subsubfolder'];
  return [...levels.entries()]
    .sort(([a], [b]) => a - b)
    .filter(([depth]) => depth < names.length + 1)
    .map(([depth, sets]) => {
      const params = Object.fromEntries(
        sets.map((s, i) => [names[i] ?? `level${i}`, z.enum([...s].sort() as [string, ...string[]])]),
      );
      const url = `${prefix}${Object.keys(params)
        .map((n) => `:${n}/`)
        .join('')}:file`;
      return brandDoc(url, {
        summary:
          depth === 0
            ? 'Brand files at the top: stylesheets (design-tokens.css, brand.css).'
            : `Brand files ${depth} folder${depth > 1 ? 's' : ''} down: images, icons, fonts, documents (HTML and Markdown), token files.`,
        params: z.object({ ...params, file: z.string().describe('the file name') }),
        media: {
          type: '*/*',
          schema: {
            type: 'string',
            description:
              'the file in its own type (text/css, image/svg+xml, image/png, font/woff2, text/html, text/markdown, …)',
          },
        },
      });
    });
}
