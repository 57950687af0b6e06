/**
 * Upstream faults through the emulator's fault API during mixed, concurrent traffic: 429 bursts
 * with and without Retry-After, 5xx, dropped connections and answers slower than our timeout, on
 * about 30% of platform calls. Reads still succeed (≥ 99%); a token expiring mid-storm costs
 * one refresh; writes reach the platform once and a failed create stores nothing; a platform
 * that is down gets clear 502/503/504 answers and, once the circuit opens, no more traffic.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { FUZZ } from './arbitraries.js';
import { expectErrorShape, HARDENING_ENV } from './expect.js';
import { storedEvents } from '../helpers/stored-events.js';

const TIMEOUT_MS = 250;
let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway({ env: { ...HARDENING_ENV, FLEETGATE_UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) } });
  await e.link();
}, 60_000);
afterAll(() => e.close());

const READS = [
  '/api/video/contacts',
  '/api/video/recordings',
  '/api/video/clips',
  '/api/video/phone/call-logs',
  '/api/video/ra/deals',
  '/api/video/events-hub',
  '/api/video/calendar/events',
];

/** One fault on the next platform call, of a kind the storm draws. */
const FAULTS = [
  { status: 429, retryAfter: '1' },
  { status: 429 },
  { status: 500 },
  { status: 502 },
  { status: 503, retryAfter: 'Wed, 21 Oct 2015 07:28:00 GMT' },
  { status: 0 },
  { delayMs: TIMEOUT_MS * 2 },
];

const stats = async () =>
  (await e.emu.api('GET', '/_sandbox/stats')).json as {
    tokenGrants: Record<string, number>;
    requests: Record<string, number>;
  };
