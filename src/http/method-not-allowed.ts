/**
 * 405 with Allow for known paths asked with a method they do not serve. Routes register
 * normally and this module notes each path's methods; a request no route serves reaches the
 * not-found handler, which looks its path up among the known ones (one find-my-way router with
 * Fastify's matching options) and answers 405 where the path exists, 404 otherwise.
 * A 405 route per path and missing method would do the same through Fastify's own router, but
 * that is ~5 routes more per path, built at every start (~40 ms here).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import FindMyWay from 'find-my-way';
import { errorBody } from './errors.js';

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The app's router options (app.ts), which the path lookup must match. */
export const ROUTER_OPTIONS = { ignoreTrailingSlash: false, maxParamLength: 200 } as const;

/**
 * Starts noting routes; the returned function (call it after the last route) installs the
 * not-found handler, which answers 405 for known paths and calls `notFound` for the rest.
 */
export function trackRoutes(
  app: FastifyInstance,
  notFound: (req: FastifyRequest, reply: FastifyReply) => FastifyReply,
): () => void {
  const byUrl = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = byUrl.get(route.url) ?? new Set<string>();
    for (const m of methods) set.add(m.toUpperCase());
    // Fastify adds HEAD beside every GET by itself (exposeHeadRoutes).
    if (set.has('GET')) set.add('HEAD');
    byUrl.set(route.url, set);
  });
  return () => {
    const paths = FindMyWay<FindMyWay.HTTPVersion.V1>(ROUTER_OPTIONS);
    for (const [url, served] of byUrl) {
      const allow = METHODS.filter((m) => served.has(m)).join(', ');
      paths.on('GET', url, () => undefined, { allow });
    }
    app.setNotFoundHandler((req, reply) => {
      const allow = (paths.find('GET', req.url)?.store as { allow: string } | undefined)?.allow;
      if (allow === undefined) return notFound(req, reply);
      return reply
        .code(405)
        .header('allow', allow)
        .type('application/json; charset=utf-8')
        .send(errorBody('method_not_allowed', `${req.method} is not allowed here; use ${allow}.`, { allow }));
    });
  };
}
