/**
 * The app's one route table. Every route registers with Fastify as usual; this module notes each
 * one (onRoute) and, once all are in, puts them in a find-my-way router with Fastify's own matching options, and two readers use
 * it: the not-found handler, which answers 405 with Allow for a known path asked with a method
 * no route serves (404 otherwise), and the edge (edge.ts), which serves the routes that declared
 * a precomputed answer (`config.precomputed`) before Fastify routes them.
 * A 405 route per path and missing method would do the first through Fastify's own router, but
 * that is ~5 routes more per path, built at every start (~40 ms here).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import FindMyWay from 'find-my-way';
import type { Precomputed } from '../core/precomputed.js';
import { errorBody } from './errors.js';

/** Picks a route's precomputed answer from the raw path and query, or leaves it to its handler. */
export type PrecomputedPick = (path: string, query: string) => Precomputed | undefined;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A public GET/HEAD route whose answer is one of its precomputed responses: the edge may
     * send it without routing the request. The handler must answer the same (sendPrecomputed).
     */
    precomputed?: PrecomputedPick;
  }
}

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The app's router options (app.ts), which the table's lookups must match. */
export const ROUTER_OPTIONS = { ignoreTrailingSlash: false, maxParamLength: 200 } as const;

/** What the table knows of a route pattern. */
export interface RouteEntry {
  /** The pattern, as Fastify reports it (req.routeOptions.url): the metrics label. */
  url: string;
  /** Its methods, as an Allow header. */
  allow: string;
  precomputed: PrecomputedPick | undefined;
}

export interface RouteTable {
  /** The entry of the pattern a raw path matches; undefined before ready and for unknown paths. */
  find(path: string): RouteEntry | undefined;
  /**
   * The not-found handler with `headers` added to its 404 and 405: for a scope whose answers
   * carry headers of their own (the public brand's CORS header) on its prefix.
   */
  unrouted: (headers: Record<string, string>) => (req: FastifyRequest, reply: FastifyReply) => FastifyReply;
}

/**
 * Starts noting routes (call before the first one); the lookup is built once every plugin has
 * registered its routes (onReady), so areas may be encapsulated plugins. Installs the not-found
 * handler, which answers 405 for known paths and calls `notFound` for the rest.
 */
export function routeTable(
  app: FastifyInstance,
  notFound: (req: FastifyRequest, reply: FastifyReply) => FastifyReply,
): RouteTable {
  const byUrl = new Map<string, { methods: Set<string>; precomputed?: PrecomputedPick }>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const noted = byUrl.get(route.url) ?? { methods: new Set<string>() };
    for (const m of methods) noted.methods.add(m.toUpperCase());
    // Fastify adds HEAD beside every GET by itself (exposeHeadRoutes).
    if (noted.methods.has('GET')) noted.methods.add('HEAD');
    const pick = (route.config as { precomputed?: PrecomputedPick } | undefined)?.precomputed;
    if (pick) noted.precomputed = pick;
    byUrl.set(route.url, noted);
  });
  let router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1> | undefined;
  app.addHook('onReady', (done) => {
    const paths = FindMyWay<FindMyWay.HTTPVersion.V1>(ROUTER_OPTIONS);
    for (const [url, noted] of byUrl) {
      const allow = METHODS.filter((m) => noted.methods.has(m)).join(', ');
      paths.on('GET', url, () => undefined, {
        url,
        allow,
        precomputed: noted.precomputed,
      } satisfies RouteEntry);
    }
    router = paths;
    done();
  });
  const find = (path: string): RouteEntry | undefined => {
    try {
      return router?.find('GET', path)?.store as RouteEntry | undefined;
    } catch {
      // A path find-my-way cannot decode: Fastify answers it.
      return undefined;
    }
  };
  const unrouted =
    (headers: Record<string, string>) =>
    (req: FastifyRequest, reply: FastifyReply): FastifyReply => {
      void reply.headers(headers);
      const allow = find(req.url)?.allow;
      if (allow === undefined) return notFound(req, reply);
      return reply
        .code(405)
        .header('allow', allow)
        .type('application/json; charset=utf-8')
        .send(errorBody('method_not_allowed', `${req.method} is not allowed here; use ${allow}.`, { allow }));
    };
  app.setNotFoundHandler(unrouted({}));
  return { find, unrouted };
}
