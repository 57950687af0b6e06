/**
 * An emulator the service runs as its child process (sandbox mode) is held to the contract too:
 * it keeps the violations it sees, and the spawn helper reads them from GET /_sandbox/contract
 * before stopping the service, so they fail the test that started it (test/contract-setup.ts).
 * Here one is made on purpose (a token request without the client's Basic credentials) and must
 * come back through that path; everything the service itself sent while linking and answering
 * its status must have kept the contract.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectViolation } from '../helpers/contract.js';
import { startService, type Service } from '../helpers/spawn-service.js';

const API_KEY = 'child-contract-key-0123456789abcdef';
let dataDir: string;
let svc: Service;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-child-contract-'));
  svc = await startService({ FLEETGATE_DATA_DIR: dataDir, BRAND_WATCH: '0', FLEETGATE_API_KEY: API_KEY });
});
afterAll(async () => {
  if (svc.child.exitCode === null) await svc.stop('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

describe('a child-process emulator', () => {
  it('reports the violations it saw when the service stops', async () => {
    const status = await fetch(`${svc.base}/api/video/status?fresh=1`, {
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    expect(status.status).toBe(200);
    const bad = await fetch(`${svc.sandboxBase}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(bad.status).toBe(401);
    const code = await expectViolation({ name: 'Authorization', rule: 'Basic client credentials' }, () =>
      svc.stop(),
    );
    expect(code).toBe(0);
  });
});
