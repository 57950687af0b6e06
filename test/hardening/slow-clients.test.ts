/**
 * Slow clients cannot hold connections: a request whose head or body dribbles in is answered
 * 408 in the one error shape and its connection closed once the configured deadline passes
 * (FLEETGATE_HEADERS_TIMEOUT_MS for the head, FLEETGATE_REQUEST_TIMEOUT_MS for the whole
 * request, body included), on Fastify's routes and on the MCP path that reads its own body;
 * connections past FLEETGATE_MAX_CONNECTIONS are closed unanswered. An idle kept-alive
 * connection is not a slow request: it still serves its next request after the deadlines.
 * Deadlines are shortened here and checked by what happened first (the answer, or the last
 * byte of the dribble), never by the clock.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { listen } from '../helpers/listen.js';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';

const DEADLINES = { FLEETGATE_REQUEST_TIMEOUT_MS: '300', FLEETGATE_HEADERS_TIMEOUT_MS: '200' };
/** One byte per step: the dribble lasts far longer than any deadline above. */
const STEP_MS = 50;

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway({ env: DEADLINES });
});
afterAll(() => e.close());
const host = () => new URL(e.base).host;

interface Dribbled {
  /** Bytes of the dribble sent before the server answered or closed. */
  sent: number;
  total: number;
  answer: string;
  closed: boolean;
}

function open(base: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(Number(new URL(base).port), '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Sends `head` at once, then `slow` a byte per step, stopping once the server answers or closes. */
async function dribble(base: string, head: string, slow: string): Promise<Dribbled> {
  const s = await open(base);
  let answer = '';
  let closed = false;
  s.on('data', (c: Buffer) => (answer += c.toString('latin1')));
  s.on('error', () => undefined);
  s.on('close', () => (closed = true));
  s.write(head);
  let sent = 0;
  while (sent < slow.length && answer === '' && !closed) {
    await sleep(STEP_MS);
    if (answer !== '' || closed) break;
    s.write(slow[sent] as string);
    sent += 1;
  }
  // The answer (if any) and the close follow; give them the time a dribble step takes.
  for (let i = 0; i < 40 && !closed; i++) await sleep(STEP_MS);
  s.destroy();
  return { sent, total: slow.length, answer, closed };
}

function expect408(d: Dribbled) {
  expect(d.sent, 'answered or closed before the dribble finished').toBeLessThan(d.total);
  expect(d.closed).toBe(true);
  expect(d.answer).toMatch(/^HTTP\/1\.1 408 /);
  const body = d.answer.slice(d.answer.indexOf('\r\n\r\n') + 4);
  expect(JSON.parse(body)).toEqual({
    error: { code: 'request_timeout', message: expect.any(String) },
  });
}

describe('slow requests', () => {
  it('a body dribbling into a Fastify route is cut off with 408', async () => {
    const body = JSON.stringify({ url: 'https://example.com/hook', events: ['*'] });
    const head =
      `POST /api/video/subscriptions HTTP/1.1\r\nHost: ${host()}\r\n` +
      `Authorization: Bearer ${API_KEY}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`;
    expect408(await dribble(e.base, head, body));
    expect(e.logs().filter((l) => l.includes('"msg":"request timed out"'))).toHaveLength(1);
  });

  it('a body dribbling into POST /mcp is cut off with 408', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const head =
      `POST /mcp HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n`;
    expect408(await dribble(e.base, head, body));
  });

  it('a head dribbling in is cut off with 408', async () => {
    const head = `GET /healthz HTTP/1.1\r\nHost: ${host()}\r\nX-Slow: ${'a'.repeat(60)}\r\n\r\n`;
    expect408(await dribble(e.base, '', head));
  });

  it('an idle kept-alive connection still serves its next request after the deadlines', async () => {
    const s = await open(e.base);
    let got = '';
    s.on('data', (c: Buffer) => (got += c.toString('latin1')));
    const ask = async () => {
      got = '';
      s.write(`GET /healthz HTTP/1.1\r\nHost: ${host()}\r\n\r\n`);
      for (let i = 0; i < 100 && !/\r\n\r\n[\s\S]*\}/.test(got); i++) await sleep(10);
      return got;
    };
    expect(await ask()).toMatch(/^HTTP\/1\.1 200 /);
    // Idle for longer than both deadlines (and more than one of the server's checks).
    await sleep(1000);
    expect(s.destroyed).toBe(false);
    expect(await ask()).toMatch(/^HTTP\/1\.1 200 /);
    s.destroy();
  });
});

describe('the connection cap', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp({ env: { FLEETGATE_MAX_CONNECTIONS: '2' } });
    base = await listen(t);
  });
  afterAll(() => t.close());

  /** A connection that has been served once (so the server has counted it). */
  async function served(): Promise<{ s: Socket; answer: string; closed: () => boolean }> {
    const s = await open(base);
    let answer = '';
    let closed = false;
    s.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    s.on('error', () => undefined);
    s.on('close', () => (closed = true));
    s.write(`GET /healthz HTTP/1.1\r\nHost: ${new URL(base).host}\r\n\r\n`);
    for (let i = 0; i < 100 && answer === '' && !closed; i++) await sleep(10);
    return { s, answer, closed: () => closed };
  }

  it('closes connections past FLEETGATE_MAX_CONNECTIONS unanswered, and takes new ones once some close', async () => {
    const a = await served();
    const b = await served();
    expect(a.answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(b.answer).toMatch(/^HTTP\/1\.1 200 /);
    const c = await served().catch(() => undefined);
    expect(c?.answer ?? '').toBe('');
    expect(c?.closed() ?? true).toBe(true);
    a.s.destroy();
    let d: Awaited<ReturnType<typeof served>> | undefined;
    for (let i = 0; i < 50 && !d?.answer; i++) {
      d?.s.destroy();
      d = await served().catch(() => undefined);
    }
    expect(d?.answer).toMatch(/^HTTP\/1\.1 200 /);
    b.s.destroy();
    d?.s.destroy();
  });
});

describe('configuration', () => {
  it('has deadlines of seconds and a cap by default, and refuses a head deadline past the request one', () => {
    expect(parseConfig({}).http).toEqual({
      requestTimeoutMs: 15_000,
      headersTimeoutMs: 10_000,
      maxConnections: 1024,
      maxConnectionsPerIp: 64,
    });
    expect(() =>
      parseConfig({ FLEETGATE_REQUEST_TIMEOUT_MS: '5000', FLEETGATE_HEADERS_TIMEOUT_MS: '8000' }),
    ).toThrow(ConfigError);
    expect(() => parseConfig({ FLEETGATE_MAX_CONNECTIONS: '0' })).toThrow(/FLEETGATE_MAX_CONNECTIONS/);
  });
});
