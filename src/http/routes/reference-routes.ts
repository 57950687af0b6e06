/**
 * GET /openapi.json and GET /docs: the app's own OpenAPI document and the reference page made
 * from it, as one encapsulated plugin. Both are built once, on the first request, when every
 * route has described itself.
 */
import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { buildOpenApi, renderDocsPage, type RouteDocBody, type RouteDocs } from '../openapi.js';
import { precompute, sendPrecomputed, type Precomputed } from '../precomputed.js';

const openapiDoc: RouteDocBody = {
  summary: 'This document.',
  tag: 'operations',
  auth: 'none',
  output: z.record(z.string(), z.unknown()).describe('An OpenAPI 3.1 document.'),
};
const docsPageDoc: RouteDocBody = {
  summary: 'The API reference page.',
  tag: 'operations',
  auth: 'none',
  media: { type: 'text/html; charset=utf-8' },
};

export function registerReferenceRoutes(
  app: FastifyInstance,
  deps: { publicUrl: string; version: string; docs: RouteDocs },
): void {
  let built: { json: Precomputed; html: Precomputed } | undefined;
  const origin = new URL(deps.publicUrl).origin;
  const reference = () => {
    if (!built) {
      const doc = buildOpenApi(deps.publicUrl, deps.version, deps.docs);
      built = {
        json: precompute(JSON.stringify(doc, null, 2), {
          contentType: 'application/json; charset=utf-8',
          cacheControl: 'public, max-age=300',
        }),
        html: precompute(renderDocsPage(doc, deps.publicUrl), {
          contentType: 'text/html; charset=utf-8',
          cacheControl: 'public, max-age=300',
          headers: {
            'content-security-policy': `default-src 'none'; style-src ${origin} 'self' 'unsafe-inline'; img-src ${origin} 'self' data:; font-src ${origin} 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
          },
        }),
      };
    }
    return built;
  };
  void app.register(function referenceRoutes(scope, _opts, done) {
    scope.get('/openapi.json', { config: { doc: openapiDoc } }, (req, reply) =>
      sendPrecomputed(req, reply, reference().json),
    );
    scope.get('/docs', { config: { doc: docsPageDoc } }, (req, reply) =>
      sendPrecomputed(req, reply, reference().html),
    );
    done();
  });
}
