/**
 * `npm run contract-rules` (from the root or this package): regenerates the emulator's contract
 * rules (src/contract/rules.json) from the platform's published OpenAPI documents, found as the tests find them (FLEETGATE_ORACLES_DIR or `.oracles/`, see
 * docs/testing.md). Only the request rules of the operations the emulator serves are kept, so
 * the emulator refuses what the documents refuse without the documents being in the repository.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { platformDocumentsDir } from '../test/helpers/oracles.js';
import { RULES_FILE, rulesFrom, rulesText } from './contract-rules-source.js';

const dir = platformDocumentsDir();
if (!dir) {
  process.stderr.write(
    'contract-rules: the published documents are not here; set FLEETGATE_ORACLES_DIR or run `npm run oracles` (see docs/testing.md)\n',
  );
  process.exit(1);
}
const next = await rulesText(rulesFrom(dir));
const before = await readFile(RULES_FILE, 'utf8').catch(() => undefined);
if (before === next) process.stdout.write(`${RULES_FILE}: up to date\n`);
else {
  await writeFile(RULES_FILE, next);
  process.stdout.write(`${RULES_FILE}: written\n`);
}
