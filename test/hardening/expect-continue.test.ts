/**
 * `Expect: 100-continue` is answered only once the request has passed the checks made before
 * its body is read (the API key, the lockout, an MCP endpoint's Origin), so a caller without the
 * key cannot make the server ask for a large body: it gets its 401 (or 429) and no 100
 * Continue. With the key it gets 100 Continue, sends the body, then the normal answer. Raw
 * sockets: the interim answer is what is tested.
 */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';

let g: GatewayEnv;
beforeAll(async () => {
  g = await startGateway({
    env: { FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1', FLEETGATE_RATE_LIMIT_LOGIN: '2' },
  });
}, 60_000);
afterAll(() => g.close());

interface Exchange {
  /** Whether the server asked for the body (a 100 Continue came first). */
  continued: boolean;
  /** The final answer's status line and body. */
  status: number;
  body: string;
}

/**
 * Sends a head with `Expect: 100-continue`, then the body only if the server answers 100
 * Continue, the way curl and other clients that use it do (they also give up waiting after a
 * while, which this client never does).
 */
async function post(path: string, headers: Record<string, string>, body: string, from = '127.0.0.1') {
  const s = await new Promise<ReturnType<typeof connect>>((resolve, reject) => {
    const c = connect({ port: Number(new URL(g.base).port), host: '127.0.0.1', localAddress: from }, () =>
      resolve(c),
    );
    c.once('error', reject);
  });
  let got = '';
  let closed = false;
  s.on('data', (c: Buffer) => (got += c.toString('utf8')));
  s.on('error', () => undefined);
  s.on('close', () => (closed = true));
  const lines = Object.entries({
    host: new URL(g.base).host,
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    expect: '100-continue',
    ...headers,
  }).map(([k, v]) => `${k}: ${v}\r\n`);
  s.write(`POST ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
  for (let i = 0; i < 500 && !got.includes('\r\n\r\n') && !closed; i++) await sleep(10);
  const continued = got.startsWith('HTTP/1.1 100 ');
  if (continued) {
    got = got.slice(got.indexOf('\r\n\r\n') + 4);
    s.write(body);
  }
  for (let i = 0; i < 500 && !closed; i++) await sleep(10);
  s.destroy();
  const answer: Exchange = {
    continued,
    status: Number(got.split(' ')[1]),
    body: got.slice(got.indexOf('\r\n\r\n') + 4),
  };
  return answer;
}

const json = { 'content-type': 'application/json' };
const subscription = JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['*'] });

describe('Expect: 100-continue', () => {
  it('asks a caller without the key for nothing: 401, no 100 Continue', async () => {
    for (const auth of [{}, { authorization: 'Bearer guess-0123456789abcdef0123' }]) {
      const r = await post('/api/video/subscriptions', { ...json, ...auth }, subscription);
      expect(r.continued).toBe(false);
      expect(r.status).toBe(401);
      expect(JSON.parse(r.body)).toEqual({
        error: { code: 'unauthorized', message: expect.any(String) },
      });
    }
  });

  it('asks a caller with the key for its body, then answers it', async () => {
    const r = await post(
      '/api/video/subscriptions',
      { ...json, authorization: `Bearer ${API_KEY}` },
      subscription,
    );
    expect(r.continued).toBe(true);
    expect(r.status).toBe(201);
    expect(JSON.parse(r.body)).toMatchObject({ url: 'http://127.0.0.1:9/hook' });
  });

  it('refuses the gateway MCP endpoint without the key before asking for the body', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const accept = { accept: 'application/json, text/event-stream' };
    const refused = await post('/api/video/mcp', { ...json, ...accept }, init);
    expect(refused.continued).toBe(false);
    expect(refused.status).toBe(401);
    const allowed = await post(
      '/api/video/mcp',
      { ...json, ...accept, authorization: `Bearer ${API_KEY}` },
      init,
    );
    expect(allowed.continued).toBe(true);
    expect(allowed.status).toBe(200);
  });

  it('asks a locked-out address for no sign-in form', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const from = '127.0.0.9';
    for (let i = 0; i < 2; i++)
      expect((await post('/dashboard/login', form, `key=guess${i}`, from)).status).toBe(401);
    const locked = await post('/dashboard/login', form, `key=${API_KEY}`, from);
    expect(locked.continued).toBe(false);
    expect(locked.status).toBe(429);
  });

  it('asks for a public body at once (no key to check)', async () => {
    const r = await post(
      '/mcp',
      { ...json, accept: 'application/json, text/event-stream' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    );
    expect(r.continued).toBe(true);
    expect(r.status).toBe(200);
  });
});
