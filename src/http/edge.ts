/**
 * The one edge in front of Fastify: a GET or HEAD of a route that declared a precomputed answer
 * (route-table.ts, `config.precomputed`) is sent from that answer without routing, hooks or reply
 * serialisation. It exists for the brand target in `npm run bench` (a brand GET at ≥ 0.85× a bare
 * node:http server sending the same bytes; through Fastify's hooks it measured ~0.77×).
 * It reads the same route table as the pipeline, sends the headers precompute() made with the
 * security headers folded in (core/security-headers.ts, the one rule), the request id by the
 * same rule as genReqId, and counts the answer in the same metrics under the route's pattern.
 * It serves only requests the logging rule keeps quiet (request-log.ts). Anything else (other
 * methods, unknown or encoded paths, queries the route's pick does not answer) goes to Fastify,
 * which serves the same answers for app.inject() and owns every error.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerFor } from '../core/precomputed.js';
import { sendAnswer } from './precomputed.js';
import { quietRequest } from './request-log.js';
import type { RouteTable } from './route-table.js';

/** Takes the request (true) or leaves it to Fastify (false). */
export type Edge = (req: IncomingMessage, res: ServerResponse) => boolean;

export function precomputedEdge(
  table: RouteTable,
  /** The metrics' request count: method, route pattern, status, seconds. */
  onAnswer: (method: string, route: string, status: number, seconds: number) => void,
): Edge {
  return (req, res) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !quietRequest(req)) return false;
    const started = performance.now();
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const route = table.find(path);
    const found = route?.precomputed?.(path, q === -1 ? '' : url.slice(q + 1));
    if (!route || !found) return false;
    const a = answerFor(req.method, req.headers['if-none-match'], req.headers['accept-encoding'], found);
    sendAnswer(req, res, a);
    onAnswer(req.method, route.url, a.status, (performance.now() - started) / 1000);
    return true;
  };
}
