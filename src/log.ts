/**
 * The process logger: pino, JSON lines, with every place a secret can appear redacted. Request
 * URLs go through serializeRequest, which redacts secret-named query values; pino's serializers
 * win over Fastify's, so its request lines use it too.
 */
import { pino, type Logger } from 'pino';
import { serializeRequest } from './http/redact-url.js';

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
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { req: serializeRequest },
      base: { service: 'fleetgate' },
    },
    destination ?? process.stdout,
  );
}
