/**
 * The brand API manifest (GET /api/brand): what the API is, where everything lives (absolute
 * URLs), how an agent reaches the MCP endpoint, and copy-paste snippets.
 */
import type { BrandSource } from './read-brand-folder.js';
import { TOKEN_FORMATS } from './token-formats.js';

export const MCP_TOOLS = [
  'get_brand_manifest',
  'get_brand_tokens',
  'list_brand_themes',
  'get_brand_theme',
  'list_brand_assets',
  'list_fleet_docs',
  'get_fonts',
] as const;

export const ENDPOINTS: Record<string, string> = {
  'GET /api/brand': 'This manifest: name, version, endpoints, MCP details and usage snippets.',
  'GET /api/brand/tokens': `Design tokens as a DTCG 2025.10 JSON document (colors, type, spacing, radius, shadows, motion, gradients, breakpoints; dark overrides under $extensions). ?format=${TOKEN_FORMATS.filter((f) => f !== 'json').join('|')} gives the same tokens for that platform (static twins under /static/fleet/tokens/).`,
  'GET /api/brand/versions':
    'Brand versions (semver of the brand data), newest first, with counts of added, removed and changed tokens; keyset-paged (limit, cursor).',
  'GET /api/brand/changelog':
    'What changed between two brand versions (?from=&to=, default the latest and the one before): bump, added, removed (each with a suggested replacement) and changed tokens.',
  'GET /api/brand/tokens.css':
    'Design tokens as CSS custom properties, with dark mode and per-funnel theme selectors.',
  'GET /api/brand/themes':
    'All themes: official fleet accents and the 10 live funnel themes, with WCAG contrast data.',
  'GET /api/brand/themes/:key':
    'One live funnel theme (color, color2, tagline, icon, contrast, CSS variables, social image).',
  'GET /api/brand/assets':
    'Logos, shield, icons, web icon set and social images, each with absolute URL, format, size, bytes and sha256.',
  'GET /api/brand/docs': 'The fleet documents, grouped, each with an HTML page URL and a Markdown twin.',
  'GET /api/brand/fonts': 'Font stacks with fallbacks and weights, and the web-font import URL.',
  'GET /api/brand/llms.txt': 'Plain-text guide for agents (llms.txt format).',
  'GET /llms.txt': 'The same agent guide at the site root.',
  'GET /static/fleet/tokens/android/values-night/tokens.xml':
    "Android's dark-mode resources for res/values-night/: the same names as ?format=android (res/values/) with their dark values.",
  'GET /static/fleet/tokens/style-dictionary.js':
    'An ES module of Style Dictionary hooks for the DTCG document: the transform that writes its values as CSS, and light/dark preprocessors for its dark overrides (register(StyleDictionary)).',
  'GET /static/fleet/design-tokens.css':
    'Stylesheet of the design tokens (same bytes as /api/brand/tokens.css).',
  'GET /static/fleet/assets/logo-horizontal-light.png': 'Horizontal logo for light backgrounds, PNG.',
  'GET /static/fleet/fonts/fonts.css': 'The @font-face stylesheet for the self-hosted web fonts.',
  'GET /static/fleet/docs/': 'Index page of the fleet documents.',
  'POST /mcp': 'MCP tool endpoint (streamable HTTP, JSON-RPC 2.0) exposing the brand to agents.',
};

export type Manifest = {
  name: string;
  version: '1.0.0';
  /** The brand data's own version (GET /api/brand/versions); the API's version stays 1.0.0. */
  brandVersion?: string;
  description: string;
  brand: {
    name: string;
    tagline: string;
    fleet: { key: string; name: string; division: string; description: string }[];
  };
  base: string;
  auth: 'none';
  endpoints: Record<string, string>;
  mcp: { endpoint: string; transport: 'streamable-http'; tools: string[]; protocolVersions: string[] };
  usage: { curl: string; css: string; logo: string; fonts: string; mcp: string };
  legal: { copyright: string; trademark: string; license: string };
};

export function buildManifest(src: BrandSource, baseUrl: string, brandVersion?: string): Manifest {
  const logo = `${baseUrl}/static/fleet/assets/logo-horizontal-light.svg`;
  return {
    name: src.info.apiName,
    version: '1.0.0',
    ...(brandVersion ? { brandVersion } : {}),
    description: src.info.description,
    brand: {
      name: src.info.name,
      tagline: src.info.tagline,
      fleet: src.info.fleet.map((b) => ({
        key: b.key,
        name: b.name,
        division: b.division,
        description: b.description,
      })),
    },
    base: baseUrl,
    auth: 'none',
    endpoints: ENDPOINTS,
    mcp: {
      endpoint: `${baseUrl}/mcp`,
      transport: 'streamable-http',
      tools: [...MCP_TOOLS],
      protocolVersions: ['2026-07-28', '2025-11-25'],
    },
    usage: {
      curl: `curl -s ${baseUrl}/api/brand/themes/growthos`,
      css: `<link rel="stylesheet" href="${baseUrl}/static/fleet/design-tokens.css">`,
      logo: `<img src="${logo}" alt="${src.info.name}" height="40">`,
      fonts: `<link rel="stylesheet" href="${baseUrl}/static/fleet/fonts/fonts.css">`,
      mcp: `{"mcpServers": {"brand": {"type": "http", "url": "${baseUrl}/mcp"}}}`,
    },
    legal: src.info.legal,
  };
}
