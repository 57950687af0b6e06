/**
 * The OpenAPI 3.1 document of the whole HTTP surface, and the /docs reference page rendered
 * from it (no CDN, no scripts). Capability paths contribute their zod input schemas through
 * `documentRoute`, so the document cannot drift from the validation that actually runs.
 */
import * as z from 'zod';
import { ENDPOINTS } from '../brand/manifest.js';

export interface RouteDoc {
  method: string;
  url: string;
  summary: string;
  tag: 'brand' | 'mcp' | 'gateway' | 'capabilities' | 'operations';
  auth: 'none' | 'api_key' | 'signature';
  /** Query parameters (GET/DELETE) or JSON body (others). */
  input?: z.ZodType;
  status?: number;
  responseDescription?: string;
}

const DOCS: RouteDoc[] = [];

export function documentRoute(d: RouteDoc): void {
  if (!DOCS.some((x) => x.method === d.method && x.url === d.url)) DOCS.push(d);
}

const STATIC: RouteDoc[] = [
  ...Object.entries(ENDPOINTS)
    .filter(([k]) => !k.startsWith('POST /mcp'))
    .map(([k, summary]) => {
      const [method = 'GET', url = '/'] = k.split(' ');
      return {
        method,
        url: url.replace(/:key/, ':key'),
        summary,
        tag: 'brand' as const,
        auth: 'none' as const,
      };
    }),
  {
    method: 'GET',
    url: '/static/fleet/*',
    summary: 'Brand files: stylesheets, images, fonts, documents (HTML and Markdown).',
    tag: 'brand',
    auth: 'none',
  },
  {
    method: 'GET',
    url: '/favicon.ico',
    summary: 'The favicon (16, 32 and 48 px).',
    tag: 'brand',
    auth: 'none',
  },
  {
    method: 'POST',
    url: '/mcp',
    summary:
      'MCP endpoint (streamable HTTP, JSON-RPC 2.0; protocol 2026-07-28 and 2025-11-25): seven brand tools and resources.',
    tag: 'mcp',
    auth: 'none',
  },
  {
    method: 'POST',
    url: '/api/video/mcp',
    summary:
      'Private MCP endpoint (streamable HTTP, JSON-RPC 2.0; protocol 2026-07-28 and 2025-11-25): one tool per capability the platform offers and the link admits, status and monitor resources. 401 with WWW-Authenticate: Bearer without the key.',
    tag: 'mcp',
    auth: 'api_key',
  },
  { method: 'GET', url: '/healthz', summary: 'Liveness.', tag: 'operations', auth: 'none' },
  {
    method: 'GET',
    url: '/readyz',
    summary: 'Readiness: the brand is loaded and the store answers.',
    tag: 'operations',
    auth: 'none',
  },
  {
    method: 'GET',
    url: '/metrics',
    summary: 'Prometheus metrics: requests and latency by route, upstream calls, refreshes, webhooks.',
    tag: 'operations',
    auth: 'api_key',
  },
  { method: 'GET', url: '/openapi.json', summary: 'This document.', tag: 'operations', auth: 'none' },
  { method: 'GET', url: '/docs', summary: 'The API reference page.', tag: 'operations', auth: 'none' },
  {
    method: 'GET',
    url: '/api/video/oauth/start',
    summary:
      "Starts linking: 302 to the platform's consent page (PKCE, browser-bound state); JSON {authorizeUrl} when asked.",
    tag: 'gateway',
    auth: 'api_key',
    status: 302,
  },
  {
    method: 'GET',
    url: '/api/video/oauth/callback',
    summary: 'OAuth redirect target: checks state and cookie, exchanges the code, stores the link.',
    tag: 'gateway',
    auth: 'none',
    status: 302,
  },
  {
    method: 'POST',
    url: '/api/video/oauth/disconnect',
    summary: 'Revokes upstream and forgets the link.',
    tag: 'gateway',
    auth: 'api_key',
  },
  {
    method: 'GET',
    url: '/api/video/status',
    summary: 'The status report: configured, linked account, stored events, capability map and paths.',
    tag: 'gateway',
    auth: 'api_key',
  },
  {
    method: 'GET',
    url: '/api/video/monitor',
    summary:
      'Every group and capability with its state, scopes, latency; token expiry, budgets, last webhook.',
    tag: 'gateway',
    auth: 'api_key',
  },
  {
    method: 'POST',
    url: '/api/video/webhooks',
    summary:
      "The platform's webhook deliveries (x-zm-signature over the raw body, ±5 minutes); answers url_validation.",
    tag: 'gateway',
    auth: 'signature',
  },
  {
    method: 'GET',
    url: '/api/video/capabilities',
    summary: 'The capability registry: every group/name with availability, state and input schema.',
    tag: 'capabilities',
    auth: 'api_key',
  },
  {
    method: 'POST',
    url: '/api/video/capabilities/:group/:name',
    summary: 'Invokes one capability with JSON arguments; 501 no_public_api where the platform has none.',
    tag: 'capabilities',
    auth: 'api_key',
  },
];

const toOpenApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}');

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
        message: { type: 'string' },
        details: { type: 'object' },
      },
    },
  },
};

function jsonSchema(s: z.ZodType): Record<string, unknown> {
  const j = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete j['$schema'];
  return j;
}

