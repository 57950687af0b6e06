/**
 * From a published OpenAPI document to request rules: each operation's path and query
 * parameters and its request body, with the document's corrections (corrections.ts) applied and
 * every schema kept to its validation keywords (descriptions, examples and vendor extensions
 * dropped), so the same function feeds the committed rules.json and the suite's check against
 * the full documents.
 */
import { applyCorrections, serverBase } from './corrections.js';
import type { BodyRule, OperationRule, ParamRule, Schema } from './rules.js';

/** The part of an OpenAPI 3.0 document this reads. */
export interface OpenApiDocument {
  servers?: { url?: string }[];
  paths?: Record<string, Record<string, unknown>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The JSON Schema keywords that constrain a value; everything else is documentation. */
const KEEP = new Set([
  'type',
  'format',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'nullable',
]);

/** A schema kept to its validation keywords, recursively. */
export function prune(schema: unknown): Schema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return {};
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if (!KEEP.has(k)) continue;
    if (k === 'properties' && typeof v === 'object' && v !== null)
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, prune(s)]));
    else if ((k === 'items' || k === 'not') && typeof v === 'object' && v !== null) out[k] = prune(v);
    else if (k === 'additionalProperties' && typeof v === 'object' && v !== null) out[k] = prune(v);
    else if ((k === 'oneOf' || k === 'anyOf' || k === 'allOf') && Array.isArray(v)) out[k] = v.map(prune);
    else out[k] = v;
  }
  return out;
}

interface RawParam {
  name?: string;
  in?: string;
  required?: boolean;
  schema?: unknown;
}

interface RawOperation {
  operationId?: string;
  parameters?: RawParam[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
}

function params(op: RawOperation, where: 'path' | 'query'): ParamRule[] {
  return (op.parameters ?? [])
    .filter((p) => p.in === where && typeof p.name === 'string')
    .map((p) => ({
      name: p.name!,
      required: where === 'path' || p.required === true,
      schema: prune(p.schema),
    }));
}

function body(op: RawOperation): BodyRule | undefined {
  const rb = op.requestBody;
  if (!rb) return undefined;
  const media = Object.keys(rb.content ?? {});
  const json = rb.content?.['application/json']?.schema;
  return { required: rb.required === true, media, ...(json ? { schema: prune(json) } : {}) };
}

function ruleOf(file: string, base: string, fixed: OpenApiDocument, method: string, template: string) {
  const op = fixed.paths?.[template]?.[method.toLowerCase()] as RawOperation | undefined;
  if (!op) return undefined;
  const b = body(op);
  const rule: OperationRule = {
    method: method.toUpperCase(),
    path: `${base}${template}`,
    document: file,
    template,
    operationId: op.operationId ?? '',
    pathParams: params(op, 'path'),
    query: params(op, 'query'),
    ...(b ? { body: b } : {}),
  };
  return rule;
}

/** The rules of one operation of a document (corrections applied), or undefined when it has none. */
export function operationRule(
  file: string,
  doc: OpenApiDocument,
  method: string,
  template: string,
): OperationRule | undefined {
  return ruleOf(file, serverBase(file, doc), applyCorrections(file, doc), method, template);
}

/** The rules of every operation in a document (corrections applied). */
export function documentRules(file: string, doc: OpenApiDocument): OperationRule[] {
  const fixed = applyCorrections(file, doc);
  const base = serverBase(file, doc);
  const out: OperationRule[] = [];
  for (const [template, item] of Object.entries(fixed.paths ?? {}))
    for (const method of Object.keys(item))
      if (METHODS.includes(method)) {
        const rule = ruleOf(file, base, fixed, method, template);
        if (rule) out.push(rule);
      }
  return out;
}
