/**
 * Limits on slow and numerous clients for our HTTP server: a deadline for a request's head and
 * one for the whole request (its body included), enforced by Node's own checks, which here run
 * often enough for deadlines of seconds; a cap on connections open at once, and a lower one per
 * client address, so that one client cannot take the whole cap. Kept-alive connections between
 * requests are not requests: keepAliveTimeout alone ends those.
 */
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { addressKey } from './address-key.js';

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

/**
 * Caps the connections open at once from one client (address-key.ts: an IPv6 client is its /64):
 * past `max`, its new connections are closed at once, unanswered, before a byte is read (an
 * answer would cost what the limit saves), while other addresses are served as before. A peer
 * for which `exempt` holds (a proxy FLEETGATE_TRUST_PROXY believes) carries many clients on its
 * connections and is not capped as one; the global cap still bounds it. One warning a minute
 * while connections are being turned away.
 */
export function capConnectionsPerAddress(
  server: Server,
  max: number,
  exempt: (address: string) => boolean,
  logger: Logger,
  now = Date.now,
): void {
  if (max === 0) return;
  const open = new Map<string, number>();
  let warnedAt = -Infinity;
  let dropped = 0;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || exempt(address)) return;
    const client = addressKey(address);
    const n = open.get(client) ?? 0;
    if (n >= max) {
      socket.destroy();
      dropped += 1;
      if (now() - warnedAt < 60_000) return;
      warnedAt = now();
      logger.warn(
        { client, maxConnectionsPerIp: max, dropped },
        'per-address connection limit reached: its new connections are closed (FLEETGATE_MAX_CONNECTIONS_PER_IP)',
      );
      dropped = 0;
      return;
    }
    open.set(client, n + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left > 0) open.set(client, left);
      else open.delete(client);
    });
  });
}
