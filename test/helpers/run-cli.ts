/**
 * One run of the built CLI (dist/cli.js, as `npm run fleetgate -- <args>` runs it) to its end,
 * with only the given environment on top of a bare one, and what it printed.
 */
import { execFile } from 'node:child_process';
import { REPO } from './build-test-app.js';
import { cliCommand } from './spawn-service.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<CliRun> {
  const [node, ...argv] = cliCommand(...args);
  return new Promise((resolve) => {
    execFile(
      node,
      argv,
      {
        cwd: REPO,
        env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', ...env },
        timeout: timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
