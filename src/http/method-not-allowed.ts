/**
 * 405 with Allow for known paths asked with a method they do not serve. Routes register
 * normally; this plugin, registered last, adds a 405 route for every other method of each path.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { errorBody } from './errors.js';

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function trackRoutes(app: FastifyInstance): () => void {
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
    for (const [url, served] of [...byUrl]) {
      const missing = METHODS.filter((m) => !served.has(m));
      if (missing.length === 0) continue;
      const allow = METHODS.filter((m) => served.has(m)).join(', ');
      app.route({
        method: missing,
        url,
        handler: (req, reply) =>
          reply
            .code(405)
            .header('allow', allow)
            .type('application/json; charset=utf-8')
            .send(
              errorBody('method_not_allowed', `${req.method} is not allowed here; use ${allow}.`, { allow }),
            ),
      });
    }
  };
}
