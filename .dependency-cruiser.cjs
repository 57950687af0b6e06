/**
 * The layer order of src/ (docs/architecture.md, "Layers"), held by `npm run lint:layers` in
 * `npm run check`. A module may import its own layer and the layers below it, never one above;
 * brand and gateway are siblings (neither imports the other). No import cycles, type-only imports
 * included (tsPreCompilationDeps), since a cycle of types is still two modules that cannot be
 * understood apart.
 *
 *   main      src/main.ts, src/cli/                      composition: builds every service, starts the process
 *   app       src/app.ts, src/app-deps.ts                buildApp: registers the pipeline and the parts, builds nothing
 *   pages     src/pages/                                 HTML for people: portal and dashboard
 *   http      src/http/                                  Fastify: routes, the identity hook, limits, sessions
 *   mcp       src/mcp/                                   the MCP servers over the brand and the gateway
 *   brand     src/brand/                                 the brand catalog
 *   gateway   src/gateway/                               the integration gateway
 *   store     src/store/                                 persistence behind one port, and the outbox's messages
 *   core      src/core/, src/*.ts, src/tracing/, src/types/   neutral: errors, config, log, clock…
 *
 * Routes and pages (http/, pages/) import only the store's record types, never its code.
 * src/client/ (the published typed client) and packages/platform-emulator (a stand-in for a third
 * party) import nothing from the service.
 */

// Each layer's folders and top-level files, as a path pattern from the repository root.
const MAIN = '^src/(main\\.ts|cli/)';
const APP = '^src/(app\\.ts|app-deps\\.ts)';
const PAGES = '^src/pages/';
const HTTP = '^src/http/';
const MCP = '^src/mcp/';
const BRAND = '^src/brand/';
const GATEWAY = '^src/gateway/';
const STORE = '^src/store/';
const CORE = '^src/(core/|(?!app\\.ts$|main\\.ts$|app-deps\\.ts$)[^/]+\\.ts$|tracing/|types/)';

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
    below(
      'core',
      CORE,
      [STORE, GATEWAY, BRAND, MCP, HTTP, PAGES, APP, MAIN],
      'Neutral modules know no layer.',
    ),
    below(
      'store',
      STORE,
      [GATEWAY, BRAND, MCP, HTTP, PAGES, APP, MAIN],
      'The store is a port; it serves everyone.',
    ),
    below(
      'gateway',
      GATEWAY,
      [BRAND, MCP, HTTP, PAGES, APP, MAIN],
      'The gateway knows no transport, and no brand.',
    ),
    below(
      'brand',
      BRAND,
      [GATEWAY, MCP, HTTP, PAGES, APP, MAIN],
      'The brand catalog knows no transport, and no gateway.',
    ),
    below('mcp', MCP, [HTTP, PAGES, APP, MAIN], 'MCP servers are served by http/, not the other way round.'),
    below('http', HTTP, [PAGES, APP, MAIN], 'Pages sit on the HTTP layer; it does not know them.'),
    below(
      'pages',
      PAGES,
      [APP, MAIN],
      'Pages are given their dependencies (pages/page-deps.ts), not the app.',
    ),
    below('app', APP, [MAIN], 'buildApp is given every service; main.ts builds them.'),
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
