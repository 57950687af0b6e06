/**
 * The MCP baseline: the official SDK's own per-request handler (createMcpHandler, 2025-era
 * requests through its stateless fallback) serving fleetgate's brand MCP server, on a bare
 * node:http server. No cache, no checks of ours: what an endpoint built straight from the SDK
 * costs per `tools/call` on the same tool. argv: the brand folder, a cache folder (the bench's,
 * warm) and the public URL; prints its port when listening.
 */
import { createServer } from 'node:http';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { BrandService } from '../src/brand/brand-service.js';
import { createLogger } from '../src/log.js';
import { createBrandMcpServer } from '../src/mcp/brand-mcp-server.js';
import { VERSION } from '../src/version.js';

const [dir = '', cacheDir = '', baseUrl = 'http://127.0.0.1'] = process.argv.slice(2);
const brand = await BrandService.start({ dir, baseUrl, cacheDir, logger: createLogger('warn') });
const handler = createMcpHandler(() => createBrandMcpServer(brand.current, VERSION), {
  legacy: 'stateless',
  responseMode: 'auto',
});

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const request = new Request(`${baseUrl}${req.url ?? '/'}`, {
      method: req.method ?? 'POST',
      headers,
      body: req.method === 'POST' ? Buffer.concat(chunks) : null,
    });
    handler
      .fetch(request)
      .then(async (r) => {
        const body = Buffer.from(await r.arrayBuffer());
        const out: Record<string, string> = {};
        r.headers.forEach((v, k) => (out[k] = v));
        res.writeHead(r.status, { ...out, 'content-length': String(body.length) });
        res.end(body);
      })
      .catch(() => res.writeHead(500).end());
  });
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  process.stdout.write(`${typeof a === 'object' && a ? a.port : 0}\n`);
});
