/**
 * Responses computed once (body, gzip, brotli, strong ETag, headers) and then only picked per
 * request: conditional GET, content-coding negotiation and HEAD cost no hashing or compression.
 * No server here: the brand catalog builds these at load, and http/ serves them.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { withSecurityHeaders } from './security-headers.js';

type Encoding = 'br' | 'gzip' | 'identity';

/** Status and headers as Node's writeHead takes them: an object, and the same as a flat array. */
interface Head {
  readonly headers: Readonly<Record<string, string>>;
  /** [name, value, …]: what the edge copies, adding the request id, for one writeHead. */
  readonly flat: readonly string[];
}

/** What to send: status, head and body (none for HEAD and 304). Precomputed: no object per request. */
export interface Answer {
  status: 200 | 304;
  head: Head;
  body: Buffer | undefined;
}

/** One content-coding of a response: its answers to GET, HEAD and a matching If-None-Match. */
interface Variant {
  get: Answer;
  head: Answer;
  notModified: Answer;
}

const head = (headers: Record<string, string>): Head => ({
  headers: Object.freeze(headers),
  flat: Object.freeze(Object.entries(headers).flat()),
});

export interface Precomputed {
  readonly contentType: string;
  readonly etag: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly body: Buffer;
  readonly variants: Readonly<Record<Encoding, Variant | undefined>>;
}

/** Where compressed bodies are kept across restarts (brand/disk-cache.ts), keyed by content. */
export interface CompressionCache {
  memoSync(key: string, compute: () => Buffer): Buffer;
}

export interface PrecomputeOptions {
  contentType: string;
  cacheControl: string;
  headers?: Record<string, string>;
  /** Brotli at quality 11 is slow (most of a cold start): reuse earlier results when given. */
  compressed?: CompressionCache;
}

const COMPRESSIBLE =
  /^(text\/|application\/(json|javascript|xml|manifest\+json|design-tokens\+json)|image\/svg\+xml)/;

/** Precomputed responses are public: any page may read them, and the errors of their routes too. */
export const PUBLIC_CORS: Readonly<Record<string, string>> = { 'access-control-allow-origin': '*' };

export function precompute(input: Buffer | string, opts: PrecomputeOptions): Precomputed {
  const body = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const sha256 = createHash('sha256').update(body).digest('hex');
  const tag = sha256.slice(0, 32);
  const etag = `"${tag}"`;
  // The security headers are part of the precomputed bytes: the edge (http/edge.ts) answers
  // without Fastify's hooks, so nothing is stamped on later.
  const common: Record<string, string> = {
    'content-type': opts.contentType,
    'cache-control': opts.cacheControl,
    ...PUBLIC_CORS,
    ...withSecurityHeaders(opts.headers),
  };
  const compressible = COMPRESSIBLE.test(opts.contentType) && body.length > 256;
  if (compressible) common['vary'] = 'Accept-Encoding';
  // A 304 carries the same security headers as the 200 (the hook would add them on the Fastify
  // path; the edge must send the same).
  const csp = common['content-security-policy'];
  const notModified: Record<string, string> = {
    ...withSecurityHeaders(csp ? { 'content-security-policy': csp } : {}),
    etag,
    'cache-control': common['cache-control'] ?? opts.cacheControl,
    ...PUBLIC_CORS,
  };
  if (compressible) notModified['vary'] = 'Accept-Encoding';
  const variant = (enc: Encoding, buf: Buffer): Variant => {
    // Each content-coding is its own representation, so it gets its own strong validator.
    const tagged = enc === 'identity' ? etag : `"${tag}-${enc === 'gzip' ? 'gz' : 'br'}"`;
    const headers: Record<string, string> = { ...common, etag: tagged, 'content-length': String(buf.length) };
    if (enc !== 'identity') headers['content-encoding'] = enc;
    const h = head(headers);
    return {
      get: { status: 200, head: h, body: buf },
      head: { status: 200, head: h, body: undefined },
      notModified: { status: 304, head: head({ ...notModified, etag: tagged }), body: undefined },
    };
  };
  let gzip: Variant | undefined;
  let br: Variant | undefined;
  if (compressible) {
    const compress = (key: string, run: () => Buffer) => opts.compressed?.memoSync(key, run) ?? run();
    const gz = compress(`${sha256}.gz9`, () => gzipSync(body, { level: 9 }));
    const brotli = compress(`${sha256}.br11`, () =>
      brotliCompressSync(body, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
    if (gz.length < body.length * 0.95) gzip = variant('gzip', gz);
    if (brotli.length < body.length * 0.95) br = variant('br', brotli);
  }
  return {
    contentType: opts.contentType,
    etag,
    bytes: body.length,
    sha256,
    body,
    variants: { identity: variant('identity', body), gzip, br },
  };
}

/** The content-coding to send for an Accept-Encoding value (q-values honoured, br preferred on ties). */
export function pickEncoding(accept: string | undefined, res: Precomputed): Encoding {
  if (!accept || (!res.variants.br && !res.variants.gzip)) return 'identity';
  let best: Encoding = 'identity';
  let bestQ = 0;
  let star = -1;
  const q = { br: -1, gzip: -1 };
  for (const part of accept.split(',')) {
    const [rawName, ...params] = part.trim().split(';');
    const name = (rawName ?? '').trim().toLowerCase();
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m?.[1]) weight = Number(m[1]);
    }
    if (name === 'br' || name === 'gzip') q[name] = weight;
    else if (name === 'x-gzip') q.gzip = Math.max(q.gzip, weight);
    else if (name === '*') star = weight;
  }
  for (const enc of ['br', 'gzip'] as const) {
    const weight = q[enc] >= 0 ? q[enc] : star;
    if (res.variants[enc] && weight > bestQ) {
      best = enc;
      bestQ = weight;
    }
  }
  return best;
}

function matchesEtag(header: string, res: Precomputed): boolean {
  if (header.trim() === '*') return true;
  const tag = res.etag.slice(1, -1);
  for (const raw of header.split(',')) {
    const value = raw.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
    if (value === tag || value === `${tag}-gz` || value === `${tag}-br`) return true;
  }
  return false;
}

/** What to answer for a request to a precomputed response: a 304, a HEAD or the chosen body. */
export function answerFor(
  method: string | undefined,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
  res: Precomputed,
): Answer {
  const variant = res.variants[pickEncoding(acceptEncoding, res)] ?? res.variants.identity;
  if (!variant) throw new Error('precomputed response without identity body');
  if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, res)) return variant.notModified;
  return method === 'HEAD' ? variant.head : variant.get;
}
