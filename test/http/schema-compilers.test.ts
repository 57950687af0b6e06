/**
 * Fastify's JSON-schema compilers load on first use (src/http/schema-compilers.ts): a route
 * that declares a schema still gets validation and response serialization as with Fastify's
 * defaults.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from '../../src/http/schema-compilers.js';

describe('lazy schema compilers', () => {
  it('validate a body and serialize a response like the defaults', async () => {
    const app = Fastify({ schemaController: lazySchemaCompilers() });
    app.post(
      '/echo',
      {
        schema: {
          body: {
            type: 'object',
            required: ['n'],
            properties: { n: { type: 'integer', minimum: 1 } },
          },
          response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
      },
      (req, reply) => reply.send({ ...(req.body as { n: number }), secret: 'not in the schema' }),
    );
    const ok = await app.inject({ method: 'POST', url: '/echo', payload: { n: 3 } });
    expect(ok.statusCode).toBe(200);
    // The serializer writes only what the response schema names.
    expect(ok.json()).toEqual({ n: 3 });
    const bad = await app.inject({ method: 'POST', url: '/echo', payload: { n: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/must be >= 1/);
    await app.close();
  });
});
