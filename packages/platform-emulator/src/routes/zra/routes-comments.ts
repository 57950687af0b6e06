/**
 * Revenue accelerator comment routes: a conversation's comments (private ones only to their author)
 * and posting one, which emits `revenue_accelerator.post_comment_completed`.
 */
import { randomUUID } from 'node:crypto';
import { body, p, zerr, ZoomError } from '../../context.js';
import { zoomTime } from '../../time.js';
import { ZRA_SCOPES } from './records.js';
import type { CommentRec } from './records.js';
import type { EmulatorContext } from '../../context.js';
import { slice, byId, findConversation, canSee, commentObject } from './lookups.js';

export function registerCommentRoutes(ctx: EmulatorContext): void {
  getConversationComments(ctx);
  postConversationComment(ctx);
}

function getConversationComments(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/zra/conversations/:conversationId/comments',
    scopes: ZRA_SCOPES.comments,
    label: 'MEDIUM',
    handler: (req) => {
      const c = findConversation(ctx, p(req, 'conversationId'), false);
      const items = slice(ctx)
        .comments.filter((x) => x.conversation === c.id && canSee(ctx, x))
        .sort((a, b) => a.created.localeCompare(b.created));
      const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
      return {
        next_page_token: page.nextPageToken,
        page_size: page.pageSize,
        comments: page.items.map((cm) => commentObject(ctx, cm)),
      };
    },
  });
}

function postConversationComment(ctx: EmulatorContext): void {
  ctx.route({
    method: 'POST',
    url: '/zra/conversations/:conversationId/comments',
    scopes: ZRA_SCOPES.addComment,
    label: 'MEDIUM',
    handler: (req, reply) => {
      const c = findConversation(ctx, p(req, 'conversationId'), false);
      const b = body(req);
      const errors: { field: string; message: string }[] = [];
      const bad = (field: string) => errors.push({ field, message: 'Invalid field.' });
      const strings = (v: unknown) =>
        Array.isArray(v) && v.length <= 50 && v.every((x) => typeof x === 'string');
      if (typeof b['comment'] !== 'string' || b['comment'].trim() === '') bad('comment');
      if (b['parent_comment_id'] !== undefined && typeof b['parent_comment_id'] !== 'string')
        bad('parent_comment_id');
      if (b['mention_user_ids'] !== undefined && !strings(b['mention_user_ids'])) bad('mention_user_ids');
      if (b['mention_team_ids'] !== undefined && !strings(b['mention_team_ids'])) bad('mention_team_ids');
      if (b['is_private'] !== undefined && typeof b['is_private'] !== 'boolean') bad('is_private');
      if (b['time_in_recording'] !== undefined && typeof b['time_in_recording'] !== 'string')
        bad('time_in_recording');
      if (errors.length) throw zerr.validation(errors);
      // Well-formed but wrong: the operation's documented 400 code 1001.
      const invalid = () => new ZoomError(400, 1001, 'Invalid request param');
      const parent = (b['parent_comment_id'] as string | undefined) ?? '';
      if (
        parent &&
        !slice(ctx).comments.some((x) => x.id === parent && x.conversation === c.id && canSee(ctx, x))
      )
        throw invalid();
      const mentions = ((b['mention_user_ids'] as string[] | undefined) ?? []).map(
        (id) => byId(ctx, id)?.email,
      );
      if (mentions.some((e) => e === undefined)) throw invalid();
      const teams = (b['mention_team_ids'] as string[] | undefined) ?? [];
      if (teams.some((id) => !slice(ctx).teams.some((t) => t.id === id))) throw invalid();
      const at = (b['time_in_recording'] as string | undefined) ?? '';
      if (at) {
        const m = /^(\d{2}):([0-5]\d):([0-5]\d)$/.exec(at);
        if (!m || Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) > c.duration_sec) throw invalid();
      }
      const stamp = zoomTime(ctx.now());
      const cm: CommentRec = {
        id: randomUUID(),
        conversation: c.id,
        parent,
        author: ctx.demo.email,
        created: stamp,
        modified: stamp,
        comment: b['comment'] as string,
        mentions: mentions as string[],
        teams,
        private: b['is_private'] === true,
        time_in_recording: at,
      };
      slice(ctx).comments.push(cm);
      ctx.changed();
      ctx.webhooks.emit(
        'revenue_accelerator.post_comment_completed',
        { comment_id: cm.id, conversation_id: c.id, text: cm.comment },
        { operator_id: ctx.demo.id, operator: ctx.demo.email },
      );
      return reply.code(201).send(commentObject(ctx, cm));
    },
  });
}
