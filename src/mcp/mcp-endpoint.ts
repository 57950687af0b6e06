/**
 * Serves an MCP server factory over streamable HTTP for both protocol eras, statelessly (the SDK
 * side is mcp-sdk-handler.ts). In front of the SDK sit the checks it leaves to us: Origin
 * allow-list, body limit, JSON and envelope validation with spec error codes; and the answer
 * cache. The SDK and the server factory load on the first request that needs them: the SDK
 * (~650 KB of bundle, its schemas built as it loads) is not needed to be ready, and a process
 * that serves no MCP never loads it.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import type { McpServer } from '@modelcontextprotocol/server';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../core/json-depth.js';
import type { SdkHandler } from './mcp-sdk-handler.js';
import { McpResponseCache, type CachedParts } from './response-cache.js';

export const MCP_BODY_LIMIT = 256 * 1024;

export interface RpcReply {
  status: number;
  headers: Record<string, string>;
  /** A stream only for SSE (subscriptions/listen); everything else is answered as one JSON body. */
  body: Buffer | Readable | undefined;
}

export const rpcError = (
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): RpcReply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })),
});

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks the JSON-RPC 2.0 envelope; the SDK answers malformed ones with the wrong code. */
export function envelopeProblem(msg: unknown): string | undefined {
  if (Array.isArray(msg)) return 'Batch requests are not supported; send one JSON-RPC message per POST.';
  if (!isObject(msg)) return 'The body must be a JSON-RPC 2.0 message object.';
  if (msg['jsonrpc'] !== '2.0') return 'jsonrpc must be "2.0".';
  const hasId = 'id' in msg;
  // MCP's RequestId, with the integers the SDK takes (its zod .int() is the safe range, and a
  // larger one would not come back as sent): the cache must refuse what the SDK would.
  if (hasId && !(typeof msg['id'] === 'string' || Number.isSafeInteger(msg['id']))) {
    return 'id must be a string or an integer from -(2^53 - 1) to 2^53 - 1.';
  }
  if ('method' in msg) {
    if (typeof msg['method'] !== 'string' || msg['method'] === '')
      return 'method must be a non-empty string.';
    if ('params' in msg && !isObject(msg['params'])) return 'params must be an object.';
    return undefined;
  }
  if (hasId && ('result' in msg || 'error' in msg)) return undefined;
  return 'The message is neither a request, a notification nor a response.';
}

/** A JSON-RPC message that passed envelopeProblem(). */
type Message = { method?: unknown; params?: unknown; id?: string | number };

/**
 * A message nested too deep for the cache key and the SDK's validation to walk: an
 * invalid-params error (the envelope is fine; what it carries is not), with the request's id.
 */
const tooDeep = (msg: Message): RpcReply => ({
  status: 400,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(
    JSON.stringify({
      jsonrpc: '2.0',
      error: {
        code: msg.method === undefined ? -32600 : -32602,
        message: `Invalid ${msg.method === undefined ? 'Request' : 'params'}: nested deeper than ${MAX_JSON_DEPTH} levels.`,
      },
      id: msg.id ?? null,
    }),
  ),
});

export interface McpEndpoint {
  /**
   * The cached answer to a request body, or undefined when there is none (not cacheable, not
   * seen yet, or not a valid request: handle() then answers it). Never calls the SDK.
   */
  cached(body: Buffer, header: (name: string) => string | undefined): CachedParts | undefined;
  handle(input: {
    url: string;
    /** Header lookup by lower-case name; a Headers object is built only when the SDK is called. */
    header: (name: string) => string | undefined;
    headers: () => Headers;
    body: Buffer;
    /** Called only when the SDK runs (not for cached answers): an AbortController costs ~10 µs. */
    signal: () => AbortSignal;
  }): Promise<RpcReply>;
  close(): Promise<void>;
}

/**
 * @param loadFactory loads (once, on first use) what builds a fresh server for one request
 * @param cacheScope the data version answers depend on; results are reused while it is the same
 *   object (pass undefined for servers whose answers are not pure functions of the request)
 */
export function createMcpEndpoint(
  loadFactory: () => Promise<() => McpServer>,
  onerror: (err: Error) => void,
  cacheScope?: () => object,
): McpEndpoint {
  const cache = new McpResponseCache();
  let sdk: Promise<SdkHandler> | undefined;
  const loadSdk = (): Promise<SdkHandler> =>
    (sdk ??= Promise.all([import('./mcp-sdk-handler.js'), loadFactory()]).then(
      ([m, factory]) => m.createSdkHandler(factory, onerror, MCP_BODY_LIMIT),
      (err: unknown) => {
        sdk = undefined; // a failed load is tried again by the next request
        throw err;
      },
    ));

  /** Where a valid message's answer is kept (scope and key, if cacheable), and the answer if it is there. */
  const lookup = (msg: Message, header: (name: string) => string | undefined) => {
    const scope = cacheScope?.();
    const key = scope ? cache.keyFor(msg, header) : undefined;
    // keyFor answers only for messages with an id, and the envelope check made it a string or a number.
    const hit = scope && key !== undefined ? cache.parts(scope, key, msg.id as string | number) : undefined;
    return { scope, key, hit };
  };

  return {
    cached(body, header) {
      let msg: unknown;
      try {
        msg = JSON.parse(body.toString('utf8'));
      } catch {
        return undefined;
      }
      // Anything the route must refuse is left to it (handle()).
      if (envelopeProblem(msg) || nestsDeeperThan(msg)) return undefined;
      return lookup(msg as Message, header).hit;
    },
    async handle({ url, header, headers: buildHeaders, body, signal }) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return rpcError(400, -32700, 'Parse error: the body is not valid JSON.');
      }
      const problem = envelopeProblem(parsed);
      if (problem) return rpcError(400, -32600, `Invalid Request: ${problem}`);
      const msg = parsed as Message;
      if (nestsDeeperThan(msg)) return tooDeep(msg);
      const { scope, key, hit } = lookup(msg, header);
      if (hit) return { status: hit.status, headers: hit.headers, body: Buffer.concat([hit.head, hit.tail]) };
      const request = new Request(url, {
        method: 'POST',
        headers: buildHeaders(),
        body: new Uint8Array(body),
        signal: signal(),
      });
      const res = await (await loadSdk()).fetch(request, parsed);
      const out: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        if (k !== 'content-length') out[k] = v;
      });
      if (res.body && out['content-type']?.startsWith('text/event-stream')) {
        return {
          status: res.status,
          headers: out,
          body: Readable.fromWeb(res.body as NodeWebStream<Uint8Array>),
        };
      }
      const buf = res.body ? Buffer.from(await res.arrayBuffer()) : undefined;
      if (scope && key) cache.put(scope, key, res.status, out, buf, msg.id);
      return { status: res.status, headers: out, body: buf && buf.length > 0 ? buf : undefined };
    },
    close: async () => {
      if (sdk) await (await sdk.catch(() => undefined))?.close();
    },
  };
}
