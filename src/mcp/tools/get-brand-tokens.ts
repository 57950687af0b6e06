/** get_brand_tokens: the design tokens, as DTCG JSON or as CSS, optionally one group. */
import * as z from 'zod';
import { TOKEN_GROUPS } from '../../brand/catalog.js';
import { defineTool } from './brand-tool.js';

const group = z.enum(TOKEN_GROUPS);

/** The CSS declarations of one group, kept inside their selectors (so dark mode stays right). */
function cssForGroup(css: string, g: string): string {
  return css
    .split('\n')
    .filter((line) => !/^\s*--/.test(line) || line.trimStart().startsWith(`--${g}-`))
    .join('\n');
}

export const getBrandTokens = defineTool({
  name: 'get_brand_tokens',
  title: 'Design tokens',
  description:
    'Returns the design tokens. format "json" (default) gives the DTCG 2025.10 document: each token has $value and $type; colors are {colorSpace, components, hex}; dimensions are {value, unit}; "{a.b}" strings are aliases to other tokens. format "css" gives CSS custom properties (e.g. --colors-brand-primary) with dark mode and [data-funnel] theme selectors. Pass group to get only colors, type, spacing, radius, shadows, motion, gradients or breakpoints.',
  input: () =>
    z
      .object({
        group: group.optional().describe('only this token group'),
        format: z
          .enum(['json', 'css'])
          .default('json')
          .describe('json (DTCG document) or css (custom properties)'),
      })
      .strict(),
  output: z.object({
    format: z.enum(['json', 'css']),
    group: group.nullable(),
    tokens: z.record(z.string(), z.unknown()).optional().describe('DTCG document (format json)'),
    css: z.string().optional().describe('stylesheet (format css)'),
    cssUrl: z.string(),
  }),
  run: (c, { group: g, format }) => {
    const cssUrl = `${c.baseUrl}/api/brand/tokens.css`;
    if (format === 'css')
      return { format, group: g ?? null, css: g ? cssForGroup(c.tokensCss, g) : c.tokensCss, cssUrl };
    if (!g) return { format, group: null, tokens: c.tokens, cssUrl };
    const dark = (c.source.tokens.dark as Record<string, unknown>)[g];
    const tokens: Record<string, unknown> = { $schema: c.tokens['$schema'], [g]: c.tokens[g] };
    if (dark !== undefined) tokens['$extensions'] = { 'org.fleetgate.modes': { dark: { [g]: dark } } };
    return { format, group: g, tokens, cssUrl };
  },
});
