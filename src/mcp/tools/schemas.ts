/**
 * Output schemas of the brand tools, exact to the field: clients validate structured results
 * against them (additional properties are refused), so a drift between the catalog and these
 * schemas fails the MCP client tests rather than reaching a model.
 */
import * as z from 'zod';

export const colorContrast = z.object({
  onLight: z.number().describe('WCAG contrast ratio against the light page surface'),
  onDark: z.number().describe('WCAG contrast ratio against the dark page surface'),
  text: z.string().describe('text color to put on this color (hex)'),
  textRatio: z.number().describe('contrast of that text color on this color'),
  textLevel: z.enum(['AAA', 'AA', 'AA-large', 'fail']),
});

export const themeView = z.object({
  key: z.string(),
  kind: z.enum(['funnel', 'official']),
  name: z.string(),
  business: z.string().nullable().describe('key of the fleet business (funnel themes)'),
  color: z.string().describe('primary theme color, hex'),
  color2: z.string().describe('secondary theme color, hex'),
  tagline: z.string(),
  icon: z.string().describe('emoji icon of the theme (needs an emoji font; iconSvg does not)'),
  iconSvg: z.string().optional().describe('absolute URL of the drawn icon (SVG), when the theme has one'),
  iconPng: z.string().optional().describe('absolute URL of the drawn icon as a PNG'),
  iconAlt: z.string().optional().describe('alt text of the drawn icon'),
  contrast: z.object({ color: colorContrast, color2: colorContrast }),
  css: z.object({ selector: z.string(), variables: z.record(z.string(), z.string()) }),
  socialImage: z.string().describe('absolute URL of the 1200×630 Open Graph image'),
});

export const assetItem = z.object({
  id: z.string(),
  group: z.enum(['logo', 'shield', 'icon', 'social']),
  layout: z.string(),
  variant: z.enum(['light', 'dark', 'any']).describe('background the asset is made for'),
  theme: z.string().nullable(),
  format: z.enum(['svg', 'png', 'ico', 'webmanifest']),
  purpose: z.string().optional(),
  file: z.string(),
  url: z.string().describe('absolute URL'),
  mediaType: z.string(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  bytes: z.number(),
  sha256: z.string(),
  alt: z.string().describe('alt text to use'),
});

export const docItem = z.object({
  slug: z.string(),
  group: z.string(),
  title: z.string(),
  summary: z.string(),
  audience: z.string(),
  url: z.string().describe('absolute URL of the HTML page'),
  markdownUrl: z.string().describe('absolute URL of the Markdown twin (also an MCP resource)'),
  words: z.number(),
  bytes: z.number(),
  sha256: z.string(),
});

export const docGroup = z.object({
  key: z.string(),
  title: z.string(),
  description: z.string(),
  docs: z.array(docItem),
});

export const manifest = z.object({
  name: z.string(),
  version: z.string(),
  brandVersion: z
    .string()
    .optional()
    .describe("The brand data's own semver version (the API version stays 1.0.0)"),
  description: z.string(),
  brand: z.object({
    name: z.string(),
    tagline: z.string(),
    fleet: z.array(
      z.object({ key: z.string(), name: z.string(), division: z.string(), description: z.string() }),
    ),
  }),
  base: z.string(),
  auth: z.string(),
  endpoints: z.record(z.string(), z.string()).describe('"METHOD path" to description'),
  mcp: z.object({
    endpoint: z.string(),
    transport: z.string(),
    tools: z.array(z.string()),
    protocolVersions: z.array(z.string()),
  }),
  usage: z.object({
    curl: z.string(),
    css: z.string(),
    logo: z.string(),
    fonts: z.string(),
    mcp: z.string(),
  }),
  legal: z.object({ copyright: z.string(), trademark: z.string(), license: z.string() }),
});

export const fontStack = z.object({
  family: z.string(),
  role: z.string(),
  stack: z.string().describe('CSS font-family value with fallbacks'),
  fallback: z.array(z.string()),
  weights: z.array(z.number()),
  source: z.string(),
  package: z.string(),
  license: z.string(),
  files: z.array(
    z.object({
      weight: z.number(),
      style: z.string(),
      subset: z.string(),
      format: z.string(),
      url: z.string(),
      bytes: z.number(),
    }),
  ),
});
