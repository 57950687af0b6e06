/**
 * Builds the brand MCP server for one request, as the SDK requires (sharing one across
 * requests leaked responses between clients, CVE-2026-25536). What does not depend on the
 * request is built once per catalog and reused: input schemas, the instructions text, and
 * one JSON-schema validator for the whole process.
 */
import { McpServer } from '@modelcontextprotocol/server';
import type * as z from 'zod';
import type { BrandCatalog } from '../brand/catalog.js';
import { instructionsFor } from './instructions.js';
import { JSON_SCHEMA_VALIDATOR } from './json-schema-validator.js';
import { registerBrandResources } from './resources.js';
import { BRAND_TOOLS } from './tools/index.js';

interface Prepared {
  instructions: string;
  inputs: Map<string, z.ZodObject>;
}
const prepared = new WeakMap<BrandCatalog, Prepared>();

function prepare(c: BrandCatalog): Prepared {
  let p = prepared.get(c);
  if (!p) {
    p = { instructions: instructionsFor(c), inputs: new Map(BRAND_TOOLS.map((t) => [t.name, t.input(c)])) };
    prepared.set(c, p);
  }
  return p;
}

export function createBrandMcpServer(c: BrandCatalog, version: string): McpServer {
  const p = prepare(c);
  const server = new McpServer(
    { name: 'fleetgate-brand', title: `${c.source.info.name} brand`, version },
    { instructions: p.instructions, jsonSchemaValidator: JSON_SCHEMA_VALIDATOR },
  );
  for (const tool of BRAND_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: p.inputs.get(tool.name) ?? tool.input(c),
        outputSchema: tool.output,
        annotations: {
          title: tool.title,
          readOnlyHint: true,
          openWorldHint: false,
          idempotentHint: true,
          destructiveHint: false,
        },
      },
      async (args: unknown) => {
        try {
          const structured = await tool.run(c, args as never);
          return {
            content: [{ type: 'text' as const, text: JSON.stringify(structured) }],
            structuredContent: structured,
          };
        } catch {
          // Never hand internals to the model; the REST twin of this tool has the same data.
          return {
            isError: true,
            content: [
              {
                type: 'text' as const,
                text: `${tool.name} failed on the server; try again or use ${c.baseUrl}/api/brand.`,
              },
            ],
          };
        }
      },
    );
  }
  registerBrandResources(server, c);
  return server;
}
