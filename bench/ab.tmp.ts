import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load, startFleetgate, stop } from './lib.js';
const dataDir = await mkdtemp(path.join(tmpdir(), 'fgab-'));
const first = await startFleetgate(dataDir);
await stop(first.child);
const f = await startFleetgate(dataDir, {}, [], first.ports);
const pids = [f.child.pid ?? 0];
const mcp = () =>
  load({
    url: `${f.base}/mcp`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_brand_tokens', arguments: {} },
    }),
    pids,
    duration: 2,
  });
const rest = () => load({ url: `${f.base}/api/brand/tokens`, pids, duration: 2 });
for (let i = 0; i < 3; i++) {
  const a = await mcp();
  const b = await rest();
  console.log(
    'mcp',
    a.cpuUs.toFixed(0),
    'µs',
    a.rps.toFixed(0),
    'rps | rest',
    b.cpuUs.toFixed(0),
    'µs',
    b.rps.toFixed(0),
    'rps',
  );
}
await stop(f.child);
