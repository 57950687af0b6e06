/** list_brand_themes: official fleet accents and live funnel themes. */
import * as z from 'zod';
import { defineTool } from './brand-tool.js';
import { themeView } from './schemas.js';

export const listBrandThemes = defineTool({
  name: 'list_brand_themes',
  title: 'List themes',
  description:
    'Lists the brand themes: the 10 live funnel themes (one per business; keys mog, growthos, contracting, capital, mortgage, housing, freight, fleetworks, earlylearning, learning) and the official fleet accents. Each has color, color2, tagline, icon (an emoji) with iconSvg/iconPng/iconAlt (a drawn icon that needs no emoji font), WCAG contrast against light and dark surfaces with the text color to use, CSS variables and a social image URL. kind filters to "funnel" or "official".',
  input: () =>
    z
      .object({ kind: z.enum(['funnel', 'official', 'all']).default('all').describe('which themes') })
      .strict(),
  output: z.object({
    keys: z.array(z.string()).describe('the live funnel theme keys'),
    surfaces: z.object({ light: z.string(), dark: z.string() }),
    themes: z.array(themeView),
  }),
  run: (c, { kind }) => ({
    keys: [...c.themes.keys],
    surfaces: c.themes.surfaces,
    themes:
      kind === 'funnel'
        ? c.themes.funnels
        : kind === 'official'
          ? c.themes.official
          : [...c.themes.funnels, ...c.themes.official],
  }),
});
