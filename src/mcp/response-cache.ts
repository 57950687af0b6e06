/**
 * A cache of whole JSON-RPC results for a server whose answers depend only on the request and
 * the data it serves (the brand: read-only, no per-client state). The key holds everything the
 * SDK looks at (method, params incl. _meta, and the protocol headers), the value is the
 * serialized result; a hit only splices in the caller's id. Entries live per data version
 * (the catalog object), so a brand reload starts a fresh cache, and the count is capped so
 * varied arguments cannot grow it without bound.
 */
const CACHEABLE = new Set([
  'initialize',
  'server/discover',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
]);
const KEY_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name'];
const MAX_ENTRIES = 512;
const MAX_RESULT_BYTES = 512 * 1024;

interface Entry {
  status: number;
  headers: Record<string, string>;
  /** `{"result":…,"jsonrpc":"2.0","id":` — the caller's id and `}` complete it. */
  head: Buffer;
}

export interface CachedParts {
  status: number;
  headers: Record<string, string>;
  head: Buffer;
  tail: Buffer;
}

export class McpResponseCache {
  #scope: object | undefined;
  #entries = new Map<string, Entry>();

  /** The key for a request, or undefined when the request is not one we cache. */
  keyFor(
    msg: { method?: unknown; params?: unknown; id?: unknown },
    header: (name: string) => string | undefined,
  ): string | undefined {
    if (typeof msg.method !== 'string' || !CACHEABLE.has(msg.method) || msg.id === undefined)
      return undefined;
    return JSON.stringify([msg.method, msg.params ?? null, KEY_HEADERS.map((h) => header(h) ?? null)]);
  }

  /**
   * A hit as its two parts, the cached head and the caller's `id}`: written one after the other,
   * they need no copy of the result (mcp-endpoint.ts).
   */
  parts(scope: object, key: string, id: string | number): CachedParts | undefined {
    if (scope !== this.#scope) return undefined;
    const e = this.#entries.get(key);
    if (!e) return undefined;
    return {
      status: e.status,
      headers: e.headers,
      head: e.head,
      tail: Buffer.from(`${JSON.stringify(id)}}`),
    };
  }

  /** Keeps a successful single JSON result; errors and anything unusual are never cached. */
  put(
    scope: object,
    key: string,
    status: number,
    headers: Record<string, string>,
    body: Buffer | undefined,
    id: unknown,
  ): void {
    if (
      status !== 200 ||
      !body ||
      body.length > MAX_RESULT_BYTES ||
      !headers['content-type']?.startsWith('application/json')
    )
      return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return;
    }
    const msg = parsed as { result?: unknown; id?: unknown; error?: unknown };
    if (msg.error !== undefined || msg.result === undefined || msg.id !== id) return;
    if (scope !== this.#scope) {
      this.#scope = scope;
      this.#entries.clear();
    }
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(key, {
      status,
      headers,
      head: Buffer.from(`{"result":${JSON.stringify(msg.result)},"jsonrpc":"2.0","id":`),
    });
  }
}
