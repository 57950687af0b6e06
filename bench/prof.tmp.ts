import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load, startFleetgate, stop } from '/work/main/bench/lib.ts';
const which = process.argv[2];
const dataDir = await mkdtemp(path.join(tmpdir(), 'fgprof-'));
const first = await startFleetgate(dataDir);
await stop(first.child);
const f = await startFleetgate(dataDir, {}, ['--cpu-prof', '--cpu-prof-dir=/tmp/prof/out'], first.ports);
const key = (await readFile(path.join(dataDir, 'api-key'), 'utf8')).trim();
const auth = { authorization: `Bearer ${key}` };
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const q = `from=${day(Date.now() - 29 * 86_400_000)}&to=${day(Date.now())}`;
const pids = [f.child.pid ?? 0];
let s;
if (which === 'rec')
  s = await load({ url: `${f.base}/api/video/recordings?${q}`, headers: auth, pids, duration: 5 });
if (which === 'status') {
  await fetch(`${f.base}/api/video/status`, { headers: auth });
  s = await load({ url: `${f.base}/api/video/status`, headers: auth, pids, duration: 5 });
}
if (which === 'mcp')
  s = await load({
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
    duration: 5,
  });
if (which === 'contacts') s = await load({ url: `${f.base}/api/video/contacts?limit=1`, headers: auth, pids, duration: 5 });
if (which === 'tokens') s = await load({ url: `${f.base}/api/brand/tokens`, pids, duration: 5 });
console.log(s, 'main pid', f.child.pid, 'sandbox pid', f.sandboxPid);
await stop(f.child);
