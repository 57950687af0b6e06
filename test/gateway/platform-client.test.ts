/**
 * The platform client against the emulator's fault injection: reads survive 429 bursts, 5xx and
 * dropped connections; writes are not replayed; persistent failure answers fast and clearly;
 * budgets pace calls instead of spending them; the bearer token never leaves the platform's
 * origin, whether a file link, a page token or a redirect points elsewhere.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Budgets, PRO_BUDGETS } from '../../src/gateway/platform/budget.js';
import { formEncode, retryAfterMs } from '../../src/gateway/platform/platform-client.js';
import { expectViolation } from '../helpers/contract.js';
import { startGateway, type GatewayEnv } from './helpers.js';
import {
  passThrough,
  startForeignHost,
  startPlatformFront,
  type Answer,
  type ForeignHost,
  type PlatformFront,
} from './platform-front.js';

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
    // A path the gateway itself never calls (its fidelity table does not list it), to meet a scope refusal.
    await expect(
      expectViolation({ rule: 'listed' }, () =>
        e.gateway.platform.call({
          method: 'GET',
          path: '/users/me/webinars',
          label: 'MEDIUM',
          group: 'errors',
        }),
      ),
    ).rejects.toMatchObject({
      status: 403,
      code: 'missing_scope',
      details: { scopes: ['webinar:read:list_webinars'], platformCode: 4711 },
    });
  });
});

/**
 * Where the bearer token may go: only to the platform's own origin. The gateway below talks to
 * the emulator through a front that can point a file link, a page token or a redirect at a
 * foreign host on another loopback port; that host must get no request at all (so no token).
 */
describe.each([
  ['the keep-alive transport', undefined],
  ['a fetch transport', fetch],
])('the bearer token stays on the platform host, through %s', (_name, transport) => {
  let foreign: ForeignHost;
  let front: PlatformFront;
  let g: GatewayEnv;
  let dataDir: string;
  beforeAll(async () => {
    foreign = await startForeignHost();
    front = await startPlatformFront(e.emu.base);
    dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-front-'));
    g = await startGateway({
      emu: e.emu,
      dataDir,
      env: { VIDEO_API_BASE: `${front.base}/v2` },
      ...(transport ? { fetch: transport } : {}),
    });
    await g.link();
  });
  // Each test answers for what reached the foreign host while it ran.
  afterEach(() => {
    front.route = passThrough;
    foreign.requests.length = 0;
  });
  afterAll(async () => {
    await g.close();
    await Promise.all([front.close(), foreign.close()]);
    await rm(dataDir, { recursive: true, force: true });
  });

  const foreignHostPort = () => new URL(foreign.base).host;
  const recordingId = async () => {
    const list = await g.api('GET', '/api/video/recordings');
    expect(list.status, list.text).toBe(200);
    expect(list.json.items.length).toBeGreaterThan(0);
    return list.json.items[0].video_id as string;
  };
  const transcript = async (id: string) => g.api('GET', `/api/video/recordings/${id}/transcript`);
  const redirectTo = (location: string, status: number): Answer => ({
    status,
    headers: { location, 'content-type': 'application/json' },
    body: '{}',
  });

  it('downloads a file the platform links on its own host, with the token (the control)', async () => {
    const id = await recordingId();
    const t = await transcript(id);
    expect(t.status, t.text).toBe(200);
    expect(t.json.download_url.startsWith(`${front.base}/v2/rec/download/`)).toBe(true);
    expect(t.json.text).toMatch(/\w+: \w+/);
    const fetched = front.requests.filter((r) => r.url.startsWith('/v2/rec/download/'));
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.every((r) => /^Bearer \S{20,}$/.test(r.authorization ?? ''))).toBe(true);
    expect(foreign.requests).toEqual([]);
  });

  it('never fetches a file link on another host or port, however the URL is written', async () => {
    const frontHost = new URL(front.base).host;
    for (const url of [
      `${foreign.base}/v2/rec/download/abc`,
      `//${foreignHostPort()}/v2/rec/download/abc`,
      `http://${frontHost}@${foreignHostPort()}/v2/rec/download/abc`,
      `http://localhost:${new URL(foreign.base).port}/v2/rec/download/abc`,
    ]) {
      await expect(g.gateway.platform.download(url, 'recordings'), url).rejects.toMatchObject({
        status: 502,
        code: 'upstream_error',
      });
    }
    expect(foreign.requests).toEqual([]);
  });

  it('answers 502 for a transcript whose download link points at another host', async () => {
    const id = await recordingId();
    front.route = async (req, upstream) => {
      const a = await upstream();
      if (!req.url.pathname.endsWith('/transcript')) return a;
      const body = JSON.parse(a.body.toString()) as { download_url: string };
      body.download_url = `${foreign.base}/v2/rec/download/stolen`;
      return { ...a, body: JSON.stringify(body) };
    };
    const t = await transcript(id);
    expect(t.status, t.text).toBe(502);
    expect(t.json.error.code).toBe('upstream_error');
    expect(foreign.requests).toEqual([]);
  });

  it.each([301, 302, 303, 307, 308])('does not follow a %i from a file download', async (status) => {
    const id = await recordingId();
    front.route = async (req, upstream) =>
      req.url.pathname.startsWith('/v2/rec/download/')
        ? redirectTo(`${foreign.base}${req.url.pathname}`, status)
        : upstream();
    const t = await transcript(id);
    expect(t.status, t.text).toBe(502);
    expect(t.json.error.code).toBe('upstream_error');
    expect(foreign.requests).toEqual([]);
  });

  it.each([301, 302, 303, 307, 308])('does not follow a %i from an API call', async (status) => {
    front.route = async (req, upstream) =>
      req.url.pathname.startsWith('/v2/users/me')
        ? redirectTo(`${foreign.base}${req.url.pathname}${req.url.search}`, status)
        : upstream();
    await expect(
      g.gateway.platform.call({ method: 'GET', path: '/users/me', label: 'LIGHT', group: 'redirects' }),
    ).rejects.toMatchObject({ status: 502, code: 'upstream_error', details: { platformStatus: status } });
    await expect(
      g.gateway.platform.call({
        method: 'POST',
        path: '/users/me/meetings',
        body: { topic: 'redirected' },
        label: 'LIGHT',
        group: 'redirects-write',
      }),
    ).rejects.toMatchObject({ status: 502, code: 'upstream_error' });
    expect(foreign.requests).toEqual([]);
  });

  it('sends a page token that names another host back to the platform host only', async () => {
    const link = `${foreign.base}/v2/users/me/recordings?page=2`;
    const asked: (string | null)[] = [];
    front.route = async (req, upstream) => {
      if (!/^\/v2\/users\/[^/]+\/recordings$/.test(req.url.pathname)) return upstream();
      const token = req.url.searchParams.get('next_page_token');
      asked.push(token);
      if (token === null) {
        const a = await upstream();
        const body = JSON.parse(a.body.toString()) as { meetings: unknown[]; next_page_token: string };
        expect(body.meetings.length).toBeGreaterThan(0);
        return { ...a, body: JSON.stringify({ ...body, next_page_token: link }) };
      }
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ page_size: 30, total_records: 0, next_page_token: '', meetings: [] }),
      };
    };
    const list = await g.api('GET', '/api/video/recordings?limit=100');
    expect(list.status, list.text).toBe(200);
    expect(list.json.items.length).toBeGreaterThan(0);
    expect(asked).toContain(link);
    expect(foreign.requests).toEqual([]);
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
