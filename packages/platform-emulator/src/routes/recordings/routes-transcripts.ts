/** Transcript routes: a meeting's transcript (where to download it) and deleting it. */
import type { EmulatorContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import { SCOPES } from './scopes.js';
import { slice } from './state.js';
import { transcriptOf } from './lookups.js';

export function registerTranscriptRoutes(ctx: EmulatorContext): void {
  getTranscript(ctx);
  deleteTranscript(ctx);
}

function getTranscript(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/meetings/:meetingId/transcript',
    scopes: SCOPES.transcript,
    label: 'MEDIUM',
    handler: (req) => {
      const { m, f } = transcriptOf(ctx, req);
      return {
        meeting_id: m.uuid,
        account_id: ctx.demo.accountId,
        meeting_topic: m.topic,
        host_id: ctx.demo.id,
        transcript_created_time: zoomTime(new Date(Date.parse(f.end) + 180_000)),
        can_download: f.state === 'active',
        auto_delete: false,
        ...(f.state === 'active'
          ? { download_url: `${ctx.baseUrl}/v2/rec/download/${f.id}` }
          : { download_restriction_reason: 'DELETED_OR_TRASHED' }),
      };
    },
  });
}

function deleteTranscript(ctx: EmulatorContext): void {
  ctx.route({
    method: 'DELETE',
    url: '/meetings/:meetingId/transcript',
    scopes: SCOPES.deleteTranscript,
    label: 'MEDIUM',
    handler: (req, reply) => {
      const { f } = transcriptOf(ctx, req);
      const s = slice(ctx);
      s.deletedFiles.push(f.id);
      delete s.trashedFiles[f.id];
      ctx.changed();
      return reply.code(204).send();
    },
  });
}
