/**
 * Limits on slow and numerous clients for our HTTP server: a deadline for a request's head and
 * one for the whole request (its body included), enforced by Node's own checks, which here run
 * often enough for deadlines of seconds; and a cap on connections open at once. Kept-alive
 * connections between requests are not requests: keepAliveTimeout alone ends those.
 */
import type { Server, ServerOptions } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from '../config.js';

export function serverOptions(limits: Config['http']): ServerOptions {
  return {
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    // Node looks for late requests every 30 s by default, which would let a 10 s deadline run
    // to 40 s; a quarter of the shorter deadline (at most a second) keeps them near their word.
    connectionsCheckingInterval: Math.max(
      25,
      Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)),
    ),
  };
}

/** Caps open connections; one warning a minute while connections are being turned away. */
export function capConnections(server: Server, max: number, logger: Logger, now = Date.now): void {
  server.maxConnections = max;
  let warnedAt = -Infinity;
  let dropped = 0;
  server.on('drop', () => {
    dropped += 1;
    if (now() - warnedAt < 60_000) return;
    warnedAt = now();
    logger.warn(
      { maxConnections: max, dropped },
      'connection cap reached: new connections are closed unanswered (FLEETGATE_MAX_CONNECTIONS)',
    );
    dropped = 0;
  });
}
