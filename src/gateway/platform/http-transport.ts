/**
 * The platform client's HTTP transport: node:http(s) with a keep-alive agent per origin, reading
 * the whole body (under a size limit) before answering, the whole exchange under one deadline
 * timer. Node 20's fetch costs about 0.5 ms more CPU per call (WHATWG streams for every body),
 * which the bench showed as most of the gateway's overhead; an AbortSignal for the deadline and
 * a URL object per call cost another ~0.1 ms here (BENCHMARKS.md's git history). The answer has the
 * small part of the Response interface the client uses; fetchTransport() adapts fetch (tests
 * inject it to watch each call). With tracing on, each request it sends is recorded on the
 * platform call's span (tracing/sdk.ts).
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { tracing } from '../../tracing/current.js';

export interface TransportRequest {
  method?: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * The whole exchange, body included, must be over within this; otherwise it fails with a
   * TimeoutError (a DOMException, as fetch's AbortSignal.timeout does).
   */
  timeoutMs: number;
}

export interface TransportResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export type Transport = (url: string, init: TransportRequest) => Promise<TransportResponse>;

/** Fails like fetch does (a TypeError with the socket error as cause), so callers read one shape. */
const networkError = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });

const timeoutError = () => new DOMException('The platform did not answer in time.', 'TimeoutError');

/**
 * fetch as a Transport: the deadline becomes AbortSignal.timeout, which also covers the body.
 * Redirects come back as answers, as node:http gives them: fetch would follow one to any host
 * (with the body of a 307) where the client's origin check never sees it.
 */
