/**
 * The public brand API and its static files. Handlers only pick a precomputed response from
 * the live catalog; paths that are not in the catalog do not exist (so no traversal is possible).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod';
import type { BrandService } from '../../brand/brand-service.js';
import { THEME_KEYS, type ThemeKey } from '../../brand/schema.js';
import { isTokenFormat, TOKEN_FORMATS, type TokenFormat } from '../../brand/token-formats.js';
import { AppError, errorHandler } from '../errors.js';
import type { RouteDoc, RouteDocBody } from '../openapi.js';
import { PUBLIC_CORS, sendPrecomputed } from '../precomputed.js';
import type { PrecomputedPick, RouteTable } from '../route-table.js';
import { catalogDoc, staticDocs, themeDoc, tokensDoc } from './brand-docs.js';
import { asksForVersion, TOKENS_VERSION_PARAM } from './brand-version-routes.js';

const API_PATHS = [
  '/api/brand',
  '/api/brand/tokens.css',
  '/api/brand/themes',
  '/api/brand/assets',
  '/api/brand/docs',
  '/api/brand/fonts',
  '/api/brand/llms.txt',
  '/llms.txt',
  '/favicon.ico',
];

/** The two brand routes with a variable part. */
export const STATIC_ROUTE = '/static/fleet/*';
export const THEME_ROUTE = '/api/brand/themes/:key';
/** The one brand route whose query picks the answer (the format and the theme). */
export const TOKENS_ROUTE = '/api/brand/tokens';

const FORMAT_PARAM = z
  .enum(TOKEN_FORMATS)
  .default('json')
  .describe('The output: the DTCG document (json) or a platform format.');
const THEME_PARAM = z
  .enum(THEME_KEYS)
  .optional()
  .describe(
    'A funnel theme: its color becomes colors.brand.primary and its color2 colors.brand.accent (in light and dark), in every format.',
  );
/** Both the validation and the OpenAPI parameters, so the two cannot drift. */
const TOKENS_QUERY = z.object({ format: FORMAT_PARAM, theme: THEME_PARAM });

const given = (v: unknown) => JSON.stringify((typeof v === 'string' ? v : JSON.stringify(v)).slice(0, 64));

/** What a tokens query asks for; an unknown format or theme is a 400 naming the allowed ones. */
function tokensQueryOf(query: unknown): { format: TokenFormat; theme: ThemeKey | undefined } {
  const q = (query ?? {}) as Record<string, unknown>;
  const format = FORMAT_PARAM.safeParse(q['format']);
  if (!format.success)
    throw new AppError(
      400,
      'unknown_format',
      `Unknown token format ${given(q['format'])}; use one of ${TOKEN_FORMATS.join(', ')}.`,
      { allowed: [...TOKEN_FORMATS] },
    );
  const theme = THEME_PARAM.safeParse(q['theme']);
  if (!theme.success)
    throw new AppError(
      400,
      'unknown_theme',
      `Unknown theme ${given(q['theme'])}; use one of ${THEME_KEYS.join(', ')}.`,
      { allowed: [...THEME_KEYS] },
    );
  return { format: format.data, theme: theme.data };
}

const CORS_PREFLIGHT = {
  ...PUBLIC_CORS,
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'If-None-Match, If-Modified-Since, Accept, Accept-Encoding, Cache-Control',
  'access-control-max-age': '86400',
};

/** The path as sent, without query: encoded dots or slashes never match a catalog key. */
const rawPath = (req: FastifyRequest) => {
  const q = req.url.indexOf('?');
  return q === -1 ? req.url : req.url.slice(0, q);
};

