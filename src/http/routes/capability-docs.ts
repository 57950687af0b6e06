/**
 * How the capability registry's two routes (capability-routes.ts) describe themselves: the list
 * with availability and input schemas, and the generic invoke answering `{result}`.
 */
import * as z from 'zod';
import { OPERATION_ERRORS, type RouteDoc } from '../openapi.js';

const capability = z.object({
  group: z.string(),
  name: z.string(),
  summary: z.string().nullable(),
  kind: z
    .enum(['read', 'write', 'delete'])
    .nullable()
    .describe('null where the platform offers no public API'),
  availability: z.enum(['rest', 'hosted_mcp', 'composed', 'no_public_api']),
  state: z.enum(['ok', 'missing_scope', 'no_license', 'no_public_api', 'upstream_error', 'not_linked']),
  available: z.boolean().describe('it has an operation and its state is ok'),
  scopes: z.array(z.string()),
  note: z.string().nullable(),
  invoke: z.string().nullable().describe('the path that invokes it (POST), when it has an operation'),
  inputSchema: z.record(z.string(), z.unknown()).nullable().describe('JSON Schema of its arguments'),
});

export const CAPABILITY_DOCS: readonly RouteDoc[] = [
  {
    method: 'GET',
    url: '/api/video/capabilities',
    summary: 'The capability registry: every group/name with availability, state and input schema.',
    tag: 'capabilities',
    auth: 'api_key',
    output: z.object({ items: z.array(capability) }),
  },
  {
    method: 'POST',
    url: '/api/video/capabilities/:group/:name',
    summary:
      'Invokes one capability with JSON arguments (its inputSchema); 404 for an unknown one, 501 no_public_api where the platform has none. A creating capability honours Idempotency-Key.',
    tag: 'capabilities',
    auth: 'api_key',
    input: z.record(z.string(), z.unknown()).describe("the capability's arguments"),
    output: z.object({
      result: z.unknown().describe("the operation's answer: its output schema in the capability's REST path"),
    }),
    idempotent: true,
    errors: [...OPERATION_ERRORS, 501],
  },
];
