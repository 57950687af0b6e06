/**
 * The keep-alive platform transport fails the way fetch does (so the client's retry and error
 * mapping read one shape), keeps one deadline over the whole exchange, reuses connections, and never
 * buffers a body over its limit.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTransport, keepAliveTransport } from '../../src/gateway/platform/http-transport.js';

let server: Server;
let base: string;
const sockets = new Set<unknown>();
beforeAll(async () => {
  server = createServer((req, res) => {
    sockets.add(req.socket);
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 500);
    if (req.url === '/drop') return void req.socket.destroy();
    if (req.url === '/big') return void res.end(Buffer.alloc(2048, 97));
    if (req.url === '/stall') {
      // The head and half the body at once, the rest too late.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"half":');
      return void setTimeout(() => res.end('1}'), 500);
    }
    if (req.url === '/split') {
      // A JSON body whose multi-byte characters are cut between two writes.
      const bytes = Buffer.from(JSON.stringify({ name: 'Zürich 会議 🎥' }));
      const cut = bytes.indexOf(0xe4) + 1;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.write(bytes.subarray(0, cut));
      return void setTimeout(() => res.end(bytes.subarray(cut)), 20);
    }
    if (req.url === '/file') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return void res.end(Buffer.from([0xff, 0xfe, 0x00, 0xe4, 0x80]));
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-multi': ['a', 'b'] });
      res.end(
        JSON.stringify({ method: req.method, url: req.url, body, auth: req.headers.authorization ?? null }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('keep-alive transport', () => {
  it('sends method, headers and body and reads status, headers and JSON; reuses the connection', async () => {
    const t = keepAliveTransport();
    sockets.clear();
    for (let i = 0; i < 3; i++) {
      const res = await t.transport(`${base}/echo`, {
        method: 'POST',
        headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
        body: '{"a":1}',
        timeoutMs: 2000,
      });
      expect(res.status).toBe(201);
      expect(res.ok).toBe(true);
      expect(res.headers.get('Content-Type')).toBe('application/json');
      expect(res.headers.get('x-multi')).toBe('a, b');
      expect(res.headers.get('absent')).toBeNull();
      expect(await res.json()).toEqual({ method: 'POST', url: '/echo', body: '{"a":1}', auth: 'Bearer x' });
    }
    expect(sockets.size).toBe(1);
    t.close();
  });

  it('closes a pooled connection once it has been idle for idleMs, not while it is in use', async () => {
    const t = keepAliveTransport({ idleMs: 150 });
    sockets.clear();
    // A call slower than idleMs keeps its socket: the idle timeout is set only in the pool.
    const slow = await t.transport(`${base}/slow`, { headers: {}, timeoutMs: 2000 });
    expect(await slow.text()).toBe('late');
    await t.transport(`${base}/echo`, { headers: {}, timeoutMs: 2000 });
    expect(sockets.size).toBe(1);
    const [first] = [...sockets] as Socket[];
    await new Promise((r) => setTimeout(r, 400));
    expect(first?.destroyed).toBe(true);
    await t.transport(`${base}/echo`, { headers: {}, timeoutMs: 2000 });
    expect(sockets.size).toBe(2);
    t.close();
  });

  it('decodes text answers across chunk boundaries and keeps binary answers byte for byte', async () => {
    const t = keepAliveTransport();
    const split = await t.transport(`${base}/split`, { headers: {}, timeoutMs: 2000 });
    expect(await split.json()).toEqual({ name: 'Zürich 会議 🎥' });
    const file = await t.transport(`${base}/file`, { headers: {}, timeoutMs: 2000 });
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([0xff, 0xfe, 0x00, 0xe4, 0x80]);
    const asBytes = await t.transport(`${base}/split`, { headers: {}, timeoutMs: 2000 });
    expect(Buffer.from(await asBytes.arrayBuffer()).toString('utf8')).toContain('会議 🎥');
    t.close();
  });

  it('times out with the name fetch uses, and reports socket failures as TypeError with a cause', async () => {
    const t = keepAliveTransport();
    const timeout = await t
      .transport(`${base}/slow`, { headers: {}, timeoutMs: 50 })
      .catch((e: unknown) => e);
    expect((timeout as Error).name).toBe('TimeoutError');
    // The deadline covers the body: an answer that stalls half way is a timeout too.
    const stalled = await t
      .transport(`${base}/stall`, { headers: {}, timeoutMs: 100 })
      .catch((e: unknown) => e);
    expect((stalled as Error).name).toBe('TimeoutError');
    const dropped = await t
      .transport(`${base}/drop`, { headers: {}, timeoutMs: 2000 })
      .catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(TypeError);
    expect((dropped as { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET');
    const refused = await t
      .transport('http://127.0.0.1:1/', { headers: {}, timeoutMs: 2000 })
      .catch((e: unknown) => e);
    expect((refused as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    t.close();
  });

  it('sends the path and query as given, and credentials in the URL as basic auth', async () => {
    const t = keepAliveTransport();
    const q = await t.transport(`${base}/echo?from=2026-11-01&q=a+b%26c&t=%C3%A4`, {
      headers: {},
      timeoutMs: 2000,
    });
    expect(await q.json()).toMatchObject({ method: 'GET', url: '/echo?from=2026-11-01&q=a+b%26c&t=%C3%A4' });
    const bare = await t.transport(base, { headers: {}, timeoutMs: 2000 });
    expect(await bare.json()).toMatchObject({ url: '/' });
    const creds = await t.transport(base.replace('://', '://u%40x:p%3Aw@') + '/echo', {
      headers: {},
      timeoutMs: 2000,
    });
    expect(await creds.json()).toMatchObject({
      url: '/echo',
      auth: `Basic ${Buffer.from('u@x:p:w').toString('base64')}`,
    });
    t.close();
  });

  it('adapts fetch with the same deadline and the same timeout name', async () => {
    const t = fetchTransport(fetch);
    const ok = await t(`${base}/echo?x=1`, { method: 'POST', headers: {}, body: 'hi', timeoutMs: 2000 });
    expect(await ok.json()).toMatchObject({ method: 'POST', url: '/echo?x=1', body: 'hi' });
    const late = await t(`${base}/slow`, { headers: {}, timeoutMs: 50 }).catch((e: unknown) => e);
    expect((late as Error).name).toBe('TimeoutError');
  });

  it('refuses a body over the limit', async () => {
    const t = keepAliveTransport({ maxBodyBytes: 1024 });
    const err = await t.transport(`${base}/big`, { headers: {}, timeoutMs: 2000 }).catch((e: unknown) => e);
    expect((err as { cause?: { code?: string } }).cause?.code).toBe('EBODYTOOLARGE');
    const ok = await keepAliveTransport().transport(`${base}/big`, {
      headers: {},
      timeoutMs: 2000,
    });
    expect(Buffer.from(await ok.arrayBuffer()).length).toBe(2048);
    t.close();
  });
});
