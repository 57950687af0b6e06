/**
 * The shape of a brand folder's JSON files and document front matter, as zod schemas.
 * The funnel theme keys are part of the public contract, so a brand folder must define exactly these.
 */
import * as z from 'zod';

export const THEME_KEYS = [
  'mog',
  'growthos',
  'contracting',
  'capital',
  'mortgage',
  'housing',
  'freight',
  'fleetworks',
  'earlylearning',
  'learning',
] as const;
export type ThemeKey = (typeof THEME_KEYS)[number];

export const REQUIRED_TOKEN_GROUPS = [
  'colors',
  'type',
  'spacing',
  'radius',
  'shadows',
  'motion',
  'gradients',
] as const;

const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a 6-digit hex color like #0B2545');
const key = z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be lowercase letters, digits and dashes');
const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const brandInfoSchema = z.strictObject({
  $schema: z.string().optional(),
  name: text(80),
  apiName: text(120),
  description: text(600),
  tagline: text(160),
  legal: z.strictObject({ copyright: text(200), trademark: text(600), license: text(400) }),
  docGroups: z
    .array(z.strictObject({ key, title: text(80), description: text(300) }))
    .min(3, 'needs at least 3 document groups'),
  fleet: z
    .array(
      z.strictObject({
        key,
        name: text(80),
        short: text(20).optional(),
        division: key,
        description: text(300),
      }),
    )
    .min(1),
});
export type BrandInfo = z.infer<typeof brandInfoSchema>;

/** A drawn image below assets/, e.g. themes/freight.svg: no "..", so it cannot leave the folder. */
const assetSvgPath = z
  .string()
  .regex(
    /^(?:[a-z0-9-]+\/)*[a-z0-9-]+\.svg$/,
    'must be a lowercase .svg path inside the assets folder, like themes/freight.svg',
  );

const themeBase = {
  name: text(80),
  color: hex,
  color2: hex,
  tagline: text(120),
  /** An emoji, kept for clients that show one; iconFile is the drawn icon, which needs no emoji font. */
  icon: text(16),
  iconFile: assetSvgPath.optional(),
  /** What iconFile depicts, as alt text (defaults to "<name> icon"). */
  iconAlt: text(120).optional(),
};
export const themesFileSchema = z.strictObject({
  official: z
    .record(key, z.strictObject(themeBase))
    .refine((o) => Object.keys(o).length > 0, 'must not be empty'),
  funnels: z.record(key, z.strictObject({ ...themeBase, business: key })),
});
export type ThemesFile = z.infer<typeof themesFileSchema>;

export const fontsFileSchema = z.strictObject({
  stacks: z.partialRecord(
    z.enum(['sans', 'serif', 'display', 'mono']),
    z.strictObject({
      family: text(60),
      package: z.string().regex(/^@fontsource\/[a-z0-9-]+$/, 'must be an @fontsource/<name> package'),
      role: text(120),
      weights: z.array(z.number().int().min(100).max(900).multipleOf(100)).min(1),
      fallback: z.array(text(60)).min(1),
    }),
  ),
  subsets: z.array(z.string().regex(/^[a-z-]+$/)).min(1),
});
export type FontsFile = z.infer<typeof fontsFileSchema>;

export const assetsFileSchema = z.strictObject({
  files: z
    .array(
      z.strictObject({
        file: z
          .string()
          .regex(/^[a-z0-9-]+\.svg$/, 'must be a lowercase .svg file name in the assets folder'),
        id: key,
        group: z.enum(['logo', 'shield', 'icon']),
        layout: z.enum(['horizontal', 'stacked', 'mark']),
        variant: z.enum(['light', 'dark', 'any']),
        alt: text(200),
        pngWidth: z.number().int().min(16).max(4096),
      }),
    )
    .min(1),
  iconSet: z.strictObject({
    source: assetSvgPath,
    tileSource: assetSvgPath,
    tileBackground: hex,
  }),
  social: z.strictObject({ template: assetSvgPath, alt: text(200) }),
});
export type AssetsFile = z.infer<typeof assetsFileSchema>;

export const docFrontMatterSchema = z.strictObject({
  title: text(120),
  summary: text(400),
  audience: text(200),
});
