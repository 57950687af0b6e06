/**
 * /api/video/ra/*: the revenue accelerator capabilities as REST paths (deals and their activities,
 * conversations, their analysis and comments).
 */
import type { FastifyInstance } from 'fastify';
import { restView, type ViewDeps, type ViewRequest } from '../capability-routes.js';
import { AppError } from '../../errors.js';

const params = (req: ViewRequest) => (req.params ?? {}) as Record<string, unknown>;

/** A JSON object body or query, or a 400 in the one error shape. */
function objectOf(v: unknown, what: string): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v))
    throw new AppError(400, 'validation_failed', `The ${what} must be a JSON object.`);
  return v as Record<string, unknown>;
}

const needsComment = (why: string) =>
  new AppError(400, 'validation_failed', 'The input is not valid.', {
    issues: [{ path: 'comment', message: why }],
  });

export function registerRaRoutes(app: FastifyInstance, deps: ViewDeps): void {
  restView(app, deps, { method: 'GET', url: '/api/video/ra/deals', group: 'ra', name: 'list_deals' });
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/ra/deals/:dealId/activities',
    group: 'ra',
    name: 'deal_activities',
    input: (req) => ({ ...objectOf(req.query, 'query'), deal_id: params(req)['dealId'] }),
  });
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/ra/conversations',
    group: 'ra',
    name: 'list_conversations',
  });
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/ra/conversations/:conversationId/analysis',
    group: 'ra',
    name: 'conversation_analysis',
    input: (req) => ({ ...objectOf(req.query, 'query'), conversation_id: params(req)['conversationId'] }),
  });
  // GET lists the comments; POST posts one (201). A GET never writes.
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/ra/conversations/:conversationId/comments',
    group: 'ra',
    name: 'comments',
    input: (req) => {
      const q = objectOf(req.query, 'query');
      if ('comment' in q) throw needsComment('post a comment with POST, not GET');
      return { ...q, conversation_id: params(req)['conversationId'] };
    },
  });
  restView(app, deps, {
    method: 'POST',
    url: '/api/video/ra/conversations/:conversationId/comments',
    group: 'ra',
    name: 'comments',
    status: 201,
    input: (req) => {
      const b = objectOf(req.body, 'request body');
      if (b['comment'] === undefined) throw needsComment('comment is required');
      return { ...b, conversation_id: params(req)['conversationId'] };
    },
  });
}
