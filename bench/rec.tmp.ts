import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load, startFleetgate, stop } from './lib.js';
const dataDir = await mkdtemp(path.join(tmpdir(), 'fgrec-'));
const first = await startFleetgate(dataDir); await stop(first.child);
const key = (await readFile(path.join(dataDir, 'api-key'), 'utf8')).trim();
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const q = `from=${day(Date.now() - 29 * 86_400_000)}&to=${day(Date.now())}`;
for (const flags of [[]]) {
  const f = await startFleetgate(dataDir, {}, flags, first.ports);
  const pids = [f.child.pid!];
  await load({ url: `${f.base}/api/video/recordings?${q}`, headers: { authorization: `Bearer ${key}` }, pids, duration: 1 });
  const s = await load({ url: `${f.base}/api/video/recordings?${q}`, headers: { authorization: `Bearer ${key}` }, pids, duration: 3 });
  const e = await load({ url: `${f.base}/api/video/recordings?${q}`, headers: { authorization: `Bearer ${key}` }, pids: [f.sandboxPid], duration: 3 });
  console.log(flags.join(' '), 'gateway cpu', s.cpuUs.toFixed(0), 'µs/req', s.rps.toFixed(0), 'rps; emulator per gateway req', e.cpuUs.toFixed(0));
  await stop(f.child);
}
