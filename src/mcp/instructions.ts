/**
 * What the brand MCP server tells a model about itself (the `instructions` field).
 */
import type { BrandCatalog } from '../brand/catalog.js';

export function instructionsFor(c: BrandCatalog): string {
  const name = c.source.info.name;
  return [
    `Read-only brand kit of ${name} ("${c.source.info.tagline}"), a fleet of ${c.source.info.fleet.length} businesses. Everything here is public; every URL is absolute.`,
    'Which tool when:',
    '- get_brand_manifest: first call; names the businesses, every endpoint and usage snippets.',
    '- get_brand_tokens: colors, type, spacing, radius, shadows, motion, gradients. format "css" when writing CSS (use the var() names, never hard-coded hex); "json" (DTCG) for tooling; scss, tailwind, js, ts, swift, compose or android for that platform; theme (a funnel key) for one business\'s colors; group (json, css) to keep it short.',
    `- list_brand_themes / get_brand_theme: a business's funnel theme (keys: ${c.themes.keys.join(', ')}); use contrast.*.text as the text color on a theme color.`,
    '- list_brand_assets: logo and icon URLs; pick variant "light" for light backgrounds, "dark" for dark ones; social images per theme.',
    '- list_fleet_docs: guidelines, voice and tone, one-pagers, sales and onboarding kits; read one through its markdownUrl resource before writing copy.',
    '- get_fonts: font stacks and the stylesheet to import.',
    'Resources mirror the same data: the manifest, tokens (JSON and CSS), each theme, each document (Markdown) and llms.txt.',
  ].join('\n');
}
