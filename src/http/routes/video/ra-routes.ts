/**
 * /api/video/ra/*: the revenue accelerator capabilities as REST paths (deals and their activities,
 * conversations, their analysis and comments).
 */
import type { FastifyInstance } from 'fastify';
import { restView, type ViewDeps, type ViewRequest } from '../capability-routes.js';
import * as z from 'zod';
import { listedComments, postedComment } from '../../../gateway/capabilities/ops/ra.js';
import { entry } from '../../../gateway/capabilities/registry.js';
import { AppError } from '../../errors.js';
import { documentRoute, OPERATION_ERRORS } from '../../openapi.js';
import { queryWithPathId } from './path-id.js';

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

/**
 * One operation, two routes: GET lists (paging only), POST posts (the comment's fields), each
 * answering its own half of the operation's output.
 */
function documentComments(app: FastifyInstance, url: string): void {
  const op = entry('ra', 'comments').operation;
  if (!op || !(op.input instanceof z.ZodObject)) return;
  const shape = op.input.shape as Record<string, z.ZodType>;
  const pick = (...keys: string[]) =>
    Object.fromEntries(keys.flatMap((k) => (shape[k] ? [[k, shape[k]]] : [])));
  const common = {
    url,
    tag: 'capabilities' as const,
    auth: 'api_key' as const,
    params: z.object({ conversationId: shape['conversation_id'] ?? z.string() }),
    errors: OPERATION_ERRORS,
  };
  documentRoute(app, {
    ...common,
    method: 'GET',
    summary: "Lists a conversation's comments, oldest first.",
    input: z.object(pick('limit', 'cursor')),
    output: listedComments,
  });
  const comment = shape['comment'];
  documentRoute(app, {
    ...common,
    method: 'POST',
    summary: 'Posts a comment (or a reply) on a conversation and answers it.',
    input: z.object({
      ...pick('parent_comment_id', 'is_private', 'time_in_recording'),
      ...(comment instanceof z.ZodOptional ? { comment: comment.unwrap() as z.ZodType } : {}),
    }),
    status: 201,
    output: postedComment,
    idempotent: op.creates === true,
  });
}

export function registerRaRoutes(app: FastifyInstance, deps: ViewDeps): void {
  documentComments(app, '/api/video/ra/conversations/:conversationId/comments');
  restView(app, deps, { method: 'GET', url: '/api/video/ra/deals', group: 'ra', name: 'list_deals' });
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/ra/deals/:dealId/activities',
    group: 'ra',
    name: 'deal_activities',
    input: (req) => queryWithPathId(req, 'dealId', 'deal_id'),
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
    input: (req) => queryWithPathId(req, 'conversationId', 'conversation_id'),
  });
  // GET lists the comments; POST posts one (201). A GET never writes.
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/ra/conversations/:conversationId/comments',
    group: 'ra',
    name: 'comments',
    input: (req) => {
      const q = queryWithPathId(req, 'conversationId', 'conversation_id');
      if ('comment' in q) throw needsComment('post a comment with POST, not GET');
      return q;
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
