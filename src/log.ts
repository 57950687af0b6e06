/**
 * The process logger: pino, JSON lines, with every place a secret can appear redacted. Request
 * URLs go through serializeRequest, which redacts secret-named query values; pino's serializers
 * win over Fastify's, so its request lines use it too. With tracing on, each line carries the
 * current trace and span ids (`trace_id`, `span_id`); with it off there is no mixin to call.
 */
import { pino, type Logger } from 'pino';
import { serializeRequest } from './core/redact-url.js';
import { tracing } from './tracing/current.js';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.access_token',
  '*.refresh_token',
  '*.accessToken',
  '*.refreshToken',
  '*.client_secret',
  '*.clientSecret',
  '*.apiKey',
  '*.password',
  '*.secret',
  '*.code_verifier',
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const traced = tracing();
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { req: serializeRequest },
      base: { service: 'fleetgate' },
      ...(traced ? { mixin: traced.logFields } : {}),
    },
    destination ?? process.stdout,
  );
}
