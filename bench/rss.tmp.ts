import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load, rssMb, startFleetgate, stop } from './lib.js';
const dataDir = await mkdtemp(path.join(tmpdir(), 'fgrss-'));
const first = await startFleetgate(dataDir);
await stop(first.child);
for (const flags of [[], ['--max-semi-space-size=4'], ['--max-semi-space-size=2']]) {
  const f = await startFleetgate(dataDir, {}, flags, first.ports);
  const pids = [f.child.pid!];
  const r0 = rssMb(pids[0]!);
  const res = [];
  for (const p of ['/api/brand/themes', '/api/brand/tokens', '/api/brand']) {
    const s = await load({ url: `${f.base}${p}`, amount: 30000, pids, duration: 1 });
    res.push(`${s.cpuUs.toFixed(0)}µs`);
  }
  const mcp = await load({
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
  console.log(
    flags.join(' ') || 'default',
    'rss start',
    r0.toFixed(0),
    'after',
    rssMb(pids[0]!).toFixed(0),
    res.join(' '),
    'mcp',
    mcp.cpuUs.toFixed(0),
  );
  await stop(f.child);
}
