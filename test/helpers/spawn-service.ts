/**
 * Runs the built service (dist/main.js) as its own process exactly as `npm start` does (the
 * command line is read from package.json's start script), on a free port; or, given CLI
 * arguments, the built CLI (dist/cli.js) as `npm run fleetgate -- <args>` does. The suite builds
 * dist/ once before any test runs (test/dist-setup.ts), so every process test runs the bundle
 * that ships, and a module loaded only from it (a lazy import) is loaded here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './build-test-app.js';
import { contractChecksOn, recordViolations } from './contract.js';
import type { ContractViolation } from '../../packages/platform-emulator/src/contract/check.js';
import { freePort } from '../../packages/platform-emulator/test/helpers/wait.js';

export { freePort };

/**
 * An npm script's `node …` command line as [node, ...arguments], run with this Node and with
 * its paths from the repository root (npm runs scripts there). Its `pre` script (the build) is
 * the suite's global setup instead.
 */
function npmScript(name: 'start' | 'fleetgate'): [string, ...string[]] {
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [command, ...args] = (pkg.scripts[name] ?? '').trim().split(/\s+/);
  if (command !== 'node') throw new Error(`npm script ${name} is expected to run node, not: ${command}`);
  return [process.execPath, ...args.map((a) => (a.startsWith('-') ? a : path.resolve(REPO, a)))];
}

/** `npm start`'s command line: node with its flags and dist/main.js. */
export const serviceCommand = (): [string, ...string[]] => npmScript('start');

/** `npm run fleetgate -- <args>`'s command line: node, dist/cli.js and the arguments. */
export const cliCommand = (...args: string[]): [string, ...string[]] => [...npmScript('fleetgate'), ...args];

/**
 * The contract violations the service's own emulator (sandbox mode forks it as a child) has
 * seen, kept for test/contract-setup.ts to fail the test with. Nothing answers when the service
 * is not in sandbox mode, or is already gone: then there is nothing to read.
 */
async function readContract(sandboxBase: string): Promise<void> {
  if (!contractChecksOn) return;
  try {
    const res = await fetch(`${sandboxBase}/_sandbox/contract`, { signal: AbortSignal.timeout(2000) });
    if (!res.ok) return;
    const { violations } = (await res.json()) as { violations: ContractViolation[] };
    recordViolations(violations);
  } catch {
    // No emulator there.
  }
}

export interface Service {
  child: ChildProcess;
  base: string;
  sandboxBase: string;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/**
 * Starts the service (or, given `cliArgs`, a CLI command that keeps running), waiting for its
 * banner. `build` runs another build instead: its `npm start` command line, from its folder
 * (the previous release, in the two-version test).
 */
export async function startService(
  env: Record<string, string>,
  cliArgs?: string[],
  build?: { command: [string, ...string[]]; cwd: string },
): Promise<Service> {
  const port = await freePort();
  const sandboxPort = await freePort();
  const [node, ...args] = build ? build.command : cliArgs ? cliCommand(...cliArgs) : serviceCommand();
  const child = spawn(node, args, {
    cwd: build?.cwd ?? REPO,
    env: { ...process.env, PORT: String(port), SANDBOX_PORT: String(sandboxPort), LOG_LEVEL: 'warn', ...env },
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (out.includes('fleetgate is up')) {
        clearInterval(check);
        resolve();
      }
    }, 25);
    void exited.then((code) => {
      clearInterval(check);
      reject(new Error(`service exited with ${code}:\n${out}`));
    });
  });
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    sandboxBase: `http://127.0.0.1:${sandboxPort}`,
    output: () => out,
    stop: async (signal = 'SIGTERM') => {
      await readContract(`http://127.0.0.1:${sandboxPort}`);
      child.kill(signal);
      return exited;
    },
  };
}
