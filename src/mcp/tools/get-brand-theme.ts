/** get_brand_theme: one live funnel theme by key. */
import * as z from 'zod';
import { THEME_KEYS } from '../../brand/schema.js';
import { defineTool } from './brand-tool.js';
import { themeView } from './schemas.js';

export const getBrandTheme = defineTool({
  name: 'get_brand_theme',
  title: 'Get one theme',
  description: `Returns one live funnel theme: color, color2, tagline, icon (an emoji) with iconSvg/iconPng (the drawn icon, absolute URLs) and iconAlt, contrast data (which text color to use on each color), the CSS selector and variables, and the social image URL. key is one of: ${THEME_KEYS.join(', ')}.`,
  input: () => z.object({ key: z.enum(THEME_KEYS).describe('the funnel theme key') }).strict(),
  output: themeView,
  run: (c, { key }) => {
    const theme = c.themes.funnels.find((t) => t.key === key);
    // The input schema only admits known keys, and a valid brand has all of them.
    if (!theme) throw new Error(`theme ${key} missing from a validated catalog`);
    return theme;
  },
});
