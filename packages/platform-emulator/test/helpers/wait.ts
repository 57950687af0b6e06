/**
 * Small waits the emulator's tests share: retrying a check until it passes (a webhook that
 * arrives later, a save that lands after a backoff) and a free loopback port to listen on.
 * The root's test helpers re-export them, so each is declared once.
 */
import { createServer } from 'node:net';

/** Runs `check` until it stops throwing, `attempts` times `stepMs` apart; else throws its last error. */
export async function eventually(
  check: () => Promise<void> | void,
  attempts = 200,
  stepMs = 50,
): Promise<void> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      await check();
      return;
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, stepMs));
    }
  }
  throw last;
}

/** A loopback port nothing listens on right now. */
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
