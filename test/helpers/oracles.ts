/**
 * Where the tests find the published documents that are not ours: the platform's OpenAPI
 * documents (`platform-openapi/`) and the DTCG 2025.10 JSON Schemas (`dtcg-schemas/2025.10/`).
 * They live in FLEETGATE_ORACLES_DIR when it is set, else in the git-ignored `.oracles/` that
 * `npm run oracles` fills; they are never copied into the repository. Absent, the checks that
 * need them do not run (test/oracles-setup.ts says so in one line); with CI=true, or with the
 * setting pointing at a folder that lacks them, they are required and a test file that needs
 * them fails at import.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export const ORACLES_SETTING = 'FLEETGATE_ORACLES_DIR';
const REPO = path.resolve(import.meta.dirname, '../..');
const KINDS = { 'platform-openapi': 'platform-openapi', dtcg: 'dtcg-schemas/2025.10' } as const;
export type OracleKind = keyof typeof KINDS;

/** The folder the oracles are looked for in, and whether a setting named it. */
export function oraclesRoot(env: NodeJS.ProcessEnv = process.env): { dir: string; configured: boolean } {
  const set = env[ORACLES_SETTING];
  return set
    ? { dir: path.resolve(REPO, set), configured: true }
    : { dir: path.join(REPO, '.oracles'), configured: false };
}

/** Where one kind of oracle is, or undefined when it is absent and may be. */
export function oracleDir(kind: OracleKind, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const root = oraclesRoot(env);
  const dir = path.join(root.dir, KINDS[kind]);
  if (existsSync(dir)) return dir;
  if (root.configured || env['CI'] === 'true')
    throw new Error(
      `${dir} is missing: ${root.configured ? `${ORACLES_SETTING} points at a folder without ${KINDS[kind]}/` : `CI=true requires the published documents; set ${ORACLES_SETTING}`}`,
    );
  return undefined;
}

/** The one line printed when the oracles are absent. */
export function absentLine(missing: OracleKind[]): string {
  return `oracles: ${missing.map((k) => KINDS[k]).join(' and ')} not found (${ORACLES_SETTING} unset, no .oracles/): the checks against the published documents (response fidelity, and the contract check of every request to the platform) are skipped; run \`npm run oracles\` or set ${ORACLES_SETTING} (see docs/testing.md)`;
}
