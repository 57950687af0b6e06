/**
 * Sandbox mode with the emulator's port already taken: the service must not come up wired to
 * whatever listens there (it would send it the app's credentials, tokens and calls). It stops
 * at start, non-zero, with a message naming the port, and the server on it is never asked.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startService, type Service } from '../helpers/spawn-service.js';

let squatter: Server | undefined;
let started: Service | undefined;
let dataDir: string | undefined;
afterAll(async () => {
  if (started && started.child.exitCode === null) await started.stop('SIGKILL');
  await new Promise<void>((resolve) => (squatter ? squatter.close(() => resolve()) : resolve()));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('sandbox mode', () => {
  it("stops at start when the emulator's port is taken, and never talks to what holds it", async () => {
    const port = await freePort();
    const asked: string[] = [];
    squatter = createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => squatter?.listen(port, '127.0.0.1', resolve));
    dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-port-'));
    const failure = await startService({
      SANDBOX_PORT: String(port),
      FLEETGATE_DATA_DIR: dataDir,
      BRAND_WATCH: '0',
    }).then(
      (svc) => {
        started = svc;
        return undefined;
      },
      (err: Error) => err.message,
    );
    expect(failure, 'the service came up').toBeDefined();
    expect(failure).toMatch(/service exited with [1-9]/);
    expect(failure).toMatch(new RegExp(`SANDBOX_PORT.*${port}|${port}.*SANDBOX_PORT`));
    expect(failure).toMatch(/in use/);
    expect(asked).toEqual([]);
  });
});
