/**
 * Runs the emulator as a child process of the service (`npm start` in sandbox mode), so the
 * platform stand-in never shares the service's event loop, heap or CPU: the service is measured
 * and behaves as it would against the real platform. The child reports readiness, or why it could
 * not start, over IPC and exits when the IPC channel closes, so it cannot outlive a parent
 * killed with SIGKILL.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Logger } from 'pino';

export interface SandboxProcess {
  baseUrl: string;
  close(): Promise<void>;
}

/** The message the child sends once it listens. */
export interface SandboxReady {
  sandboxReady: string;
}

/** The message the child sends when it cannot start (its port is taken, say), before it exits. */
export interface SandboxFailed {
  sandboxFailed: string;
}

/** Run from source (tsx, vitest) rather than from the bundle in dist/. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

const isReady = (m: unknown): m is SandboxReady =>
  typeof m === 'object' && m !== null && typeof (m as { sandboxReady?: unknown }).sandboxReady === 'string';
const isFailed = (m: unknown): m is SandboxFailed =>
  typeof m === 'object' && m !== null && typeof (m as { sandboxFailed?: unknown }).sandboxFailed === 'string';

export async function forkSandbox(opts: {
  dataDir: string;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** Where the child's log lines go; its inherited stdout when unset. */
  stdout?: NodeJS.WritableStream;
}): Promise<SandboxProcess> {
  // From source the entry sits beside this module and runs under tsx, whose loader the fork
  // inherits through execArgv; bundled, this module is part of dist/main.js and the build puts
  // the emulator's entry beside it as dist/sandbox.js.
  const entry = path.join(import.meta.dirname, FROM_SOURCE ? 'main.ts' : 'sandbox.js');
  const child: ChildProcess = fork(entry, [], {
    env: { ...opts.env, FLEETGATE_DATA_DIR: opts.dataDir },
    stdio: ['ignore', opts.stdout ? 'pipe' : 'inherit', 'inherit', 'ipc'],
  });
  if (opts.stdout) child.stdout?.pipe(opts.stdout, { end: false });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let reason: string | undefined;
    const onExit = (code: number | null) =>
      reject(new Error(reason ?? `the emulator exited with ${code} before it was ready`));
    child.once('exit', onExit);
    child.on('message', (m) => {
      if (isFailed(m)) reason = m.sandboxFailed;
      if (!isReady(m)) return;
      child.off('exit', onExit);
      resolve(m.sandboxReady);
    });
  });
  let closing = false;
  child.once('exit', (code, signal) => {
    if (!closing) opts.logger.error({ code, signal }, 'the emulator process exited');
  });
  return {
    baseUrl,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
