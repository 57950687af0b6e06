/**
 * Requests Node's HTTP parser refuses before any route sees them (a malformed request line or
 * header, a head over the size limit) are answered in the one error shape with the right
 * status, and the connection is closed; so is an HTTP/1.1 request without the Host header it
 * must carry, which Node would answer with a bare 400, and an Expect other than 100-continue
 * (Node's bare 417). Raw sockets: no HTTP client would send
 * these.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** Writes `bytes` and reads until the server closes the connection. */
function exchange(bytes: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.end(bytes);
  });
}

describe('Node-level refusals', () => {
  it.each([
    ['a malformed request line', 'GARBAGE\r\n\r\n'],
    ['a header name with a space', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n'],
    ['a bad Content-Length', 'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n'],
  ])('answer %s with 400 bad_request', async (_name, bytes) => {
    const r = await exchange(bytes);
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.headers['connection']).toBe('close');
    expect(JSON.parse(r.body)).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
  });

  it('answers a head over the size limit with 431 request_header_fields_too_large', async () => {
    const r = await exchange(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
    expect(r.status).toBe(431);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(r.body)).toEqual({
      error: { code: 'request_header_fields_too_large', message: expect.any(String) },
    });
  });

  it.each([
    ['a GET', 'GET /healthz HTTP/1.1\r\n\r\n'],
    ['a brand read the edge would serve', 'GET /api/brand HTTP/1.1\r\nAccept: */*\r\n\r\n'],
    [
      'a POST with a body',
      'POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    ],
  ])('answers %s without Host with 400 missing_host in the one error shape', async (_name, bytes) => {
    const r = await exchange(bytes);
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.headers['connection']).toBe('close');
    expect(JSON.parse(r.body)).toEqual({ error: { code: 'missing_host', message: expect.any(String) } });
  });

  it('answers an expectation other than 100-continue with 417 in the one error shape', async () => {
    const r = await exchange('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\n\r\n');
    expect(r.status).toBe(417);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(r.body)).toEqual({
      error: { code: 'expectation_failed', message: expect.any(String) },
    });
  });

  it('still serves an HTTP/1.0 request without Host (it need not carry one)', async () => {
    const r = await exchange('GET /healthz HTTP/1.0\r\n\r\n');
    expect(r.status).toBe(200);
  });
});
