/** Clip routes: list the demo user's clips, get one, soft delete one. */
import { p, ZoomError } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { SCOPES } from './records.js';
import { clipObject, findClip, listed, now } from './lookups.js';

export function registerClipRoutes(ctx: EmulatorContext): void {
  getClips(ctx);
  getClip(ctx);
  deleteClip(ctx);
}

function getClips(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/clips',
    scopes: SCOPES.list,
    label: 'LIGHT',
    handler: (req) => {
      const page = ctx.paginate(req, listed(ctx, req), { defaultSize: 30, maxSize: 300 });
      return {
        data: page.items.map((c) => clipObject(ctx, c)),
        next_page_token: page.nextPageToken,
        page_size: page.pageSize,
        total_records: page.totalRecords,
      };
    },
  });
}

function getClip(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/clips/:clipId',
    scopes: SCOPES.get,
    label: 'LIGHT',
    handler: (req) => clipObject(ctx, findClip(ctx, p(req, 'clipId'))),
  });
}

function deleteClip(ctx: EmulatorContext): void {
  ctx.route({
    method: 'DELETE',
    url: '/clips/:clipId',
    scopes: SCOPES.delete,
    label: 'LIGHT',
    handler: (req, reply) => {
      const c = findClip(ctx, p(req, 'clipId'));
      // A soft delete: the clip goes to the trash and is listed again only with status=RECORD_DELETE.
      if (c.status === 'RECORD_DELETE') throw new ZoomError(404, 2000, `Clip does not exist: ${c.clip_id}.`);
      c.status = 'RECORD_DELETE';
      c.modified = now(ctx);
      ctx.changed();
      return reply.code(204).send();
    },
  });
}
