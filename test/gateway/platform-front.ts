/**
 * Two loopback servers for the tests of where the bearer token may go. The platform front sits
 * before the emulator as the gateway's whole REST API (its links rewritten to the front's own
 * origin, as the platform's point at itself) and can change any answer: a link or a redirect to
 * elsewhere. The foreign host, on another port, records every request it gets, and answers as a
 * file host would, so a request that reached it would also look like a success to the gateway.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** Decides one answer of the front: pass `upstream()` on, change it, or answer alone. */
export type FrontRoute = (
  req: { method: string; url: URL },
  upstream: () => Promise<Answer>,
) => Promise<Answer>;

const seen = (req: IncomingMessage): Seen => ({
  method: req.method ?? 'GET',
  url: req.url ?? '/',
  authorization: req.headers.authorization,
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const closing = (server: Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export interface ForeignHost {
  base: string;
  requests: Seen[];
  close(): Promise<void>;
}

export async function startForeignHost(): Promise<ForeignHost> {
  const requests: Seen[] = [];
  const server = createServer((req, res) => {
    requests.push(seen(req));
    req.resume();
    res
      .writeHead(200, { 'content-type': 'text/vtt' })
      .end('WEBVTT\n\n1\n00:00:00.000 --> 00:00:02.000\nMallory: this text came from the foreign host\n');
  });
  return { base: await listen(server), requests, close: closing(server) };
}

export interface PlatformFront {
  base: string;
  requests: Seen[];
  /** Replaces how the front answers; `passThrough` restores it. */
  route: FrontRoute;
  close(): Promise<void>;
}

export const passThrough: FrontRoute = (_req, upstream) => upstream();

export async function startPlatformFront(emulatorBase: string): Promise<PlatformFront> {
  const front: PlatformFront = {
    base: '',
    requests: [],
    route: passThrough,
    close: () => Promise.resolve(),
  };
  const server = createServer((req, res) => {
    front.requests.push(seen(req));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const url = new URL(req.url ?? '/', front.base);
      const upstream = async (): Promise<Answer> => {
        const headers: Record<string, string> = {};
        for (const h of ['authorization', 'accept', 'content-type'])
          if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
        const r = await fetch(`${emulatorBase}${url.pathname}${url.search}`, {
          method,
          headers,
          body: chunks.length ? Buffer.concat(chunks) : null,
          redirect: 'manual',
        });
        const type = r.headers.get('content-type') ?? 'application/octet-stream';
        const out: Record<string, string> = { 'content-type': type };
        const retryAfter = r.headers.get('retry-after');
        if (retryAfter) out['retry-after'] = retryAfter;
        // The platform's links name the platform: here, the front.
        const body = /json/.test(type)
          ? (await r.text()).replaceAll(emulatorBase, front.base)
          : Buffer.from(await r.arrayBuffer());
        return { status: r.status, headers: out, body };
      };
      front
        .route({ method, url }, upstream)
        .then((a) => res.writeHead(a.status, a.headers).end(a.body))
        .catch((err: unknown) => res.writeHead(599).end(String(err)));
    });
  });
  front.base = await listen(server);
  front.close = closing(server);
  return front;
}
