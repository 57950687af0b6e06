/**
 * How the revenue accelerator's comments paths describe themselves: their two routes (GET lists,
 * POST posts) each take and answer part of one operation's input and output, so their views
 * (declared with the operation, ops/ra.ts; registered by capability-routes.ts) carry these
 * descriptions instead of the operation's whole ones.
 */
import * as z from 'zod';
import type { Operation, RestBinding } from '../../../gateway/capabilities/operation.js';
import { listedComments, postedComment } from '../../../gateway/capabilities/ops/ra.js';
import { OPERATION_ERRORS, type RouteDocBody } from '../../openapi.js';

/** The comments view's description, for the ra/comments operation's two paths; else undefined. */
export function commentsDoc(op: Operation, v: RestBinding): RouteDocBody | undefined {
  if (op.group !== 'ra' || op.name !== 'comments' || !(op.input instanceof z.ZodObject)) return undefined;
  const shape = op.input.shape as Record<string, z.ZodType>;
  const pick = (...keys: string[]) =>
    Object.fromEntries(keys.flatMap((k) => (shape[k] ? [[k, shape[k]]] : [])));
  const common = {
    tag: 'capabilities' as const,
    auth: 'api_key' as const,
    params: z.object({ conversationId: shape['conversation_id'] ?? z.string() }),
    errors: OPERATION_ERRORS,
  };
  if (v.method === 'GET')
    return {
      ...common,
      summary: "Lists a conversation's comments, oldest first.",
      input: z.object(pick('limit', 'cursor')),
      output: listedComments,
    };
  const comment = shape['comment'];
  return {
    ...common,
    summary: 'Posts a comment (or a reply) on a conversation and answers it.',
    input: z.object({
      ...pick('parent_comment_id', 'is_private', 'time_in_recording'),
      ...(comment instanceof z.ZodOptional ? { comment: comment.unwrap() as z.ZodType } : {}),
    }),
    status: 201,
    output: postedComment,
    idempotent: op.creates === true,
  };
}
