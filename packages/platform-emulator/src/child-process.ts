/**
 * Runs the emulator as a child process of the service (`npm start` in sandbox mode), so the
 * platform stand-in never shares the service's event loop, heap or CPU: the service is measured
 * and behaves as it would against the real platform. The child reports readiness, or why it could
 * not start, over IPC and exits when the IPC channel closes, so it cannot outlive a parent
 * killed with SIGKILL. A child that exits unexpectedly once it has started is started again on
 * the same port and data dir (its state is saved there), with backoff; until it is back, requests
 * to its address are refused here (`refusal`), since whatever holds the port meanwhile is not the
 * emulator and must not be sent the app's credentials or the account's tokens.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Logger } from 'pino';

export interface SandboxProcess {
  baseUrl: string;
  /**
   * Why a request to `url` must not go out, when it is for the emulator's address while the
   * emulator is down (between an exit and its restart); undefined otherwise. Shaped as fetch's
   * network errors are (a TypeError whose cause has code ECONNREFUSED): nothing was sent.
   */
  refusal(url: string): Error | undefined;
  /** Stops the child for good: it is not started again. */
  close(): Promise<void>;
}

/**
 * How restarts back off: the first waits firstMs, each next one twice as long up to maxMs. A
 * child that stayed up stableMs exited by accident, not in a loop: the count starts over.
 */
const RESTART = { firstMs: 500, maxMs: 30_000, stableMs: 60_000 };

/** The message the child sends once it listens. */
export interface EmulatorReady {
  sandboxReady: string;
}

/** The message the child sends when it cannot start (its port is taken, say), before it exits. */
export interface EmulatorFailed {
  sandboxFailed: string;
}

/** Run from source (tsx, vitest) rather than from the bundle in dist/. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

const isReady = (m: unknown): m is EmulatorReady =>
  typeof m === 'object' && m !== null && typeof (m as { sandboxReady?: unknown }).sandboxReady === 'string';
const isFailed = (m: unknown): m is EmulatorFailed =>
  typeof m === 'object' && m !== null && typeof (m as { sandboxFailed?: unknown }).sandboxFailed === 'string';

interface ForkOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** Where the child's log lines go; its inherited stdout when unset. */
  stdout?: NodeJS.WritableStream;
}

/** One child, started; resolves with its address once it listens, rejects if it exits before. */
function startChild(
  opts: ForkOptions,
  started: (child: ChildProcess) => void,
): Promise<{
  child: ChildProcess;
  baseUrl: string;
}> {
  // From source the entry sits beside this module and runs under tsx, whose loader the fork
  // inherits through execArgv; bundled, this module is part of dist/main.js and the build puts
  // the emulator's entry beside it as dist/sandbox.js.
  const entry = path.join(import.meta.dirname, FROM_SOURCE ? 'main.ts' : 'sandbox.js');
  const child: ChildProcess = fork(entry, [], {
    env: { ...opts.env, FLEETGATE_DATA_DIR: opts.dataDir },
    stdio: ['ignore', opts.stdout ? 'pipe' : 'inherit', 'inherit', 'ipc'],
  });
  started(child);
  if (opts.stdout) child.stdout?.pipe(opts.stdout, { end: false });
  return new Promise((resolve, reject) => {
    let reason: string | undefined;
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      reject(new Error(reason ?? `the emulator exited with ${code ?? signal} before it was ready`));
    child.once('exit', onExit);
    child.on('message', (m) => {
      if (isFailed(m)) reason = m.sandboxFailed;
      if (!isReady(m)) return;
      child.off('exit', onExit);
      resolve({ child, baseUrl: m.sandboxReady });
    });
  });
}

const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

export async function forkSandbox(opts: ForkOptions & { logger: Logger }): Promise<SandboxProcess> {
  const policy = RESTART;
  const now = Date.now;
  const log = opts.logger;
  /** The child last forked, ready or still starting. */
  let latest: ChildProcess | undefined;
  const track = (c: ChildProcess) => (latest = c);
  // The first start's failure is the caller's to report (the service stops): nothing is retried.
  const first = await startChild(opts, track);
  const baseUrl = first.baseUrl;
  const origin = new URL(baseUrl).origin;
  let up: ChildProcess | undefined = first.child;
  let upSince = now();
  let attempt = 0;
  let closing = false;
  let timer: NodeJS.Timeout | undefined;

  const backoff = () => Math.min(policy.firstMs * 2 ** (attempt - 1), policy.maxMs);

  const schedule = () => {
    timer = setTimeout(() => {
      timer = undefined;
      void restart();
    }, backoff());
    // The service's server keeps the process alive; a pending restart alone should not.
    timer.unref();
  };

  const restart = async () => {
    if (closing) return;
    try {
      const next = await startChild(opts, track);
      if (closing) {
        next.child.kill('SIGTERM');
        return;
      }
      if (next.baseUrl !== baseUrl) {
        next.child.kill('SIGTERM');
        throw new Error(`the emulator came back at ${next.baseUrl}, not ${baseUrl}`);
      }
      up = next.child;
      upSince = now();
      log.info({ attempt, pid: next.child.pid }, 'the emulator process is back');
      supervise(next.child);
    } catch (err) {
      if (closing) return;
      attempt += 1;
      log.warn(
        { reason: err instanceof Error ? err.message : String(err), attempt, restartInMs: backoff() },
        'the emulator process did not start again; trying again',
      );
      schedule();
    }
  };

  const supervise = (child: ChildProcess) =>
    child.once('exit', (code, signal) => {
      if (up === child) up = undefined;
      if (closing) return;
      if (now() - upSince >= policy.stableMs) attempt = 0;
      attempt += 1;
      log.warn(
        { code, signal, attempt, restartInMs: backoff() },
        'the emulator process exited; starting it again',
      );
      schedule();
    });
  supervise(first.child);

  return {
    baseUrl,
    refusal(url) {
      if (up && alive(up)) return undefined;
      if (url !== origin && !url.startsWith(`${origin}/`)) return undefined;
      const down = new Error(`the emulator at ${origin} is not running (it is being restarted)`);
      return Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(down, { code: 'ECONNREFUSED' }),
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        clearTimeout(timer);
        const child = latest;
        if (!child || !alive(child)) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
