/**
 * GET /: the brand portal (to be written).
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.js';

export function registerPortal(_app: FastifyInstance, _deps: AppDeps): void {}
