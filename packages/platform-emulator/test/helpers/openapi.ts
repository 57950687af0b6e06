/**
 * Fidelity oracle: the platform's published OpenAPI documents (found through
 * ./oracles.ts, test data only, never copied into the project) turned into validators
 * for the emulator's response bodies, and the scopes each operation lists. Without them the
 * comparisons inside behaviour tests find nothing to compare (a body check gives no errors, a
 * scope list is empty; the run says so once) and the tests that are nothing but a comparison
 * with the documents are skipped through `describeWithSpecs` / `itWithSpecs`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, it } from 'vitest';
import { platformDocumentsDir } from './oracles.js';

const DIR = platformDocumentsDir();
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export const specsAvailable = DIR !== undefined;
export const describeWithSpecs = specsAvailable ? describe : describe.skip;
export const itWithSpecs = specsAvailable ? it : it.skip;

function specDir(): string {
  if (!DIR) throw new Error('the published OpenAPI documents are absent: mark this test itWithSpecs');
  return DIR;
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
const loaded = new Map<string, Record<string, any>>();

function spec(file: string): Record<string, any> {
  let s = loaded.get(file);
  if (!s) {
    s = JSON.parse(readFileSync(path.join(specDir(), file), 'utf8')) as Record<string, any>;
    ajv.addSchema(s, file);
    loaded.set(file, s);
  }
  return s;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

function operation(file: string, method: string, template: string): Record<string, any> {
  const op = spec(file)['paths']?.[template]?.[method.toLowerCase()];
  if (!op) throw new Error(`${file} has no ${method} ${template}`);
  return op;
}

const validators = new Map<string, ValidateFunction>();

/** Validates a response body against the documented schema; returns readable errors ([] when valid, or when the documents are absent). */
export function checkResponse(
  file: string,
  method: string,
  template: string,
  status: number,
  body: unknown,
): string[] {
  if (!specsAvailable) return [];
  const key = `${file} ${method} ${template} ${status}`;
  let v = validators.get(key);
  if (!v) {
    const op = operation(file, method, template);
    const content = op['responses']?.[String(status)]?.['content'];
    const media = content?.['application/json']
      ? 'application/json'
      : content
        ? Object.keys(content)[0]
        : undefined;
    if (!media || !content[media]?.['schema']) throw new Error(`${key}: no documented schema`);
    v = ajv.compile({
      $ref: `${file}#/${pointer('paths', template, method.toLowerCase(), 'responses', String(status), 'content', media, 'schema')}`,
    });
    validators.set(key, v);
  }
  return v(body)
    ? []
    : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** The scopes (granular and classic) the platform lists for an operation. */
export function documentedScopes(file: string, method: string, template: string): string[] {
  if (!specsAvailable) return [];
  const x = operation(file, method, template)['x-extensions'] ?? {};
  return [...(x['x-granular-scopes'] ?? []), ...(x['x-macro-scopes'] ?? [])] as string[];
}

/** One published document, parsed (the documents must be present). */
export function publishedSpec(file: string): any {
  return spec(file);
}
