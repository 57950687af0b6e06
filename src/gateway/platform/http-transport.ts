/**
 * The platform client's HTTP transport: node:http(s) with a keep-alive agent per origin, reading
 * the whole body (under a size limit) before answering. Node 20's fetch costs about 0.5 ms more
 * CPU per call (WHATWG streams for every body), which the bench showed as most of the gateway's
 * overhead. The answer has the small part of the Response interface the client uses, so global
 * fetch still fits the same type (tests inject it).
 */
import http from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';

export interface TransportRequest {
  method?: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface TransportResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export type Transport = (url: string | URL, init: TransportRequest) => Promise<TransportResponse>;

/** Fails like fetch does (a TypeError with the socket error as cause), so callers read one shape. */
const networkError = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });

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

export function keepAliveTransport(opts: { maxBodyBytes?: number } = {}): KeepAliveTransport {
  const maxBody = opts.maxBodyBytes ?? 64 * 1024 * 1024;
  // Idle sockets close after 4 s, under common server keep-alive timeouts, so a reused socket is
  // rarely one the server is closing at the same moment.
  const agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: 4000, scheduling: 'lifo' }),
    'https:': new https.Agent({ keepAlive: true, timeout: 4000, scheduling: 'lifo' }),
  };
  const transport: Transport = (url, init) =>
    new Promise((resolve, reject) => {
      const target = typeof url === 'string' ? new URL(url) : url;
      const lib = target.protocol === 'https:' ? https : http;
      const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
      const headers: Record<string, string> = { ...init.headers };
      if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
      const fail = (err: Error) =>
        // An abort (timeout signal) keeps its name, as fetch's does; everything else is a network error.
        reject(err.name === 'AbortError' || err instanceof TypeError ? err : networkError(err));
      const options = { method: init.method ?? 'GET', headers, agent, signal: init.signal };
      const req = lib.request(target, options, (res) => {
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
        res.on('end', () =>
          resolve(
            new BufferedResponse(
              res.statusCode ?? 0,
              res.headers,
              decoder ? text + decoder.end() : Buffer.concat(chunks),
            ),
          ),
        );
        res.on('error', fail);
        res.on('aborted', () =>
          fail(Object.assign(new Error('the response was cut off'), { code: 'ECONNRESET' })),
        );
      });
      req.on('error', fail);
      req.end(init.body);
    });
  return {
    transport,
    close: () => {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
