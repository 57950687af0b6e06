/**
 * The OpenAPI 3.1 document of an app's HTTP surface, built from its routes' own descriptions
 * (each route's `config.doc`, collected by route-doc.ts): parameters as the server reads them,
 * every success body's schema, every error status with the one error shape.
 */
import { errorSchema, SchemaComponents, type JsonSchema } from './schemas.js';
import type { MediaDoc, ResponseDoc, RouteDoc, RouteDocs } from './route-doc.js';

/** What any capability operation can answer besides its success: the platform's failures mapped. */
export const OPERATION_ERRORS: readonly number[] = [400, 402, 403, 404, 409, 429, 502, 503, 504];

const ERROR_TEXT: Record<number, string> = {
  400: 'The request is not valid (validation_failed with details.issues, invalid_json, or the platform rejected it).',
  401: 'Without a valid credential (unauthorized).',
  402: 'The linked account lacks the licence for this (no_license).',
  403: 'Refused: the platform denied access or the link lacks a scope (missing_scope).',
  404: 'Not found.',
  409: 'Conflict: no account is linked (not_linked), the link needs relinking, or the platform reported a conflict.',
  413: 'The body is too large (payload_too_large).',
  415: 'The body is not JSON (unsupported_media_type).',
  422: 'This Idempotency-Key was used with a different request (idempotency_key_reused).',
  429: 'Too many requests (rate_limited) or a daily platform quota is spent; see Retry-After.',
  501: 'The platform offers no public API for this capability (no_public_api).',
  502: 'The platform failed to answer (upstream_error).',
  503: 'Unavailable for now: the platform is failing or its budget is spent (see Retry-After), or a dependency does not answer.',
  504: 'The platform did not answer in time (upstream_timeout).',
};

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'string' } },
};

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a creation safe to retry: a repeat with the same key and body replays the first answer (Idempotent-Replayed: true); the same key with another body is a 422, while the first still runs a 409.',
  schema: { type: 'string', pattern: '^[\\w.:-]{1,128}$' },
};

const SCHEME = { api_key: 'apiKey', session: 'dashboardSession', signature: 'webhookSignature' } as const;

const toOpenApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const hasQuery = (method: string) => method === 'GET' || method === 'DELETE' || method === 'HEAD';

interface ObjectSchema {
  properties: Record<string, JsonSchema>;
  required: Set<string>;
}

const objectParts = (s: JsonSchema): ObjectSchema => ({
  properties: (s['properties'] ?? {}) as Record<string, JsonSchema>,
  required: new Set((s['required'] ?? []) as string[]),
});

/** The input key a path parameter carries: its own name, or its snake_case spelling. */
function boundKey(param: string, props: Record<string, JsonSchema>): string | undefined {
  if (props[param]) return param;
  const s = snake(param);
  return props[s] ? s : undefined;
}

function withoutKeys(s: JsonSchema, keys: readonly string[]): JsonSchema {
  if (keys.length === 0 || !s['properties']) return s;
  const properties = { ...(s['properties'] as Record<string, JsonSchema>) };
  for (const k of keys) delete properties[k];
  const required = ((s['required'] ?? []) as string[]).filter((k) => !keys.includes(k));
  const out: JsonSchema = { ...s, properties };
  if (required.length) out['required'] = required;
  else delete out['required'];
  return out;
}

function queryParams(s: JsonSchema, skip: ReadonlySet<string>): JsonSchema[] {
  const { properties, required } = objectParts(s);
  return Object.entries(properties)
    .filter(([name]) => !skip.has(name))
    .map(([name, schema]) => {
      const { description, ...rest } = schema;
      return {
        name,
        in: 'query',
        required: required.has(name) && schema['default'] === undefined,
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
      };
    });
}

function mediaContent(media: MediaDoc | readonly MediaDoc[]): JsonSchema {
  const all: readonly MediaDoc[] = Array.isArray(media) ? media : [media as MediaDoc];
  return Object.fromEntries(all.map((m) => [m.type, { schema: m.schema ?? { type: 'string' } }]));
}

function headersOf(h: Record<string, string> | undefined): JsonSchema | undefined {
  if (!h) return undefined;
  return Object.fromEntries(
    Object.entries(h).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
  );
}

