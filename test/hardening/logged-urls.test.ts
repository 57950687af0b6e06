/**
 * Secrets in query strings never reach the log: Fastify's request logger (the one request-log
 * path) logs the path with the values of secret-named query parameters replaced by [redacted],
 * over real HTTP. The names match case-insensitively and in
 * part (x_token, Access_Token); other parameters keep their values. A value equal to the API
 * key is redacted whatever its name (compared by hash, in constant time).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/core/redact-url.js';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway();
  await e.link();
});
afterAll(() => e.close());

const secret = (name: string) => `${name}-${randomBytes(9).toString('hex')}`;

interface Line {
  msg?: string;
  req?: { method?: string; url?: string };
}
const lines = (from: number) => e.logs().slice(from);
const parsed = (from: number) => lines(from).map((l) => JSON.parse(l) as Line);

describe('redactUrl', () => {
  it.each([
    ['/a', '/a'],
    ['/a?limit=3&from=2030-01-01', '/a?limit=3&from=2030-01-01'],
    ['/cb?code=abc&state=def', '/cb?code=[redacted]&state=[redacted]'],
    [
      '/x?API_KEY=1&x_token=2&Access_Token=3&sig=4',
      '/x?API_KEY=[redacted]&x_token=[redacted]&Access_Token=[redacted]&sig=[redacted]',
    ],
    [
      '/x?client_secret=1&password=2&signature=3&refresh_token=4',
      '/x?client_secret=[redacted]&password=[redacted]&signature=[redacted]&refresh_token=[redacted]',
    ],
    ['/x?api%5Fkey=1&page=2', '/x?api%5Fkey=[redacted]&page=2'],
    ['/x?token&limit=1', '/x?token&limit=1'],
    ['/x?key=a=b&q=1', '/x?key=[redacted]&q=1'],
  ])('%s → %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it('redacts a value the secret test names, whatever its parameter', () => {
    const isKey = (v: string) => v === 'the key';
    expect(redactUrl('/x?q=the%20key&page=the+key&p=2&the+key', isKey)).toBe(
      '/x?q=[redacted]&page=[redacted]&p=2&[redacted]',
    );
    expect(redactUrl('/x?q=the%20keys&p=%zz', isKey)).toBe('/x?q=the%20keys&p=%zz');
  });
});

describe('request logs', () => {
  it("Fastify's request log redacts the OAuth callback's code and state, and keys in any query", async () => {
    const values = { code: secret('code'), state: secret('state') };
    const from = e.logs().length;
    const cb = await fetch(`${e.base}/api/video/oauth/callback?code=${values.code}&state=${values.state}`, {
      headers: { accept: 'application/json' },
    });
    expect(cb.status).toBe(400);
    const keys = { api_key: secret('api'), x_token: secret('xt'), Access_Token: secret('at') };
    const status = await fetch(
      `${e.base}/api/video/status?api_key=${keys.api_key}&x_token=${keys.x_token}&Access_Token=${keys.Access_Token}&fresh=0`,
      { headers: { authorization: `Bearer ${API_KEY}` } },
    );
    expect(status.status).toBe(200);
    const incoming = parsed(from).filter((l) => l.msg === 'incoming request');
    expect(incoming.map((l) => l.req?.url)).toEqual([
      '/api/video/oauth/callback?code=[redacted]&state=[redacted]',
      '/api/video/status?api_key=[redacted]&x_token=[redacted]&Access_Token=[redacted]&fresh=0',
    ]);
    const log = lines(from).join('\n');
    for (const v of [...Object.values(values), ...Object.values(keys)]) expect(log).not.toContain(v);
  });

  it('redacts the API key in any query parameter, and a bare one, whatever the name', async () => {
    const from = e.logs().length;
    const r = await fetch(
      `${e.base}/api/video/status?q=${API_KEY}&fresh=0&page=${encodeURIComponent(API_KEY)}&${API_KEY}`,
      { headers: { authorization: `Bearer ${API_KEY}` } },
    );
    expect(r.status).toBe(200);
    const incoming = parsed(from).filter((l) => l.msg === 'incoming request');
    expect(incoming.map((l) => l.req?.url)).toEqual([
      '/api/video/status?q=[redacted]&fresh=0&page=[redacted]&[redacted]',
    ]);
    expect(lines(from).join('\n')).not.toContain(API_KEY);
  });
});
