/**
 * What every keyed GET of a capability view gets from the one request pipeline, over a real
 * socket: the JSON type and the security headers, the caller's sane request id (else a fresh
 * one), one "request completed" log line, a count under its route pattern, and the operator's
 * rate-limit budget spent once per request until the 429.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startGateway, type GatewayEnv } from './helpers.js';

const LIMIT = 30;
let e: GatewayEnv;
let seen = 0;
const resetLogs = () => (seen = e.logs().length);
const newLogs = () =>
  e
    .logs()
    .slice(seen)
    .map((l) => JSON.parse(l) as { msg?: string; reqId?: string; res?: { statusCode?: number } });

beforeAll(async () => {
  e = await startGateway({ env: { FLEETGATE_RATE_LIMIT_API: String(LIMIT) } });
  await e.link();
});
afterAll(() => e.close());

const AUTH = { authorization: `Bearer ${API_KEY}` };

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function overSocket(path: string, headers: Record<string, string> = AUTH): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: new URL(e.base).port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a keyed GET of a capability view', () => {
  it('answers JSON with the security and rate-limit headers', async () => {
    const r = await overSocket('/api/video/contacts?limit=1');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
    expect(r.headers['ratelimit-limit']).toBe(String(LIMIT));
  });

  it('keeps a sane caller request id, else makes one, and logs the request once', async () => {
    resetLogs();
    const given = await overSocket('/api/video/contacts?limit=1', { ...AUTH, 'x-request-id': 'trace-42' });
    expect(given.headers['x-request-id']).toBe('trace-42');
    const made = await overSocket('/api/video/contacts?limit=1', { ...AUTH, 'x-request-id': 'bad id!' });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      newLogs()
        .filter((l) => l.msg === 'request completed')
        .map((l) => [l.reqId, l.res?.statusCode]),
    ).toEqual([
      ['trace-42', 200],
      [made.headers['x-request-id'], 200],
    ]);
    expect(e.logs().slice(seen).join('\n')).not.toContain(API_KEY);
  });

  it('counts the request under its route pattern', async () => {
    const count = async () => {
      const text = (await e.app.inject({ method: 'GET', url: '/metrics', headers: AUTH })).body;
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('fleetgate_http_requests_total{') &&
            l.includes('route="/api/video/recordings/:video_id"') &&
            l.includes('status="404"'),
        );
      return Number(line?.split(' ').pop() ?? 0);
    };
    const before = await count();
    await overSocket('/api/video/recordings/123123123123');
    expect(await count()).toBe(before + 1);
  });

  it('spends the operator budget once per request, then refuses with 429', async () => {
    const first = await overSocket('/api/video/contacts?limit=1');
    const second = await overSocket('/api/video/contacts?limit=1');
    expect(Number(second.headers['ratelimit-remaining'])).toBe(
      Number(first.headers['ratelimit-remaining']) - 1,
    );
    let last = second;
    for (let i = 0; i <= LIMIT && last.status !== 429; i++)
      last = await overSocket('/api/video/contacts?limit=1');
    expect(last.status).toBe(429);
    expect((JSON.parse(last.body) as { error: { code: string } }).error.code).toBe('rate_limited');
    expect(Number(last.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
