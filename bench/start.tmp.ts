import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rssMb, startFleetgate, stop } from './lib.js';
const dataDir = await mkdtemp(path.join(tmpdir(), 'fgst-'));
const first = await startFleetgate(dataDir);
await stop(first.child);
for (let i = 0; i < 4; i++) {
  const f = await startFleetgate(dataDir, {}, process.argv.slice(2), first.ports);
  console.log('ready', f.readyMs.toFixed(0), 'ms; rss', rssMb(f.child.pid!).toFixed(0));
  await stop(f.child);
}
