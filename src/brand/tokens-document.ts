/**
 * The DTCG tokens document as GET /api/brand/tokens serves it: the base document as authored,
 * dark overrides kept beside it under $extensions. One function, so the catalog and the brand
 * versions (versions.ts) store and serve the very same document.
 */
import type { BrandSource } from './read-brand-folder.js';

export const DTCG_SCHEMA = 'https://www.designtokens.org/schemas/2025.10/format.json';

export function tokensDocument(src: BrandSource, baseUrl: string): Record<string, unknown> {
  const baseGroups = { ...(src.tokens.base as Record<string, unknown>) };
  delete baseGroups['$description'];
  return {
    $schema: DTCG_SCHEMA,
    $description: `${src.info.name} design tokens (DTCG 2025.10). Dark-mode overrides are under $extensions["org.fleetgate.modes"].dark; CSS: ${baseUrl}/api/brand/tokens.css`,
    ...baseGroups,
    $extensions: { 'org.fleetgate.modes': { dark: src.tokens.dark } },
  };
}
