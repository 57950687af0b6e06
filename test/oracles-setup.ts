/**
 * Vitest global setup: says once, in one line, when the published documents the oracle checks
 * need are absent, and fails the run at once when CI=true (or the setting) requires them.
 */
import { absentLine, oracleDir, type OracleKind } from './helpers/oracles.js';

export default function setup(): void {
  const missing = (['platform-openapi', 'dtcg'] as const).filter(
    (k: OracleKind) => oracleDir(k) === undefined,
  );
  if (missing.length > 0) process.stdout.write(`${absentLine(missing)}\n`);
}