type ByVersion = (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** The brand API as its own encapsulated plugin: what it adds stays inside, the root's hooks apply. */
export function registerBrandRoutes(
  app: FastifyInstance,
  brand: BrandService,
  /** GET /api/brand/tokens?version= (brand-version-routes.ts); absent where no versions are kept. */
  byVersion: ByVersion | undefined,
  /** The app's not-found handler with headers added (route-table.ts). */
  unrouted: RouteTable['unrouted'],
): void {
  void app.register(function brandRoutes(scope, _opts, done) {
    // Its errors carry the CORS header its answers do, so a browser can read them too.
    scope.setErrorHandler(errorHandler(PUBLIC_CORS));
    addBrandRoutes(scope, brand, byVersion);
    done();
  });
  // And so do the 404 of an unknown path and the 405 of a wrong method under /api/brand: Fastify
  // gives a prefix its own not-found handler (the other brand paths are wildcards or single files).
  void app.register(
    function brandNotFound(scope, _opts, done) {
      scope.setNotFoundHandler(unrouted(PUBLIC_CORS));
      done();
    },
    { prefix: '/api/brand' },
  );
}

function addBrandRoutes(app: FastifyInstance, brand: BrandService, byVersion?: ByVersion): void {
  const serve = (req: FastifyRequest, reply: FastifyReply) => {
    const path = rawPath(req);
    const res = brand.current.responses.get(path);
    if (!res) throw new AppError(404, 'not_found', `No brand file at ${path}.`);
    return sendPrecomputed(req, reply, res);
  };
  const preflight = (_req: FastifyRequest, reply: FastifyReply) =>
    reply.code(204).headers(CORS_PREFLIGHT).send();
  // What the edge may send without routing (route-table.ts): the catalog's answer for the raw
  // path; on the tokens route, only no query or a plain known `format=` (every other query, and
  // every 400, is the handler's).
  const inCatalog: PrecomputedPick = (path) => brand.current.responses.get(path);
  const tokensPick: PrecomputedPick = (path, query) => {
    if (query === '') return inCatalog(path, query);
    const f = /^format=([a-z]+)$/.exec(query)?.[1];
    return isTokenFormat(f) ? brand.current.tokenFormats.get(f) : undefined;
  };

  // HEAD is routed explicitly so it answers with the GET's exact headers (Content-Length included).
  const read = (
    url: string,
    handler: (
      req: FastifyRequest<{ Params: { key: string } }>,
      reply: FastifyReply,
    ) => FastifyReply | Promise<FastifyReply>,
    doc: RouteDocBody | readonly RouteDoc[],
    precomputed: PrecomputedPick = inCatalog,
  ) => {
    const config = { precomputed, doc };
    app.route({ method: ['GET', 'HEAD'], url, exposeHeadRoute: false, handler, config });
    app.options(url, preflight);
  };
  for (const url of API_PATHS) read(url, serve, catalogDoc(url));
  read(
    TOKENS_ROUTE,
    (req, reply) => {
      const path = rawPath(req);
      // Like every brand path: an encoded spelling of it is not it.
      if (path !== TOKENS_ROUTE) throw new AppError(404, 'not_found', `No brand file at ${path}.`);
      if (asksForVersion(req.query)) {
        if (!byVersion) throw new AppError(404, 'version_not_found', 'This service keeps no brand versions.');
        return byVersion(req, reply);
      }
      const { format, theme } = tokensQueryOf(req.query);
      if (!theme) {
        const res = brand.current.tokenFormats.get(format);
        if (!res) throw new AppError(404, 'not_found', `No brand file at ${path}.`);
        return sendPrecomputed(req, reply, res);
      }
      // A theme's outputs are built on its first request (theme-tokens.ts), then kept.
      return brand.current.themedTokenFormats(theme).then((all) => {
        const res = all.get(format);
        if (!res) throw new AppError(404, 'not_found', `No brand file at ${path}.`);
        return sendPrecomputed(req, reply, res);
      });
    },
    tokensDoc(TOKENS_ROUTE, TOKENS_QUERY.extend({ version: TOKENS_VERSION_PARAM })),
    tokensPick,
  );
  // One route serves every static file: it documents each file family (brand-docs.ts).
  read(STATIC_ROUTE, serve, staticDocs(brand.current.responses.keys()));
  const theme = (req: FastifyRequest<{ Params: { key: string } }>, reply: FastifyReply) => {
    const res = brand.current.responses.get(`/api/brand/themes/${req.params.key}`);
    if (!res) {
      throw new AppError(404, 'theme_not_found', `There is no live theme "${req.params.key.slice(0, 64)}".`, {
        allowed: [...THEME_KEYS],
      });
    }
    return sendPrecomputed(req, reply, res);
  };
  read(THEME_ROUTE, theme, themeDoc(THEME_ROUTE));
}
