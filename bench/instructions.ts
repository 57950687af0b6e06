/**
 * `npx tsx bench/instructions.ts [--path /api/brand/tokens] [--requests 4000]` (after
 * `npm run build`; needs valgrind): instructions executed per request, counted by valgrind's
 * callgrind, for fleetgate and for the bare node:http baseline on one brand path. CPU time on
 * this shared machine drifts by a third between identical rounds; an instruction count does not
 * depend on what else the machine is doing, so it tells whether a gap in `npm run bench`'s brand
 * rows is work our process does or the machine. Both sides are warmed up uninstrumented (JIT
 * settled), then counted over the same number of requests, per thread: the main thread's count
 * is the one to compare (V8's background compiler and GC threads move with JIT timing). Caches
 * and memory stalls are not in the count, so it complements the CPU ratio; it does not replace it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { captureForBare, load, option, startBare, startFleetgate, stop } from './lib.js';

const target = option('--path', '/api/brand/tokens');
const requests = Number(option('--requests', '4000'));
const run = promisify(execFile);

const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-instructions-'));
const dataDir = path.join(dir, 'data');
const valgrind = (side: string) => [
  'valgrind',
  '--tool=callgrind',
  '--instr-atstart=no',
  '--separate-threads=yes',
  `--callgrind-out-file=${path.join(dir, `${side}.%p`)}`,
];

interface Count {
  /** The main thread: the JavaScript, the HTTP parser, the syscalls' user side. */
  main: number;
  /** Every thread, V8's compiler and GC helpers included (their share moves with JIT timing). */
  all: number;
}

/** Warm up uninstrumented, then count `requests` requests; instructions per request. */
async function count(side: string, pid: number, url: string): Promise<Count> {
  // Long enough for V8's optimised code to be in place (background compiles are slow under valgrind).
  await load({ url, pids: [pid], amount: 3 * requests, duration: 0 });
  await run('callgrind_control', ['-i', 'on', String(pid)]);
  await load({ url, pids: [pid], amount: requests, duration: 0 });
  await run('callgrind_control', ['-i', 'off', String(pid)]);
  await run('callgrind_control', ['-d', String(pid)]);
  // --separate-threads: one file per thread, named <side>.<pid>[.<part>]-<thread>; thread 01 is main.
  let main = 0;
  let all = 0;
  for (const f of (await readdir(dir)).filter((n) => n.startsWith(`${side}.`))) {
    for (const m of (await readFile(path.join(dir, f), 'utf8')).matchAll(/^totals: (\d+)/gm)) {
      all += Number(m[1]);
      if (f.endsWith('-01')) main += Number(m[1]);
    }
  }
  return { main: main / requests, all: all / requests };
}

try {
  await run('valgrind', ['--version']).catch(() => {
    throw new Error('valgrind is not installed (apt-get install valgrind)');
  });
  // First start renders the brand and links the demo account; the counted one is a restart.
  const first = await startFleetgate(dataDir);
  const routes = path.join(dir, 'bare-routes.json');
  await captureForBare(first.base, [target], routes);
  await stop(first.child);

  const fg = await startFleetgate(dataDir, {}, [], first.ports, valgrind('fleetgate'));
  const fgIr = await count('fleetgate', fg.child.pid ?? 0, `${fg.base}${target}`).finally(() =>
    stop(fg.child),
  );
  const bare = await startBare(routes, valgrind('bare'));
  const bareIr = await count('bare', bare.child.pid ?? 0, `${bare.base}${target}`).finally(() =>
    stop(bare.child),
  );
  const k = (n: number) => `${(n / 1000).toFixed(0)}k`;
  const line = (what: string, f: number, b: number) =>
    `  ${what}: fleetgate ${k(f)}, bare node:http ${k(b)}; ratio (bare ÷ fleetgate) ${(b / f).toFixed(2)}\n`;
  process.stdout.write(
    `${target}, ${requests} requests each, instructions per request\n` +
      line('main thread', fgIr.main, bareIr.main) +
      line('all threads', fgIr.all, bareIr.all),
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
