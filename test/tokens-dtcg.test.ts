/**
 * The tokens we serve against the DTCG 2025.10 JSON Schemas published by the community group
 * (read from ../shared, never copied into the project), and each token value against the
 * schema of its own type, since the format schema alone lets mistyped values through.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED, buildTestApp, type TestApp } from './helpers/build-test-app.js';

const SCHEMAS = path.join(SHARED, 'dtcg-schemas/2025.10');
const ID = 'https://www.designtokens.org/schemas/2025.10/';

function loadAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)],
    );
  for (const f of walk(path.join(SCHEMAS, 'format')))
    ajv.addSchema(JSON.parse(readFileSync(f, 'utf8')) as object);
  ajv.addSchema(JSON.parse(readFileSync(path.join(SCHEMAS, 'format.json'), 'utf8')) as object);
  return ajv;
}

type Node = Record<string, unknown>;
function tokensOf(
  doc: Node,
  inherited?: string,
  at: string[] = [],
): { path: string; type: string; value: unknown }[] {
  const type = typeof doc['$type'] === 'string' ? doc['$type'] : inherited;
  if ('$value' in doc) return [{ path: at.join('.'), type: type ?? '', value: doc['$value'] }];
  return Object.entries(doc)
    .filter(([k, v]) => !k.startsWith('$') && typeof v === 'object' && v !== null)
    .flatMap(([k, v]) => tokensOf(v as Node, type, [...at, k]));
}

let t: TestApp;
let ajv: Ajv;
beforeAll(async () => {
  t = await buildTestApp();
  ajv = loadAjv();
});
afterAll(() => t.close());

describe('design tokens are valid DTCG 2025.10', () => {
  it('the served document validates against format.json', async () => {
    const doc = (await t.app.inject('/api/brand/tokens')).json<Node>();
    const validate = ajv.getSchema(`${ID}format.json`);
    expect(validate).toBeDefined();
    const ok = validate?.(doc);
    expect(validate?.errors ?? [], JSON.stringify(validate?.errors?.slice(0, 3))).toEqual([]);
    expect(ok).toBe(true);
    const dark = (doc['$extensions'] as Record<string, Record<string, Node>>)['org.fleetgate.modes']?.[
      'dark'
    ];
    expect(validate?.(dark)).toBe(true);
  });

  it('every token value matches the schema of its type (aliases allowed)', async () => {
    const doc = (await t.app.inject('/api/brand/tokens')).json<Node>();
    const all = tokensOf(doc);
    expect(all.length).toBeGreaterThan(80);
    for (const tok of all) {
      if (typeof tok.value === 'string' && /^\{[^}]+\}$/.test(tok.value)) continue;
      const validate = ajv.getSchema(`${ID}format/values/${tok.type}.json`);
      expect(validate, `schema for ${tok.type}`).toBeDefined();
      const ok = validate?.(tok.value);
      expect(ok, `${tok.path}: ${JSON.stringify(validate?.errors?.slice(0, 2))}`).toBe(true);
    }
  });

  it('the per-type check catches a wrong value (the test can fail)', () => {
    const validate = ajv.getSchema(`${ID}format/values/color.json`);
    expect(validate?.({ colorSpace: 'srgb', components: 'red' })).toBe(false);
  });

  it('every token has a CSS custom property', async () => {
    const doc = (await t.app.inject('/api/brand/tokens')).json<Node>();
    const css = (await t.app.inject('/api/brand/tokens.css')).body;
    for (const tok of tokensOf(doc)) {
      expect(css, tok.path).toContain(`--${tok.path.replace(/\./g, '-')}:`);
    }
  });
});
