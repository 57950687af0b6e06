/**
 * Liveness and readiness for load balancers and orchestrators. Ready means the brand is loaded
 * and the store answers and can write (store/write-health.ts); while the process shuts down
 * Fastify answers 503 on its own. The answer also says how the code and the database's schema
 * stand: an instance of an older release on a database a newer one migrated still serves (a
 * rolling upgrade) and says so, until a contract step leaves its code behind: then it is not ready.
 */
import type { FastifyInstance } from 'fastify';
import type { BrandService } from '../../brand/brand-service.js';
import type { SchemaCheck } from '../../store/migration-state.js';
import type { Store } from '../../store/store.js';
import * as z from 'zod';
import { AppError } from '../errors.js';
import type { RouteDocBody } from '../openapi.js';

const live = z.object({ status: z.literal('ok') });
const ready = z.object({
  status: z.literal('ready'),
  brand: z.object({ name: z.string(), loadedAt: z.string().describe('when the live brand was loaded') }),
  store: z.literal('ok').optional().describe('present where the service has a store (with the gateway)'),
  schema: z
    .object({
      status: z
        .enum(['current', 'schema_newer_than_code'])
        .describe(
          'schema_newer_than_code: a newer release has migrated the database; this instance still serves, and should be upgraded',
        ),
      code: z.string().describe('the newest migration this code knows'),
      database: z.string().describe('the newest migration the database has run'),
      unknownMigrations: z
        .array(z.string())
        .optional()
        .describe('the migrations the database has run that this code does not know'),
    })
    .optional()
    .describe('present where the service has a store'),
});

type HealthDeps = { brand: BrandService; store?: Pick<Store, 'ping' | 'writeFailure' | 'schema'> };

const CANNOT_WRITE: Record<string, string> = {
  storage_full: 'The store cannot write: its disk (or quota) is full.',
  storage_io_error: 'The store cannot write: its disk reports I/O errors.',
};

/** Health as its own encapsulated plugin: what it adds stays inside, the root's hooks apply. */
export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  void app.register(function healthRoutes(scope, _opts, done) {
    addHealthRoutes(scope, deps);
    done();
  });
}

function addHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  const healthz: RouteDocBody = { summary: 'Liveness.', tag: 'operations', auth: 'none', output: live };
  app.get('/healthz', { config: { doc: healthz } }, (_req, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );
  const readyz: RouteDocBody = {
    summary:
      'Readiness: the brand is loaded, the store answers and can write, and its schema serves this code.',
    tag: 'operations',
    auth: 'none',
    output: ready,
    errors: [503],
  };
  app.get('/readyz', { config: { doc: readyz } }, async (req, reply) => {
    void reply.header('cache-control', 'no-store');
    let schema: SchemaCheck | undefined;
    if (deps.store) {
      try {
        await deps.store.ping();
      } catch (err) {
        req.log.warn({ err }, 'readiness: the store does not answer');
        throw new AppError(503, 'not_ready', 'The store does not answer.', undefined, {
          'cache-control': 'no-store',
        });
      }
      // Reads may still work on a full disk: an instance that cannot keep what it acknowledges is not ready.
      const failure = await deps.store.writeFailure();
      if (failure) {
        req.log.warn({ store: failure }, 'readiness: the store cannot write');
        throw new AppError(
          503,
          'not_ready',
          CANNOT_WRITE[failure] ?? 'The store cannot write.',
          { store: failure },
          { 'cache-control': 'no-store' },
        );
      }
      schema = await deps.store.schema();
      if (!schema.serves) {
        req.log.warn({ schema }, 'readiness: the database schema no longer serves this code');
        throw new AppError(
          503,
          'not_ready',
          `The database's schema is newer than this code and no longer serves it: it needs code that knows ${schema.oldestCode ?? '?'} or later. Upgrade this instance.`,
          {
            store: 'schema_newer_than_code',
            code: schema.code,
            database: schema.database,
            unknownMigrations: schema.unknown,
          },
          { 'cache-control': 'no-store' },
        );
      }
    }
    const c = deps.brand.current;
    return reply.send({
      status: 'ready',
      brand: { name: c.source.info.name, loadedAt: c.loadedAt },
      ...(deps.store ? { store: 'ok' } : {}),
      ...(schema
        ? {
            schema: {
              status: schema.unknown.length > 0 ? 'schema_newer_than_code' : 'current',
              code: schema.code,
              database: schema.database,
              ...(schema.unknown.length > 0 ? { unknownMigrations: schema.unknown } : {}),
            },
          }
        : {}),
    });
  });
}
