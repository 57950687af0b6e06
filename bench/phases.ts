/**
 * `npx tsx bench/phases.ts [--rounds 1500] [--against <checkout>] [--out rows.json]` (it builds this checkout; build
 * the other one first): the gateway's own share of a `GET /api/video/recordings`, apart from the
 * platform's. The end-to-end added latency (`npm run bench`) moves by a few tenths of a
 * millisecond with the emulator and the machine; the time our process spends before the
 * upstream request is written and after the upstream answer arrives moves much less, so a change
 * of ~50 µs shows. fleetgate runs as `npm start` runs it plus a preload (phases-preload.ts) that
 * times both phases from node:http's diagnostics channels; the emulator is called directly in the
 * same rotation, one request at a time, as the bench's latency row does. With `--against`, a
 * second checkout's build (its own emulator) runs in the same rotation, so two builds meet the
 * same moments of the machine: the way to measure a change.
 */
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
  stop,
  type Fleetgate,
  type Target,
} from './lib.js';

const rounds = Number(option('--rounds', '1500'));
const against = option('--against', '');
const outFile = option('--out', '');
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
  direct: Target;
  gateway: Target;
}

async function start(name: string, repo: string): Promise<Side> {
  const dataDir = path.join(dir, `data-${name}`);
  const out = path.join(dir, `${name}.json`);
  const fg = await startFleetgate(
    dataDir,
    { FLEETGATE_PHASES_OUT: out },
    ['--import', preload],
    undefined,
    [],
    repo,
  );
  const key = (await readFile(path.join(dataDir, 'api-key'), 'utf8')).trim();
  // A token the gateway holds right now (as bench/run.ts reads it): expire all, one call, read it back.
  await fetch(`${fg.sandbox}/_sandbox/tokens/expire`, { method: 'POST' });
  await fetch(`${fg.base}/api/video/contacts?limit=1`, { headers: { authorization: `Bearer ${key}` } });
  const { lastAccessToken } = (await (await fetch(`${fg.sandbox}/_sandbox/stats`)).json()) as {
    lastAccessToken: string;
  };
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const q = `from=${day(Date.now() - 29 * 86_400_000)}&to=${day(Date.now())}`;
  return {
    name,
    fg,
    out,
    direct: {
      url: `${fg.sandbox}/v2/users/me/recordings?${q}&page_size=30`,
      headers: { authorization: `Bearer ${lastAccessToken}` },
    },
    gateway: { url: `${fg.base}/api/video/recordings?${q}`, headers: { authorization: `Bearer ${key}` } },
  };
}

const sides: Side[] = [];
try {
  sides.push(await start('this', REPO));
  if (against) sides.push(await start('against', path.resolve(against)));
  const l = await interleavedLatency(
    sides.flatMap((s) => [s.direct, s.gateway]),
    rounds,
    300,
  );
  for (const s of sides) await stop(s.fg.child);
  const size = Math.ceil(rounds / BLOCKS);
  const blocks = (xs: number[], f: (x: number[]) => number) =>
    Array.from({ length: BLOCKS }, (_, b) => f(xs.slice(b * size, (b + 1) * size)).toFixed(0)).join(' ');
  const rows = [];
  for (const [i, s] of sides.entries()) {
    const direct = l.times[2 * i] ?? [];
    const gateway = l.times[2 * i + 1] ?? [];
    const added = gateway.map((ms, r) => (ms - (direct[r] ?? 0)) * 1000);
    const phases = (JSON.parse(await readFile(s.out, 'utf8')) as [number, number][]).slice(-rounds);
    const before = phases.map((p) => p[0]);
    const after = phases.map((p) => p[1]);
    rows.push({
      build: s.name === 'this' ? REPO : path.resolve(against),
      'added p50 µs': medianOf(added).toFixed(0),
      'added, blocks': blocks(added, medianOf),
      'before upstream µs': medianOf(before).toFixed(0),
      'before, blocks': blocks(before, medianOf),
      'after upstream µs': medianOf(after).toFixed(0),
      'after, blocks': blocks(after, medianOf),
    });
  }
  console.table(rows);
  if (outFile) await writeFile(outFile, JSON.stringify(rows, null, 2));
} finally {
  for (const s of sides) await stop(s.fg.child);
  await rm(dir, { recursive: true, force: true });
}
