/**
 * `npm run client`: regenerates src/client/openapi.ts, the typed client's paths and schemas,
 * from the OpenAPI document the service serves (scripts/served-openapi.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { currentClientSource, GENERATED_FILE } from './client-source.js';

const next = await currentClientSource();
const before = await readFile(GENERATED_FILE, 'utf8').catch(() => undefined);
if (before === next) {
  process.stdout.write(`${GENERATED_FILE}: up to date\n`);
} else {
  await writeFile(GENERATED_FILE, next);
  process.stdout.write(`${GENERATED_FILE}: written\n`);
}
