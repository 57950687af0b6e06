/**
 * `npm run lint:openapi`: lints the document the server serves (not a copy) with Redocly's
 * recommended ruleset (redocly.yaml), offline; exits non-zero when it reports an error.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { servedOpenApi } from './served-openapi.js';

const REPO = path.resolve(import.meta.dirname, '..');
const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-openapi-lint-'));
try {
  const file = path.join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify(await servedOpenApi(), null, 2));
  const run = spawnSync(
    path.join(REPO, 'node_modules', '.bin', 'redocly'),
    ['lint', file, '--config', path.join(REPO, 'redocly.yaml')],
    {
      cwd: REPO,
      stdio: 'inherit',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  if (run.error) throw run.error;
  process.exitCode = run.status ?? 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
