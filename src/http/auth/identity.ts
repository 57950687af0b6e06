/**
 * The identity hook: every route whose declaration says the API key admits it (auth 'api_key')
 * gets the key check (requireApiKey: the key, or the dashboard's session with its CSRF token) as
 * the first of its own onRequest hooks, so no body is read, buffered or parsed for a caller
 * without the key. Install it before the limiter, which puts its hook in front of this one (a
 * locked-out address is refused before its key is looked at). An MCP endpoint (jsonRpc) answers
 * the check itself, in the MCP authorization spec's shape (gateway-mcp-routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { routeAuth } from '../openapi.js';
import { prependHook } from '../route-hooks.js';
import { requireApiKey, type Credentials } from './api-key.js';

export function installIdentity(app: FastifyInstance, credentials: Credentials | undefined): void {
  const check = credentials && requireApiKey(credentials);
  app.addHook('onRoute', (route) => {
    if (routeAuth(route.config) !== 'api_key' || route.config?.jsonRpc) return;
    // A route that needs the key in an app without one would be open: refuse to build it.
    if (!check) throw new Error(`${route.url} needs the API key, and this app has none.`);
    route.onRequest = prependHook(route.onRequest, check);
  });
}
