/**
 * A small MCP client for the platform's hosted MCP server (the only home of its meeting search
 * and AI "ask"). Streamable HTTP, 2025-11-25 handshake era: POST `initialize`, POST
 * `notifications/initialized`, then POST `tools/call`, each with
 * `Accept: application/json, text/event-stream`; an answer is either one JSON body or an SSE
 * stream whose event carrying our response id we read (other events are skipped).
 *
 * Hand-written over fetch rather than the SDK client: `@modelcontextprotocol/client` is only in
 * node_modules as a transitive dependency of dev tools (and `@modelcontextprotocol/sdk` is a
 * devDependency), so production code cannot rely on either.
 *
 * The initialized session (protocol version and `Mcp-Session-Id`, if the server issues one) is
 * kept per access token for a few minutes; a 404 (or 400) on a kept session starts a new one
 * once. Every failure to get a tool result — not configured, unreachable, timed out, HTTP
 * error, JSON-RPC error, unreadable answer — is `AppError(503, 'hosted_mcp_unavailable')`, so
 * callers can fall back; a tool's own error (`isError: true`, e.g. a bad page token) is
 * `AppError(400, 'hosted_mcp_tool_error')` with the tool's message.
 */
import { AppError } from '../../core/errors.js';
import { USER_AGENT, VERSION } from '../../version.js';
import type { HostedMcp } from '../capabilities/operation.js';
import type { TokenManager } from '../oauth/token-manager.js';

export interface HostedMcpClientOptions {
  /** The hosted MCP endpoint (streamable HTTP); undefined when not configured. */
  url: string | undefined;
  tokens: Pick<TokenManager, 'current'>;
  fetch: typeof fetch;
  /** Budget for one tool call, handshake included. */
  timeoutMs: number;
  /** How long an initialized session is reused (default 5 minutes). */
  sessionTtlMs?: number;
  now?: () => number;
}

/** The revision we speak, and the 2025-era ones we accept when the server negotiates down. */
export const MCP_PROTOCOL_VERSION = '2025-11-25';
const ACCEPTED_VERSIONS = new Set(['2025-11-25', '2025-06-18', '2025-03-26']);

interface Session {
  token: string;
  protocolVersion: string;
  sessionId: string | undefined;
  expiresAt: number;
}

interface RpcResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const unavailable = (message: string, details: Record<string, unknown>) =>
  new AppError(503, 'hosted_mcp_unavailable', message, details);

/** An HTTP answer that says a kept session is gone (or never existed on this server). */
class StaleSession extends Error {}

export class HostedMcpClient implements HostedMcp {
  #session: Session | undefined;
  #nextId = 1;
  readonly #now: () => number;
  readonly #ttl: number;

  constructor(private readonly o: HostedMcpClientOptions) {
    this.#now = o.now ?? Date.now;
    this.#ttl = o.sessionTtlMs ?? 5 * 60_000;
  }

  get configured(): boolean {
    return this.o.url !== undefined;
  }

  /** Forget the kept session (after unlink, or to force a new handshake). */
  reset(): void {
    this.#session = undefined;
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ structured: unknown; text: string }> {
    const url = this.o.url;
    if (url === undefined) {
      throw unavailable("The platform's hosted MCP server is not configured.", { reason: 'not_configured' });
    }
    // not_linked / needs_relink propagate as they are: no fallback can help then either.
    const token = (await this.o.tokens.current()).value;
    const signal = AbortSignal.timeout(this.o.timeoutMs);
    try {
      let session = this.#kept(token);
      const reused = session !== undefined;
      session ??= await this.#initialize(url, token, signal);
      let result: unknown;
      try {
        result = await this.#request(url, session, 'tools/call', { name, arguments: args }, signal, reused);
      } catch (err) {
        if (!(err instanceof StaleSession)) throw err;
        this.#session = undefined;
        session = await this.#initialize(url, token, signal);
        result = await this.#request(url, session, 'tools/call', { name, arguments: args }, signal, false);
      }
      return toolResult(name, result);
    } catch (err) {
      if (err instanceof AppError && err.code === 'hosted_mcp_tool_error') throw err;
      this.#session = undefined;
      if (err instanceof AppError) throw err;
      const e = err as Error;
      if (e.name === 'TimeoutError' || e.name === 'AbortError') {
        throw unavailable("The platform's hosted MCP server did not answer in time.", {
          reason: 'timeout',
          tool: name,
          timeoutMs: this.o.timeoutMs,
        });
      }
      const cause = (e as { cause?: { code?: unknown } }).cause?.code;
      throw unavailable("The platform's hosted MCP server could not be reached.", {
        reason: 'network',
        tool: name,
        cause: typeof cause === 'string' ? cause : e.name,
      });
    }
  }

