/**
 * The layer order of src/ (docs/architecture.md, "Layers"), held by `npm run lint:layers` in
 * `npm run check`. A module may import its own layer and the layers below it, never one above;
 * no import cycles, type-only imports included (tsPreCompilationDeps), since a cycle of types is
 * still two modules that cannot be understood apart.
 *
 *   app       src/app.ts, src/main.ts, src/cli/          assembly: builds and starts everything
 *   pages     src/pages/, src/app-deps.ts                HTML for people: portal and dashboard
 *   http      src/http/                                  Fastify: routes, auth hook, limits, headers
 *   mcp       src/mcp/                                   the MCP servers over the brand and the gateway
 *   brand     src/brand/                                 the brand catalog (publishes versions as webhooks)
 *   domain    src/gateway/, src/auth/                    the integration gateway; sessions and CSRF tokens
 *   store     src/store/                                 persistence behind one port
 *   base      src/*.ts, src/tracing/, src/web/, src/types/   neutral: errors, config, log…
 *
 * Routes and pages (http/, pages/) import only the store's record types, never its code.
 * src/client/ (the published typed client) and packages/platform-emulator (a stand-in for a third
 * party) import nothing from the service.
 */

// Each layer's folders and top-level files, as a path pattern from the repository root.
const APP = '^src/(app\\.ts|main\\.ts|cli/)';
const PAGES = '^src/(pages/|app-deps\\.ts)';
const HTTP = '^src/http/';
const MCP = '^src/mcp/';
const BRAND = '^src/brand/';
const DOMAIN = '^src/(gateway|auth)/';
const STORE = '^src/store/';
const BASE = '^src/((?!app\\.ts$|main\\.ts$|app-deps\\.ts$)[^/]+\\.ts$|tracing/|web/|types/)';

const any = (...patterns) => patterns.map((p) => `(${p})`).join('|');

/** A rule that keeps a layer from importing the layers above it. */
const below = (name, from, above, why) => ({
  name: `${name}-not-upward`,
  comment: why,
  severity: 'error',
  from: { path: from },
  to: { path: any(...above) },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other (even for types) cannot be read, tested or moved apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      comment: 'A module nothing imports (and that is no entry point) is dead code.',
      severity: 'error',
      from: { orphan: true },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    below('base', BASE, [STORE, DOMAIN, BRAND, MCP, HTTP, PAGES, APP], 'Neutral modules know no layer.'),
    below('store', STORE, [DOMAIN, BRAND, MCP, HTTP, PAGES, APP], 'The store is a port; it serves everyone.'),
    below('domain', DOMAIN, [BRAND, MCP, HTTP, PAGES, APP], 'The gateway and auth know no transport.'),
    below('brand', BRAND, [MCP, HTTP, PAGES, APP], 'The brand catalog knows no transport.'),
    below('mcp', MCP, [HTTP, PAGES, APP], 'MCP servers are served by http/, not the other way round.'),
    below('http', HTTP, [PAGES, APP], 'Pages sit on the HTTP layer; it does not know them.'),
    below('pages', PAGES, [APP], 'Pages are given their dependencies (app-deps.ts), not the app.'),
    {
      name: 'handlers-not-to-store-code',
      comment:
        'Routes and pages import no store code, only its record types: stored data comes to them through the gateway (and a readiness probe through the store it is handed).',
      severity: 'error',
      from: { path: any(HTTP, PAGES) },
      to: { path: STORE, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'client-standalone',
      comment: 'The typed client is published for integrators: it carries nothing of the service.',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/', pathNot: '^src/client/' },
    },
    {
      name: 'nothing-imports-client',
      comment: 'The service does not use its own client; the tests do.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/client/' },
      to: { path: '^src/client/' },
    },
    {
      name: 'emulator-standalone',
      comment: 'The platform emulator stands in for a third party: it imports nothing of the service.',
      severity: 'error',
      from: { path: '^packages/platform-emulator/' },
      to: { path: '^src/' },
    },
    {
      name: 'emulator-by-entries',
      comment: 'The service reaches the emulator only through its package entries, never its files.',
      severity: 'error',
      from: { path: '^src/' },
      to: {
        path: '^packages/platform-emulator/',
        pathNot: '^packages/platform-emulator/src/(main|start|child-process)\\.ts$',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports are dependencies too (a cycle of types is still a cycle).
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      // ESM packages (style-dictionary, the MCP SDK's subpaths, the emulator's workspace entries)
      // are found through their package.json "exports", as Node finds them.
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'node', 'default'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
