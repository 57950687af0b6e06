/**
 * The bench's tools: free ports, starting fleetgate as `npm start` runs it and the bare server on
 * fleetgate's captured answers, stopping processes, reading a process's CPU time and RSS from
 * /proc, one autocannon load that also reports the CPU the measured server processes spent per
 * request, and paired rounds of two loads with their ratios.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Agent, get } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';

export const REPO = path.resolve(import.meta.dirname, '..');

/**
 * How `npm start` runs the service: its environment assignments and node flags (package.json is
 * the one place they are written; the bench starts the service the same way).
 */
export const { START_ENV, START_FLAGS } = (() => {
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [name = '', ...value] = (words.shift() ?? '').split('=');
    env[name] = value.join('=');
  }
  if (words[0] !== 'node' || words[words.length - 1] !== 'dist/main.js')
    throw new Error(
      `the bench expects "start" to be "[VAR=value …] node [flags] dist/main.js", not "${pkg.scripts.start}"`,
    );
  return { START_ENV: env, START_FLAGS: words.slice(1, -1) };
})();
export const CONNECTIONS = 10;

/** A script's `--name value` option, or the fallback. */
export function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

/** The MCP request every measurement uses: a cached `tools/call get_brand_tokens` (2025-11-25 era). */
export const MCP_TOOLS_CALL = {
  method: 'POST' as const,
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
};

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  /** CPU time (user + system) the measured server processes spent per request, µs. */
  cpuUs: number;
}

export const EMPTY: Sample = { rps: 0, p50: 0, p99: 0, errors: 0, requests: 0, cpuUs: 0 };

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
    s.on('error', reject);
  });
}

export async function waitFor(url: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > until) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Runs a script to completion, failing on a non-zero exit. */
export function run(args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    spawn(process.execPath, args, { cwd: REPO, stdio: 'inherit' }).once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}`)),
    ),
  );
}

export interface Fleetgate {
  child: ChildProcess;
  ports: { port: number; sandboxPort: number };
  base: string;
  sandbox: string;
  /** Spawn to the first 200 from /readyz. */
  readyMs: number;
  /** The emulator's own process (a child of fleetgate's). */
  sandboxPid: number;
  output: () => string;
}

/** fleetgate as `npm start` runs it (after `npm run build`): its flags, dist/, the emulator in its own process. */
export async function startFleetgate(
  dataDir: string,
  env: Record<string, string> = {},
  /** Extra node flags, e.g. --cpu-prof for profiling a measurement. */
  nodeArgs: string[] = [],
  /** The same ports as an earlier start: a restart, whose brand (URLs included) is unchanged and cached. */
  ports?: { port: number; sandboxPort: number },
  /** A command that runs node, e.g. valgrind with its options (instructions.ts). */
  wrap: string[] = [],
  /** The checkout whose dist/ runs (phases.ts compares two builds). */
  repo: string = REPO,
): Promise<Fleetgate> {
  const port = ports?.port ?? (await freePort());
  const sandboxPort = ports?.sandboxPort ?? (await freePort());
  const started = process.hrtime.bigint();
  const [command, ...args] = [
    ...wrap,
    process.execPath,
    ...START_FLAGS,
    ...nodeArgs,
    path.join(repo, 'dist/main.js'),
  ];
  const child = spawn(command ?? process.execPath, args, {
    cwd: repo,
    env: {
      ...process.env,
      ...START_ENV,
      PORT: String(port),
      SANDBOX_PORT: String(sandboxPort),
      FLEETGATE_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SANDBOX_RATE_LIMITS: '0',
      FLEETGATE_RATE_BUDGETS: 'light=1000000,medium=1000000,heavy=1000000,resource_intensive=1000000',
      // The platform's daily quotas too (100 meeting writes per user a day would stop the loads).
      FLEETGATE_DAILY_QUOTAS: 'heavy=1000000000,meeting_writes_per_user=1000000000',
      // Our own per-client limits are policy, not speed: off, or the load itself is refused.
      FLEETGATE_RATE_LIMIT_API: '0',
      FLEETGATE_RATE_LIMIT_MCP: '0',
      // All the load comes from one address (the soak holds 64 connections and samples beside them).
      FLEETGATE_MAX_CONNECTIONS_PER_IP: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  await waitFor(`http://127.0.0.1:${port}/readyz`).catch((err: unknown) => {
    child.kill('SIGKILL');
    throw new Error(`${String(err)}; its output:\n${out}`);
  });
  const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
  // The gateway links the demo account right after it listens.
  const linkedBy = Date.now() + 20_000;
  while (!out.includes('fleetgate is up') && Date.now() < linkedBy)
    await new Promise((r) => setTimeout(r, 25));
  if (!out.includes('fleetgate is up')) throw new Error(`fleetgate did not finish starting:\n${out}`);
  const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
  return {
    child,
    ports: { port, sandboxPort },
    base: `http://127.0.0.1:${port}`,
    sandbox: `http://127.0.0.1:${sandboxPort}`,
    readyMs,
    sandboxPid: Number(children[0]),
    output: () => out,
  };
}

