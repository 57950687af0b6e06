/**
 * The client is what a business application bundles: src/client imports openapi-fetch and its
 * own generated types, never the service (which would drag the server into the app).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { REPO } from '../helpers/build-test-app.js';

it('src/client imports nothing but openapi-fetch and its own modules', async () => {
  const dir = path.join(REPO, 'src', 'client');
  const specifiers = new Set<string>();
  for (const file of await readdir(dir)) {
    const text = await readFile(path.join(dir, file), 'utf8');
    for (const m of text.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g))
      specifiers.add(m[1] ?? m[2] ?? '');
  }
  expect([...specifiers].sort()).toEqual(['./openapi.js', 'openapi-fetch']);
});