function operationOf(d: RouteDoc, c: Components): JsonSchema {
  const path = toOpenApiPath(d.url);
  const op = d.operation;
  const inputZod = d.input ?? op?.input;
  const input = inputZod ? c.convert(inputZod, 'input') : undefined;
  const inputProps = input ? objectParts(input).properties : {};
  const pathSchemas = d.params ? objectParts(c.convert(d.params, 'input')).properties : {};

  // Path parameters; one that carries an input key takes that key's schema and leaves the query/body.
  const bound: string[] = [];
  const params: JsonSchema[] = [...d.url.matchAll(/:(\w+)/g)].map((m) => {
    const name = m[1] ?? '';
    const key = boundKey(name, inputProps);
    if (key) bound.push(key);
    const { description, ...schema } = pathSchemas[name] ??
      (key ? inputProps[key] : undefined) ?? {
        type: 'string',
      };
    return {
      name,
      in: 'path',
      required: true,
      ...(typeof description === 'string' ? { description } : {}),
      schema: Object.keys(schema).length ? schema : { type: 'string' },
    };
  });
  const skip = new Set([...bound, ...params.map((p) => String(p['name']))]);
  const result: JsonSchema = {
    summary: d.summary,
    tags: [d.tag],
    operationId: `${d.method.toLowerCase()}_${path.replace(/[^a-zA-Z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
  };
  let jsonBody = false;
  if (input && hasQuery(d.method)) params.push(...queryParams(input, skip));
  if (d.query) params.push(...queryParams(c.convert(d.query, 'input'), skip));
  if (input && !hasQuery(d.method)) {
    jsonBody = d.bodyType === undefined;
    const schema = withoutKeys(input, bound);
    result['requestBody'] = {
      // A JSON route reads a missing body as {}: the body is needed only for required fields.
      required: d.bodyType !== undefined || objectParts(schema).required.size > 0,
      content: { [d.bodyType ?? 'application/json']: { schema } },
    };
  }
  const idempotent = d.idempotent ?? op?.creates === true;
  if (idempotent) params.push(IDEMPOTENCY_KEY);
  if (params.length) result['parameters'] = params;

  const responses: Record<string, JsonSchema> = {};
  const status = d.status ?? 200;
  const success: JsonSchema = { description: d.responseDescription ?? 'Success.' };
  const output = d.output ?? op?.output;
  if (status !== 204 && (output || d.media)) {
    success['content'] = {
      ...(output ? { 'application/json': { schema: c.convert(output, 'output') } } : {}),
      ...(d.media ? mediaContent(d.media) : {}),
    };
  }
  const successHeaders = headersOf({
    ...(idempotent ? { 'Idempotent-Replayed': 'true when this answer replays an earlier one' } : {}),
    ...d.headers,
  });
  if (successHeaders && Object.keys(successHeaders).length) success['headers'] = successHeaders;
  responses[String(status)] = success;
  for (const [s, r] of Object.entries(d.responses ?? {})) if (r) responses[s] = responseOf(r, c);

  const errors = new Set(d.errors ?? (op ? OPERATION_ERRORS : []));
  if (d.auth === 'api_key') errors.add(401).add(429);
  if (d.auth === 'signature') errors.add(401);
  if (jsonBody) errors.add(400).add(413).add(415);
  if (idempotent) errors.add(409).add(422);
  const errorOf = (s: number | 'default') =>
    d.errorPage ? c.errorOrPage(s, d.errorPage) : c.errorResponse(s);
  for (const s of [...errors].sort()) responses[String(s)] ??= errorOf(s);
  // Anything else (a bug's 500 internal_error, a refused method or size) is in the one shape too.
  responses['default'] ??= errorOf('default');
  result['responses'] = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  result['security'] = d.auth === 'none' ? [] : [{ [SCHEME[d.auth]]: [] }];
  return result;
}

/** Named error answers, `#/components/responses/Error404` and so on, shared by every route. */
class Components extends SchemaComponents {
  readonly responses: Record<string, JsonSchema> = {};

  errorResponse(status: number | 'default'): JsonSchema {
    const name = `Error${status === 'default' ? 'Default' : status}`;
    this.responses[name] ??= errorAnswer(status);
    return { $ref: `#/components/responses/${name}` };
  }

  /** An error of a route that answers some requests with a page: both media types, in place. */
  errorOrPage(status: number | 'default', page: MediaDoc & { when: string }): JsonSchema {
    const json = errorAnswer(status);
    return {
      ...json,
      description: `${String(json['description'])} ${page.when}`,
      content: { ...(json['content'] as JsonSchema), ...mediaContent(page) },
    };
  }
}

function errorAnswer(status: number | 'default'): JsonSchema {
  return {
    description:
      status === 'default'
        ? 'Any other failure (500 internal_error and the like).'
        : (ERROR_TEXT[status] ?? 'Error.'),
    ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

function responseOf(r: ResponseDoc, c: SchemaComponents): JsonSchema {
  const out: JsonSchema = { description: r.description };
  const headers = headersOf(r.headers);
  if (headers) out['headers'] = headers;
  if (r.body) out['content'] = { 'application/json': { schema: c.convert(r.body, 'output') } };
  else if (r.media) out['content'] = mediaContent(r.media);
  return out;
}

/** The document of one app's routes: what its RouteDocs hold. */
export function buildOpenApi(baseUrl: string, version: string, docs: RouteDocs): Record<string, unknown> {
  const c = new Components();
  c.named('Error', errorSchema);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const d of docs.all) {
    (paths[toOpenApiPath(d.url)] ??= {})[d.method.toLowerCase()] = operationOf(d, c);
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
      { name: 'operations', description: 'Health, metrics and documentation.' },
      { name: 'pages', description: 'HTML pages for people: the brand portal and the operator dashboard.' },
    ],
    paths,
    components: {
      schemas: c.schemas,
      responses: Object.fromEntries(Object.entries(c.responses).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <FLEETGATE_API_KEY>' },
        dashboardSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'fg_session',
          description: 'The dashboard session, opened by POST /dashboard/login with the API key.',
        },
        webhookSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'x-zm-signature',
          description:
            "The platform's signature: v0=HMAC-SHA256(secret, 'v0:' + x-zm-request-timestamp + ':' + body), hex; the timestamp within 5 minutes.",
        },
      },
    },
  };
}
