/**
 * The query of a capability path whose operation takes an id the path already names
 * (`/deals/:dealId/activities` → deal_id): the path's id goes in under the operation's name, and
 * the same name in the query is refused rather than silently overridden, so the query parameters
 * the document lists are exactly the ones the route reads.
 */
import { AppError } from '../../errors.js';
import type { ViewRequest } from '../capability-routes.js';

/** The request's query as an object, or a 400 in the one error shape. */
export function queryOf(req: ViewRequest): Record<string, unknown> {
  const q = req.query;
  if (q === undefined || q === null) return {};
  if (typeof q !== 'object' || Array.isArray(q))
    throw new AppError(400, 'validation_failed', 'The query must be key=value pairs.');
  return q as Record<string, unknown>;
}

/** The query plus `key` from path parameter `param`; 400 when the query names `key` itself. */
export function queryWithPathId(req: ViewRequest, param: string, key: string): Record<string, unknown> {
  const q = queryOf(req);
  if (key in q)
    throw new AppError(400, 'validation_failed', 'The input is not valid.', {
      issues: [{ path: key, message: `${key} is the path's {${param}}; leave it out of the query` }],
    });
  return { ...q, [key]: (req.params as Record<string, unknown> | undefined)?.[param] };
}
