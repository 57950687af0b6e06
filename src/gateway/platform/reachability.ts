/**
 * Whether the platform can be reached, as the platform client last found it, and why not: each
 * attempt that goes out ends as an answer or as a failure with a cause (connection refused, a
 * name that does not resolve, no answer in time, …) read from the socket error, or an answer
 * that is a server error. The status report and the monitor show it; the dashboard and the CLI
 * show what they say.
 */

/** Why the platform's calls fail; token_refresh_failed is the status report's own finding. */
export const PLATFORM_CAUSES = [
  'connection_refused',
  'dns_failure',
  'timeout',
  'connection_reset',
  'host_unreachable',
  'tls_failure',
  'network_error',
  'server_error',
  'token_refresh_failed',
] as const;
export type PlatformCause = (typeof PLATFORM_CAUSES)[number];

/** The platform as last found: `reachable` is false while its calls fail without an answer. */
export interface PlatformTrouble {
  reachable: boolean;
  cause: PlatformCause;
  message: string;
  /** The first failure of the current run, ISO 8601. */
  since: string;
}

const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL']);
const TIMEOUT = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']);
const TLS = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/** The socket error's code: on the error, or on its cause (fetch wraps it in a TypeError). */
export function errorCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; depth++) {
    if (typeof e.code === 'string') return e.code;
    // Happy eyeballs fails with an AggregateError of each address's error.
    const first = (e as { errors?: unknown[] }).errors?.[0] as { code?: unknown } | undefined;
    if (typeof first?.code === 'string') return first.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** Why a request got no answer, from what the transport threw. */
export function causeOf(err: unknown): PlatformCause {
  const name = (err as Error | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'timeout';
  const code = errorCode(err) ?? '';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (DNS.has(code)) return 'dns_failure';
  if (TIMEOUT.has(code)) return 'timeout';
  if (RESET.has(code)) return 'connection_reset';
  if (UNREACHABLE.has(code)) return 'host_unreachable';
  if (TLS.test(code)) return 'tls_failure';
  return 'network_error';
}

/** A sentence naming the cause and where, for people (the report's note, the dashboard, the CLI). */
export function troubleMessage(
  cause: PlatformCause,
  target: { host: string; hostname: string },
  detail: { code?: string | undefined; timeoutMs?: number; status?: number },
): string {
  const code = detail.code ? ` (${detail.code})` : '';
  switch (cause) {
    case 'connection_refused':
      return `The platform cannot be reached: ${target.host} refused the connection${code}.`;
    case 'dns_failure':
      return `The platform cannot be reached: its host name ${target.hostname} does not resolve${code}.`;
    case 'timeout':
      return `The platform cannot be reached: ${target.host} did not answer within ${detail.timeoutMs ?? '?'} ms.`;
    case 'connection_reset':
      return `The platform cannot be reached: ${target.host} closed the connection before answering${code}.`;
    case 'host_unreachable':
      return `The platform cannot be reached: there is no route to ${target.host}${code}.`;
    case 'tls_failure':
      return `The platform cannot be reached: the TLS handshake with ${target.host} failed${code}.`;
    case 'network_error':
      return `The platform cannot be reached: the connection to ${target.host} failed${code}.`;
    case 'server_error':
      return `The platform answers with server errors (HTTP ${detail.status ?? '5xx'}).`;
    case 'token_refresh_failed':
      return 'The platform did not renew the access token.';
  }
}

/**
 * The platform's reachability as the calls find it. A failed attempt starts (or continues) a run
 * of trouble; any answer that is not a server error ends it. Instants are numbers, formatted
 * only when read.
 */
export class Reachability {
  #trouble: { cause: PlatformCause; message: string; since: number } | undefined;
  #lastAnswer: number | undefined;
  #changes = 0;

  constructor(
    private readonly apiBase: string,
    private readonly now: () => number,
  ) {}

  /** The platform answered (a server error is still trouble: see failed()). */
  answered(): void {
    this.#lastAnswer = this.now();
    if (this.#trouble && this.#trouble.cause !== 'server_error') this.#changes += 1;
    this.#trouble = undefined;
  }

  /** An attempt failed: no answer (the transport's error), or an answer that is a server error. */
  failed(failure: { error: unknown; timeoutMs: number } | { status: number }): void {
    const u = new URL(this.apiBase);
    const target = { host: u.host, hostname: u.hostname };
    let cause: PlatformCause;
    let message: string;
    if ('status' in failure) {
      this.#lastAnswer = this.now();
      cause = 'server_error';
      message = troubleMessage(cause, target, { status: failure.status });
    } else {
      cause = causeOf(failure.error);
      message = troubleMessage(cause, target, {
        code: errorCode(failure.error),
        timeoutMs: failure.timeoutMs,
      });
    }
    const wasReachable = !this.#trouble || this.#trouble.cause === 'server_error';
    if (wasReachable && cause !== 'server_error') this.#changes += 1;
    this.#trouble = { cause, message, since: this.#trouble?.since ?? this.now() };
  }

  /**
   * How many times the platform has gone out of reach or come back: what was concluded from the
   * calls before a change no longer holds after it. Server errors alone change nothing here, so
   * a platform failing now and then does not count.
   */
  changes(): number {
    return this.#changes;
  }

  /** The current trouble, undefined while the platform answers. */
  trouble(): PlatformTrouble | undefined {
    const t = this.#trouble;
    if (!t) return undefined;
    return {
      reachable: t.cause === 'server_error',
      cause: t.cause,
      message: t.message,
      since: new Date(t.since).toISOString(),
    };
  }

  /** When the platform last answered anything, ISO 8601; null before its first answer. */
  lastAnswerAt(): string | null {
    return this.#lastAnswer === undefined ? null : new Date(this.#lastAnswer).toISOString();
  }
}
