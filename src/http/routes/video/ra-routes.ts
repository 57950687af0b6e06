/**
 * The documentation of the revenue accelerator's comments paths, whose two routes (GET lists,
 * POST posts) each take and answer part of one operation's input and output. The paths
 * themselves are declared with the operations (ops/ra.ts).
 */
import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { listedComments, postedComment } from '../../../gateway/capabilities/ops/ra.js';
import { entry } from '../../../gateway/capabilities/registry.js';
import { documentRoute, OPERATION_ERRORS } from '../../openapi.js';

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

/**
 * The comments paths' documentation (their views are declared with the operation, ops/ra.ts):
 * documented first, since each answers only its half of the operation's input and output.
 */
export function documentRaComments(app: FastifyInstance): void {
  documentComments(app, '/api/video/ra/conversations/:conversationId/comments');
}
