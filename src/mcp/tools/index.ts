/** The seven brand tools, in the order the manifest lists them. */
import type { BrandTool } from './brand-tool.js';
import { getBrandManifest } from './get-brand-manifest.js';
import { getBrandTheme } from './get-brand-theme.js';
import { getBrandTokens } from './get-brand-tokens.js';
import { getFonts } from './get-fonts.js';
import { listBrandAssets } from './list-brand-assets.js';
import { listBrandThemes } from './list-brand-themes.js';
import { listFleetDocs } from './list-fleet-docs.js';

export const BRAND_TOOLS = [
  getBrandManifest,
  getBrandTokens,
  listBrandThemes,
  getBrandTheme,
  listBrandAssets,
  listFleetDocs,
  getFonts,
] as unknown as readonly BrandTool[];
