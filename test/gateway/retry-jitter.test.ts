/**
 * The platform client's retry delays are jittered: reads that meet 5xx back off by a random share
 * of an exponentially growing cap (200 ms, 400 ms, 800 ms for attempts 1 to 3), so many callers
 * that failed together do not come back together. The delays the gateway asks for are recorded
 * (the test's sleep is short), with the client's own randomness, against the emulator's faults.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayEnv } from './helpers.js';

let e: GatewayEnv;
let sleeps: number[] = [];
beforeAll(async () => {
  // A Light budget no test burst reaches, so every wait recorded is a retry's.
  e = await startGateway({
    env: { FLEETGATE_RATE_BUDGETS: 'light=10000' },
    onSleep: (ms) => sleeps.push(ms),
  });
  await e.link();
}, 60_000);
afterAll(() => e.close());

const CAPS = [200, 400, 800];

describe('retry backoff', () => {
  it('spreads each attempt’s delay below its cap instead of waiting one fixed time', async () => {
    const byAttempt: number[][] = CAPS.map(() => []);
    for (let i = 0; i < 12; i++) {
      await e.emu.api('POST', '/_sandbox/faults', {
        body: { path: '/v2/users/me', method: 'GET', status: 503, times: CAPS.length },
      });
      sleeps = [];
      const r = await e.gateway.platform.call({
        method: 'GET',
        path: '/users/me',
        label: 'LIGHT',
        group: 'meetings',
      });
      expect(r.status).toBe(200);
      // One wait before each retry, nothing else.
      expect(sleeps).toHaveLength(CAPS.length);
      sleeps.forEach((ms, k) => byAttempt[k]?.push(ms));
    }
    byAttempt.forEach((delays, k) => {
      const cap = CAPS[k] ?? 0;
      for (const ms of delays) {
        expect(ms, `attempt ${k + 1}`).toBeGreaterThanOrEqual(0);
        expect(ms, `attempt ${k + 1}`).toBeLessThan(cap);
      }
      // Twelve draws from a range of `cap` values: a fixed delay would give one value.
      expect(new Set(delays).size, `attempt ${k + 1}: ${delays.join(', ')}`).toBeGreaterThan(3);
    });
  });
});
