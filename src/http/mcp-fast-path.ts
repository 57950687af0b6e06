/**
 * The MCP hot path in front of Fastify: a POST to the public MCP endpoint whose answer is already
 * cached (brand answers are pure functions of the request and the catalog) is answered from the
 * cached bytes, after the same checks the Fastify route makes: Host and Origin, JSON content
 * type, body limit and the caller's rate limit (spent through the same limiter); the answer
 * carries the same CORS, rate-limit and security headers and request id, is counted in the
 * metrics and logged. Anything else goes on to Fastify: untouched when refused before the body
 * is read (Fastify then answers the refusal), with the body handed over after (a cache miss or a
 * message the SDK must answer), so the route serves it exactly as it always does.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { MCP_BODY_LIMIT, rpcError, type McpEndpoint } from '../mcp/mcp-endpoint.js';
import { handBodyToFastify, type McpEdgeChecks } from './mcp-edge.js';
import type { RateLimitOutcome } from './rate-limit.js';
import { flatHeaders, writeFastAnswer, type OnAnswer } from './fast-answer.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Takes the request (true) or leaves it to `fastify` untouched (false). */
export type McpFastPath = (req: IncomingMessage, res: ServerResponse, fastify: Handler) => boolean;

export interface McpFastPathOptions {
  path: string;
  checks: McpEdgeChecks;
  endpoint: Pick<McpEndpoint, 'cached'>;
  /** Spends the caller's MCP budget (rate-limit.ts); absent when the limit is off. */
  spend?: ((raw: IncomingMessage) => Promise<RateLimitOutcome>) | undefined;
  onAnswer?: OnAnswer;
  log: Logger;
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;

const headerOf = (headers: IncomingHttpHeaders) => (name: string) => {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** The whole body, or undefined when the client went away before sending it. */
function readBody(req: IncomingMessage, length: number): Promise<Buffer | undefined> {
  // Gone while its rate limit was checked: its 'close' has already been emitted.
  if (req.destroyed) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length)));
    req.once('close', () => resolve(undefined));
  });
}

export function mcpFastPath(o: McpFastPathOptions): McpFastPath {
  const flatFor = flatHeaders();
  const answer = (
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
    status: number,
    headers: string[],
    limits: RateLimitOutcome | undefined,
    parts: Buffer[],
  ) =>
    writeFastAnswer(
      req,
      res,
      {
        method: 'POST',
        route: o.path,
        started,
        status,
        headers,
        extra: [o.checks.cors(req.headers), limits?.headers],
        parts,
      },
      o,
    );

  const serve = async (req: IncomingMessage, res: ServerResponse, length: number, fastify: Handler) => {
    const started = performance.now();
    let limits: RateLimitOutcome | undefined;
    let bodyRead = false;
    try {
      limits = await o.spend?.(req);
      // Fastify's rate-limit hook answers the refusal recorded on the request, in JSON-RPC.
      if (limits?.refused) return fastify(req, res);
      const body = await readBody(req, length);
      bodyRead = true;
      if (!body) return;
      const hit = o.endpoint.cached(body, headerOf(req.headers));
      if (!hit) {
        handBodyToFastify(req, body);
        return fastify(req, res);
      }
      answer(req, res, started, hit.status, flatFor(hit.headers), limits, [hit.head, hit.tail]);
    } catch (err) {
      o.log.error({ err }, 'mcp fast path failed');
      if (!bodyRead) return fastify(req, res);
      if (res.headersSent) return res.destroy();
      const r = rpcError(500, -32603, 'Internal error.');
      answer(req, res, started, r.status, flatFor(r.headers), limits, [r.body as Buffer]);
    }
  };

  return (req, res, fastify) => {
    if (req.method !== 'POST' || req.url !== o.path) return false;
    // Only what the route would accept: the route answers every refusal itself.
    const length = Number(req.headers['content-length']);
    if (!(length > 0 && length <= MCP_BODY_LIMIT)) return false;
    if (!JSON_TYPE.test(req.headers['content-type'] ?? '') || o.checks.originProblem(req.headers))
      return false;
    void serve(req, res, length, fastify);
    return true;
  };
}
