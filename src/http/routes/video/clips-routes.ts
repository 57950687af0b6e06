/**
 * GET /api/video/clips and /api/video/clips/:clip_id: the clips capabilities as REST paths.
 */
import type { FastifyInstance } from 'fastify';
import { restView, type ViewDeps } from '../capability-routes.js';

export function registerClipsRoutes(app: FastifyInstance, deps: ViewDeps): void {
  restView(app, deps, { method: 'GET', url: '/api/video/clips', group: 'clips', name: 'list_clips' });
  restView(app, deps, { method: 'GET', url: '/api/video/clips/:clip_id', group: 'clips', name: 'get_clip' });
}
