/**
 * The ai capabilities as REST paths: POST /api/video/ai/ask (ai_companion_ask) and
 * GET /api/video/ai/search?q= (agentic_search). ai_companion_search is reachable through the
 * generic invoke endpoint.
 */
import type { FastifyInstance } from 'fastify';
import { restView, type ViewDeps } from '../capability-routes.js';

export function registerAiRoutes(app: FastifyInstance, deps: ViewDeps): void {
  restView(app, deps, {
    method: 'POST',
    url: '/api/video/ai/ask',
    group: 'ai',
    name: 'ai_companion_ask',
  });
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/ai/search',
    group: 'ai',
    name: 'agentic_search',
  });
}
