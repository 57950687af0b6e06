/** list_brand_assets: logos, shield, icons and social images, filterable. */
import * as z from 'zod';
import { defineTool } from './brand-tool.js';
import { assetItem } from './schemas.js';

export const listBrandAssets = defineTool({
  name: 'list_brand_assets',
  title: 'List image assets',
  description:
    'Lists brand image files with absolute URLs: logos (horizontal and stacked, light and dark backgrounds), the shield, icons (mark, favicon.ico, apple-touch, 192/512, maskable, web manifest), a drawn icon per theme (layout "theme") and 1200×630 social images per theme. Each item has format, width, height, bytes, sha256, variant and alt text. Use variant "light" on light backgrounds. Filter by group, format, variant or theme.',
  input: (c) => {
    const themes = [...c.themes.funnels, ...c.themes.official].map((t) => t.key) as [string, ...string[]];
    return z
      .object({
        group: z.enum(['logo', 'shield', 'icon', 'social']).optional(),
        format: z.enum(['svg', 'png', 'ico', 'webmanifest']).optional(),
        variant: z.enum(['light', 'dark', 'any']).optional().describe('background the asset is made for'),
        theme: z.enum(themes).optional().describe('images of this theme (its social image and drawn icon)'),
      })
      .strict();
  },
  output: z.object({ count: z.number(), items: z.array(assetItem) }),
  run: (c, f) => {
    const items = c.assets.items.filter(
      (i) =>
        (!f.group || i.group === f.group) &&
        (!f.format || i.format === f.format) &&
        (!f.variant || i.variant === f.variant) &&
        (!f.theme || i.theme === f.theme),
    );
    return { count: items.length, items };
  },
});
