/**
 * Whether the optional backing services (PostgreSQL, Redis) are reachable. Suites that need
 * one skip with a single clear line when it is missing — except in CI (CI=true), where a
 * missing service is a failure, because .ci/run starts them.
 */
import { Socket } from 'node:net';

export function reachable(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const s = new Socket();
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('error', () => done(false));
    s.connect(port, host, () => done(true));
  });
}

export async function requireService(name: string, host: string, port: number): Promise<boolean> {
  const ok = await reachable(host, port);
  if (!ok) {
    if (process.env['CI'] === 'true')
      throw new Error(`${name} is required in CI but nothing answers at ${host}:${port}`);
    console.warn(`${name} tests skipped: nothing answers at ${host}:${port}`);
  }
  return ok;
}

/**
 * For a test that finds, once running, that it cannot run here (the server refuses the test's
 * password, say): skips it with one clear line, except in CI (CI=true), where it fails, since
 * CI provides the services as the tests expect them.
 */
export function cannotRunHere(ctx: { skip: (note?: string) => never }, reason: string): never {
  if (process.env['CI'] === 'true') throw new Error(`${reason}; CI must provide it`);
  console.warn(`test skipped: ${reason}`);
  return ctx.skip(reason);
}
