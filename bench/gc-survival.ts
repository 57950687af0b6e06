/**
 * `npx tsx bench/gc-survival.ts [--path /mcp] [--seconds 5]`: how much of what the service
 * allocates under load survives each young-generation GC (and is promoted). It starts fleetgate as
 * `npm start` does (after `npm run build`), with V8's `--trace-gc-nvp` and any node flags in
 * EXTRA_FLAGS, loads one path and sums the scavenges during the load. A healthy figure is under
 * 1%; BENCHMARKS.md describes the mode where it was 12-22% (V8's allocation-site pretenuring
 * placing request objects in the old generation) and the start flag that ends it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load, MCP_TOOLS_CALL, option, startFleetgate, stop } from './lib.js';

const target = option('--path', '/mcp');
const seconds = Number(option('--seconds', '5'));

const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-gc-'));
const fg = await startFleetgate(dataDir, {}, [
  '--trace-gc-nvp',
  ...(process.env['EXTRA_FLAGS'] ?? '').split(' ').filter(Boolean),
]);
try {
  const mark = fg.output().length;
  const sample = await load({
    url: `${fg.base}${target}`,
    pids: [fg.child.pid ?? 0],
    duration: seconds,
    ...(target === '/mcp' ? MCP_TOOLS_CALL : {}),
  });
  const field = (line: string, name: string) => Number(new RegExp(`\\b${name}=(\\d+)`).exec(line)?.[1] ?? 0);
  // Scavenges that ran under load (idle ones allocate almost nothing).
  const scavenges = fg
    .output()
    .slice(mark)
    .split('\n')
    .filter((l) => l.includes('gc=s') && field(l, 'allocated') > 1_000_000);
  const sum = (name: string) => scavenges.reduce((n, l) => n + field(l, name), 0);
  const allocated = sum('allocated');
  const pct = (n: number) => (allocated ? ((100 * n) / allocated).toFixed(1) : '0');
  process.stdout.write(
    `${target}: ${sample.requests} requests, ${scavenges.length} scavenges under load; ` +
      `survived ${pct(sum('new_space_survived'))}%, promoted ${pct(sum('promoted'))}% of allocated\n`,
  );
} finally {
  await stop(fg.child);
  await rm(dataDir, { recursive: true, force: true });
}
