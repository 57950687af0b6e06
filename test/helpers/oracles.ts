/**
 * Where the tests find the published documents that are not ours: the platform's OpenAPI
 * documents (`platform-openapi/`) and the DTCG 2025.10 JSON Schemas (`dtcg-schemas/2025.10/`).
 * They live in FLEETGATE_ORACLES_DIR when it is set, else in the git-ignored `.oracles/` that
 * `npm run oracles` fills; they are never copied into the repository. Absent, the checks that
 * need them do not run (test/oracles-setup.ts says so in one line); with CI=true, or with the
 * setting pointing at a folder that lacks them, they are required and a test file that needs
 * them fails at import. The emulator's test/helpers/oracles.ts finds them (its own tests use it
 * alone); this names the kinds the service's tests need.
 */
import { ORACLES_SETTING, oracleFolder } from '../../packages/platform-emulator/test/helpers/oracles.js';

export { ORACLES_SETTING, oraclesRoot } from '../../packages/platform-emulator/test/helpers/oracles.js';
const KINDS = { 'platform-openapi': 'platform-openapi', dtcg: 'dtcg-schemas/2025.10' } as const;
export type OracleKind = keyof typeof KINDS;

/** Where one kind of oracle is, or undefined when it is absent and may be. */
export function oracleDir(kind: OracleKind, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return oracleFolder(KINDS[kind], env);
}

/** The one line printed when the oracles are absent. */
export function absentLine(missing: OracleKind[]): string {
  return `oracles: ${missing.map((k) => KINDS[k]).join(' and ')} not found (${ORACLES_SETTING} unset, no .oracles/): the checks against the published documents (response fidelity, and the contract check of every request to the platform) are skipped; run \`npm run oracles\` or set ${ORACLES_SETTING} (see docs/testing.md)`;
}
