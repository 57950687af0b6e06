/** The download route of every download_url. */
import { p, zerr } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { DOWNLOAD_SCOPES } from './scopes.js';
import { recordingDownload } from './tokens.js';

export // Not a documented REST operation: the target of every download_url, as zoom.us/rec/download is.
function registerDownloadRoute(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/rec/download/:fileId',
    scopes: DOWNLOAD_SCOPES,
    label: 'LIGHT',
    handler: (req, reply) => {
      const file = recordingDownload(ctx, p(req, 'fileId'));
      if (!file) throw zerr.noRecording();
      return reply
        .code(200)
        .headers({
          'content-type': file.contentType,
          'content-length': String(file.bytes.length),
          'content-disposition': `attachment; filename="${file.fileName}"`,
        })
        .send(file.bytes);
    },
  });
}
