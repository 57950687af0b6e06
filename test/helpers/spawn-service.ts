/**
 * Runs `src/main.ts` as its own process, as `npm start` does, on a free port; or, given CLI
 * arguments, `src/cli/main.ts` with them (`fleetgate serve`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { REPO } from './build-test-app.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface Service {
  child: ChildProcess;
  base: string;
  sandboxBase: string;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

export async function startService(env: Record<string, string>, cliArgs?: string[]): Promise<Service> {
  const port = await freePort();
  const sandboxPort = await freePort();
  const entry = cliArgs ? [path.join(REPO, 'src/cli/main.ts'), ...cliArgs] : [path.join(REPO, 'src/main.ts')];
  const child = spawn(process.execPath, ['--import', 'tsx', ...entry], {
    cwd: REPO,
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
      child.kill(signal);
      return exited;
    },
  };
}
