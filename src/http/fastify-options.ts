/**
 * The Fastify options buildApp starts from: the logger (the API key redacted from logged URLs),
 * whose X-Forwarded-For is believed, the router, its errors, request ids, and the node:http
 * server in front of Fastify (the edge, Expect: 100-continue, a Host check, connection caps,
 * keep-alive). What the pipeline (pipeline.ts) sets up later and the server needs (the edge,
 * the Expect hook) meets it in a Front.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { LogController, type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { requestSerializer } from '../core/redact-url.js';
import { apiKeyMatches } from '../gateway/secrets.js';
import { trustFunction } from '../trust-proxy.js';
import { clientErrorHandler, expectationFailed, missingHost } from './client-errors.js';
import type { Edge } from './edge.js';
import { frameworkErrorHandler } from './errors.js';
import { expectContinue, type ExpectContinue } from './expect-continue.js';
import { requestId } from './request-id.js';
import { quietRequest } from './request-log.js';
import { ROUTER_OPTIONS } from './route-table.js';
import { lazySchemaCompilers } from './schema-compilers.js';
import { capConnections, capConnectionsPerAddress, serverOptions } from './server-limits.js';

/** Fastify's default keep-alive, longer than common load balancers' idle timeouts (60 s). */
export const KEEP_ALIVE_MS = 72_000;

/** What the server in front of Fastify shares with the pipeline installed on it. */
export interface Front {
  continues: ExpectContinue;
  /** Set once the route table exists (pipeline.ts); the server is made before it. */
  edge?: Edge;
}

export interface FastifyOptionsDeps {
  config: Config;
  logger: Logger;
  /** The API key's hash: the key is redacted from logged URLs whatever parameter carries it. */
  apiKeyHash?: Buffer;
}

export function fastifyOptions(deps: FastifyOptionsDeps, front: Front): FastifyServerOptions {
  // Whose X-Forwarded-For is believed: Fastify's req.ip (the lockout, the per-IP budgets, the
  // request log) follows it, and a believed proxy's connections are not capped as one client.
  const trust = deps.config.trustProxy && trustFunction(deps.config.trustProxy);
  const keyHash = deps.apiKeyHash;
  const logger = keyHash
    ? deps.logger.child(
        {},
        { serializers: { req: requestSerializer((v) => apiKeyMatches({ apiKeyHash: keyHash }, v)) } },
      )
    : deps.logger;
  return {
    loggerInstance: logger,
    ...(trust ? { trustProxy: trust } : {}),
    logController: new LogController({ disableRequestLogging: quietRequest }),
    return503OnClosing: true,
    schemaController: lazySchemaCompilers(),
    bodyLimit: 1024 * 1024,
    routerOptions: ROUTER_OPTIONS,
    frameworkErrors: frameworkErrorHandler,
    genReqId: requestId,
    clientErrorHandler: clientErrorHandler(deps.config.http),
    serverFactory: (handler) => frontServer(deps, front, handler, trust || undefined),
  };
}

/**
 * Routes that declared a precomputed answer are served by the edge (edge.ts) before Fastify;
 * their handlers serve the same answers for everything else and for app.inject().
 */
function frontServer(
  deps: FastifyOptionsDeps,
  front: Front,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  trust: ((address: string, hop: number) => boolean) | undefined,
) {
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    if (!missingHost(req, res) && !front.edge?.(req, res)) handler(req, res);
  };
  // Host is checked by missingHost, which answers in the one error shape.
  const server = createServer({ ...serverOptions(deps.config.http), requireHostHeader: false }, serve);
  server.on('checkContinue', (req, res) => front.continues.awaitContinue(req, res, serve));
  server.on('checkExpectation', (_req, res) => expectationFailed(res));
  capConnections(server, deps.config.http.maxConnections, deps.logger);
  capConnectionsPerAddress(
    server,
    deps.config.http.maxConnectionsPerIp,
    (address) => trust?.(address, 0) ?? false,
    deps.logger,
  );
  // Fastify applies its own keep-alive default only to servers it makes itself; without it
  // Node closes idle connections after 5 s, before a load balancer's usual 60 s, and a
  // proxy reusing such a connection gets a reset.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  return server;
}

/** A Front with nothing set yet: the pipeline installs the Expect hook and the edge. */
export function newFront(): Front {
  return { continues: expectContinue() };
}
