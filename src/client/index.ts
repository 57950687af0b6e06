/**
 * `fleetgate/client`: the typed client a business application uses to call fleetgate.
 * openapi-fetch over the paths the service documents (./openapi.ts, generated from the
 * document it serves at GET /openapi.json), sending the gateway API key the way the service
 * reads it (`Authorization: Bearer`, src/http/auth/api-key.ts). Imports nothing from the service.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './openapi.js';

export type { components, operations, paths };

export interface FleetgateClientOptions {
  /** Where the service answers, e.g. `https://gateway.example.com` (no trailing path needed). */
  baseUrl: string;
  /** FLEETGATE_API_KEY; absent or empty, no key is sent and only the public brand API answers. */
  apiKey?: string | undefined;
  /** Replaces globalThis.fetch (tests, proxies, instrumentation). */
  fetch?: (input: Request) => Promise<Response>;
}

export type FleetgateClient = Client<paths>;

export function createFleetgateClient(options: FleetgateClientOptions): FleetgateClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** The error body every failing answer carries: `{ error: { code, message, details? } }`. */
export type ApiError = components['schemas']['Error'];

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type OperationOf<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Responses<P extends keyof paths, M extends Method> =
  OperationOf<P, M> extends { responses: infer R } ? R : never;

/**
 * The JSON body of one answer, by path, method and status (200 unless given), e.g.
 * `ResponseBody<'/api/video/status', 'get'>`; `never` when the document declares no body.
 */
export type ResponseBody<
  P extends keyof paths,
  M extends Method,
  S extends keyof Responses<P, M> = 200 extends keyof Responses<P, M> ? 200 : keyof Responses<P, M>,
> = Responses<P, M>[S] extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON body a request sends, by path and method. */
export type RequestBody<P extends keyof paths, M extends Method> =
  OperationOf<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
