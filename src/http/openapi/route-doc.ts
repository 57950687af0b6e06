/**
 * What a route says about itself for the OpenAPI document: its inputs and its answers, as zod
 * schemas where the route builds or checks them. Routes call `documentRoute` as they register;
 * build.ts turns the app's list into the document once every route has described itself. The
 * list belongs to the app (a root decorator, seen by every encapsulated plugin), so apps built in
 * one process, as the tests build many, each document only their own routes.
 */
import type { FastifyInstance } from 'fastify';
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
  summary: string;
  tag: DocTag;
  /** Who may call: nobody in particular, the API key, a webhook signature, a dashboard session. */
  auth: 'none' | 'api_key' | 'signature' | 'session';
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
}

/** Gives the app its document's list; call on the root before any route, so every plugin sees it. */
export function openapiDocs(app: FastifyInstance): RouteDocs {
  const docs = new RouteDocs();
  app.decorate('routeDocs', docs);
  return docs;
}

/**
 * Adds a route to its app's document. An app without one (a test's bare Fastify around a single
 * route module) keeps no description.
 */
export function documentRoute(app: FastifyInstance, d: RouteDoc): void {
  app.routeDocs?.add(d);
}
