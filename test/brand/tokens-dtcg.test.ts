/**
 * The tokens we serve, held against two references no one here wrote: Terrazzo's DTCG 2025.10
 * parser and linter (an npm dependency, always run), and the community group's published JSON
 * Schemas (found through test/helpers/oracles.ts, never copied into the project), each token
 * value against the schema of its own type too, since the format schema alone lets mistyped
 * values through.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, parse } from '@terrazzo/parser';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { oracleDir } from '../helpers/oracles.js';

const SCHEMAS = oracleDir('dtcg');
const ID = 'https://www.designtokens.org/schemas/2025.10/';

function loadAjv(SCHEMAS: string): Ajv {
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
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const terrazzo = defineConfig({}, { cwd: new URL('file:///') });
/** Terrazzo's parse with its default lint rules; throws a TokensJSONError naming the first problem. */
const terrazzoParse = (...srcs: string[]) =>
  parse(
    srcs.map((src, i) => ({ filename: new URL(`file:///tokens-${i}.json`), src })),
    { config: terrazzo },
  );

describe('design tokens pass Terrazzo (DTCG 2025.10)', () => {
  it('the served document and its dark mode parse with no error, every token resolved', async () => {
    const res = await t.app.inject('/api/brand/tokens');
    const doc = res.json<Node>();
    const { tokens } = await terrazzoParse(res.body);
    const ours = tokensOf(doc).map((tok) => tok.path);
    expect(ours.length).toBeGreaterThan(80);
    expect(Object.keys(tokens).sort()).toEqual([...ours].sort());
    const dark = (doc['$extensions'] as Record<string, Record<string, Node>>)['org.fleetgate.modes']?.[
      'dark'
    ];
    expect(dark).toBeDefined();
    // The dark mode overrides part of the set and aliases the rest: parsed layered over it.
    const layered = await terrazzoParse(res.body, JSON.stringify(dark));
    expect(Object.keys(layered.tokens).length).toBe(ours.length);
  });

  it('rejects what DTCG forbids (the check can fail)', async () => {
    const bad = [
      { c: { $type: 'color', $value: { colorSpace: 'srgb', components: 'red' } } },
      { c: { $type: 'color', $value: { colorSpace: 'srgb', components: [2, 0, 0] } } },
      { d: { $type: 'dimension', $value: { value: 4, unit: 'furlong' } } },
      { d: { $type: 'duration', $value: { value: 4, unit: 'h' } } },
      { a: { $type: 'color', $value: '{nowhere.at.all}' } },
    ];
    for (const doc of bad)
      await expect(terrazzoParse(JSON.stringify(doc)), JSON.stringify(doc)).rejects.toThrow();
  });
});

describe.skipIf(!SCHEMAS)('design tokens are valid against the published DTCG 2025.10 schemas', () => {
  let ajv: Ajv;
  beforeAll(() => {
    ajv = loadAjv(SCHEMAS!);
  });

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
});

describe('design tokens as CSS', () => {
  it('every token has a CSS custom property', async () => {
    const doc = (await t.app.inject('/api/brand/tokens')).json<Node>();
    const css = (await t.app.inject('/api/brand/tokens.css')).body;
    for (const tok of tokensOf(doc)) {
      expect(css, tok.path).toContain(`--${tok.path.replace(/\./g, '-')}:`);
    }
  });
});
