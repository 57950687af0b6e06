/**
 * The capability registry: every (group, name) of the catalog joined with its operation, if the
 * platform offers one. Invoking validates the input with the operation's schema and runs it; a
 * capability without a public platform endpoint answers 501 with the reason.
 */
import * as z from 'zod';
import { AppError } from '../../core/errors.js';
import { CAPABILITIES, type CapabilityDef } from './catalog.js';
import type { Operation, OpContext } from './operation.js';
import { OPERATIONS } from './ops/index.js';

export interface RegistryEntry extends CapabilityDef {
  operation: Operation | undefined;
}

const byKey = new Map<string, Operation>(OPERATIONS.map((o) => [`${o.group}/${o.name}`, o]));

export const REGISTRY: readonly RegistryEntry[] = CAPABILITIES.map((c) => ({
  ...c,
  operation: byKey.get(`${c.group}/${c.name}`),
}));

const entries = new Map<string, RegistryEntry>(REGISTRY.map((r) => [`${r.group}/${r.name}`, r]));

export function entry(group: string, name: string): RegistryEntry {
  const e = entries.get(`${group}/${name}`);
  if (!e) {
    throw new AppError(
      404,
      'capability_not_found',
      `There is no capability ${group.slice(0, 40)}/${name.slice(0, 60)}.`,
      {
        capabilities: REGISTRY.map((r) => `${r.group}/${r.name}`),
      },
    );
  }
  return e;
}

/** The operation of a capability; 404 for an unknown one, 501 when the platform offers none. */
export function operationOf(group: string, name: string): Operation {
  const e = entry(group, name);
  if (!e.operation) {
    throw new AppError(
      501,
      'no_public_api',
      e.note ?? `The platform offers no public endpoint for ${group}/${name}.`,
      { group, name, availability: e.availability },
    );
  }
  return e.operation;
}

/**
 * Runs one capability with untrusted input, without an idempotency key (internal calls and
 * routes that never take one); transports use idempotent-invoke.ts, which adds the key's rules.
 */
export async function invoke(ctx: OpContext, group: string, name: string, input: unknown): Promise<unknown> {
  const op = operationOf(group, name);
  return op.run(ctx, parseInput(op.input, input ?? {}));
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) {
    throw new AppError(400, 'validation_failed', 'The input is not valid.', {
      issues: r.error.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message })),
    });
  }
  return r.data;
}

/** JSON Schema of an operation's input, for the capability list, OpenAPI and MCP tools. */
export function inputJsonSchema(op: Operation): unknown {
  return z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' });
}