export function fetchTransport(f: typeof fetch): Transport {
  return (url, { timeoutMs, ...init }) =>
    f(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
}

interface Origin {
  protocol: string;
  hostname: string;
  port: string;
  auth?: string;
}

/**
 * Where a URL's path starts, and its origin parsed once per origin (the platform's is one):
 * http.request on a URL string or object parses and converts it on every call.
 */
function splitter() {
  const origins = new Map<string, Origin>();
  return (url: string): { origin: Origin; path: string } => {
    const scheme = url.indexOf('://');
    const slash = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
    const head = slash < 0 ? url : url.slice(0, slash);
    let origin = origins.get(head);
    if (!origin) {
      const u = new URL(head);
      // Anything beyond scheme://host:port (credentials, a default port, a query right after the
      // host) is parsed whole, every time.
      if (`${u.protocol}//${u.host}` !== head) return { origin: fromUrl(u), path: pathOf(new URL(url)) };
      origin = fromUrl(u);
      if (origins.size < 16) origins.set(head, origin);
    }
    return { origin, path: slash < 0 ? '/' : url.slice(slash) };
  };
}

/** What http.request takes from a URL (as node's urlToHttpOptions reads it). */
const fromUrl = (u: URL): Origin => ({
  protocol: u.protocol,
  hostname: u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname,
  port: u.port,
  ...(u.username || u.password
    ? { auth: `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}` }
    : {}),
});
const pathOf = (u: URL) => `${u.pathname}${u.search}`;

/** Bodies read as text: JSON and text answers, the platform's API (files stay bytes). */
const TEXTUAL = /^(application\/([\w.+-]*\+)?json|text\/)/i;

class BufferedResponse implements TransportResponse {
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };

  constructor(
    readonly status: number,
    raw: http.IncomingHttpHeaders,
    /** The body as read: text for textual answers, bytes otherwise. */
    private readonly body: string | Buffer,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = {
      get: (name) => {
        const v = raw[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
      },
    };
  }

  text(): Promise<string> {
    return Promise.resolve(typeof this.body === 'string' ? this.body : this.body.toString('utf8'));
  }

  json(): Promise<unknown> {
    return this.text().then((t) => JSON.parse(t) as unknown);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    const b = typeof this.body === 'string' ? Buffer.from(this.body, 'utf8') : this.body;
    return Promise.resolve(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
  }
}

export interface KeepAliveTransport {
  transport: Transport;
  /** Closes idle sockets (shutdown). */
  close(): void;
}

/**
 * Idle sockets close after 4 s, under common server keep-alive timeouts, so a reused socket is
 * rarely one the server is closing at the same moment. Set as a socket goes back to the pool
 * (the agent destroys a pooled socket on its timeout): the agent's `timeout` option does the same
 * but also arms socket-timeout listeners on every request, which the deadline makes redundant.
 */
function closingIdle<A extends http.Agent>(agent: A, idleMs: number): A {
  const keep = agent.keepSocketAlive.bind(agent) as (socket: Duplex) => boolean;
  agent.keepSocketAlive = (socket: Duplex) => {
    const kept = keep(socket);
    (socket as Socket).setTimeout(idleMs);
    return kept;
  };
  return agent;
}

/** One keep-alive agent per scheme, the most recently used socket first. */
function keepAliveAgents(idleMs: number) {
  return {
    'http:': closingIdle(new http.Agent({ keepAlive: true, scheduling: 'lifo' }), idleMs),
    'https:': closingIdle(new https.Agent({ keepAlive: true, scheduling: 'lifo' }), idleMs),
  };
}

function requestOptions(
  origin: Origin,
  path: string,
  init: TransportRequest,
  agent: http.Agent,
): http.RequestOptions {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
  return {
    protocol: origin.protocol,
    hostname: origin.hostname,
    port: origin.port,
    path,
    method: init.method ?? 'GET',
    headers,
    agent,
    ...(origin.auth !== undefined ? { auth: origin.auth } : {}),
  };
}

export function keepAliveTransport(
  opts: { maxBodyBytes?: number; idleMs?: number } = {},
): KeepAliveTransport {
  const maxBody = opts.maxBodyBytes ?? 64 * 1024 * 1024;
  const idleMs = opts.idleMs ?? 4000;
  const agents = keepAliveAgents(idleMs);
  const split = splitter();
  const transport: Transport = (url, init) =>
    new Promise((resolve, reject) => {
      const { origin, path } = split(url);
      const secure = origin.protocol === 'https:';
      // `timer` is set below, before any event can fire (none fires synchronously).
      const fail = (err: Error) => {
        clearTimeout(timer);
        // A timeout keeps its name, as fetch's does; everything else is a network error.
        reject(err.name === 'TimeoutError' || err instanceof TypeError ? err : networkError(err));
      };
      const options = requestOptions(origin, path, init, secure ? agents['https:'] : agents['http:']);
      const req = (secure ? https : http).request(options, (res) => {
        // Text is decoded as it arrives, so each chunk's buffer dies young: buffers that lived
        // for the whole call were promoted with their 50 KB outside the V8 heap, and kept it
        // until the next full GC (tens of MB of RSS after a gateway load).
        const decoder = TEXTUAL.test(res.headers['content-type'] ?? '')
          ? new StringDecoder('utf8')
          : undefined;
        const chunks: Buffer[] = [];
        let text = '';
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (decoder) text += decoder.write(c);
          else chunks.push(c);
          if (size > maxBody) {
            fail(Object.assign(new Error('the response body is over the limit'), { code: 'EBODYTOOLARGE' }));
            res.destroy(); // no 'end' follows, so nothing resolves after the rejection
          }
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve(
            new BufferedResponse(
              res.statusCode ?? 0,
              res.headers,
              decoder ? text + decoder.end() : Buffer.concat(chunks),
            ),
          );
        });
        res.on('error', fail);
        res.on('aborted', () =>
          fail(Object.assign(new Error('the response was cut off'), { code: 'ECONNRESET' })),
        );
      });
      // One timer for the whole exchange (an AbortSignal and its listeners cost more than the
      // rest of the request set-up). Destroying the request ends the socket and its response.
      const timer = setTimeout(() => {
        fail(timeoutError());
        req.destroy();
      }, init.timeoutMs);
      req.on('error', fail);
      req.end(init.body);
    });
  return {
    transport: tracing()?.platformTransport(transport) ?? transport,
    close: () => {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
