/**
 * Sealed tokens the gateway cannot open (the key is missing, FLEETGATE_ENCRYPTION_KEY is wrong,
 * a sealed column was altered) are a link that needs relinking, not a healthy one: platform
 * calls answer 409 needs_relink naming the cause, the status report is not ok, the monitor says
 * why, the start logs the missing key id once, and the store keeps the sealed values untouched,
 * so restoring the key brings the link back and a relink replaces them.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keyId, sealedKeyId } from '../../src/gateway/oauth/vault.js';
import { startService } from '../helpers/spawn-service.js';
import { REDIRECT, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { API_KEY, startGateway, type GatewayEnv } from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function emulator(): Promise<TestEmulator> {
  const emu = await startTestEmulator({ redirectUris: [REDIRECT] });
  cleanups.push(() => emu.close());
  return emu;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-unreadable-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function gateway(o: Parameters<typeof startGateway>[0]): Promise<GatewayEnv> {
  const e = await startGateway(o);
  cleanups.push(() => e.close());
  return e;
}

/** Links a gateway on `dataDir`, then closes it (the SQLite file is checkpointed on close). */
async function linkedDataDir(emu: TestEmulator, env: Record<string, string> = {}) {
  const dataDir = await tempDir();
  const e = await startGateway({ emu, dataDir, env });
  await e.link();
  const link = await e.store.getLink();
  await e.close();
  if (!link) throw new Error('no link');
  return { dataDir, link };
}

const recordings = (e: GatewayEnv) => e.api('GET', '/api/video/recordings');

/** The answers a broken link must give everywhere; returns the monitor's cause. */
async function expectNeedsRelink(e: GatewayEnv, cause: RegExp): Promise<void> {
  const call = await recordings(e);
  expect(call.status).toBe(409);
  expect(call.json.error.code).toBe('needs_relink');
  expect(call.json.error.message).toMatch(cause);
  const status = await e.api('GET', '/api/video/status?fresh=1');
  expect(status.status).toBe(200);
  expect(status.json.ok).toBe(false);
  expect(status.json.note).toMatch(cause);
  const monitor = (await e.api('GET', '/api/video/monitor')).json;
  expect(monitor.link.status).toBe('needs_relink');
  expect(monitor.link.cause).toMatch(cause);
  const states = Object.values(monitor.groups as Record<string, { state: string }>).map((g) => g.state);
  expect(states).not.toContain('ok');
  // The refresh path too: an expired token must not be refreshed over the unreadable one.
  await e.emu.api('POST', '/_sandbox/tokens/expire');
  e.gateway.tokens.reset();
  const afterExpiry = await recordings(e);
  expect(afterExpiry.status).toBe(409);
  expect(afterExpiry.json.error.code).toBe('needs_relink');
}

describe('unreadable sealed tokens', () => {
  it('a data dir with the database but not its key file needs a relink, and the key brings it back', async () => {
    const emu = await emulator();
    const { dataDir, link } = await linkedDataDir(emu);
    const missing = sealedKeyId(link.accessToken);
    const copy = await tempDir();
    await copyFile(path.join(dataDir, 'fleetgate.db'), path.join(copy, 'fleetgate.db'));
    const e = await gateway({ emu, dataDir: copy });
    const before = (await emu.api('GET', '/_sandbox/stats')).json.tokenGrants.refresh_token;
    await expectNeedsRelink(e, new RegExp(`key ${missing} is missing`));
    // Nothing was overwritten, and the platform was never asked for a refresh.
    // (Only marked unreadable, so connection.needs_relink is announced once.)
    expect(await e.store.getLink()).toEqual({ ...link, health: 'unreadable' });
    expect((await emu.api('GET', '/_sandbox/stats')).json.tokenGrants.refresh_token).toBe(before);
    // Restoring the key file brings the link back, without a restart.
    await copyFile(path.join(dataDir, 'encryption-keys.json'), path.join(copy, 'encryption-keys.json'));
    e.gateway.tokens.reset();
    expect((await recordings(e)).status).toBe(200);
    expect((await e.api('GET', '/api/video/status?fresh=1')).json.ok).toBe(true);
  });

  it('a wrong FLEETGATE_ENCRYPTION_KEY needs a relink naming the missing key; the right one works', async () => {
    const emu = await emulator();
    const right = randomBytes(32);
    const { dataDir, link } = await linkedDataDir(emu, {
      FLEETGATE_ENCRYPTION_KEY: right.toString('base64'),
    });
    expect(sealedKeyId(link.accessToken)).toBe(keyId(right));
    const wrong = await gateway({
      emu,
      dataDir,
      env: { FLEETGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64') },
    });
    await expectNeedsRelink(wrong, new RegExp(`key ${keyId(right)} is missing`));
    expect(await wrong.store.getLink()).toEqual({ ...link, health: 'unreadable' });
    await wrong.close();
    cleanups.pop();
    const fixed = await gateway({
      emu,
      dataDir,
      env: { FLEETGATE_ENCRYPTION_KEY: right.toString('base64') },
    });
    expect((await recordings(fixed)).status).toBe(200);
  });

  it('an altered sealed column needs a relink, is left as it is, and a relink replaces it', async () => {
    const emu = await emulator();
    const e = await gateway({ emu, dataDir: await tempDir() });
    await e.link();
    const link = await e.store.getLink();
    if (!link) throw new Error('no link');
    // Flip one character of the ciphertext: the key is there, the value no longer authenticates.
    const parts = link.accessToken.split('.');
    const ct = parts[3] ?? '';
    parts[3] = (ct[0] === 'A' ? 'B' : 'A') + ct.slice(1);
    const tampered = { ...link, accessToken: parts.join('.') };
    await e.store.saveLink(tampered);
    e.gateway.tokens.reset();
    await expectNeedsRelink(e, /access token failed authentication/);
    expect(await e.store.getLink()).toEqual({ ...tampered, health: 'unreadable' });
    await e.link();
    expect((await recordings(e)).status).toBe(200);
    expect((await e.api('GET', '/api/video/status?fresh=1')).json.ok).toBe(true);
  });

  it('the service logs the missing key id once at start and answers needs_relink', async () => {
    const emu = await emulator();
    const { dataDir, link } = await linkedDataDir(emu);
    const missing = sealedKeyId(link.accessToken);
    const copy = await tempDir();
    await copyFile(path.join(dataDir, 'fleetgate.db'), path.join(copy, 'fleetgate.db'));
    const s = await startService({
      FLEETGATE_DATA_DIR: copy,
      FLEETGATE_SANDBOX: '0',
      FLEETGATE_API_KEY: API_KEY,
      VIDEO_CLIENT_ID: 'sandbox-client',
      VIDEO_CLIENT_SECRET: 'sandbox-secret',
      VIDEO_API_BASE: `${emu.base}/v2`,
      VIDEO_OAUTH_BASE: emu.base,
      BRAND_WATCH: '0',
      LOG_FORMAT: 'json',
    });
    cleanups.push(async () => {
      await s.stop();
    });
    const atStart = s.output();
    const res = await fetch(`${s.base}/api/video/recordings`, {
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('needs_relink');
    const lines = atStart.split('\n').filter((l) => l.includes(missing));
    expect(lines).toHaveLength(2);
    const logged = lines.find((l) => l.startsWith('{'));
    expect(JSON.parse(logged ?? '{}')).toMatchObject({ level: 50, keyId: missing });
    expect(logged).toMatch(new RegExp(`key ${missing} is missing`));
    // The banner says so too, instead of "linked".
    expect(atStart).toMatch(/gateway .*needs relinking/);
  });
});
