/**
 * GET /api/video/phone/*: call logs, voicemails, call recordings and one AI call summary.
 */
import type { FastifyInstance } from 'fastify';
import { restView, type ViewDeps } from '../capability-routes.js';

export function registerPhoneRoutes(app: FastifyInstance, deps: ViewDeps): void {
  const group = 'phone';
  restView(app, deps, { method: 'GET', url: '/api/video/phone/call-logs', group, name: 'call_logs' });
  restView(app, deps, { method: 'GET', url: '/api/video/phone/voicemails', group, name: 'voicemails' });
  restView(app, deps, { method: 'GET', url: '/api/video/phone/recordings', group, name: 'call_recordings' });
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/phone/ai-summaries/:summary_id',
    group,
    name: 'ai_call_summary',
  });
}