export interface Captured {
  status: number;
  headers: Record<string, string>;
  /** base64 */
  body: string;
  /** The headers of the 304 fleetgate sends for a matching If-None-Match, when it sends one. */
  notModified?: Record<string, string>;
}

/**
 * The bytes and headers fleetgate sends for each path (identity coding), written to `file` for
 * the bare server to send the same; returned too, so a caller need not ask again.
 */
export async function captureForBare(
  base: string,
  paths: string[],
  file: string,
): Promise<Record<string, Captured>> {
  const captured: Record<string, Captured> = {};
  const headersOf = (res: Response) => {
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)) headers[k] = v;
    });
    return headers;
  };
  for (const p of paths) {
    const res = await fetch(`${base}${p}`, { headers: { 'accept-encoding': 'identity' } });
    const headers = headersOf(res);
    captured[p] = {
      status: res.status,
      headers,
      body: Buffer.from(await res.arrayBuffer()).toString('base64'),
    };
    if (headers['etag']) {
      const again = await fetch(`${base}${p}`, {
        headers: { 'accept-encoding': 'identity', 'if-none-match': headers['etag'] },
      });
      await again.arrayBuffer();
      if (again.status === 304) captured[p].notModified = headersOf(again);
    }
  }
  await writeFile(file, JSON.stringify(captured));
  return captured;
}

/** bench/bare-server.ts on the captured routes, in its own process (optionally under `wrap`). */
export function startBare(
  routesFile: string,
  wrap: string[] = [],
): Promise<{ child: ChildProcess; base: string }> {
  return startScript('bench/bare-server.ts', [routesFile], wrap);
}

/** A bench script that prints its port when listening (bare-server.ts, bare-proxy.ts), in its own process. */
export async function startScript(
  script: string,
  args: string[],
  wrap: string[] = [],
): Promise<{ child: ChildProcess; base: string }> {
  const [command, ...rest] = [...wrap, process.execPath, '--import', 'tsx', path.join(REPO, script), ...args];
  const child = spawn(command ?? process.execPath, rest, { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    child.stdout?.once('data', (c: Buffer) => resolve(Number(c.toString().trim()))),
  );
  return { child, base: `http://127.0.0.1:${port}` };
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux

/** User + system CPU of a process so far, µs. */
export function cpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the name start at field 3 (state): utime is field 14, stime field 15.
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

export async function load(opts: {
  url: string;
  /** The server processes whose CPU is charged to these requests. */
  pids: number[];
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  duration: number;
  amount?: number;
  /** 304 is the expected answer (conditional-GET measurement). */
  notModified?: boolean;
}): Promise<Sample> {
  const cpuBefore = opts.pids.reduce((s, p) => s + cpuUs(p), 0);
  const r = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    connections: CONNECTIONS,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration }),
    ...(opts.headers ? { headers: opts.headers } : {}),
    ...(opts.body ? { body: opts.body } : {}),
  });
  const cpu = opts.pids.reduce((s, p) => s + cpuUs(p), 0) - cpuBefore;
  const errors =
    r.errors + (opts.notModified ? r.non2xx - (r.statusCodeStats?.['304']?.count ?? 0) : r.non2xx);
  // A side that answers errors quickly would flatter its ratio: refuse to report it.
  if (errors > r.requests.total * 0.01)
    throw new Error(`${opts.url}: ${errors} of ${r.requests.total} requests failed`);
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors,
    requests: r.requests.total,
    cpuUs: r.requests.total ? cpu / r.requests.total : 0,
  };
}

/** What one pair of back-to-back rounds says: A against B, measured under nearly the same conditions. */
export interface PairRatio {
  /** Throughput, A req/s ÷ B req/s. */
  rps: number;
  /** CPU per request, B µs ÷ A µs: the share of B's efficiency A keeps. */
  cpu: number;
}

export interface Paired {
  /** The median round of each side (by req/s): the table's req/s, latency and CPU columns. */
  a: Sample;
  b: Sample;
  /** Each pair's ratios, in the order run. */
  pairs: PairRatio[];
  /** The median of each ratio over the pairs: what the targets are held against. */
  median: PairRatio;
}