const platformCalls = (s: Awaited<ReturnType<typeof stats>>) =>
  Object.entries(s.requests)
    .filter(([k]) => / \/v2\//.test(k))
    .reduce((n, [, c]) => n + c, 0);
const inject = (faults: Record<string, unknown>[]) =>
  faults.length ? e.emu.api('POST', '/_sandbox/faults', { body: faults }) : Promise.resolve(undefined);

/** A seeded plan: for each request, which faults go in before it. */
function plan(n: number, path: string, method?: string) {
  return fc.sample(
    fc
      .oneof(
        { weight: 7, arbitrary: fc.constant([]) },
        { weight: 3, arbitrary: fc.constantFrom(...FAULTS).map((k) => [k]) },
      )
      .map((kinds) => kinds.map((k) => ({ path, ...(method ? { method } : {}), times: 1, ...k }))),
    { seed: FUZZ.seed, numRuns: n },
  );
}

describe('a storm of upstream faults', () => {
  it('keeps reads ≥ 99% successful, and a mid-storm token expiry costs one refresh', async () => {
    const started = Date.now();
    const before = await stats();
    const faultsPerRequest = plan(240, '/v2/*');
    let injected = 0;
    const answers: { path: string; status: number; body: string; headers: Record<string, unknown> }[] = [];
    for (let batch = 0; batch < faultsPerRequest.length / 8; batch++) {
      if (batch === 15) expect((await e.emu.api('POST', '/_sandbox/tokens/expire')).status).toBe(204);
      const slice = faultsPerRequest.slice(batch * 8, batch * 8 + 8);
      const faults = slice.flat().map((f) => ({ ...f, path: f.path }));
      injected += faults.length;
      await inject(faults);
      answers.push(
        ...(await Promise.all(
          slice.map(async (_f, i) => {
            // Brand and MCP traffic mixes in; it never touches the platform.
            if (i === 7) {
              const r = await e.app.inject({ method: 'GET', url: '/api/brand/themes' });
              return { path: '/api/brand/themes', status: r.statusCode, body: r.body, headers: r.headers };
            }
            const path = READS[(batch + i) % READS.length] ?? '/api/video/contacts';
            const r = await e.app.inject({
              method: 'GET',
              url: path,
              headers: { authorization: `Bearer ${e.config.apiKey ?? ''}` },
            });
            return { path, status: r.statusCode, body: r.body, headers: r.headers };
          }),
        )),
      );
    }
    const left = ((await e.emu.api('GET', '/_sandbox/faults')).json.faults as unknown[]).length;
    await e.emu.api('DELETE', '/_sandbox/faults');
    const after = await stats();
    const calls = platformCalls(after) - platformCalls(before);
    const consumed = injected - left;
    const ok = answers.filter((a) => a.status === 200).length;
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect([502, 503, 504], a.body).toContain(a.status);
      expectErrorShape({ statusCode: a.status, headers: a.headers, body: a.body }, a.path);
    }
    console.log(
      `[faults:storm] requests=${answers.length} ok=${ok} platformCalls=${calls} faultsHit=${consumed} faultRate=${(consumed / calls).toFixed(2)} refreshes=${(after.tokenGrants['refresh_token'] ?? 0) - (before.tokenGrants['refresh_token'] ?? 0)} ms=${Date.now() - started}`,
    );
    expect(consumed / calls).toBeGreaterThan(0.2);
    expect(consumed / calls).toBeLessThanOrEqual(0.35);
    expect(ok / answers.length).toBeGreaterThanOrEqual(0.99);
    expect((after.tokenGrants['refresh_token'] ?? 0) - (before.tokenGrants['refresh_token'] ?? 0)).toBe(1);
    const metrics = (await e.api('GET', '/metrics')).text;
    for (const outcome of ['ok', 'rate_limited', 'server_error', 'network_error', 'timeout', 'unauthorized'])
      expect(metrics, outcome).toMatch(
        new RegExp(`fleetgate_upstream_calls_total\\{[^}]*outcome="${outcome}"[^}]*\\} [1-9]`),
      );
    expect(metrics).toMatch(/fleetgate_token_refreshes_total\{outcome="ok"\} 1/);
  }, 120_000);

  it('never sends a write twice, and a failed create stores nothing', async () => {
    const before = await stats();
    const eventsBefore = (await storedEvents(e.store, {})).length;
    const faults = plan(40, '/v2/users/me/meetings', 'POST');
    const created: string[] = [];
    let failed = 0;
    let circuitOpen = 0;
    for (const f of faults) {
      await inject(f);
      const r = await e.api('POST', '/api/video/events', {
        body: { topic: 'Storm check', start_time: '2030-01-02T10:00:00Z', duration: 30, funnel: null },
      });
      if (r.status === 201) created.push(String(r.json.video_id ?? r.json.videoId));
      else {
        failed += 1;
        expect([502, 503, 504], r.text).toContain(r.status);
        // An open circuit answers without calling the platform at all.
        if (r.json.error.code === 'upstream_unavailable') circuitOpen += 1;
      }
    }
    await e.emu.api('DELETE', '/_sandbox/faults');
    const after = await stats();
    const key = 'POST /v2/users/me/meetings';
    console.log(
      `[faults:writes] creates=${faults.length} ok=${created.length} failed=${failed} circuitOpen=${circuitOpen}`,
    );
    expect(failed).toBeGreaterThan(5);
    // Each create reached the platform exactly once (or not at all while the circuit was open):
    // nothing was replayed.
    expect((after.requests[key] ?? 0) - (before.requests[key] ?? 0)).toBe(faults.length - circuitOpen);
    const stored = await storedEvents(e.store, {});
    expect(stored.length - eventsBefore).toBe(created.length);
    for (const id of created) expect(stored.some((s) => s.videoId === id)).toBe(true);
  }, 60_000);

  it('answers 502/503/504 at once when the platform is down, and stops calling it when the circuit opens', async () => {
    await inject([{ path: '/v2/*', status: 503, times: 100_000 }]);
    const calls = async () => platformCalls(await stats());
    const get = () => e.api('GET', '/api/video/contacts');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await get()).status);
    expect(statuses.every((s) => s === 502)).toBe(true);
    const atOpen = await calls();
    // Open: a burst of concurrent callers is answered without a single platform call.
    const burst = await Promise.all(Array.from({ length: 40 }, () => get()));
    for (const r of burst) {
      expect(r.status).toBe(503);
      expect(r.json.error.code).toBe('upstream_unavailable');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await calls()).toBe(atOpen);
    // Other groups keep their own circuit: brand and MCP are untouched.
    expect((await e.api('GET', '/api/brand', { key: null })).status).toBe(200);
    await e.emu.api('DELETE', '/_sandbox/faults');
  }, 60_000);
});