  #kept(token: string): Session | undefined {
    const s = this.#session;
    return s && s.token === token && s.expiresAt > this.#now() ? s : undefined;
  }

  async #initialize(url: string, token: string, signal: AbortSignal): Promise<Session> {
    const pending: Session = {
      token,
      protocolVersion: MCP_PROTOCOL_VERSION,
      sessionId: undefined,
      expiresAt: 0,
    };
    const { result, sessionId } = await this.#post(
      url,
      pending,
      {
        jsonrpc: '2.0',
        id: this.#nextId++,
        method: 'initialize',
        params: {
          protocolVersion: MCP_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'fleetgate', version: VERSION },
        },
      },
      signal,
      false,
    );
    const version = isObject(result) ? result['protocolVersion'] : undefined;
    if (typeof version !== 'string' || !ACCEPTED_VERSIONS.has(version)) {
      throw unavailable("The platform's hosted MCP server speaks a protocol revision we do not.", {
        reason: 'protocol_version',
        offered: typeof version === 'string' ? version : null,
      });
    }
    const session: Session = {
      token,
      protocolVersion: version,
      sessionId,
      expiresAt: this.#now() + this.#ttl,
    };
    await this.#post(url, session, { jsonrpc: '2.0', method: 'notifications/initialized' }, signal, false);
    this.#session = session;
    return session;
  }

  async #request(
    url: string,
    session: Session,
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
    staleable: boolean,
  ): Promise<unknown> {
    const { result } = await this.#post(
      url,
      session,
      { jsonrpc: '2.0', id: this.#nextId++, method, params },
      signal,
      staleable,
    );
    return result;
  }

  /**
   * One POST. For a request (with id) returns its result; for a notification, nothing.
   * `staleable`: the session was kept from before, so 404/400 means "start a new one".
   */
  async #post(
    url: string,
    session: Session,
    message: { jsonrpc: '2.0'; id?: number; method: string; params?: Record<string, unknown> },
    signal: AbortSignal,
    staleable: boolean,
  ): Promise<{ result: unknown; sessionId: string | undefined }> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${session.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'user-agent': USER_AGENT,
    };
    if (message.method !== 'initialize') headers['mcp-protocol-version'] = session.protocolVersion;
    if (session.sessionId !== undefined) headers['mcp-session-id'] = session.sessionId;
    const res = await this.o.fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(message),
      signal,
    });
    const sessionId = res.headers.get('mcp-session-id') ?? undefined;
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      if (staleable && (res.status === 404 || res.status === 400)) throw new StaleSession();
      throw unavailable(`The platform's hosted MCP server answered HTTP ${res.status}.`, {
        reason: 'http_status',
        status: res.status,
        method: message.method,
      });
    }
    if (message.id === undefined) {
      // A notification: 202 Accepted with no body is the rule; anything 2xx will do.
      await res.body?.cancel().catch(() => undefined);
      return { result: undefined, sessionId };
    }
    const type = res.headers.get('content-type') ?? '';
    const response = /^text\/event-stream/i.test(type)
      ? await readSse(res, message.id)
      : /^application\/json/i.test(type)
        ? parseJson(await res.text())
        : undefined;
    if (!isRpcResponse(response) || response.id !== message.id) {
      throw unavailable("The platform's hosted MCP server sent an answer we cannot read.", {
        reason: 'bad_response',
        method: message.method,
        contentType: type || null,
      });
    }
    if (response.error !== undefined) {
      throw unavailable("The platform's hosted MCP server refused the request.", {
        reason: 'rpc_error',
        method: message.method,
        rpcCode: typeof response.error.code === 'number' ? response.error.code : null,
        rpcMessage: typeof response.error.message === 'string' ? response.error.message.slice(0, 300) : null,
      });
    }
    return { result: response.result, sessionId };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRpcResponse(v: unknown): v is RpcResponse {
  return isObject(v) && v['jsonrpc'] === '2.0' && 'id' in v && ('result' in v || isObject(v['error']));
}

/** Reads SSE events until the JSON-RPC response with our id arrives, then stops reading. */
async function readSse(res: Response, id: number): Promise<unknown> {
  if (!res.body) return undefined;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffer += value;
      // Events end with a blank line; a stream that ends counts as the end of the last event.
      const events = buffer.split(/\r\n\r\n|\n\n|\r\r/);
      buffer = done ? '' : (events.pop() ?? '');
      for (const event of events) {
        const data = event
          .split(/\r\n|\n|\r/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data === '') continue;
        const msg = parseJson(data);
        if (isRpcResponse(msg) && msg.id === id) return msg;
      }
      if (done) return undefined;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** A `tools/call` result as `{structured, text}`; a tool's own error becomes a 400. */
function toolResult(name: string, result: unknown): { structured: unknown; text: string } {
  if (!isObject(result) || !Array.isArray(result['content'])) {
    throw unavailable("The platform's hosted MCP server sent a tool result we cannot read.", {
      reason: 'bad_response',
      tool: name,
    });
  }
  const text = (result['content'] as unknown[])
    .filter((c): c is { type: 'text'; text: string } => isObject(c) && c['type'] === 'text')
    .map((c) => String(c.text))
    .join('\n');
  if (result['isError'] === true) {
    throw new AppError(
      400,
      'hosted_mcp_tool_error',
      text.slice(0, 500) || `The hosted ${name} tool failed.`,
      { tool: name },
    );
  }
  // Servers without output schemas put the JSON in the text content.
  const structured: unknown = result['structuredContent'] ?? parseJson(text);
  return { structured, text };
}
