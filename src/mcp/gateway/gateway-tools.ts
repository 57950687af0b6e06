/**
 * The gateway's MCP tools: one per capability the platform offers, named `<group>_<name>`,
 * built once per process from the capability registry (per-request servers only pick from
 * them). Input schemas come from the operations' zod inputs, output schemas from their declared
 * outputs (an operation without one fails the build: no tool promises only "an object");
 * annotations follow the operation's kind. Tools whose operation creates take an
 * optional `idempotency_key` argument, the shared invoke's key (idempotent-invoke.ts).
 * Capabilities without a public platform endpoint are no tools; their reasons are kept so a call
 * by name can say why.
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { Operation } from '../../gateway/capabilities/operation.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../../gateway/capabilities/idempotent-invoke.js';
import { outputJsonSchema } from '../../gateway/capabilities/output-check.js';
import { inputJsonSchema, REGISTRY, type RegistryEntry } from '../../gateway/capabilities/registry.js';

export interface GatewayTool {
  group: string;
  /** The capability's name within its group. */
  capability: string;
  operation: Operation;
  /** Any one of these granted scopes admits it. */
  scopes: string[];
  /** What tools/list shows. */
  definition: Tool;
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

/** The argument a creating tool takes besides its operation's input (the server strips it). */
export const IDEMPOTENCY_ARG = 'idempotency_key';

const IDEMPOTENCY_DESCRIPTION =
  'Optional. A key of your choosing, unique per creation (a UUID, say). Retry a failed or timed-out call with the same key and the same arguments: if the first call created, the retry returns its answer and creates nothing new. The same key with other arguments is refused (idempotency_key_reused). Keys are shared with the REST Idempotency-Key header and kept for a day by default.';

const idempotencyArg = (op: Operation) => ({
  type: 'string',
  pattern: IDEMPOTENCY_KEY_PATTERN,
  description: op.createsWhen
    ? `${IDEMPOTENCY_DESCRIPTION} Only for a call that creates: a key with a call that only reads is refused.`
    : IDEMPOTENCY_DESCRIPTION,
});

/** The input schema on the wire: the operation's, plus the idempotency key where it creates. */
function inputSchema(group: string, name: string, op: Operation): Tool['inputSchema'] {
  const schema = wireSchema(inputJsonSchema(op));
  if (op.creates !== true) return schema;
  const properties = { ...(schema.properties ?? {}) };
  if (IDEMPOTENCY_ARG in properties)
    throw new Error(`${group}/${name} has an input named ${IDEMPOTENCY_ARG}`);
  return { ...schema, properties: { ...properties, [IDEMPOTENCY_ARG]: idempotencyArg(op) } };
}

/**
 * The declared output's JSON Schema (every operation must declare one: defineOp requires it), the
 * one the shared invoke checks every answer against.
 */
function outputSchema(op: Operation): Tool['inputSchema'] {
  return wireSchema(outputJsonSchema(op));
}

function build(r: RegistryEntry, op: Operation): GatewayTool {
  const { group, name, note } = r;
  const title = `${GROUP_TITLES[group] ?? words(group)}: ${words(name)}`;
  const description = [
    op.summary,
    note,
    EFFECT[op.kind],
    op.overwrites ? 'It may change or replace existing data.' : undefined,
    op.creates ? `Pass ${IDEMPOTENCY_ARG} to make a retry safe.` : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  return {
    group,
    capability: name,
    operation: op,
    scopes: r.scopes,
    definition: {
      name: toolName(group, name),
      title,
      description,
      inputSchema: inputSchema(group, name, op),
      outputSchema: outputSchema(op),
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
