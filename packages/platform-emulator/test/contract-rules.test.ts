/**
 * src/contract/rules.json, the request rules the emulator enforces at run time, is what the
 * published documents give now (scripts/contract-rules-source.ts, corrections applied): a
 * document, a correction or the served routes changed without `npm run contract-rules` fails
 * here. Without the documents only what needs none is checked: every served route has its rules.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES_FILE, rulesFrom } from '../../../scripts/contract-rules-source.js';
import { oracleDir } from '../../../test/helpers/oracles.js';
import { applyCorrections, CORRECTIONS } from '../src/contract/corrections.js';
import type { OpenApiDocument } from '../src/contract/extract.js';
import { SERVED } from '../src/contract/operations.js';
import { committedRules } from '../src/contract/rules.js';
import { itWithSpecs } from './helpers/openapi.js';

const DIR = oracleDir('platform-openapi');

describe('the committed contract rules', () => {
  it('hold the rules of every route the emulator maps to a published operation, and no other', () => {
    expect(Object.keys(committedRules().operations).sort()).toEqual(Object.keys(SERVED).sort());
    for (const [route, rule] of Object.entries(committedRules().operations)) {
      expect(rule.document, route).toBe(SERVED[route]?.doc);
      expect(rule.template, route).toBe(SERVED[route]?.template);
    }
  });

  it('name each source document with where it was copied from', () => {
    for (const s of committedRules().sources) {
      expect(s.source).toMatch(/^\S+\/\S+ \S+ @ [0-9a-f]{40}$/);
      expect(s.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  itWithSpecs('are what the published documents give now (else run `npm run contract-rules`)', () => {
    const now = rulesFrom(DIR!);
    const committed = committedRules();
    expect(committed.sources.map((s) => s.file)).toEqual(now.sources.map((s) => s.file));
    const stale = Object.keys(now.operations).filter(
      (k) => JSON.stringify(now.operations[k]) !== JSON.stringify(committed.operations[k]),
    );
    expect(stale, `${RULES_FILE} is stale for ${stale.join(', ')}: run \`npm run contract-rules\``).toEqual(
      [],
    );
  });

  itWithSpecs('every correction applies to its document as it is now', () => {
    const docs = new Set(CORRECTIONS.filter((c) => c.kind === 'schema').map((c) => c.document));
    const files = readdirSync(DIR!);
    for (const file of docs) {
      expect(files).toContain(file);
      const doc = JSON.parse(readFileSync(path.join(DIR!, file), 'utf8')) as OpenApiDocument;
      expect(() => applyCorrections(file, doc)).not.toThrow();
    }
    for (const c of CORRECTIONS) expect(c.reason.length, JSON.stringify(c)).toBeGreaterThan(40);
  });
});