export const medianOf = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const mid = s.length / 2;
  return s.length % 2 ? (s[Math.floor(mid)] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

/**
 * A and B in `rounds` pairs of back-to-back rounds, the order alternating (A B, B A, A B …) so
 * neither side always runs second; one unmeasured round of each goes first, so JIT warm-up and
 * first-request caches are not measured. Each pair gives its own ratios and the median pair is
 * reported: this machine's speed drifts by a third from one round to the next (identical code,
 * BENCHMARKS.md), and two rounds run back to back see the same drift, so their ratio cancels it,
 * where a ratio of two sides' separately chosen rounds carries it.
 */
export async function pair(
  rounds: number,
  a: () => Promise<Sample>,
  b: () => Promise<Sample>,
): Promise<Paired> {
  await a();
  await b();
  const as: Sample[] = [];
  const bs: Sample[] = [];
  const pairs: PairRatio[] = [];
  for (let i = 0; i < rounds; i++) {
    let x: Sample;
    let y: Sample;
    if (i % 2 === 0) {
      x = await a();
      y = await b();
    } else {
      y = await b();
      x = await a();
    }
    as.push(x);
    bs.push(y);
    pairs.push({ rps: x.rps / y.rps, cpu: x.cpuUs > 0 ? y.cpuUs / x.cpuUs : 0 });
  }
  const median = (xs: Sample[]) => [...xs].sort((x, y) => x.rps - y.rps)[Math.floor(xs.length / 2)] ?? EMPTY;
  return {
    a: median(as),
    b: median(bs),
    pairs,
    median: {
      rps: medianOf(pairs.map((p) => p.rps)),
      cpu: medianOf(pairs.map((p) => p.cpu)),
    },
  };
}

/** One side of a latency comparison: a GET and its headers. */
export interface Target {
  url: string;
  headers?: Record<string, string>;
}

export interface Latencies {
  /** Each side's median latency, ms (µs resolution). */
  p50: number[];
  /** Per side: the median over rounds of (this side's latency − the first side's), ms. */
  added: number[];
  /** The same median per block of consecutive rounds ([block][side]): how far it drifts. */
  addedByBlock: number[][];
  /** Every timed round's latency per side, ms, in the order run ([side][round]). */
  times: number[][];
}

/** One GET on a keep-alive agent, body read to the end; its latency in ms. */
function timedGet(t: Target, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    get(t.url, { agent, headers: t.headers ?? {} }, (res) => {
      if ((res.statusCode ?? 0) >= 300) reject(new Error(`${t.url}: ${res.statusCode}`));
      res.resume();
      res.once('end', () => resolve(Number(process.hrtime.bigint() - started) / 1e6));
    }).once('error', reject);
  });
}

/**
 * Latency from one connection per side, without queueing: one request at a time, the sides
 * taking turns request by request (the order rotating), so every side sees the same machine
 * from one moment to the next. autocannon's histogram keeps whole milliseconds, too coarse for a
 * target of 1 ms; these are timed to the microsecond. `added[i]` is the median over rounds of
 * (side i − side 0), which cancels the drift that the machine adds to both. The rounds are also
 * cut into `blocks` runs of consecutive rounds, each with its own median: on this machine
 * blocks a minute apart differ by up to half a millisecond, which one median hides.
 */
export async function interleavedLatency(
  targets: Target[],
  requests: number,
  warmup: number,
  blocks = 1,
): Promise<Latencies> {
  const agents = targets.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const times: number[][] = targets.map(() => []);
  try {
    for (let i = 0; i < warmup + requests; i++) {
      const round: number[] = [];
      for (let k = 0; k < targets.length; k++) {
        const side = (i + k) % targets.length;
        round[side] = await timedGet(targets[side] as Target, agents[side] as Agent);
      }
      if (i >= warmup) round.forEach((ms, side) => times[side]?.push(ms));
    }
  } finally {
    for (const a of agents) a.destroy();
  }
  const base = times[0] ?? [];
  const added = (from: number, to: number) =>
    times.map((t) => medianOf(t.slice(from, to).map((ms, i) => ms - (base[from + i] ?? 0))));
  const size = Math.ceil(requests / blocks);
  return {
    p50: times.map(medianOf),
    added: added(0, requests),
    addedByBlock: Array.from({ length: blocks }, (_, b) =>
      added(b * size, Math.min(requests, (b + 1) * size)),
    ),
    times,
  };
}
