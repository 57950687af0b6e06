/**
 * Vitest global setup: says once, in one line, when the platform's published documents the
 * emulator's contract and fidelity checks need are absent, and fails the run at once when
 * CI=true (or the setting) requires them.
 */
import { ORACLES_SETTING, platformDocumentsDir } from './helpers/oracles.js';

export default function setup(): void {
  if (platformDocumentsDir() === undefined)
    process.stdout.write(
      `oracles: platform-openapi not found (${ORACLES_SETTING} unset, no .oracles/): the emulator's checks against the published documents are skipped; run \`npm run oracles\` or set ${ORACLES_SETTING} (see docs/testing.md)\n`,
    );
}
