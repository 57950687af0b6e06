/**
 * What a gateway tool call returns to the model: the operation's result as structuredContent
 * plus its JSON text, or a tool error (isError) that carries the gateway's error code, the
 * platform's status, code and message where the platform answered, and one sentence on what
 * to do next, so a model can correct itself instead of guessing.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { AppError } from '../../core/errors.js';

/** The `_meta` key marking an answer replayed for an idempotency key (REST: Idempotent-Replayed). */
export const REPLAYED_META = 'fleetgate/idempotent-replayed';

export function toolSuccess(result: unknown, replayed = false): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(result) }],
    structuredContent: result,
    ...(replayed ? { _meta: { [REPLAYED_META]: true } } : {}),
  };
}

const relink = (base: string) =>
  `open ${base}/dashboard and choose "Link account" (or GET ${base}/api/video/oauth/start with the API key)`;

/** The next step per gateway error code; codes without one are self-explanatory or unexpected. */
const NEXT_STEP: Record<string, (base: string) => string> = {
  not_linked: (b) =>
    `No platform account is linked, so no tool can reach the platform. Ask the operator to link one: ${relink(b)}; then call again.`,
  needs_relink: (b) =>
    `The stored tokens can no longer be used (the message says why: refused by the platform, or not decryptable with the keys at hand). Ask the operator to link the account again (or restore the missing key): ${relink(b)}; then call again.`,
  missing_scope: (b) =>
    `The platform app lacks a scope this call needs (details.scopes lists them; any one is enough). An admin must add it to the app and the operator must link again: ${relink(b)}. Retrying will not help until then.`,
  validation_failed: () =>
    "Fix the arguments listed in details.issues (path and message) and call again; the tool's inputSchema has the allowed values.",
  upstream_rejected: () =>
    'The platform rejected the arguments (details.platformMessage says why); change them and call again.',
  not_found: () =>
    'Check the id: a list or search tool of the same group returns valid ids. Ids are not shared between groups.',
  event_not_found: () =>
    "No stored event has that id; GET /api/video/events lists the stored events, meetings_list_meetings the platform's meetings.",
  no_license: () => 'The platform account has no licence for this; retrying will not help. Tell the user.',
  upstream_rate_limited: () => 'A rate limit was reached; wait a little and call again.',
  upstream_unavailable: () => 'The platform is failing for this group right now; try again in a minute.',
  upstream_timeout: () => 'The platform did not answer in time; try again.',
  upstream_error: () => 'The platform failed; try again later, or tell the user.',
  idempotency_key_reused: () =>
    'This idempotency_key was used before with other arguments. For a new creation use a new key; to retry the earlier one, send its arguments unchanged.',
  idempotency_in_progress: () =>
    'The first call with this idempotency_key is still running; wait a second and call again with the same key and arguments to get its answer.',
  idempotency_key_unsupported: () =>
    'This tool creates nothing, so it takes no idempotency_key; call it again without one.',
  hosted_mcp_unavailable: () =>
    "This capability runs through the platform's hosted MCP server, which cannot be reached now; try again later.",
};

/** A tool error for a failure; anything not an AppError is a bug and says nothing about internals. */
export function toolError(err: unknown, publicUrl: string): CallToolResult {
  const e =
    err instanceof AppError
      ? err
      : new AppError(500, 'internal_error', 'The gateway failed to run this tool; the error was logged.');
  const error = e.details
    ? { code: e.code, message: e.message, details: e.details }
    : { code: e.code, message: e.message };
  const next = NEXT_STEP[e.code]?.(publicUrl);
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: [`${e.code}: ${e.message}`, next, JSON.stringify({ error })].filter(Boolean).join('\n'),
      },
    ],
  };
}
