/** get_brand_manifest: what the brand API is and where everything lives. */
import * as z from 'zod';
import { defineTool } from './brand-tool.js';
import { manifest } from './schemas.js';

export const getBrandManifest = defineTool({
  name: 'get_brand_manifest',
  title: 'Brand manifest',
  description:
    'Start here. Returns the brand API manifest: brand name and tagline, the businesses in the fleet, every REST endpoint with an absolute URL, the MCP details, and copy-paste usage snippets (curl, CSS link, logo img tag). Takes no arguments.',
  input: () => z.object({}).strict(),
  output: manifest,
  run: (c) => c.manifest,
});
