/**
 * Holds an operation's real answer to its declared output: the JSON Schema MCP advertises and
 * OpenAPI publishes (z.toJSONSchema, output side), checked by an independent validator (Ajv).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import * as z from 'zod';
import { entry } from '../../src/gateway/capabilities/registry.js';

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

/** The JSON Schema of an operation's output (throws when it declares none). */
export function outputJsonSchema(group: string, name: string): Record<string, unknown> {
  const op = entry(group, name).operation;
  if (!op?.output) throw new Error(`${group}/${name} declares no output schema`);
  return z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' });
}

/** Fails the test unless `result` is what `group/name` declares it answers. */
export function expectOutput(group: string, name: string, result: unknown): void {
  const key = `${group}/${name}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(outputJsonSchema(group, name));
    compiled.set(key, validate);
  }
  const valid = validate(result) === true;
  expect(valid ? [] : (validate.errors ?? []), `${key} answered outside its declared output`).toEqual([]);
}
