/**
 * The JSON body parser every route shares: Fastify's own (secure-json-parse, with the
 * instance's prototype-poisoning settings), then a bound on nesting. A body nested thousands of
 * levels deep parses fine but overflows the stack of whatever walks it recursively afterwards
 * (validation, JSON.stringify for an idempotency hash), which would answer 500.
 */
import type { FastifyInstance } from 'fastify';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../core/json-depth.js';
import { AppError } from './errors.js';

export function installJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // parseAs 'string' hands a string; the typings allow a Buffer too.
    void parse(req, typeof body === 'string' ? body : body.toString('utf8'), (err, value) => {
      if (err) return done(err, undefined);
      if (nestsDeeperThan(value))
        return done(
          new AppError(400, 'json_too_deep', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`),
          undefined,
        );
      done(null, value);
    });
  });
}
