/**
 * GET /dashboard: the operator dashboard (to be written).
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.js';

export function registerDashboard(_app: FastifyInstance, _deps: AppDeps): void {}
