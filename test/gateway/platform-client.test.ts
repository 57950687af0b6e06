/**
 * The platform client against the emulator's fault injection: reads survive 429 bursts, 5xx and
 * dropped connections; writes are not replayed; persistent failure answers fast and clearly;
 * budgets pace calls instead of spending them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Budgets, PRO_BUDGETS } from '../../src/gateway/platform/budget.js';
import { formEncode, retryAfterMs } from '../../src/gateway/platform/platform-client.js';
import { startGateway, type GatewayEnv } from './helpers.js';

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway();
  await e.link();
});
afterAll(() => e.close());

const me = () =>
  e.gateway.platform.call<{ email: string }>({
    method: 'GET',
    path: '/users/me',
    label: 'LIGHT',
    group: 'meetings',
  });
const fault = (f: Record<string, unknown>) => e.emu.api('POST', '/_sandbox/faults', { body: f });
const count = async (key: string) =>
  ((await e.emu.api('GET', '/_sandbox/stats')).json.requests[key] ?? 0) as number;

describe('query encoding', () => {
  it('writes each key and value as URLSearchParams does', () => {
    for (const v of ['2026-11-01', 'a b', "!'()*~-._", '&=?#/+%', 'ä会🎥', '', 'x'.repeat(300)]) {
      expect(`${formEncode('k y')}=${formEncode(v)}`).toBe(new URLSearchParams({ 'k y': v }).toString());
    }
  });
});

describe('reads', () => {
  it('retry through 429s with Retry-After, 5xx and dropped connections', async () => {
    await fault({ path: '/v2/users/me', method: 'GET', status: 429, times: 2, retryAfter: '0' });
    expect((await me()).data.email).toContain('@');
    await fault({ path: '/v2/users/me', method: 'GET', status: 503, times: 2 });
    expect((await me()).status).toBe(200);
    await fault({ path: '/v2/users/me', method: 'GET', status: 0, times: 1 });
    expect((await me()).status).toBe(200);
  });

  it('give up with a clear 502 when the platform keeps failing, then open the circuit', async () => {
    await fault({ path: '/v2/users/me', method: 'GET', status: 500, times: 40 });
    const before = await count('GET /v2/users/me');
    await expect(me()).rejects.toMatchObject({
      status: 502,
      code: 'upstream_error',
      details: { platformStatus: 500 },
    });
    expect((await count('GET /v2/users/me')) - before).toBe(4);
    for (let i = 0; i < 4; i++) await expect(me()).rejects.toMatchObject({ code: 'upstream_error' });
    // Five calls in a row that failed after their retries open the breaker: the next call fails
    // fast without reaching the platform.
    const atOpen = await count('GET /v2/users/me');
    await expect(me()).rejects.toMatchObject({ status: 503, code: 'upstream_unavailable' });
    expect(await count('GET /v2/users/me')).toBe(atOpen);
    await e.emu.api('DELETE', '/_sandbox/faults');
  });

  it('map a slow platform to 504 upstream_timeout', async () => {
    await fault({ path: '/v2/users/me/settings', method: 'GET', status: 200, delayMs: 400, times: 4 });
    await expect(
      e.gateway.platform.call({
        method: 'GET',
        path: '/users/me/settings',
        label: 'MEDIUM',
        group: 'recordings',
        timeoutMs: 100,
      }),
    ).rejects.toMatchObject({ status: 504, code: 'upstream_timeout' });
    await e.emu.api('DELETE', '/_sandbox/faults');
  });
});

describe('writes', () => {
  it('are not replayed after a 5xx (the platform may have acted)', async () => {
    await fault({ path: '/v2/users/me/meetings', method: 'POST', status: 503, times: 1 });
    const before = await count('POST /v2/users/me/meetings');
    await expect(
      e.gateway.platform.call({
        method: 'POST',
        path: '/users/me/meetings',
        body: { topic: 'once' },
        label: 'LIGHT',
        group: 'meetings-write',
      }),
    ).rejects.toMatchObject({ status: 502 });
    expect((await count('POST /v2/users/me/meetings')) - before).toBe(1);
  });

  it('map platform errors to ours with the platform code kept', async () => {
    await expect(
      e.gateway.platform.call({ method: 'GET', path: '/meetings/1', label: 'LIGHT', group: 'errors' }),
    ).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
      details: { platformCode: 3001, platformMessage: 'Meeting does not exist: 1.' },
    });
    await expect(
      e.gateway.platform.call({
        method: 'GET',
        path: '/users/me/webinars',
        label: 'MEDIUM',
        group: 'errors',
      }),
    ).rejects.toMatchObject({
      status: 403,
      code: 'missing_scope',
      details: { scopes: ['webinar:read:list_webinars'], platformCode: 4711 },
    });
  });
});

describe('downloads', () => {
  it('never send the token to another host', async () => {
    await expect(
      e.gateway.platform.download('http://evil.example/steal', 'recordings'),
    ).rejects.toMatchObject({ code: 'upstream_error', status: 502 });
  });
});

describe('budgets and Retry-After', () => {
  it('pace calls past the per-second budget', () => {
    let t = 0;
    const b = new Budgets(PRO_BUDGETS, () => t);
    const waits = Array.from({ length: 32 }, () => b.reserveNow('LIGHT'));
    expect(waits.slice(0, 30).every((w) => w === 0)).toBe(true);
    expect(waits[30]).toBe(1000);
    expect(b.headroom().LIGHT.available).toBe(0);
    t = 1001;
    expect(b.reserveNow('MEDIUM')).toBe(0);
  });

  it('read Retry-After as seconds or a date', () => {
    expect(retryAfterMs('2', 0)).toBe(2000);
    expect(retryAfterMs('2030-01-01T00:00:10Z', Date.parse('2030-01-01T00:00:00Z'))).toBe(10_000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
  });
});
