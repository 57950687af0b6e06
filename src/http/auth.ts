/**
 * Gateway auth: `Authorization: Bearer <FLEETGATE_API_KEY>` on every private /api/video path
 * (the OAuth callback and the webhook intake authenticate otherwise). The key is compared by
 * hash in constant time; failures answer 401 in the one error shape.
 */
import type { FastifyRequest } from 'fastify';
import { apiKeyMatches } from '../gateway/secrets.js';
import { AppError } from './errors.js';

export function requireApiKey(secrets: { apiKeyHash: Buffer }) {
  return (req: FastifyRequest): Promise<void> => {
    const h = req.headers.authorization;
    const presented = h?.startsWith('Bearer ') ? h.slice(7).trim() : undefined;
    if (!presented || !apiKeyMatches(secrets, presented)) {
      return Promise.reject(
        new AppError(
          401,
          'unauthorized',
          'Send the gateway API key as Authorization: Bearer <FLEETGATE_API_KEY>.',
          undefined,
          {
            'www-authenticate': 'Bearer realm="fleetgate"',
          },
        ),
      );
    }
    return Promise.resolve();
  };
}
