/**
 * Where the emulator's tests (and `npm run contract-rules`) find the platform's published OpenAPI
 * documents: `platform-openapi/` in FLEETGATE_ORACLES_DIR when it is set, else in the repository's
 * git-ignored `.oracles/` that `npm run oracles` fills; they are never copied into the
 * repository. Absent, the checks that need them do not run (test/oracles-setup.ts says so in one
 * line); with CI=true, or with the setting pointing at a folder that lacks them, they are
 * required and a test file that needs them fails at import. The root's test/helpers/oracles.ts
 * finds its other oracles through `oracleFolder`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export const ORACLES_SETTING = 'FLEETGATE_ORACLES_DIR';
/** The repository root: a relative setting is read from there, wherever the tests run from. */
const REPO = path.resolve(import.meta.dirname, '../../../..');
export const PLATFORM_DOCUMENTS = 'platform-openapi';

/** The folder the oracles are looked for in, and whether a setting named it. */
export function oraclesRoot(env: NodeJS.ProcessEnv = process.env): { dir: string; configured: boolean } {
  const set = env[ORACLES_SETTING];
  return set
    ? { dir: path.resolve(REPO, set), configured: true }
    : { dir: path.join(REPO, '.oracles'), configured: false };
}

/** Where the oracle folder `sub` is, or undefined when it is absent and may be. */
export function oracleFolder(sub: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const root = oraclesRoot(env);
  const dir = path.join(root.dir, sub);
  if (existsSync(dir)) return dir;
  if (root.configured || env['CI'] === 'true')
    throw new Error(
      `${dir} is missing: ${root.configured ? `${ORACLES_SETTING} points at a folder without ${sub}/` : `CI=true requires the published documents; set ${ORACLES_SETTING}`}`,
    );
  return undefined;
}

/** Where the platform's published OpenAPI documents are, or undefined when absent and allowed. */
export function platformDocumentsDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return oracleFolder(PLATFORM_DOCUMENTS, env);
}
