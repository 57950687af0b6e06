/**
 * Builds the gateway MCP server for one request (the SDK forbids sharing one across requests).
 * Tools are served by low-level handlers over the tool definitions built once per process
 * (gateway-tools.ts): tools/list shows the tools the link's granted scopes admit, tools/call runs
 * the capability through the registry's invoke (the same validation and operation as REST) and
 * turns failures into tool errors a model can act on. Resources: the status report and monitor.
 */
import { McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { invoke } from '../../gateway/capabilities/registry.js';
import type { Gateway } from '../../gateway/gateway.js';
import { capabilityState } from '../../gateway/monitor.js';
import { AppError } from '../../errors.js';
import { JSON_SCHEMA_VALIDATOR } from '../json-schema-validator.js';
import { registerGatewayResources } from './gateway-resources.js';
import { gatewayTools, type GatewayTool } from './gateway-tools.js';
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
    '- A failed call returns isError with a gateway code and a next step: not_linked or needs_relink (the operator must link the account), missing_scope (an admin must add the scope and link again), validation_failed (fix the arguments in details.issues), upstream_* (the platform is failing; retry later). details carries the platform status, code and message where the platform answered.',
    `- Resources: the status report (${base}/api/video/status) and the monitor (${base}/api/video/monitor) say what is linked, which capabilities work, and why the others do not.`,
  ].join('\n');

async function call(d: GatewayMcpDeps, tool: GatewayTool, args: unknown) {
  const { group, capability, definition } = tool;
  try {
    const monitor = await d.gateway.monitor();
    if (capabilityState(monitor, group, capability) === 'missing_scope') {
      // Not listed for this link, but a model may know the name: tell it what is missing.
      throw new AppError(
        403,
        'missing_scope',
        `The linked app has none of the scopes ${group}/${capability} needs, so this tool is not offered for this link.`,
        { group, scopes: tool.scopes },
      );
    }
    const result = await invoke(await d.gateway.opContext(), group, capability, args ?? {});
    const checked = tool.checkOutput()(result);
    if (!checked.valid) {
      throw new Error(
        `${definition.name} returned a result outside its output schema: ${checked.errorMessage}`,
      );
    }
    return toolSuccess(result);
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
    const monitor = await d.gateway.monitor();
    return {
      tools: gatewayTools()
        .all.filter((t) => capabilityState(monitor, t.group, t.capability) !== 'missing_scope')
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
