/**
 * Runs a script with node in the repository, as the bench tests run `npm run bench`: its exit
 * code, its stdout, and everything it printed (stdout and stderr as they came).
 */
import { spawn } from 'node:child_process';
import { REPO } from '../helpers/build-test-app.js';

export function runNode(args: string[]): Promise<{ code: number | null; stdout: string; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (c: Buffer) => ((stdout += c.toString()), (output += c.toString())));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, output }));
  });
}
