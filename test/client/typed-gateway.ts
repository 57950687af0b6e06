/**
 * The typed client (`fleetgate/client`) as the gateway tests use it: one with the API key and
 * one without, both holding every answer to the document the gateway serves (DocumentAnswers),
 * plus small readers for answers and a way to send a body the document does not describe.
 */
import { createFleetgateClient, type FleetgateClient } from 'fleetgate/client';
import type { Middleware } from 'openapi-fetch';
import { expect } from 'vitest';
import { API_KEY, type GatewayEnv } from '../gateway/helpers.js';
import { DocumentAnswers } from './document-answers.js';

export interface TypedGateway {
  api: FleetgateClient;
  anonymous: FleetgateClient;
  answers: DocumentAnswers;
}

export async function typedGateway(
  e: GatewayEnv,
  knownMismatches: Readonly<Record<string, string>> = {},
): Promise<TypedGateway> {
  const served = await fetch(`${e.base}/openapi.json`);
  expect(served.status, 'GET /openapi.json').toBe(200);
  const answers = new DocumentAnswers(await served.json(), knownMismatches);
  const api = createFleetgateClient({ baseUrl: e.base, apiKey: API_KEY });
  const anonymous = createFleetgateClient({ baseUrl: e.base });
  api.use(answers.middleware());
  anonymous.use(answers.middleware());
  return { api, anonymous, answers };
}

/**
 * The body of an answer whose document declares none yet; openapi-fetch types it `never`, so
 * it is read untyped. Once the document declares it this no longer compiles for that call:
 * read the typed `data` instead.
 */
export function untyped<R extends { data?: undefined; response: Response }>(r: R, status = 200): any {
  expect(r.response.status, JSON.stringify((r as { error?: unknown }).error)).toBe(status);
  return (r as { data?: unknown }).data;
}

/** The typed data of a success, after checking its status. */
export function ok<D>(r: { data?: D; error?: unknown; response: Response }, status = 200): D {
  expect(r.response.status, JSON.stringify(r.error)).toBe(status);
  expect(r.data).toBeDefined();
  return r.data as D;
}

/** The error code of a refusal (typed by the document's error schema), after checking its status. */
export function refusal(
  r: { error?: { error: { code: string } }; response: Response },
  status: number,
): string {
  expect(r.response.status).toBe(status);
  expect(r.error).toBeDefined();
  return r.error?.error.code ?? '';
}

/** Sends `body` as given: for request bodies the document does not describe (it should). */
export const rawBody = (body: string, contentType = 'application/json'): Middleware => ({
  onRequest: ({ request }) => {
    const headers = new Headers(request.headers);
    headers.set('content-type', contentType);
    return new Request(request, { body, headers });
  },
});
