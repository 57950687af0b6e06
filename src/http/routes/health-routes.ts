/**
 * Liveness and readiness for load balancers and orchestrators.
 */
import type { FastifyInstance } from 'fastify';
import type { BrandService } from '../../brand/brand-service.js';

export function registerHealthRoutes(app: FastifyInstance, deps: { brand: BrandService }): void {
  app.get('/healthz', (_req, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));
  app.get('/readyz', (_req, reply) => {
    const c = deps.brand.current;
    return reply
      .header('cache-control', 'no-store')
      .send({ status: 'ready', brand: { name: c.source.info.name, loadedAt: c.loadedAt } });
  });
}
