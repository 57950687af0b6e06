/**
 * The emulator's routes held against the platform's published documents: which document and
 * path template each emulated route answers to (PUBLISHED) and which routes have no published
 * reference at all and why (UNREFERENCED, mirrored in docs/emulator-fidelity.md), both kept in
 * src/contract/operations.ts, where the contract check finds them too. Also reads back what a
 * built emulator really serves, so published-routes.test.ts can fail when a route is in neither
 * list.
 */
import type { FastifyInstance } from 'fastify';
import type { RouteDef, EmulatorContext, EmulatorModule } from '../../src/context.js';
import type { RouteKey } from '../../src/contract/operations.js';

export {
  SERVED as PUBLISHED,
  UNREFERENCED,
  type Published,
  type RouteKey,
  type Unreferenced,
} from '../../src/contract/operations.js';

/**
 * Every `METHOD /path` the built emulator serves, read from Fastify's route tree (the HEAD that
 * Fastify adds to each GET is left out).
 */
export function servedRoutes(app: FastifyInstance): RouteKey[] {
  const prefixes: string[] = [];
  const byPath = new Map<string, string[]>();
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    const path = (prefixes[depth - 1] ?? '') + (m[2] ?? '');
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    if (m[3]) byPath.set(path, [...(byPath.get(path) ?? []), ...m[3].split(', ')]);
  }
  const keys: RouteKey[] = [];
  for (const [path, methods] of byPath)
    for (const method of new Set(methods))
      if (!(method === 'HEAD' && methods.includes('GET'))) keys.push(`${method} ${path}`);
  return keys;
}

/**
 * The modules with their `ctx.route` calls recorded: the definitions (scopes, rate label) of
 * every module route, keyed as the server serves them.
 */
export function recordingDefs(modules: EmulatorModule[]): {
  modules: EmulatorModule[];
  defs: Map<RouteKey, RouteDef>;
} {
  const defs = new Map<RouteKey, RouteDef>();
  const wrapped = modules.map((m) => ({
    ...m,
    register(ctx: EmulatorContext) {
      const recording: EmulatorContext = Object.create(ctx, {
        route: {
          value: (d: RouteDef) => {
            defs.set(`${String(d.method)} /v2${d.url}`, d);
            ctx.route(d);
          },
        },
      }) as EmulatorContext;
      m.register(recording);
    },
  }));
  return { modules: wrapped, defs };
}
