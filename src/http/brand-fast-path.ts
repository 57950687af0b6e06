/**
 * The brand hot path in front of Fastify: a GET or HEAD whose path is exactly a key of the live
 * catalog is answered straight from the precomputed response (the same answerFor() the Fastify
 * routes use), skipping routing, hooks and reply serialisation; /api/brand/tokens?format=<f> is
 * the one path whose query picks the answer. Anything else (other methods, unknown or encoded
 * paths, OPTIONS, other queries) falls through to Fastify, which serves the same paths with the
 * same bytes for app.inject() and owns every error answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BrandService } from '../brand/brand-service.js';
import { answerFor } from './precomputed.js';
import { isTokenFormat } from '../brand/token-formats.js';
import { STATIC_ROUTE, THEME_ROUTE, TOKENS_ROUTE } from './routes/brand-routes.js';
import { requestId } from './request-id.js';

export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

const prefixOf = (route: string) => route.slice(0, route.lastIndexOf('/') + 1);
const VARIABLE_ROUTES = [STATIC_ROUTE, THEME_ROUTE].map((route) => ({ prefix: prefixOf(route), route }));

/** The route pattern Fastify reports for a catalog path (the metrics label, bounded in number). */
export function brandRoute(path: string): string {
  return VARIABLE_ROUTES.find((r) => path.startsWith(r.prefix))?.route ?? path;
}

export function brandFastPath(
  brand: BrandService,
  /** Told of every answer (metrics): method, route pattern, status, seconds. */
  onAnswer?: (method: string, route: string, status: number, seconds: number) => void,
): FastPath {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const started = performance.now();
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    let found = brand.current.responses.get(path);
    if (q !== -1 && path === TOKENS_ROUTE) {
      // Only the plain `?format=<known>` is answered here; any other query (and every 400) is
      // Fastify's, which parses it properly.
      const f = /^format=([a-z]+)$/.exec(url.slice(q + 1))?.[1];
      found = isTokenFormat(f) ? brand.current.tokenFormats.get(f) : undefined;
    }
    if (!found) return false;
    const a = answerFor(req.method, req.headers['if-none-match'], req.headers['accept-encoding'], found);
    // One writeHead with every header: a setHeader before it would send each precomputed header
    // through Node's slow path (validated and stored one by one). The request id goes in the
    // array's last slot (precomputed.ts: writeHead reads it synchronously and keeps nothing).
    const headers = a.head.flat;
    headers[headers.length - 1] = requestId(req);
    res.writeHead(a.status, headers);
    res.end(a.body);
    onAnswer?.(req.method, brandRoute(path), a.status, (performance.now() - started) / 1000);
    return true;
  };
}
