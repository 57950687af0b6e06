/**
 * The control API answers the operator's tools only, not a web page in the operator's browser:
 * a write must be JSON (which a page on another origin can send only after a CORS preflight,
 * and the preflight is refused), and every /_sandbox call must name the emulator's own address
 * in Host (a DNS-rebound name is refused), so no page can revoke the tokens or remove the app.
 * Real HTTP through node:http, which sends exactly the Host and headers given.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
let port: number;
beforeAll(async () => {
  t = await startTestEmulator();
  port = Number(new URL(t.base).port);
});
afterAll(() => t.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
}

/** One request to the emulator on 127.0.0.1 with exactly these headers (Host included). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
  to = port,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: to,
        method,
        path,
        setHost: false,
        headers: {
          host: `127.0.0.1:${to}`,
          ...headers,
          ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A fresh token, and whether it still works (a revoke or a removal of the app kills it). */
async function liveToken(): Promise<() => Promise<boolean>> {
  const token = (await t.userToken()).access_token;
  return async () => (await t.api('GET', '/v2/users/me', { token })).status === 200;
}

const JSON_TYPE = { 'content-type': 'application/json' };

describe('control writes must be JSON', () => {
  it('refuses text/plain, form, multipart and bodiless POSTs with 415, and nothing happens', async () => {
    const alive = await liveToken();
    const attempts: [string, Record<string, string>, string | undefined][] = [
      ['/_sandbox/tokens/revoke', { 'content-type': 'text/plain' }, '{}'],
      ['/_sandbox/tokens/revoke', { 'content-type': 'text/plain;charset=UTF-8' }, 'x'],
      ['/_sandbox/app/deauthorize', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
      ['/_sandbox/app/deauthorize', { 'content-type': 'multipart/form-data; boundary=b' }, '--b--\r\n'],
      ['/_sandbox/tokens/revoke', {}, undefined],
      ['/_sandbox/tokens/expire', {}, ''],
      ['/_sandbox/reset', { 'content-type': 'application/jsonx' }, undefined],
      ['/_sandbox/webhooks/send', { 'content-type': 'text/plain' }, '{"event":"meeting.started"}'],
      // The router decodes %5F to _, so this is the same route.
      ['/%5Fsandbox/tokens/revoke', { 'content-type': 'text/plain' }, '{}'],
      ['/%5fsandbox/app/deauthorize', {}, undefined],
    ];
    for (const [path, headers, body] of attempts) {
      const r = await raw('POST', path, headers, body);
      expect(r.status, `${path} ${JSON.stringify(headers)}`).toBe(415);
      expect(r.json).toEqual({
        error: {
          code: 'unsupported_media_type',
          message: expect.stringContaining('application/json'),
        },
      });
    }
    expect(await alive()).toBe(true);
  });

  it('refuses a DELETE without the JSON type too', async () => {
    await t.api('POST', '/_sandbox/faults', { body: { path: '/v2/nowhere', status: 500, times: 1 } });
    expect((await raw('DELETE', '/_sandbox/faults')).status).toBe(415);
    expect((await t.api('GET', '/_sandbox/faults')).json.faults).toHaveLength(1);
    expect((await raw('DELETE', '/_sandbox/faults', JSON_TYPE)).status).toBe(204);
    expect((await t.api('GET', '/_sandbox/faults')).json.faults).toHaveLength(0);
  });

  it('accepts a JSON POST with an empty body, with a body and with a charset', async () => {
    const alive = await liveToken();
    expect((await raw('POST', '/_sandbox/tokens/expire', JSON_TYPE)).status).toBe(204);
    expect((await raw('POST', '/_sandbox/tokens/expire', JSON_TYPE, '')).status).toBe(204);
    expect(await alive()).toBe(false);
    const revoked = await raw(
      'POST',
      '/_sandbox/tokens/revoke',
      { 'content-type': 'application/json; charset=utf-8' },
      '{}',
    );
    expect(revoked.status).toBe(200);
    expect(revoked.json).toEqual({ revoked: { access: expect.any(Number), refresh: expect.any(Number) } });
    const fault = await raw(
      'POST',
      '/_sandbox/faults',
      JSON_TYPE,
      JSON.stringify({ path: '/v2/x', status: 500, times: 1 }),
    );
    expect(fault.status).toBe(201);
    // A JSON body that is not JSON is still the control API's 400.
    expect((await raw('POST', '/_sandbox/faults', JSON_TYPE, '{nope')).status).toBe(400);
    expect((await raw('DELETE', '/_sandbox/faults', JSON_TYPE, '')).status).toBe(204);
  });

  it('leaves the platform surface alone: the token endpoint still takes its form', async () => {
    // userToken() posts application/x-www-form-urlencoded to /oauth/token, as the platform wants.
    expect((await t.userToken()).access_token).toEqual(expect.any(String));
  });
});

describe('the control API answers its own address only', () => {
  it('refuses a foreign Host on reads and writes with 403 (DNS rebinding)', async () => {
    const alive = await liveToken();
    for (const host of [
      `evil.example:${port}`,
      'evil.example',
      `127.0.0.1.nip.io:${port}`,
      `localhost:${port + 1}`,
      `127.0.0.1:${port}@evil.example`,
    ]) {
      for (const [method, path, headers, body] of [
        ['GET', '/_sandbox/stats', {}, undefined],
        ['GET', '/_sandbox/webhooks', {}, undefined],
        ['POST', '/_sandbox/tokens/revoke', JSON_TYPE, '{}'],
        ['POST', '/_sandbox/app/deauthorize', JSON_TYPE, undefined],
        ['GET', '/_sandbox/no-such-route', {}, undefined],
        ['GET', '/%5Fsandbox/stats', {}, undefined],
      ] as const) {
        const r = await raw(method, path, { ...headers, host }, body);
        expect(r.status, `${method} ${path} Host: ${host}`).toBe(403);
        expect(r.json).toEqual({ error: { code: 'host_not_allowed', message: expect.any(String) } });
        // The refusal carries nothing of the state.
        expect(JSON.stringify(r.json)).not.toMatch(/lastAccessToken|tokenGrants/);
      }
    }
    expect(await alive()).toBe(true);
  });

  it('accepts the loopback names and the configured address', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      const r = await raw('GET', '/_sandbox/stats', { host });
      expect(r.status, host).toBe(200);
      expect(r.json.tokenGrants).toBeDefined();
    }
    // An emulator configured under another name (its baseUrl) answers that name as well.
    const named = await startTestEmulator({ baseUrl: 'http://emulator.internal:8123' });
    try {
      const address = named.emulator.app.server.address();
      const at = typeof address === 'object' && address ? address.port : 0;
      const stats = (host: string) => raw('GET', '/_sandbox/stats', { host }, undefined, at);
      expect((await stats('emulator.internal:8123')).status).toBe(200);
      expect((await stats(`127.0.0.1:${at}`)).status).toBe(200);
      expect((await stats('emulator.internal:8124')).status).toBe(403);
      expect((await stats(`evil.example:${at}`)).status).toBe(403);
    } finally {
      await named.close();
    }
  });

  it('leaves the platform surface alone: /v2 answers whatever the Host', async () => {
    const token = (await t.userToken()).access_token;
    const r = await raw('GET', '/v2/users/me', { host: 'api.zoom.us', authorization: `Bearer ${token}` });
    expect(r.status).toBe(200);
  });
});

describe('no cross-origin access', () => {
  it('refuses a CORS preflight on /_sandbox, with no Access-Control-Allow-* header', async () => {
    for (const path of ['/_sandbox/tokens/revoke', '/_sandbox/app/deauthorize', '/_sandbox/stats']) {
      const r = await raw('OPTIONS', path, {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      });
      expect(r.status, path).toBe(403);
      expect(r.json).toEqual({ error: { code: 'cors_refused', message: expect.any(String) } });
      expect(
        Object.keys(r.headers).filter((h) => h.startsWith('access-control-')),
        path,
      ).toEqual([]);
    }
  });
});
