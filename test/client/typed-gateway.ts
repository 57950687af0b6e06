/**
 * The typed client (`fleetgate/client`) as the gateway tests use it: one with the API key and
 * one without, both holding every answer to the document the gateway serves (DocumentAnswers),
 * and small readers for the typed answers.
 */
import { createFleetgateClient, type FleetgateClient } from 'fleetgate/client';
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

/** The typed data of a success, after checking its status. */
export function ok<D>(r: { data?: D; error?: unknown; response: Response }, status = 200): D {
  expect(r.response.status, JSON.stringify(r.error)).toBe(status);
  expect(r.data).toBeDefined();
  return r.data as D;
}

/**
 * The error code of a refusal (typed by the document's error schema), after checking its status
 * and that it came in the one error shape (a route that also answers with a page types its
 * errors as that page's text too).
 */
export function refusal(
  r: { error?: { error: { code: string } } | string; response: Response },
  status: number,
): string {
  expect(r.response.status).toBe(status);
  expect(typeof r.error, 'an error in the one shape, not a page').toBe('object');
  return typeof r.error === 'object' ? r.error.error.code : '';
}
