/**
 * src/client/openapi.ts is what openapi-typescript makes of the document the server serves
 * now: a route or schema changed without `npm run client` fails here, so the typed client
 * cannot drift from the server.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { clientSource, currentClientSource, GENERATED_FILE } from '../../scripts/client-source.js';

/** The first line where two texts differ, for a message a person can act on. */
function firstDifference(a: string, b: string): string {
  const x = a.split('\n');
  const y = b.split('\n');
  const i = x.findIndex((line, n) => line !== y[n]);
  const at = i === -1 ? x.length : i;
  return `line ${at + 1}: committed ${JSON.stringify(x[at])}, served ${JSON.stringify(y[at])}`;
}

describe('the generated client types', () => {
  it('match the document the server serves (else run `npm run client`)', async () => {
    const committed = await readFile(GENERATED_FILE, 'utf8');
    const served = await currentClientSource();
    expect(
      committed === served,
      `src/client/openapi.ts is stale: ${firstDifference(committed, served)}`,
    ).toBe(true);
  });

  it('change when the document changes', async () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } },
    };
    const before = await clientSource(doc);
    doc.paths['/a'].get.responses[200] = {
      description: 'ok',
      content: { 'application/json': { schema: { type: 'object', properties: { n: { type: 'integer' } } } } },
    } as never;
    const after = await clientSource(doc);
    expect(after).not.toBe(before);
    expect(after).toContain('n?: number');
    expect(after.startsWith('/**\n * GENERATED')).toBe(true);
  });
});
