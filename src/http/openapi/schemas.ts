/**
 * The schemas every part of the document shares (the one error shape, JSON-RPC's error, the
 * OAuth bearer challenge), and the zod → JSON Schema 2020-12 step. Sub-schemas zod lifts into
 * `$defs` (recursive or registered ones) move to `components.schemas`, since a `#/$defs/…`
 * reference inside an OpenAPI document would point at the document's root.
 */
import * as z from 'zod';

/** DESIGN.md's error shape: every non-2xx answer of the HTTP API but the MCP endpoints'. */
export const errorSchema = z
  .object({
    error: z.object({
      code: z
        .string()
        .regex(/^[a-z][a-z0-9_]*$/)
        .describe('stable snake_case code to branch on'),
      message: z.string().describe('for people; may change'),
      details: z.record(z.string(), z.unknown()).optional().describe('what the code needs to be acted on'),
    }),
  })
  .describe('The one error shape: {"error":{"code","message","details?"}}.');

/**
 * A JSON-RPC request id as MCP has it (its schema's RequestId): a string or an integer, which is
 * what the endpoints take (mcp/mcp-endpoint.ts refuses any other with -32600); zod's .int() is
 * the safe range, as the endpoints' is.
 */
export const jsonRpcId = z.union([z.string(), z.number().int()]);

/** What the MCP endpoints answer to a request they refuse before or instead of MCP (JSON-RPC 2.0). */
export const jsonRpcErrorSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z
      .union([z.string(), z.number().int(), z.null()])
      .describe("the request's id; null when it could not be read"),
    error: z.object({
      code: z
        .number()
        .int()
        .describe('-32700 parse error, -32600 invalid request, -32000 refused, -32603 internal'),
      message: z.string(),
      data: z.unknown().optional(),
    }),
  })
  .describe('A JSON-RPC 2.0 error response.');

/** RFC 6750's error body, as the MCP authorization spec has the private MCP endpoint answer a 401. */
export const oauthErrorSchema = z
  .object({
    error: z.string().describe('invalid_token'),
    error_description: z.string().optional(),
  })
  .describe('An OAuth 2.0 bearer-token error (RFC 6750).');

export type JsonSchema = Record<string, unknown>;

/** Named schemas lifted out of the ones converted so far: `components.schemas`. */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  /** Adds a named schema and answers a reference to it. */
  named(name: string, schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
    this.schemas[name] ??= this.convert(schema, io);
    return { $ref: `#/components/schemas/${name}` };
  }

  /** A zod schema as JSON Schema 2020-12, with its `$defs` moved to the components. */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const j = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    delete j['$schema'];
    const defs = j['$defs'] as Record<string, JsonSchema> | undefined;
    if (!defs) return j;
    delete j['$defs'];
    const rename = new Map<string, string>();
    for (const name of Object.keys(defs)) {
      let unique = name;
      for (let i = 2; this.schemas[unique] !== undefined && !sameJson(this.schemas[unique], defs[name]); i++)
        unique = `${name}${i}`;
      rename.set(name, unique);
    }
    const moved = relink({ ...j, $defs: defs }, rename) as JsonSchema;
    for (const [name, unique] of rename)
      this.schemas[unique] = (moved['$defs'] as Record<string, JsonSchema>)[name] ?? {};
    delete moved['$defs'];
    return moved;
  }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Rewrites `#/$defs/X` references to the components' names. */
function relink(v: unknown, rename: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(v)) return v.map((x) => relink(x, rename));
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === '$ref' && typeof x === 'string' && x.startsWith('#/$defs/')) {
      const name = x.slice('#/$defs/'.length);
      out[k] = `#/components/schemas/${rename.get(name) ?? name}`;
    } else out[k] = relink(x, rename);
  }
  return out;
}
