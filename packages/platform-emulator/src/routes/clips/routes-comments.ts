/** Clip comment routes: a clip's comments, replies under each. */
import { p } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import { SCOPES, type CommentRec } from './records.js';
import { findClip, now, slice } from './lookups.js';

export function registerCommentRoutes(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/clips/:clipId/comments',
    scopes: SCOPES.comments,
    label: 'LIGHT',
    handler: (req) => {
      const c = findClip(ctx, p(req, 'clipId'));
      const all = (slice(ctx).comments[c.clip_id] ?? []).filter((x) => x.created <= now(ctx));
      const out = (x: CommentRec) => ({
        comment_id: x.comment_id,
        content: x.content,
        created_date: zoomTime(new Date(x.created)),
        modified_date: zoomTime(new Date(x.modified)),
        display_name: x.author,
        avatar: `${ctx.baseUrl}/p/${x.avatar_id}/avatar.png`,
        ...(x.parent ? { parent_node_id: x.parent } : {}),
        edited: x.modified !== x.created,
        mentions: x.mentions,
        content_type: x.mentions.length ? 'TEXT_WITH_MENTION' : 'TEXT',
      });
      const top = all.filter((x) => !x.parent).sort((a, b) => b.created - a.created);
      const page = ctx.paginate(req, top, { defaultSize: 15, maxSize: 50 });
      return {
        data: page.items.map((x) => ({
          ...out(x),
          children_comments: all.filter((y) => y.parent === x.comment_id).map(out),
        })),
        next_page_token: page.nextPageToken,
        page_size: page.pageSize,
      };
    },
  });
}