export function buildOpenApi(baseUrl: string, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const d of [...STATIC, ...DOCS]) {
    const p = toOpenApiPath(d.url);
    const params = [...d.url.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (d.url.endsWith('*'))
      params.push({ name: 'path', in: 'path', required: true, schema: { type: 'string' } });
    const op: Record<string, unknown> = {
      summary: d.summary,
      tags: [d.tag],
      operationId: `${d.method.toLowerCase()}_${p.replace(/[^a-zA-Z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      responses: {
        [String(d.status ?? 200)]: { description: d.responseDescription ?? 'Success.' },
        default: {
          description: 'Error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    };
    if (d.auth === 'api_key') op['security'] = [{ apiKey: [] }];
    if (d.input) {
      const schema = jsonSchema(d.input);
      if (d.method === 'GET' || d.method === 'DELETE') {
        const props = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
        const required = new Set((schema['required'] ?? []) as string[]);
        for (const [name, s] of Object.entries(props)) {
          if (params.some((x) => x.name === name)) continue;
          params.push({
            name,
            in: 'query',
            required: required.has(name) && s['default'] === undefined,
            schema: s as never,
          });
        }
      } else op['requestBody'] = { required: true, content: { 'application/json': { schema } } };
    }
    if (params.length) op['parameters'] = params;
    (paths[p] ??= {})[d.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'fleetgate',
      version,
      description:
        'Brand asset API (public) and integration gateway to the video platform (private, API key), on one base URL.',
    },
    servers: [{ url: baseUrl }],
    tags: [
      { name: 'brand', description: 'Public, read-only brand asset API.' },
      {
        name: 'mcp',
        description: 'Model Context Protocol endpoints for agents: public brand, private gateway.',
      },
      { name: 'gateway', description: 'Linking, status and monitoring of the platform account.' },
      { name: 'capabilities', description: "The platform's capabilities through the gateway." },
      { name: 'operations', description: 'Health and documentation.' },
    ],
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <FLEETGATE_API_KEY>' },
      },
    },
  };
}

const esc = (s: string) =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The reference page: every operation by tag, with its parameters and body schema. */
export function renderDocsPage(doc: Record<string, unknown>, baseUrl: string): string {
  const paths = doc['paths'] as Record<string, Record<string, Record<string, unknown>>>;
  const tags = doc['tags'] as { name: string; description: string }[];
  const sections = tags
    .map((t) => {
      const ops = Object.entries(paths).flatMap(([p, methods]) =>
        Object.entries(methods)
          .filter(([, o]) => (o['tags'] as string[]).includes(t.name))
          .map(([m, o]) => {
            const params = (o['parameters'] ?? []) as {
              name: string;
              in: string;
              required?: boolean;
              schema?: Record<string, unknown>;
            }[];
            const body = (
              o['requestBody'] as { content: { 'application/json': { schema: unknown } } } | undefined
            )?.content['application/json'].schema;
            const secured = Array.isArray(o['security']);
            return `<article class="op"><h3><span class="m m-${m}">${m.toUpperCase()}</span> <code>${esc(p)}</code>${secured ? ' <span class="lock">API key</span>' : ''}</h3><p>${esc(String(o['summary']))}</p>${
              params.length
                ? `<table><thead><tr><th>parameter</th><th>in</th><th>schema</th></tr></thead><tbody>${params
                    .map(
                      (x) =>
                        `<tr><td><code>${esc(x.name)}</code>${x.required ? ' *' : ''}</td><td>${x.in}</td><td><code>${esc(JSON.stringify(x.schema ?? {}))}</code></td></tr>`,
                    )
                    .join('')}</tbody></table>`
                : ''
            }${body ? `<details><summary>JSON body</summary><pre>${esc(JSON.stringify(body, null, 2))}</pre></details>` : ''}</article>`;
          }),
      );
      return `<section id="${t.name}"><h2>${esc(t.name)}</h2><p>${esc(t.description)}</p>${ops.join('\n')}</section>`;
    })
    .join('\n');
  const s = `${baseUrl}/static/fleet`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · fleetgate</title>
<link rel="icon" href="${s}/assets/icons/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${s}/fonts/fonts.css"><link rel="stylesheet" href="${s}/design-tokens.css"><link rel="stylesheet" href="${s}/brand.css">
<style>.op{border:1px solid var(--colors-border-default);border-radius:var(--radius-md);padding:var(--spacing-3) var(--spacing-4);margin:var(--spacing-3) 0}.op h3{margin:0;font:var(--type-style-label)}.m{display:inline-block;min-width:4.5em;text-align:center;border-radius:var(--radius-sm);color:#fff;background:var(--colors-palette-navy-700)}.m-post{background:var(--colors-status-success)}.m-patch{background:var(--colors-status-warning)}.m-delete{background:var(--colors-status-danger)}.lock{font:var(--type-style-small);color:var(--colors-text-muted)}</style>
</head><body>
<header class="bar"><img src="${s}/assets/logo-horizontal-dark.svg" alt="fleetgate" height="40"><span>API reference</span></header>
<main class="doc"><h1>fleetgate API</h1><p>Machine-readable: <a href="${baseUrl}/openapi.json">/openapi.json</a> (OpenAPI 3.1). Errors everywhere: <code>{"error":{"code","message","details?"}}</code>.</p>
<nav><ul>${tags.map((t) => `<li><a href="#${t.name}">${esc(t.name)}</a></li>`).join('')}</ul></nav>
${sections}
</main></body></html>
`;
}
