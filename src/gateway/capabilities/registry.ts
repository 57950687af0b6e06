/**
 * The capability registry: every declared capability (ops/*.ts) with its operation, if the
 * platform offers one. Invoking checks the caller's granted scopes, validates the input with the
 * operation's schema, runs it and checks the answer against its output; a capability without a
 * public platform endpoint answers 501 with the reason. Every transport runs through here.
 */
import * as z from 'zod';
import { AppError } from '../../core/errors.js';
import { CAPABILITIES, type CapabilityDef } from './catalog.js';
import type { Operation, OpContext } from './operation.js';
import { DECLARED } from './ops/index.js';
import { checkOutput } from './output-check.js';
import { admits } from './scopes.js';

export interface RegistryEntry extends CapabilityDef {
  operation: Operation | undefined;
}

export const REGISTRY: readonly RegistryEntry[] = CAPABILITIES.map((c, i) => {
  const d = DECLARED[i];
  return { ...c, operation: d && 'run' in d ? d : undefined };
});

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
 * The operation of a capability the caller may run: 403 missing_scope when the link's granted
 * scopes (read once with the context, no monitor) admit none of those it needs; then as operationOf.
 */
export function admittedOperation(ctx: OpContext, group: string, name: string): Operation {
  const e = entry(group, name);
  if (ctx.granted && e.operation && !admits(ctx.granted, e.scopes)) {
    throw new AppError(
      403,
      'missing_scope',
      `The linked app has none of the scopes ${e.group}/${e.name} needs, so it is not offered for this link.`,
      { group: e.group, scopes: e.scopes },
    );
  }
  return operationOf(group, name);
}

/**
 * Runs one capability with untrusted input, without an idempotency key (internal calls and
 * routes that never take one); transports use idempotent-invoke.ts, which adds the key's rules.
 */
export async function invoke(ctx: OpContext, group: string, name: string, input: unknown): Promise<unknown> {
  const op = admittedOperation(ctx, group, name);
  const result = await op.run(ctx, parseInput(op.input, input ?? {}));
  checkOutput(op, result);
  return result;
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
