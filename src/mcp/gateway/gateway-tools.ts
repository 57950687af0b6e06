/**
 * The gateway's MCP tools: one per capability the platform offers, named `<group>_<name>`,
 * built once per process from the capability registry (per-request servers only pick from
 * them). Input schemas come from the operations' zod inputs, output schemas from their declared
 * outputs or, where none is declared, an open object schema that promises no more than "an
 * object"; annotations follow the operation's kind. Capabilities without a public platform
 * endpoint are no tools; their reasons are kept so a call by name can say why.
 */
import type { JsonSchemaType, JsonSchemaValidator, Tool } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { Operation } from '../../gateway/capabilities/operation.js';
import { inputJsonSchema, REGISTRY, type RegistryEntry } from '../../gateway/capabilities/registry.js';
import { JSON_SCHEMA_VALIDATOR } from '../json-schema-validator.js';

export interface GatewayTool {
  group: string;
  /** The capability's name within its group. */
  capability: string;
  operation: Operation;
  /** Any one of these granted scopes admits it. */
  scopes: string[];
  /** What tools/list shows. */
  definition: Tool;
  /** The check a client applies to structuredContent (the same JSON Schema), compiled on first use. */
  checkOutput: () => JsonSchemaValidator<unknown>;
}

const GROUP_TITLES: Readonly<Record<string, string>> = {
  meetings: 'Meetings',
  calendar: 'Calendar',
  recordings: 'Recordings',
  contacts: 'Contacts',
  conversation: 'Conversations',
  ai: 'AI Companion',
  chat: 'Team chat',
  clips: 'Clips',
  phone: 'Phone',
  ra: 'Revenue accelerator',
  hub: 'Docs',
  video_events: 'Video events',
  marketplace: 'Marketplace',
  email: 'Email',
};

const EFFECT: Record<Operation['kind'], string> = {
  read: 'Only reads.',
  write: 'Changes data on the platform.',
  delete: 'Deletes on the platform; this cannot be undone.',
};

export const toolName = (group: string, name: string) => `${group}_${name}`;

const words = (name: string) => name.replace(/_/g, ' ').replace(/\bai\b/g, 'AI');

/** A JSON Schema for the wire: the dialect is MCP's default (2020-12), so no `$schema`. */
function wireSchema(schema: unknown): Tool['inputSchema'] {
  const rest = { ...(schema as Record<string, unknown>) };
  delete rest['$schema'];
  if (rest['type'] !== 'object') throw new Error('MCP tool schemas must describe objects');
  return rest as Tool['inputSchema'];
}

function outputSchema(group: string, name: string, op: Operation) {
  if (op.output) return wireSchema(z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' }));
  return wireSchema({
    type: 'object',
    additionalProperties: true,
    description: `The ${group}/${name} result, the same object POST /api/video/capabilities/${group}/${name} returns under "result".`,
  });
}

function build(r: RegistryEntry, op: Operation): GatewayTool {
  const { group, name, note } = r;
  const title = `${GROUP_TITLES[group] ?? words(group)}: ${words(name)}`;
  const description = [
    op.summary,
    note,
    EFFECT[op.kind],
    op.overwrites ? 'It may change or replace existing data.' : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  const output = outputSchema(group, name, op);
  let check: JsonSchemaValidator<unknown> | undefined;
  return {
    group,
    capability: name,
    operation: op,
    scopes: r.scopes,
    definition: {
      name: toolName(group, name),
      title,
      description,
      inputSchema: wireSchema(inputJsonSchema(op)),
      outputSchema: output,
      annotations: {
        title,
        readOnlyHint: op.kind === 'read',
        destructiveHint: op.kind === 'delete' || op.overwrites === true,
        // Reading, or deleting the same thing twice, ends in the same state; writes may add twice.
        idempotentHint: op.kind !== 'write',
        // Every tool reaches the platform, a system outside this server.
        openWorldHint: true,
      },
    },
    checkOutput: () => (check ??= JSON_SCHEMA_VALIDATOR.getValidator(output as JsonSchemaType)),
  };
}

export interface GatewayToolSet {
  all: readonly GatewayTool[];
  byName: ReadonlyMap<string, GatewayTool>;
  /** Tool names of capabilities the platform has no public endpoint for, with the registry's reason. */
  notOffered: ReadonlyMap<string, string>;
}

let built: GatewayToolSet | undefined;

/** Built on first use, once per process (~40 ms of JSON Schema work that start-up need not pay). */
export function gatewayTools(): GatewayToolSet {
  if (built) return built;
  // A note on a capability the platform offers says where it comes from (hosted MCP, composed).
  const all = REGISTRY.flatMap((r) => (r.operation ? [build(r, r.operation)] : []));
  const byName = new Map(all.map((t) => [t.definition.name, t]));
  if (byName.size !== all.length) throw new Error('two capabilities map to one tool name');
  const notOffered = new Map(
    REGISTRY.filter((r) => !r.operation).map((r) => [
      toolName(r.group, r.name),
      r.note ?? `The platform offers no public endpoint for ${r.group}/${r.name}.`,
    ]),
  );
  built = { all, byName, notOffered };
  return built;
}
