/**
 * Private routes check the API key before they read a body. Every private operation the OpenAPI
 * document lists (/api/video/* but the OAuth callback and the webhook intake, and /metrics),
 * asked without a key, answers 401 whatever the body: malformed JSON, a wrong content type, a
 * Content-Length over the body limit, or a body that has only begun to arrive, which the 401
 * overtakes (the server never waited for the rest of it).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayEnv } from '../gateway/helpers.js';

let e: GatewayEnv;
let ops: { method: string; path: string }[] = [];
beforeAll(async () => {
  // Unlimited: the limiter is not what this test is about, and it sends ~250 keyless requests.
  e = await startGateway({ env: { FLEETGATE_RATE_LIMIT_API: '0' } });
  const doc = (await (await fetch(`${e.base}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const publicPaths = ['/api/video/oauth/callback', '/api/video/webhooks'];
  ops = Object.entries(doc.paths)
    .filter(([p]) => (p.startsWith('/api/video/') && !publicPaths.includes(p)) || p === '/metrics')
    .flatMap(([p, item]) =>
      Object.keys(item).map((m) => ({
        method: m.toUpperCase(),
        path: p.replace(/\{(\w+)\}/g, (_, name: string) => `${name}1`),
      })),
    );
});
afterAll(() => e.close());

interface Answer {
  status: number;
  body: string;
}

/**
 * Sends the head and `sent` of the body, then waits for the answer without sending the rest;
 * undefined when none came within `waitMs` (an answer the server gives only after the whole
 * body would never come).
 */
function ask(
  method: string,
  path: string,
  o: { type: string; length: number; sent: string; waitMs?: number },
): Promise<Answer | undefined> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port: new URL(e.base).port,
      method,
      path,
      agent: false,
      headers: { 'content-type': o.type, 'content-length': String(o.length) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve(undefined);
    }, o.waitMs ?? 3000);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // The server may close once it has answered; the answer is what counts.
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err);
    });
    req.write(o.sent);
  });
}

const BODIES = {
  'malformed JSON': { type: 'application/json', length: 7, sent: '{"oops ' },
  'a wrong content type': { type: 'text/plain', length: 5, sent: 'hello' },
  'a Content-Length over the limit': { type: 'application/json', length: 2_000_000, sent: '{"a":' },
  'a body still arriving': { type: 'application/json', length: 100_000, sent: '{"topic":"' },
};

describe('private routes without a key', () => {
  it('lists the private operations', () => {
    expect(ops.length).toBeGreaterThan(40);
    expect(ops).toContainEqual({ method: 'POST', path: '/api/video/events' });
    expect(ops).toContainEqual({ method: 'GET', path: '/metrics' });
  });

  it.each(Object.entries(BODIES))('answer 401 before reading %s', async (_what, body) => {
    const wrong: string[] = [];
    for (const op of ops) {
      const a = await ask(op.method, op.path, body);
      if (a?.status !== 401)
        wrong.push(`${op.method} ${op.path}: ${a ? `${a.status} ${a.body}` : 'no answer'}`);
      else if (op.path !== '/api/video/mcp')
        expect(JSON.parse(a.body), `${op.method} ${op.path}`).toMatchObject({
          error: { code: 'unauthorized' },
        });
    }
    expect(wrong).toEqual([]);
  });
});
