/** get_fonts: font stacks and the web-font import. */
import * as z from 'zod';
import { defineTool } from './brand-tool.js';
import { fontStack } from './schemas.js';

export const getFonts = defineTool({
  name: 'get_fonts',
  title: 'Fonts',
  description:
    'Returns the brand font stacks (sans for UI and body, display for headlines, mono for code and figures): family, CSS font-family value with fallbacks, weights, licence and self-hosted woff2 files, plus the import URL of the @font-face stylesheet and ready <link> and @import snippets.',
  input: (c) =>
    z
      .object({
        stack: z
          .enum(Object.keys(c.fonts.stacks) as [string, ...string[]])
          .optional()
          .describe('only this stack'),
      })
      .strict(),
  output: z.object({
    importUrl: z.string(),
    import: z.string(),
    html: z.string(),
    stacks: z.record(z.string(), fontStack),
    subsets: z.array(z.string()),
  }),
  run: (c, { stack: only }) => ({
    ...c.fonts,
    stacks: only
      ? Object.fromEntries(Object.entries(c.fonts.stacks).filter(([k]) => k === only))
      : c.fonts.stacks,
  }),
});
