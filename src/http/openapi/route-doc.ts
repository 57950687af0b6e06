/**
 * What a route says about itself, in its own declaration: Fastify's route options carry, in
 * `config`, its OpenAPI description (`doc`: inputs and answers as the zod schemas the route
 * checks and builds, and who may call) and its limit class (`limit`, read by rate-limit.ts). An
 * onRoute hook collects the descriptions as the routes are added; build.ts turns the app's list
 * into the document once every route is in. The list belongs to the app (a root decorator, its
 * hook seen by every encapsulated plugin), so apps built in one process, as the tests build many,
 * each document only their own routes.
 */
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import type * as z from 'zod';
import type { Operation } from '../../gateway/capabilities/operation.js';

export type DocTag = 'brand' | 'mcp' | 'gateway' | 'capabilities' | 'operations' | 'pages';

/** A non-JSON body: its media type and the JSON Schema of its text (default: a string). */
export interface MediaDoc {
  type: string;
  schema?: Record<string, unknown>;
}

/** One answer other than the route's success: a redirect, a page, another body. */
export interface ResponseDoc {
  description: string;
  /** A JSON body (application/json). */
  body?: z.ZodType;
  /** A body of another media type. */
  media?: MediaDoc;
  /** Response headers, by name: their descriptions (each a string value). */
  headers?: Record<string, string>;
}

export interface RouteDoc {
  method: string;
  /** Fastify's spelling, `:param` for path parameters. */
  url: string;
  /** Who may call (see RouteAuth); the limiter reads it too. */
  auth: RouteAuth;
  summary: string;
  tag: DocTag;
  /** Query parameters (GET/DELETE) or JSON body (others). */
  input?: z.ZodType;
  /** Query parameters of a route that also takes a body. */
  query?: z.ZodType;
  /** Path parameters as the route checks them (a zod object); plain strings otherwise. */
  params?: z.ZodType;
  /** The media type of the body `input` describes, when not JSON (forms). */
  bodyType?: string;
  /** The success status (default 200; 204 has no content). */
  status?: number;
  /** The success answer's JSON body. */
  output?: z.ZodType;
  /** The success answer's media types other than JSON, and their schemas (default: a string). */
  media?: MediaDoc | readonly MediaDoc[];
  responseDescription?: string;
  /** Other answers (redirects, alternative bodies), by status; 'default' for any other. */
  responses?: Partial<Record<number | 'default', ResponseDoc>>;
  /**
   * The error statuses it answers in the one error shape, besides those its auth adds (401 and
   * 429 for the API key); capability views take them from the operation.
   */
  errors?: readonly number[];
  /**
   * Its errors come as a page too: each error status (and the default) declares this media type
   * beside the one error shape, `when` saying which requests get the page.
   */
  errorPage?: MediaDoc & { when: string };
  /** Takes an Idempotency-Key header (a creation whose repeat replays the first answer). */
  idempotent?: boolean;
  /** A capability view: input, output, errors and Idempotency-Key from the operation. */
  operation?: Operation;
  /** Headers of the success answer, by name: their descriptions. */
  headers?: Record<string, string>;
}

/**
 * Who may call: nobody in particular (or whoever holds the OAuth state), the API key, a webhook
 * signature, a dashboard session.
 */
export type RouteAuth = 'none' | 'api_key' | 'signature' | 'session';

/**
 * Which of our own limits a route falls under (rate-limit.ts): the operator's API budget, the
 * MCP budget per IP, the sign-in's key-guessing guard, /metrics' guard. Absent: none.
 */
export type LimitClass = 'api' | 'mcp' | 'login' | 'metrics';

/**
 * A route's description as its declaration carries it: method and URL are the route's own unless
 * given (a route that answers several methods documents its first).
 */
export type RouteDocBody = Omit<RouteDoc, 'method' | 'url'> & Partial<Pick<RouteDoc, 'method' | 'url'>>;

/**
 * Compiles only when every value of T is a valid S: where an answer is built as a TypeScript
 * type, `type _ = Holds<Answer, z.output<typeof schema>>` fails the build when the two part.
 */
export type Holds<T extends S, S> = [T, S];

/** One app's route descriptions, in registration order; the first of a method and path wins. */
export class RouteDocs {
  readonly #docs: RouteDoc[] = [];

  add(d: RouteDoc): void {
    if (!this.#docs.some((x) => x.method === d.method && x.url === d.url)) this.#docs.push(d);
  }

  get all(): readonly RouteDoc[] {
    return this.#docs;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's OpenAPI descriptions (openapiDocs); absent on an app that keeps no document. */
    routeDocs?: RouteDocs;
  }
  interface FastifyContextConfig {
    /**
     * The route's OpenAPI description. A list for a route that serves several documented paths
     * (a wildcard: each concrete path its own entry, method and URL given).
     */
    doc?: RouteDocBody | readonly RouteDoc[];
    /** Its limit class (rate-limit.ts); absent: no limit of ours. */
    limit?: LimitClass;
    /**
     * Who may call a route without a description (one that has one says it there, `doc.auth`):
     * the identity hook (auth/identity.ts) and the limiter read it.
     */
    auth?: RouteAuth;
    /**
     * It speaks JSON-RPC (an MCP endpoint): refusals (429) are answered in JSON-RPC, and it
     * answers the key check itself, in the MCP authorization spec's shape.
     */
    jsonRpc?: boolean;
  }
}

/** Who may call a route, as its declaration says (`config.auth`, else its description's). */
export function routeAuth(config: FastifyContextConfig | undefined): RouteAuth | undefined {
  const doc = config?.doc;
  return config?.auth ?? (doc && !isDocList(doc) ? doc.auth : undefined);
}

/** The route's first method; a HEAD Fastify adds beside a GET is not documented again. */
const docMethod = (method: string | string[]): string | undefined => {
  const first = Array.isArray(method) ? method[0] : method;
  return first === undefined || first === 'HEAD' ? undefined : first;
};

/**
 * Gives the app its document's list, filled from each route's `config.doc` as it is added; call
 * on the root before any route, so every plugin's routes are seen.
 */
export function openapiDocs(app: FastifyInstance): RouteDocs {
  const docs = new RouteDocs();
  app.decorate('routeDocs', docs);
  app.addHook('onRoute', (route) => {
    const doc = route.config?.doc;
    if (!doc) return;
    if (isDocList(doc)) {
      for (const d of doc) docs.add(d);
      return;
    }
    const method = doc.method ?? docMethod(route.method);
    if (method) docs.add({ ...doc, method, url: doc.url ?? route.url });
  });
  return docs;
}

const isDocList = (d: RouteDocBody | readonly RouteDoc[]): d is readonly RouteDoc[] => Array.isArray(d);
