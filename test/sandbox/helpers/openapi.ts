/**
 * Fidelity oracle: the platform's published OpenAPI documents (../shared/platform-openapi, test
 * data only, never copied into the project) turned into validators for the emulator's response
 * bodies, and the scopes each operation lists.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { SHARED } from '../../helpers/build-test-app.js';

const DIR = path.join(SHARED, 'platform-openapi');
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export const specsAvailable = existsSync(DIR);

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
const loaded = new Map<string, Record<string, any>>();

function spec(file: string): Record<string, any> {
  let s = loaded.get(file);
  if (!s) {
    s = JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as Record<string, any>;
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

/** Validates a response body against the documented schema; returns readable errors ([] when valid). */
export function checkResponse(
  file: string,
  method: string,
  template: string,
  status: number,
  body: unknown,
): string[] {
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
  const x = operation(file, method, template)['x-extensions'] ?? {};
  return [...(x['x-granular-scopes'] ?? []), ...(x['x-macro-scopes'] ?? [])] as string[];
}

/** The documented success statuses of an operation. */
export function documentedStatuses(file: string, method: string, template: string): number[] {
  return Object.keys(operation(file, method, template)['responses'] ?? {}).map(Number);
}
