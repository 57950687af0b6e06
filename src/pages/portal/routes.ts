/**
 * GET / (the brand portal), /portal.css and /portal.js. The page and its stylesheet are built
 * once per brand catalog and kept in a WeakMap keyed by that catalog: a brand reload swaps the
 * catalog, so the next request builds from the new one and the old entry is collected with it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageDeps } from '../page-deps.js';
import type { BrandCatalog } from '../../brand/catalog.js';
import type { RouteDocBody } from '../../http/openapi.js';
import { precompute, sendPrecomputed, type Precomputed } from '../../http/precomputed.js';
import { buildPortalCss } from './portal-css.js';
import { PORTAL_JS } from './portal-js.js';
import { renderPortalPage } from './render-page.js';
import { buildTokensView } from './tokens-view.js';

// The page must be revalidated (cheap: ETag) so a brand edit shows at once; its CSS and JS
// URLs carry a content version, so they can be cached.
const PAGE_CACHE = 'public, no-cache';
const FILE_CACHE = 'public, max-age=3600, stale-while-revalidate=86400';

interface Portal {
  page: Precomputed;
  css: Precomputed;
}

let script: Precomputed | undefined;
const portalJs = () =>
  (script ??= precompute(PORTAL_JS, {
    contentType: 'text/javascript; charset=utf-8',
    cacheControl: FILE_CACHE,
  }));

/**
 * Brand asset URLs are absolute (PUBLIC_URL), so that origin is allowed beside 'self'. Fetches
 * (connect-src) may go to the same two: the portal presents the public API it stands on
 * (/api/brand, /llms.txt, /robots.txt), and a fetch of it from the page, a reader trying a
 * snippet in the console or a tool checking robots.txt, must not be blocked.
 */
export function portalCsp(publicUrl: string): string {
  const origin = new URL(publicUrl).origin;
  return [
    "default-src 'none'",
    `style-src 'self' ${origin}`,
    `img-src 'self' ${origin}`,
    `font-src 'self' ${origin}`,
    `connect-src 'self' ${origin}`,
    "script-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function build(catalog: BrandCatalog): Portal {
  const tokens = buildTokensView(catalog);
  const css = precompute(buildPortalCss(catalog, tokens), {
    contentType: 'text/css; charset=utf-8',
    cacheControl: FILE_CACHE,
  });
  const html = renderPortalPage(catalog, tokens, {
    cssUrl: `/portal.css?v=${css.sha256.slice(0, 12)}`,
    jsUrl: `/portal.js?v=${portalJs().sha256.slice(0, 12)}`,
  });
  const page = precompute(html, {
    contentType: 'text/html; charset=utf-8',
    cacheControl: PAGE_CACHE,
    headers: {
      'content-security-policy': portalCsp(catalog.baseUrl),
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-frame-options': 'DENY',
    },
  });
  return { page, css };
}

export function registerPortal(app: FastifyInstance, deps: PageDeps): void {
  const cache = new WeakMap<BrandCatalog, Portal>();
  const current = (): Portal => {
    const catalog = deps.brand.current;
    let portal = cache.get(catalog);
    if (!portal) {
      portal = build(catalog);
      cache.set(catalog, portal);
    }
    return portal;
  };
  // HEAD is routed with GET so it answers with the GET's exact headers, as the brand routes do.
  const read = (url: string, pick: () => Precomputed, summary: string, type: string) => {
    const doc: RouteDocBody = { summary, tag: 'pages', auth: 'none', media: { type } };
    app.route({
      method: ['GET', 'HEAD'],
      url,
      exposeHeadRoute: false,
      handler: (req: FastifyRequest, reply: FastifyReply) => sendPrecomputed(req, reply, pick()),
      config: { doc },
    });
  };
  read(
    '/',
    () => current().page,
    'The brand portal: a style guide of the live brand, built from the same catalog as this API.',
    'text/html; charset=utf-8',
  );
  read(
    '/portal.css',
    () => current().css,
    "The portal's stylesheet (its URL carries a content version, ?v=).",
    'text/css; charset=utf-8',
  );
  read(
    '/portal.js',
    portalJs,
    "The portal's script (its URL carries a content version, ?v=).",
    'text/javascript; charset=utf-8',
  );
}
