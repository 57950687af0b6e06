/**
 * The status report and the monitor tell the truth when the platform cannot be reached: over
 * real HTTP, with the gateway's platform host a relay that refuses connections, accepts them and
 * never answers (the platform client's timeout set small), or a name that does not resolve. The
 * report is not ok and names the cause, the monitor names it, the dashboard shows it, and once the
 * platform is back the report is ok again.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIRECT, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { dashboardHtml } from './connection-health-helpers.js';
import { startGateway, type GatewayEnv } from './helpers.js';
import { startPlatformRelay, type PlatformRelay } from './platform-relay.js';

/** The platform client's deadline per call: small, so a silent platform fails fast. */
const TIMEOUT_MS = '300';

let emu: TestEmulator;
let relay: PlatformRelay;
let e: GatewayEnv;
beforeAll(async () => {
  emu = await startTestEmulator({ redirectUris: [REDIRECT] });
  relay = await startPlatformRelay(emu.base);
  e = await startGateway({
    emu,
    env: { VIDEO_API_BASE: `${relay.base}/v2`, FLEETGATE_UPSTREAM_TIMEOUT_MS: TIMEOUT_MS },
  });
  await e.link();
});
afterAll(async () => {
  await e.close();
  await relay.close();
  await emu.close();
  await rm(e.dataDir, { recursive: true, force: true });
});

const status = async (g: GatewayEnv = e) => {
  const r = await g.api('GET', '/api/video/status?fresh=1');
  expect(r.status, r.text).toBe(200);
  return r.json;
};
const monitor = async (g: GatewayEnv = e) => {
  const r = await g.api('GET', '/api/video/monitor');
  expect(r.status, r.text).toBe(200);
  return r.json;
};

/** Back up: the report is ok again, without the platform part, and the monitor agrees. */
async function expectBack(): Promise<void> {
  await relay.up();
  const r = await status();
  expect(r.ok).toBe(true);
  expect(r).not.toHaveProperty('platform');
  expect(r.contactsOk).toBe(true);
  expect(r.upcomingLive.length).toBeGreaterThan(0);
  const m = await monitor();
  expect(m.platform).toMatchObject({ reachable: true, cause: null, message: null, since: null });
  expect(m.platform.lastAnswerAt).toEqual(expect.any(String));
}

describe('status report with the platform out of reach', () => {
  it('is ok, with no platform part, while the platform answers', async () => {
    const r = await status();
    expect(r.ok).toBe(true);
    expect(r).not.toHaveProperty('platform');
    expect((await monitor()).platform).toMatchObject({ reachable: true, cause: null });
  });

  it('says connection refused when nothing listens, and is ok again once the platform is back', async () => {
    await relay.refuse();
    // What every platform call meets meanwhile.
    const call = await e.api('GET', '/api/video/recordings');
    expect(call.status).toBe(502);
    const r = await status();
    expect(r.ok).toBe(false);
    expect(r.account).not.toBeNull();
    expect(r.platform).toMatchObject({ reachable: false, cause: 'connection_refused' });
    expect(r.platform.message).toContain(relay.base.slice('http://'.length));
    expect(r.platform.message).toMatch(/refused/);
    expect(Date.parse(r.platform.since)).not.toBeNaN();
    expect(r.note).toBe(r.platform.message);
    expect([r.contactsOk, r.phoneOk, r.clipsOk]).toEqual([false, false, false]);
    const m = await monitor();
    expect(m.platform).toMatchObject({
      reachable: false,
      cause: 'connection_refused',
      since: r.platform.since,
    });
    expect(m.platform.message).toBe(r.platform.message);
    expect(m.groups.meetings.state).toBe('upstream_error');
    const page = await dashboardHtml(e);
    expect(page).toContain('platform unreachable');
    expect(page).toContain(r.platform.message);
    await expectBack();
  });

  it('does not keep saying ok from its cache while the calls find the platform gone, nor the reverse', async () => {
    const cached = async () => (await e.api('GET', '/api/video/status')).json;
    expect((await status()).ok).toBe(true);
    expect((await cached()).ok).toBe(true);
    await relay.refuse();
    expect((await e.api('GET', '/api/video/recordings')).status).toBe(502);
    const down = await cached();
    expect(down.ok).toBe(false);
    expect(down.platform.cause).toBe('connection_refused');
    await relay.up();
    expect((await e.api('GET', '/api/video/recordings')).status).toBe(200);
    const back = await cached();
    expect(back.ok).toBe(true);
    expect(back).not.toHaveProperty('platform');
  });

  it('says timeout when the platform accepts and never answers, and is ok again after', async () => {
    await relay.silence();
    const r = await status();
    expect(r.ok).toBe(false);
    expect(r.platform).toMatchObject({ reachable: false, cause: 'timeout' });
    expect(r.platform.message).toContain(`${TIMEOUT_MS} ms`);
    const m = await monitor();
    expect(m.platform).toMatchObject({ reachable: false, cause: 'timeout' });
    await expectBack();
  });

  it('says server error when the platform answers every check with a 5xx, and is ok again after', async () => {
    const fault = await emu.api('POST', '/_sandbox/faults', {
      body: { path: '/v2/*', method: 'GET', status: 502, times: 1000 },
    });
    expect(fault.status).toBeLessThan(300);
    const r = await status();
    expect(r.ok).toBe(false);
    expect(r.platform).toMatchObject({ reachable: true, cause: 'server_error' });
    expect(r.platform.message).toContain('HTTP 502');
    expect((await monitor()).platform).toMatchObject({ reachable: true, cause: 'server_error' });
    expect((await emu.api('DELETE', '/_sandbox/faults')).status).toBeLessThan(300);
    await expectBack();
  });

  it('names the cause still once the circuit breakers stop the calls from going out', async () => {
    await relay.refuse();
    // Each round fails every probe after its retries; five in a row open each group's breaker.
    for (let i = 0; i < 6; i++) {
      const r = await status();
      expect(r.ok, `round ${i}`).toBe(false);
      expect(r.platform.cause, `round ${i}`).toBe('connection_refused');
    }
    const m = await monitor();
    for (const g of ['meetings', 'recordings', 'contacts', 'phone', 'clips'])
      expect(m.groups[g].breaker, g).toBe('open');
    expect(m.platform.cause).toBe('connection_refused');
  });
});

describe('status report with a platform host that does not resolve', () => {
  let dns: GatewayEnv;
  beforeAll(async () => {
    // The same linked store, the platform's host renamed to one that never resolves (RFC 6761).
    dns = await startGateway({
      emu,
      dataDir: e.dataDir,
      env: {
        VIDEO_API_BASE: 'http://platform.fleetgate.invalid/v2',
        FLEETGATE_UPSTREAM_TIMEOUT_MS: TIMEOUT_MS,
      },
    });
  });
  afterAll(() => dns.close());

  it('says the name does not resolve', async () => {
    const r = await status(dns);
    expect(r.ok).toBe(false);
    expect(r.platform).toMatchObject({ reachable: false, cause: 'dns_failure' });
    expect(r.platform.message).toContain('platform.fleetgate.invalid');
    const m = await monitor(dns);
    expect(m.platform).toMatchObject({ reachable: false, cause: 'dns_failure' });
  });
});
