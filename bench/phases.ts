/**
 * `npx tsx bench/phases.ts [--rounds 1500] [--against <checkout>] [--node-flags '…'] [--out f.json]`
 * (it builds this checkout; build the other one first): the gateway's own share of a
 * `GET /api/video/recordings`, apart from the platform's. The end-to-end added latency
 * (`npm run bench`) moves by tenths of a millisecond with the emulator and the machine; the time
 * our process spends before the upstream request is written and after the upstream answer
 * arrives moves much less, so a change of ~50 µs shows. fleetgate runs as `npm start` runs it
 * plus a preload (phases-preload.ts) that times both phases from node:http's diagnostics
 * channels; the emulator is called directly in the same rotation, one request at a time, as the
 * bench's latency row does. With `--against`, a second checkout's build (its own emulator) runs
 * in the same rotation, so two builds meet the same moments of the machine: the way to measure a
 * change. `--node-flags` adds node flags to this checkout's side only (to try a start flag,
 * `--against` this same checkout). The bare proxy (bare-proxy.ts) is timed beside them, the floor.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { transform } from 'esbuild';
import {
  interleavedLatency,
  medianOf,
  option,
  REPO,
  run,
  startFleetgate,
  startScript,
  stop,
  type Fleetgate,
  type Target,
} from './lib.js';

const rounds = Number(option('--rounds', '1500'));
const against = option('--against', '');
const outFile = option('--out', '');
/** Extra node flags for this checkout's build, e.g. to try a start flag against the same build without it. */
const nodeFlags = option('--node-flags', '').split(/\s+/).filter(Boolean);
const BLOCKS = 3;

await run(['--import', 'tsx', path.join(REPO, 'scripts/build.ts')]);
const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-phases-'));
const preload = path.join(dir, 'phases-preload.mjs');
const source = await readFile(path.join(REPO, 'bench/phases-preload.ts'), 'utf8');
await writeFile(preload, (await transform(source, { loader: 'ts', format: 'esm' })).code);

interface Side {
  name: string;
  fg: Fleetgate;
  out: string;
  /** The platform token the gateway holds (the direct side's, and the bare proxy's). */
  token: string;
  /** The gateway's path and query, which the bare proxy serves too. */
  path: string;
  direct: Target;
  gateway: Target;
}

async function start(name: string, repo: string, flags: string[] = []): Promise<Side> {
  const dataDir = path.join(dir, `data-${name}`);
  const out = path.join(dir, `${name}.json`);
  const fg = await startFleetgate(
    dataDir,
    { FLEETGATE_PHASES_OUT: out },
    [...flags, '--import', preload],
    undefined,
    [],
    repo,
  );
  const key = (await readFile(path.join(dataDir, 'api-key'), 'utf8')).trim();
  // A token the gateway holds right now (as bench/run.ts reads it): expire all, one call, read it back.
  await fetch(`${fg.sandbox}/_sandbox/tokens/expire`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
  });
  await fetch(`${fg.base}/api/video/contacts?limit=1`, { headers: { authorization: `Bearer ${key}` } });
  const { lastAccessToken } = (await (await fetch(`${fg.sandbox}/_sandbox/stats`)).json()) as {
    lastAccessToken: string;
  };
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const q = `from=${day(Date.now() - 29 * 86_400_000)}&to=${day(Date.now())}`;
  const gatewayPath = `/api/video/recordings?${q}`;
  return {
    name,
    fg,
    out,
    token: lastAccessToken,
    path: gatewayPath,
    direct: {
      url: `${fg.sandbox}/v2/users/me/recordings?${q}&page_size=30`,
      headers: { authorization: `Bearer ${lastAccessToken}` },
    },
    gateway: { url: `${fg.base}${gatewayPath}`, headers: { authorization: `Bearer ${key}` } },
  };
}

const sides: Side[] = [];
let proxy: { child: ChildProcess; base: string } | undefined;
try {
  sides.push(await start('this', REPO, nodeFlags));
  if (against) sides.push(await start('against', path.resolve(against)));
  // The floor, timed the same way: the bare proxy in front of the first build's emulator.
  const first = sides[0] as Side;
  const proxyOut = path.join(dir, 'proxy.json');
  proxy = await startScript(
    'bench/bare-proxy.ts',
    [first.fg.sandbox, first.token],
    ['env', `NODE_OPTIONS=--import=${preload}`, `FLEETGATE_PHASES_OUT=${proxyOut}`],
  );
  const l = await interleavedLatency(
    [...sides.flatMap((s) => [s.direct, s.gateway]), { url: `${proxy.base}${first.path}` }],
    rounds,
    300,
  );
  for (const s of sides) await stop(s.fg.child);
  await stop(proxy.child);
  const size = Math.ceil(rounds / BLOCKS);
  const blocks = (xs: number[]) =>
    Array.from({ length: BLOCKS }, (_, b) => medianOf(xs.slice(b * size, (b + 1) * size)).toFixed(0)).join(
      ' ',
    );
  const row = async (name: string, direct: number[], measured: number[], out: string) => {
    const added = measured.map((ms, r) => (ms - (direct[r] ?? 0)) * 1000);
    const phases = (JSON.parse(await readFile(out, 'utf8')) as [number, number][]).slice(-rounds);
    const before = phases.map((p) => p[0]);
    const after = phases.map((p) => p[1]);
    return {
      build: name,
      'added p50 µs': medianOf(added).toFixed(0),
      'added, blocks': blocks(added),
      'before upstream µs': medianOf(before).toFixed(0),
      'before, blocks': blocks(before),
      'after upstream µs': medianOf(after).toFixed(0),
      'after, blocks': blocks(after),
    };
  };
  const rows = [];
  for (const [i, s] of sides.entries()) {
    const name = s.name === 'this' ? [REPO, ...nodeFlags].join(' ') : path.resolve(against);
    rows.push(await row(name, l.times[2 * i] ?? [], l.times[2 * i + 1] ?? [], s.out));
  }
  rows.push(await row('bare node:http proxy', l.times[0] ?? [], l.times[2 * sides.length] ?? [], proxyOut));
  console.table(rows);
  if (outFile) await writeFile(outFile, JSON.stringify(rows, null, 2));
} finally {
  for (const s of sides) await stop(s.fg.child);
  if (proxy) await stop(proxy.child);
  await rm(dir, { recursive: true, force: true });
}
