/**
 * GET /api/video/recordings[/:video_id[/files|/transcript]]: the recordings capabilities as REST
 * paths. The path parameter is named like the operation's input, so restView passes it through.
 */
import type { FastifyInstance } from 'fastify';
import { restView, type ViewDeps } from '../capability-routes.js';

export function registerRecordingsRoutes(app: FastifyInstance, deps: ViewDeps): void {
  const group = 'recordings';
  restView(app, deps, { method: 'GET', url: '/api/video/recordings', group, name: 'list_user_recordings' });
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/recordings/:video_id',
    group,
    name: 'get_recording',
  });
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/recordings/:video_id/files',
    group,
    name: 'list_recording_files',
  });
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/recordings/:video_id/transcript',
    group,
    name: 'meeting_transcript',
  });
}
