/**
 * src/contract/rules.json, the request rules the emulator enforces at run time, is what the
 * published documents give now (scripts/contract-rules-source.ts, corrections applied): a
 * document, a correction or the served routes changed without `npm run contract-rules` fails
 * here. Without the documents only what needs none is checked: every served route has its rules,
 * and the fidelity table of what the gateway sends agrees with them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES_FILE, rulesFrom } from '../scripts/contract-rules-source.js';
import { platformDocumentsDir } from './helpers/oracles.js';
import { applyCorrections, CORRECTIONS } from '../src/contract/corrections.js';
import type { OpenApiDocument } from '../src/contract/extract.js';
import { SERVED, UNREFERENCED } from '../src/contract/operations.js';
import { committedRules } from '../src/contract/rules.js';
import { itWithSpecs } from './helpers/openapi.js';

const DIR = platformDocumentsDir();

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

describe("docs/emulator-fidelity.md's table of what the gateway sends", () => {
  const text = readFileSync(path.resolve(import.meta.dirname, '../../../docs/emulator-fidelity.md'), 'utf8');
  const section = text.slice(text.indexOf('### What the gateway sends'));
  const rows = [
    ...section.slice(0, section.indexOf('\n## ')).matchAll(/^\| `(\w+) (\/[^`]*)` *\|(.*)\|(.*)\|(.*)\|$/gm),
  ];
  const undocumented = new Set(UNREFERENCED.flatMap((u) => u.routes));

  it('names, for each request, the operation the emulator answers it with, or why there is none', () => {
    expect(rows.length).toBeGreaterThan(50);
    for (const [, method, template, operation, requests] of rows) {
      const route = `${method} ${template!.replace(/\{(\w+)\}/g, ':$1')}`;
      const rule = committedRules().operations[route];
      if (rule) {
        expect(operation, route).toContain(
          `${rule.document} \`${rule.method} ${rule.template}\` (${rule.operationId})`,
        );
        expect(requests!.trim(), route).toBe('yes');
      } else {
        expect(undocumented.has(route), `${route} is neither mapped nor listed as unreferenced`).toBe(true);
        expect(requests!.trim(), route).toMatch(/^no document/);
      }
    }
  });
});
