/**
 * The gateway's read hot path in front of Fastify. A GET of a capability view (restView) that
 * carries the API key as a Bearer token runs the same operation its route runs, with the least
 * work before the platform call: the route lookup (find-my-way with the app's router options, so
 * paths, params and query parse as Fastify parses them), the key check, and the caller's rate
 * limit through the same limiter when it is on. The request id, the headers, the metrics and
 * the log line come after the platform has been asked. The answer is the route's: the same
 * bytes, status and headers, errors in the one shape.
 *
 * Everything else goes on to Fastify untouched, which answers it as it always does: other
 * methods (HEAD included), a request with a body, a dashboard session instead of a key, a
 * missing key, a URL the router cannot read, and every request once the app is closing (503).
 * With a rate limit on, a wrong key (401) and a refusal (429, a spent budget or an address locked
 * out for failed keys) go on to Fastify after the limiter has judged them, and its hook answers
 * from the outcome recorded on the request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay from 'find-my-way';
import type { Logger } from 'pino';
import { bearerKeyValid } from './auth.js';
import { AppError, errorResponse, logErrorAnswer } from './errors.js';
import { flatHeaders, writeFastAnswer, type OnAnswer } from './fast-answer.js';
import { ROUTER_OPTIONS } from './method-not-allowed.js';
import type { RateLimitOutcome } from './rate-limit.js';
import { requestId } from './request-id.js';
import type { ViewRequest } from './routes/capability-routes.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A view as the fast path serves it: its route pattern, its status and its operation. */
interface Read {
  url: string;
  status: number;
  run: (req: ViewRequest) => Promise<unknown>;
}

export interface GatewayReads {
  /** Serves GET `url` (a Fastify route pattern) with `run` too; restView calls it. */
  add(url: string, status: number, run: (req: ViewRequest) => Promise<unknown>): void;
  /** Takes the request (true) or leaves it to `fastify` untouched (false). */
  serve(req: IncomingMessage, res: ServerResponse, fastify: Handler): boolean;
}

export interface GatewayReadsOptions {
  secrets: { apiKeyHash: Buffer };
  /**
   * The failure lockout and the API budget (rate-limit.ts): the operator's when the key is right.
   * Absent when both are off.
   */
  spend?: ((raw: IncomingMessage) => Promise<RateLimitOutcome>) | undefined;
  onAnswer?: OnAnswer;
  log: Logger;
  /** True once the app has begun closing: Fastify then answers 503. */
  closing: () => boolean;
}

const PREFIX = '/api/video/';
const typed = (type: string) => Object.freeze({ 'content-type': type });
const JSON_TYPE = typed('application/json; charset=utf-8');
const TEXT_TYPE = typed('text/plain; charset=utf-8');
const BYTES_TYPE = typed('application/octet-stream');
const NO_TYPE: Readonly<Record<string, string>> = Object.freeze({});

interface Payload {
  type: Readonly<Record<string, string>>;
  parts: (string | Buffer)[];
}

/** What Fastify's reply.send makes of a handler's result, so both paths answer alike. */
function payloadOf(result: unknown): Payload {
  if (result === undefined) return { type: NO_TYPE, parts: [] };
  if (typeof result === 'string') return { type: TEXT_TYPE, parts: [result] };
  if (Buffer.isBuffer(result)) return { type: BYTES_TYPE, parts: [result] };
  return { type: JSON_TYPE, parts: [JSON.stringify(result)] };
}

export function gatewayFastPath(o: GatewayReadsOptions): GatewayReads {
  const router = FindMyWay<FindMyWay.HTTPVersion.V1>(ROUTER_OPTIONS);
  const flatFor = flatHeaders();

  const answer = (
    req: IncomingMessage,
    res: ServerResponse,
    read: Read,
    started: number,
    status: number,
    payload: Payload,
    extra: ReadonlyArray<Readonly<Record<string, string>> | undefined>,
    id?: string,
  ) =>
    writeFastAnswer(
      req,
      res,
      {
        method: 'GET',
        route: read.url,
        started,
        status,
        headers: flatFor(payload.type),
        extra,
        parts: payload.parts,
        ...(id !== undefined ? { id } : {}),
      },
      o,
    );

  const run = async (
    req: IncomingMessage,
    res: ServerResponse,
    read: Read,
    parts: ViewRequest,
    authorization: string,
    fastify: Handler,
  ) => {
    const started = performance.now();
    let limits: RateLimitOutcome | undefined;
    try {
      // Not even an await without a limit: each one is a turn before the platform is asked.
      if (o.spend) limits = await o.spend(req);
    } catch (err) {
      o.log.error({ err }, 'gateway fast path: the rate limit failed');
      return fastify(req, res);
    }
    // A refusal (a spent budget, or an address locked out for failed keys, whatever its key)
    // and a wrong key are Fastify's to answer, from the outcome recorded on the request.
    if (limits?.refused || !bearerKeyValid(o.secrets, authorization)) return fastify(req, res);
    try {
      const result = await read.run(parts);
      answer(req, res, read, started, read.status, payloadOf(result), [limits?.headers]);
    } catch (err) {
      if (res.headersSent) return res.destroy();
      const { status, body } = errorResponse(err as Error);
      // Logged as the error handler logs them, with the request id Fastify's logger would bind.
      const id = requestId(req);
      logErrorAnswer(o.log, err, status, body, { reqId: id });
      const headers = err instanceof AppError ? err.headers : undefined;
      answer(req, res, read, started, status, payloadOf(body), [limits?.headers, headers], id);
    }
  };

  return {
    add(url, status, serve) {
      router.on('GET', url, () => undefined, { url, status, run: serve } satisfies Read);
    },
    serve(req, res, fastify) {
      const url = req.url ?? '';
      if (req.method !== 'GET' || !url.startsWith(PREFIX)) return false;
      const h = req.headers;
      // A body, a session cookie or no key: the route's own checks answer those.
      if (h['content-length'] !== undefined || h['transfer-encoding'] !== undefined) return false;
      if (h.authorization === undefined || o.closing()) return false;
      let found: FindMyWay.FindResult<FindMyWay.HTTPVersion.V1> | null;
      try {
        found = router.find('GET', url);
      } catch {
        return false;
      }
      if (!found) return false;
      // Without a limit the key decides here; with one, after the lockout, as on Fastify's routes
      // (rate-limit.ts): a locked-out address gets the same answer whatever its key.
      if (!o.spend && !bearerKeyValid(o.secrets, h.authorization)) return false;
      const parts: ViewRequest = { query: found.searchParams, params: found.params, body: undefined };
      void run(req, res, found.store as Read, parts, h.authorization, fastify);
      return true;
    },
  };
}
