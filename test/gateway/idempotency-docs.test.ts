/**
 * docs/gateway.md's list of the operations that take an idempotency key is the registry's: every
 * operation declared `creates: true`, no other, and each REST path it names is one the served
 * OpenAPI document gives an Idempotency-Key header.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { servedOpenApi } from '../../scripts/served-openapi.js';
import { REGISTRY } from '../../src/gateway/capabilities/registry.js';

const DOC = path.resolve(import.meta.dirname, '../../docs/gateway.md');
const START = '<!-- creating-operations:start -->';
const END = '<!-- creating-operations:end -->';

interface Row {
  operation: string;
  rest: string;
}

/** The table's rows between the markers: the `group/name` cell and the REST cell. */
async function listedRows(): Promise<Row[]> {
  const text = await readFile(DOC, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  expect(from, `docs/gateway.md has the ${START} … ${END} markers`).toBeGreaterThan(-1);
  expect(to).toBeGreaterThan(from);
  return text
    .slice(from + START.length, to)
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [, operation = '', rest = ''] = line.split('|').map((c) => c.trim());
      return { operation: operation.replaceAll('`', ''), rest };
    });
}

const creating = REGISTRY.filter((r) => r.operation?.creates === true).map((r) => `${r.group}/${r.name}`);

describe('the idempotency section of docs/gateway.md', () => {
  let rows: Row[];
  beforeAll(async () => {
    rows = await listedRows();
  });

  it('lists exactly the operations that create, once each', () => {
    const listed = rows.map((r) => r.operation);
    expect(creating.length).toBeGreaterThan(0);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...creating].sort());
  });

  it('names REST paths that take an Idempotency-Key in the served document', async () => {
    const doc = (await servedOpenApi()) as {
      paths: Record<string, Record<string, { parameters?: { name?: string; in?: string }[] }>>;
    };
    const named = rows.flatMap((r) => {
      const m = /`(POST) ([^`]+)`/.exec(r.rest);
      return m ? [{ method: (m[1] ?? '').toLowerCase(), url: (m[2] ?? '').replace(/:(\w+)/g, '{$1}') }] : [];
    });
    expect(named.length).toBeGreaterThan(0);
    for (const { method, url } of named) {
      const params = doc.paths[url]?.[method]?.parameters ?? [];
      expect(
        params.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
        `${method.toUpperCase()} ${url} takes Idempotency-Key`,
      ).toBe(true);
    }
  });
});
