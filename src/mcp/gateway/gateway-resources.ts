/**
 * The gateway as MCP resources, addressed by the URLs of their REST twins: the status report
 * (what is linked and stored, which capabilities exist) and the monitor (every capability's
 * state, scopes needed against granted, budgets, token expiry).
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { Gateway } from '../../gateway/gateway.js';

export function registerGatewayResources(server: McpServer, gateway: Gateway, publicUrl: string): void {
  const resources = [
    {
      name: 'status',
      title: 'Status report',
      description:
        'Configured and linked account, webinar licence, upcoming meetings, stored events, registrations, recent recordings, capability map (cached 15 s).',
      read: () => gateway.status.report(),
    },
    {
      name: 'monitor',
      title: 'Monitor',
      description:
        'Every capability with its state (ok, missing_scope, no_license, no_public_api, upstream_error, not_linked), scopes needed and granted, latency, token expiry, rate budgets, last webhook.',
      read: () => gateway.monitor(),
    },
  ];
  for (const r of resources) {
    const uri = `${publicUrl}/api/video/${r.name}`;
    server.registerResource(
      r.name,
      uri,
      { title: r.title, description: r.description, mimeType: 'application/json' },
      async () => ({
        contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(await r.read(), null, 2) }],
      }),
    );
  }
}
