/**
 * The brand's versions over HTTP, public and read-only like the rest of the brand API:
 * GET /api/brand/versions (newest first, keyset-paged), GET /api/brand/changelog?from=&to=, and
 * the stored tokens document of one version (GET /api/brand/tokens?version=, which the tokens
 * route hands here). Every answer carries the Brand-Version header.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod';
import type { BrandService } from '../../brand/brand-service.js';
import type { BrandVersions, Changelog } from '../../brand/brand-versions.js';
import { ENDPOINTS } from '../../brand/manifest.js';
import { brandVersionHeaders, compareVersions, isVersion } from '../../brand/versions.js';
import { parseInput } from '../../gateway/capabilities/registry.js';
import { cursorParam, decodeCursor, encodeCursor, filterTag } from '../../gateway/cursor.js';
import type { BrandVersionRecord } from '../../store/store.js';
import { AppError, errorHandler } from '../errors.js';
import type { Holds, RouteDocBody } from '../openapi.js';
import { precompute, PUBLIC_CORS, sendPrecomputed, type Precomputed } from '../precomputed.js';

export const VERSIONS_ROUTE = '/api/brand/versions';
export const CHANGELOG_ROUTE = '/api/brand/changelog';

const LIST_CACHE = 'public, max-age=60, stale-while-revalidate=600';
/** A published version's document never changes. */
const VERSION_CACHE = 'public, max-age=31536000, immutable';

const versionParam = (what: string) =>
  z
    .string()
    .max(32)
    .regex(/^\d+\.\d+\.\d+$/, 'a brand version is MAJOR.MINOR.PATCH')
    .optional()
    .describe(what);

/** GET /api/brand/tokens?version=: documented with the tokens route's other parameters. */
export const TOKENS_VERSION_PARAM = versionParam(
  'A published brand version (GET /api/brand/versions): its stored DTCG document, as it was then (json only).',
);

const listInput = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: cursorParam,
});
const changelogInput = z.object({
  from: versionParam('The older version (default: the one before `to`).'),
  to: versionParam('The newer version (default: the latest).'),
});
const seqKey = z.tuple([z.number().int().min(1)]);

const bump = z.enum(['major', 'minor', 'patch']);
const versionsPage = z.object({
  items: z.array(
    z.object({
      version: z.string(),
      publishedAt: z.string(),
      bump,
      added: z.number().describe('tokens added against the version before'),
      removed: z.number(),
      changed: z.number(),
    }),
  ),
  nextCursor: z.string().nullable().describe('pass as cursor for the next page; null on the last page'),
});
const token = { path: z.string(), type: z.string(), value: z.unknown() };
const changelog = z.object({
  from: z.string().nullable().describe('null for the first version (everything in it is added)'),
  to: z.string(),
  bump,
  added: z.array(z.object(token)),
  removed: z.array(
    z.object({ ...token, replacement: z.string().nullable().describe('the token to use instead, if any') }),
  ),
  changed: z.array(
    z.object({
      path: z.string(),
      from: z.unknown(),
      to: z.unknown(),
      fromType: z.string().optional(),
      toType: z.string().optional(),
    }),
  ),
});
export type ChangelogHolds = Holds<Changelog, z.output<typeof changelog>>;
const versionHeaders = { 'Brand-Version': 'the live brand version', 'Cache-Control': 'how long to keep it' };
const LIST_TAG = filterTag('brand-versions', {});

const notFound = (v: string) =>
  new AppError(404, 'version_not_found', `There is no brand version ${JSON.stringify(v.slice(0, 32))}.`);

async function getVersion(versions: BrandVersions, v: string): Promise<BrandVersionRecord> {
  if (!isVersion(v)) throw notFound(v);
  const found = await versions.get(v);
  if (!found) throw notFound(v);
  return found;
}

/** Does a tokens query ask for a stored version? (Its value is checked where it is served.) */
export const asksForVersion = (query: unknown): boolean =>
  typeof query === 'object' && query !== null && 'version' in query;

