/**
 * The JSON Schema of each operation's declared output, and the check every answer passes before
 * any transport sends it (REST and MCP alike): an answer outside it is a bug, failed as one
 * (500 internal_error, logged) rather than sent to a client that trusts the published schema.
 * Each schema is built and compiled once per process, on first use.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { JsonSchemaValidator } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { Operation } from './operation.js';

const VALIDATOR = new AjvJsonSchemaValidator();

interface Compiled {
  schema: Record<string, unknown>;
  check?: JsonSchemaValidator<unknown>;
}
const compiled = new WeakMap<Operation, Compiled>();

function of(op: Operation): Compiled {
  let c = compiled.get(op);
  if (!c) {
    // The wire dialect is MCP's default (2020-12), so no `$schema`.
    const schema = z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    delete schema['$schema'];
    c = { schema };
    compiled.set(op, c);
  }
  return c;
}

/** The declared output's JSON Schema, without `$schema` (OpenAPI, MCP outputSchema). */
export const outputJsonSchema = (op: Operation): Record<string, unknown> => of(op).schema;

/** Throws (a bug, not an AppError) when `result` is outside the operation's declared output. */
export function checkOutput(op: Operation, result: unknown): void {
  const c = of(op);
  const checked = (c.check ??= VALIDATOR.getValidator(c.schema))(result);
  if (!checked.valid) {
    throw new Error(
      `${op.group}/${op.name} returned a result outside its output schema: ${checked.errorMessage}`,
    );
  }
}
