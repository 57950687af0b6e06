/**
 * Builds the gateway MCP server for one request (the SDK forbids sharing one across requests).
 * Tools are served by low-level handlers over the tool definitions built once per process
 * (gateway-tools.ts): tools/list shows the tools the link's granted scopes admit, tools/call runs
 * the capability through the shared invoke (the same scope check, validation, operation, output
 * check and idempotency key rules as REST) and turns failures into tool errors a model can act
 * on. Resources: the status report and monitor.
 */
import { McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { invokeOnce } from '../../gateway/capabilities/idempotent-invoke.js';
import type { Gateway } from '../../gateway/gateway.js';
import { admits } from '../../gateway/capabilities/scopes.js';
import { AppError } from '../../core/errors.js';
import { JSON_SCHEMA_VALIDATOR } from '../json-schema-validator.js';
import { registerGatewayResources } from './gateway-resources.js';
import { gatewayTools, IDEMPOTENCY_ARG, type GatewayTool } from './gateway-tools.js';
import { toolError, toolSuccess } from './tool-results.js';

export interface GatewayMcpDeps {
  gateway: Gateway;
  publicUrl: string;
  version: string;
  /** Failures that are bugs rather than outcomes (the model only hears that one happened). */
  onToolFailure: (err: unknown, tool: string) => void;
}

const instructions = (base: string) =>
  [
    `Private gateway to the video-meeting platform account linked at ${base}. Tools are named <group>_<capability>, one per capability the platform offers and the link's granted scopes admit; every call reaches the real platform.`,
    '- Tools annotated readOnlyHint only read. The others create, change or delete on the platform: confirm with the user before sending messages or email, and before deleting.',
    '- Lists return {items, nextCursor}; pass nextCursor as cursor for the next page.',
    '- Tools that create take an optional idempotency_key: pass a new one (a UUID) per creation and the same one when retrying it, so a retry after a timeout or error returns the first answer instead of creating twice.',
    '- A failed call returns isError with a gateway code and a next step: not_linked or needs_relink (the operator must link the account), missing_scope (an admin must add the scope and link again), validation_failed (fix the arguments in details.issues), upstream_* (the platform is failing; retry later). details carries the platform status, code and message where the platform answered.',
    `- Resources: the status report (${base}/api/video/status) and the monitor (${base}/api/video/monitor) say what is linked, which capabilities work, and why the others do not.`,
  ].join('\n');

/**
 * The operation's input and the idempotency key, which is a tool argument but no operation input.
 * Taken from any tool's arguments, so one sent to a tool that creates nothing is refused by the
 * shared invoke (as REST refuses the header) rather than silently dropped.
 */
function splitKey(args: unknown): { input: unknown; key: string | undefined } {
  if (args === null || typeof args !== 'object' || !(IDEMPOTENCY_ARG in args)) {
    return { input: args ?? {}, key: undefined };
  }
  const { [IDEMPOTENCY_ARG]: key, ...input } = args as Record<string, unknown>;
  if (typeof key !== 'string') {
    throw new AppError(400, 'validation_failed', 'The input is not valid.', {
      issues: [{ path: IDEMPOTENCY_ARG, message: 'must be a string' }],
    });
  }
  return { input, key };
}

async function call(d: GatewayMcpDeps, tool: GatewayTool, args: unknown) {
  const { group, capability, definition } = tool;
  try {
    const { input, key } = splitKey(args);
    // The shared invoke refuses a scope the link lacks (a model may know an unlisted tool's name)
    // and an answer outside the output schema, as it does for REST.
    const { result, replayed } = await invokeOnce(await d.gateway.opContext(), group, capability, input, key);
    return toolSuccess(result, replayed);
  } catch (err) {
    if (!(err instanceof AppError)) d.onToolFailure(err, definition.name);
    return toolError(err, d.publicUrl);
  }
}

export function createGatewayMcpServer(d: GatewayMcpDeps): McpServer {
  const mcp = new McpServer(
    { name: 'fleetgate-gateway', title: 'fleetgate video gateway', version: d.version },
    { instructions: instructions(d.publicUrl), jsonSchemaValidator: JSON_SCHEMA_VALIDATOR },
  );
  const server = mcp.server;
  // The list changes only when the link changes, which a stateless server cannot announce.
  server.registerCapabilities({ tools: { listChanged: false } });
  server.setRequestHandler('tools/list', async () => {
    // Only the link's granted scopes are read: no monitor (store reads, quotas) per list.
    const { granted } = await d.gateway.opContext();
    return {
      tools: gatewayTools()
        .all.filter((t) => !granted || admits(granted, t.scopes))
        .map((t) => t.definition),
    };
  });
  server.setRequestHandler('tools/call', async (request) => {
    const name = request.params.name;
    const tool = gatewayTools().byName.get(name);
    if (!tool) {
      const why = gatewayTools().notOffered.get(name);
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        why ? `Tool ${name} is not offered: ${why}` : `Unknown tool: ${name.slice(0, 128)}`,
      );
    }
    return server.projectCallToolResult(
      await call(d, tool, request.params.arguments),
      tool.definition.outputSchema,
    );
  });
  registerGatewayResources(mcp, d.gateway, d.publicUrl);
  return mcp;
}