/**
 * The tokens route's `?version=` answer: the version's stored document, its own ETag, cached
 * for good (a version never changes). Only as DTCG JSON, and without a theme.
 */
export function versionedTokens(versions: BrandVersions) {
  const built = new Map<string, Precomputed>();
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const q = req.query as Record<string, unknown>;
    const v = parseInput(z.object({ version: TOKENS_VERSION_PARAM.unwrap() }), { version: q['version'] });
    if ((q['format'] !== undefined && q['format'] !== 'json') || q['theme'] !== undefined)
      throw new AppError(
        400,
        'version_format_unsupported',
        'A stored brand version is served as its DTCG document only: drop format and theme, or the version.',
      );
    let res = built.get(v.version);
    if (!res) {
      const record = await getVersion(versions, v.version);
      res = precompute(JSON.stringify(JSON.parse(record.tokens), null, 2) + '\n', {
        contentType: 'application/json; charset=utf-8',
        cacheControl: VERSION_CACHE,
        headers: brandVersionHeaders(record.version),
      });
      // A few recent versions are kept ready; clients mostly ask for the last ones.
      if (built.size >= 16) built.delete(built.keys().next().value ?? '');
      built.set(v.version, res);
    }
    return sendPrecomputed(req, reply, res);
  };
}

/** The brand's versions as their own encapsulated plugin, beside the brand API's. */
export function registerBrandVersionRoutes(
  app: FastifyInstance,
  brand: BrandService,
  versions: BrandVersions,
): void {
  void app.register(function brandVersionRoutes(scope, _opts, done) {
    scope.setErrorHandler(errorHandler(PUBLIC_CORS));
    addBrandVersionRoutes(scope, brand, versions);
    done();
  });
}

function addBrandVersionRoutes(app: FastifyInstance, brand: BrandService, versions: BrandVersions): void {
  const send = (reply: FastifyReply, body: unknown) =>
    reply
      .headers({
        'cache-control': LIST_CACHE,
        ...PUBLIC_CORS,
        ...brandVersionHeaders(brand.current.brandVersion),
      })
      .send(body);

  const versionsDoc: RouteDocBody = {
    summary: ENDPOINTS[`GET ${VERSIONS_ROUTE}`] ?? 'Brand versions.',
    tag: 'brand',
    auth: 'none',
    input: listInput,
    output: versionsPage,
    headers: versionHeaders,
    errors: [400],
  };
  app.get(VERSIONS_ROUTE, { config: { doc: versionsDoc } }, async (req, reply) => {
    const q = parseInput(listInput, req.query);
    const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor, LIST_TAG, seqKey)[0];
    const page = await versions.list(q.limit, after);
    const last = page.items.at(-1);
    return send(reply, {
      items: page.items.map((v) => ({
        version: v.version,
        publishedAt: v.publishedAt,
        bump: v.bump,
        added: v.added,
        removed: v.removed,
        changed: v.changed,
      })),
      nextCursor: page.more && last ? encodeCursor(LIST_TAG, [last.seq]) : null,
    });
  });

  const changelogDoc: RouteDocBody = {
    summary: ENDPOINTS[`GET ${CHANGELOG_ROUTE}`] ?? 'Brand changelog.',
    tag: 'brand',
    auth: 'none',
    input: changelogInput,
    output: changelog,
    headers: versionHeaders,
    errors: [400, 404],
  };
  app.get(CHANGELOG_ROUTE, { config: { doc: changelogDoc } }, async (req, reply) => {
    const q = parseInput(changelogInput, req.query);
    const to = q.to !== undefined ? await getVersion(versions, q.to) : await versions.latest();
    if (!to) throw new AppError(404, 'version_not_found', 'No brand version has been published yet.');
    const fromName = q.from ?? to.previous ?? undefined;
    const from = fromName !== undefined ? await getVersion(versions, fromName) : undefined;
    if (from && compareVersions(from.version, to.version) >= 0)
      throw new AppError(
        400,
        'invalid_range',
        `from (${from.version}) must be older than to (${to.version}).`,
      );
    return send(reply, versions.changelog(from, to));
  });
}
