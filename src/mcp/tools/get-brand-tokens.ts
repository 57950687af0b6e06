/**
 * get_brand_tokens: the design tokens in any of the formats GET /api/brand/tokens serves,
 * optionally with a funnel theme applied and (json, css) only one group. The DTCG document stays
 * structured; every other format is its text, the same bytes as the REST answer.
 */
import * as z from 'zod';
import { TOKEN_GROUPS, type BrandCatalog } from '../../brand/catalog.js';
import { THEME_KEYS, type ThemeKey } from '../../brand/schema.js';
import { THEME_TOKEN_PATHS } from '../../brand/theme-tokens.js';
import { TOKEN_FORMATS, type TokenFormat } from '../../brand/token-formats.js';
import { defineTool } from './brand-tool.js';

const group = z.enum(TOKEN_GROUPS);
/** The formats a group can be cut from: the document's groups and the stylesheet's declarations. */
const GROUPABLE: readonly TokenFormat[] = ['json', 'css'];

/** The CSS declarations of one group, kept inside their selectors (so dark mode stays right). */
function cssForGroup(css: string, g: string): string {
  return css
    .split('\n')
    .filter((line) => !/^\s*--/.test(line) || line.trimStart().startsWith(`--${g}-`))
    .join('\n');
}

type Doc = Record<string, unknown>;
const isObj = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One group of a served DTCG document, with its dark overrides (and the theme, if any) kept. */
function docForGroup(doc: Doc, g: string): Doc {
  const ext = isObj(doc['$extensions']) ? doc['$extensions'] : {};
  const modes = isObj(ext['org.fleetgate.modes']) ? ext['org.fleetgate.modes'] : {};
  const dark = isObj(modes['dark']) ? modes['dark'][g] : undefined;
  const out: Doc = { $schema: doc['$schema'], [g]: doc[g] };
  const keep: Doc = {};
  if (dark !== undefined) keep['org.fleetgate.modes'] = { dark: { [g]: dark } };
  if (ext['org.fleetgate.theme'] !== undefined) keep['org.fleetgate.theme'] = ext['org.fleetgate.theme'];
  if (Object.keys(keep).length > 0) out['$extensions'] = keep;
  return out;
}

/** The text of a format as the REST route serves it (the theme's is built on first use). */
async function served(c: BrandCatalog, format: TokenFormat, theme: ThemeKey | undefined): Promise<string> {
  const res = theme ? (await c.themedTokenFormats(theme)).get(format) : c.tokenFormats.get(format);
  if (!res) throw new Error(`no ${format} tokens`);
  return res.body.toString('utf8');
}

export const getBrandTokens = defineTool({
  name: 'get_brand_tokens',
  title: 'Design tokens',
  description: `Returns the design tokens. format "json" (default) gives the DTCG 2025.10 document: each token has $value and $type; colors are {colorSpace, components, hex}; dimensions are {value, unit}; "{a.b}" strings are aliases to other tokens. format "css" gives CSS custom properties (e.g. --colors-brand-primary) with dark mode and [data-funnel] theme selectors. The other formats come as text: scss (Sass variables), tailwind (a Tailwind CSS v4 @theme stylesheet), js (an ES module), ts (a typed module), swift (SwiftUI), compose (Kotlin for Jetpack Compose), android (XML resources). theme (one of ${THEME_KEYS.join(', ')}) applies that funnel's colors: color becomes ${THEME_TOKEN_PATHS.color} and color2 ${THEME_TOKEN_PATHS.color2}, in light and dark. Pass group (json and css only) to get only colors, type, spacing, radius, shadows, motion, gradients or breakpoints. url is the same output over HTTP.`,
  input: () =>
    z
      .object({
        group: group.optional().describe('only this token group (json and css formats)'),
        format: z
          .enum(TOKEN_FORMATS)
          .default('json')
          .describe('json (DTCG document), css (custom properties) or a platform format'),
        theme: z
          .enum(THEME_KEYS)
          .optional()
          .describe("a funnel theme key: that funnel's colors on the brand's primary and accent tokens"),
      })
      .strict()
      .refine((a) => a.group === undefined || GROUPABLE.includes(a.format), {
        message: 'group applies to the json and css formats only',
        path: ['group'],
      }),
  output: z.object({
    format: z.enum(TOKEN_FORMATS),
    group: group.nullable(),
    theme: z.enum(THEME_KEYS).nullable(),
    tokens: z.record(z.string(), z.unknown()).optional().describe('DTCG document (format json)'),
    css: z.string().optional().describe('stylesheet (format css)'),
    text: z.string().optional().describe('the output (formats other than json and css)'),
    url: z.string().describe('the same output over HTTP'),
    cssUrl: z.string(),
  }),
  run: async (c, { group: g, format, theme }) => {
    const cssUrl = `${c.baseUrl}/api/brand/tokens.css`;
    const url = `${c.baseUrl}/api/brand/tokens?format=${format}${theme ? `&theme=${theme}` : ''}`;
    const common = { format, group: g ?? null, theme: theme ?? null, url, cssUrl };
    if (format === 'json') {
      const doc = theme ? (JSON.parse(await served(c, format, theme)) as Doc) : c.tokens;
      return { ...common, tokens: g ? docForGroup(doc, g) : doc };
    }
    const text = await served(c, format, theme);
    if (format === 'css') return { ...common, css: g ? cssForGroup(text, g) : text };
    return { ...common, text };
  },
});
