import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../helpers/spawn-service.js';

let svc: Service;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-main-'));
  svc = await startService({ FLEETGATE_DATA_DIR: dataDir, BRAND_WATCH: '0' });
});
afterAll(async () => {
  if (svc.child.exitCode === null) await svc.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the service as a process (npm start)', () => {
  it('serves the brand API and its files over real HTTP', async () => {
    const manifest = (await (await fetch(`${svc.base}/api/brand`)).json()) as {
      version: string;
      base: string;
    };
    expect(manifest.version).toBe('1.0.0');
    const png = await fetch(`${svc.base}/static/fleet/assets/logo-horizontal-light.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const health = await fetch(`${svc.base}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = (await (await fetch(`${svc.base}/readyz`)).json()) as { status: string };
    expect(ready.status).toBe('ready');
  });

  it('starts the platform emulator beside the service in sandbox mode, with its state in the data dir', async () => {
    const res = await fetch(`${svc.sandboxBase}/v2/users/me`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 124, message: 'Requires an access token.' });
    expect(svc.output()).toContain(`emulator      ${svc.sandboxBase}`);
  });

  it('caches rendered images in the data dir and shuts down cleanly on SIGTERM', async () => {
    const { readdir } = await import('node:fs/promises');
    expect((await readdir(path.join(dataDir, 'cache', 'png'))).length).toBeGreaterThan(10);
    expect(await readdir(path.join(dataDir, 'sandbox'))).toContain('sandbox-state.json');
    expect(await svc.stop('SIGTERM')).toBe(0);
  });
});
