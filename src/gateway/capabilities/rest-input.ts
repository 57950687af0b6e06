/**
 * How a capability's REST path builds its operation's input from a request, where the default
 * (query or body, plus path parameters under their own names) does not fit: a path id goes in
 * under the operation's name for it, and the same name in the query or body is refused rather than
 * silently overridden, so the parameters the document lists are exactly the ones the route reads.
 */
import { AppError } from '../../core/errors.js';
import type { ViewRequest } from './operation.js';

/** The request's query as an object, or a 400 in the one error shape. */
export function queryOf(req: ViewRequest): Record<string, unknown> {
  const q = req.query;
  if (q === undefined || q === null) return {};
  if (typeof q !== 'object' || Array.isArray(q))
    throw new AppError(400, 'validation_failed', 'The query must be key=value pairs.');
  return q as Record<string, unknown>;
}

/** A JSON object body, or a 400 in the one error shape (absent: empty). */
export function bodyOf(req: ViewRequest): Record<string, unknown> {
  const b = req.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b))
    throw new AppError(400, 'validation_failed', 'The request body must be a JSON object.');
  return b as Record<string, unknown>;
}

/** Path parameter `param` of the request. */
export const pathParam = (req: ViewRequest, param: string): unknown =>
  (req.params as Record<string, unknown> | undefined)?.[param];

/** The query plus `key` from path parameter `param`; 400 when the query names `key` itself. */
export function queryWithPathId(req: ViewRequest, param: string, key: string): Record<string, unknown> {
  const q = queryOf(req);
  if (key in q)
    throw new AppError(400, 'validation_failed', 'The input is not valid.', {
      issues: [{ path: key, message: `${key} is the path's {${param}}; leave it out of the query` }],
    });
  return { ...q, [key]: pathParam(req, param) };
}

/** A `queryWithPathId` for one path parameter and input name. */
export const withPathId =
  (param: string, key: string) =>
  (req: ViewRequest): Record<string, unknown> =>
    queryWithPathId(req, param, key);
