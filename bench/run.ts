/**
 * `npm run bench [-- --quick]`: fleetgate against its baselines, measured side by side in one
 * run and interleaved (A B A B …), because this machine is shared and noisy. Reports ratios and
 * percentiles with their targets, prints a table and writes bench/results.json.
 * --quick runs each measurement for one second, once, so a test can check the harness works.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const REPO = path.resolve(import.meta.dirname, '..');
const quick = process.argv.includes('--quick');
const DURATION = quick ? 1 : 5;
const ROUNDS = quick ? 1 : 3;
const CONNECTIONS = 10;

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

interface Row {
  name: string;
  a: Sample;
  b?: Sample;
  ratio?: number;
  value?: number;
  unit?: string;
  target: string;
  pass: boolean;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
    s.on('error', reject);
  });
}

async function waitFor(url: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > until) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function startFleetgate(dataDir: string) {
  const port = await freePort();
  const sandboxPort = await freePort();
  const started = process.hrtime.bigint();
  // As `npm start` runs it: the transpiled dist/ (built once by main()), the emulator in its own process.
  const child = spawn(process.execPath, [path.join(REPO, 'dist/main.js')], {
    cwd: REPO,
    env: {
      ...process.env,
      PORT: String(port),
      SANDBOX_PORT: String(sandboxPort),
      FLEETGATE_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      BRAND_WATCH: '0',
      SANDBOX_RATE_LIMITS: '0',
      FLEETGATE_RATE_BUDGETS: 'light=1000000,medium=1000000,heavy=1000000,resource_intensive=1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  await waitFor(`http://127.0.0.1:${port}/readyz`);
  const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
  // The gateway links the demo account right after it listens.
  const linkedBy = Date.now() + 20_000;
  while (!out.includes('fleetgate is up') && Date.now() < linkedBy)
    await new Promise((r) => setTimeout(r, 25));
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    sandbox: `http://127.0.0.1:${sandboxPort}`,
    readyMs,
    output: () => out,
  };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function load(opts: {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  duration?: number;
  amount?: number;
  notModified?: boolean;
}): Promise<Sample> {
  const r = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    connections: CONNECTIONS,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration ?? DURATION }),
    ...(opts.headers ? { headers: opts.headers } : {}),
    ...(opts.body ? { body: opts.body } : {}),
  });
  // 304 is the expected answer of the conditional-GET measurement.
  const errors =
    r.errors + (opts.notModified ? r.non2xx - (r.statusCodeStats?.['304']?.count ?? 0) : r.non2xx);
  // A baseline that answers errors quickly would flatter the ratio: refuse to report it.
  if (errors > r.requests.total * 0.01)
    throw new Error(`${opts.url}: ${errors} of ${r.requests.total} requests failed`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors };
}

/** A and B alternately for ROUNDS rounds; the median round of each. */
async function pair(a: () => Promise<Sample>, b: () => Promise<Sample>): Promise<[Sample, Sample]> {
  const as: Sample[] = [];
  const bs: Sample[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    as.push(await a());
    bs.push(await b());
  }
  const median = (xs: Sample[]) => [...xs].sort((x, y) => x.rps - y.rps)[Math.floor(xs.length / 2)] as Sample;
  return [median(as), median(bs)];
}

const rss = async (pid: number) => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-bench-'));
  const rows: Row[] = [];
  let fg: Awaited<ReturnType<typeof startFleetgate>> | undefined;
  let bare: ChildProcess | undefined;
  try {
    await new Promise<void>((resolve, reject) =>
      spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'scripts/build.ts')], {
        stdio: 'inherit',
      }).once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build failed with ${code}`)))),
    );
    // First start renders and caches the brand images; the second is the one we time.
    await stop((await startFleetgate(dataDir)).child);
    fg = await startFleetgate(dataDir);
    const key = (await readFile(path.join(dataDir, 'api-key'), 'utf8')).trim();
    const auth = { authorization: `Bearer ${key}` };

    // The bare baseline sends exactly what fleetgate sends for these paths.
    const paths = ['/api/brand/tokens', '/api/brand/themes', '/api/brand'];
    const captured: Record<string, { status: number; headers: Record<string, string>; body: string }> = {};
    for (const p of paths) {
      const res = await fetch(`${fg.base}${p}`, { headers: { 'accept-encoding': 'identity' } });
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)) headers[k] = v;
      });
      captured[p] = {
        status: res.status,
        headers,
        body: Buffer.from(await res.arrayBuffer()).toString('base64'),
      };
    }
    const routesFile = path.join(dataDir, 'bare-routes.json');
    await writeFile(routesFile, JSON.stringify(captured));
    bare = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench/bare-server.ts'), routesFile], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const barePort = await new Promise<number>((resolve) =>
      bare?.stdout?.once('data', (c: Buffer) => resolve(Number(c.toString().trim()))),
    );
    const bareBase = `http://127.0.0.1:${barePort}`;

    for (const p of paths) {
      const [a, b] = await pair(
        () => load({ url: `${fg!.base}${p}` }),
        () => load({ url: `${bareBase}${p}` }),
      );
      rows.push({
        name: `GET ${p} vs bare node:http`,
        a,
        b,
        ratio: a.rps / b.rps,
        target: '≥ 0.90×',
        pass: a.rps / b.rps >= 0.9,
      });
    }
    const etag = captured['/api/brand/tokens']?.headers['etag'] ?? '';
    {
      const [a, b] = await pair(
        () =>
          load({
            url: `${fg!.base}/api/brand/tokens`,
            headers: { 'if-none-match': etag },
            notModified: true,
          }),
        () => load({ url: `${bareBase}/api/brand/tokens` }),
      );
      rows.push({
        name: 'GET /api/brand/tokens 304 vs bare 200',
        a,
        b,
        ratio: a.rps / b.rps,
        target: '≥ 1.0×',
        pass: a.rps / b.rps >= 1,
      });
    }
    {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_brand_tokens', arguments: {} },
      });
      const mcpHeaders = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      };
      const [a, b] = await pair(
        () => load({ url: `${fg!.base}/mcp`, method: 'POST', headers: mcpHeaders, body }),
        () => load({ url: `${fg!.base}/api/brand/tokens` }),
      );
      rows.push({
        name: 'MCP tools/call get_brand_tokens vs REST tokens',
        a,
        b,
        ratio: a.rps / b.rps,
        target: '≥ 0.5×',
        pass: a.rps / b.rps >= 0.5,
      });
    }
    {
      // A token the gateway holds right now: expire all, make one call (one refresh), read it back.
      await fetch(`${fg.sandbox}/_sandbox/tokens/expire`, { method: 'POST' });
      await fetch(`${fg.base}/api/video/contacts?limit=1`, { headers: auth });
      const token = (
        (await (await fetch(`${fg.sandbox}/_sandbox/stats`)).json()) as { lastAccessToken: string }
      ).lastAccessToken;
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const q = `from=${day(Date.now() - 29 * 86_400_000)}&to=${day(Date.now())}`;
      const [a, b] = await pair(
        () => load({ url: `${fg!.base}/api/video/recordings?${q}`, headers: auth }),
        () =>
          load({
            url: `${fg!.sandbox}/v2/users/me/recordings?${q}`,
            headers: { authorization: `Bearer ${token}` },
          }),
      );
      const added = a.p50 - b.p50;
      rows.push({
        name: 'Gateway GET /api/video/recordings vs emulator direct',
        a,
        b,
        ratio: a.rps / b.rps,
        target: '≥ 0.7×, added p50 ≤ 1 ms',
        pass: a.rps / b.rps >= 0.7 && added <= 1,
      });
    }
    {
      await fetch(`${fg.base}/api/video/status?fresh=1`, { headers: auth });
      const warm = await load({ url: `${fg.base}/api/video/status`, headers: auth });
      rows.push({
        name: 'Status report warm (cached)',
        a: warm,
        value: warm.p50,
        unit: 'ms p50',
        target: '≤ 2 ms p50',
        pass: warm.p50 <= 2,
      });
      const cold: number[] = [];
      for (let i = 0; i < (quick ? 3 : 10); i++) {
        const t = performance.now();
        await fetch(`${fg.base}/api/video/status?fresh=1`, { headers: auth });
        cold.push(performance.now() - t);
      }
      cold.sort((x, y) => x - y);
      const coldP50 = cold[Math.floor(cold.length / 2)] ?? 0;
      rows.push({
        name: 'Status report cold (fresh=1)',
        a: { rps: 0, p50: coldP50, p99: cold[cold.length - 1] ?? 0, errors: 0 },
        value: coldP50,
        unit: 'ms p50',
        target: '≈ slowest probe + 5 ms',
        pass: true,
      });
    }
    {
      const perRound = quick ? 2_000 : 66_667;
      const samples: number[] = [];
      for (let i = 0; i < 3; i++) {
        await load({ url: `${fg.base}/api/brand/themes`, amount: perRound });
        samples.push(await rss(fg.child.pid ?? 0));
      }
      const max = Math.max(...samples);
      const growth = (samples[2] ?? 0) - (samples[0] ?? 0);
      rows.push({
        name: `RSS after ${3 * perRound} requests (3 rounds)`,
        a: { rps: 0, p50: 0, p99: 0, errors: 0 },
        value: Math.round(max),
        unit: `MB (rounds: ${samples.map((s) => s.toFixed(0)).join(', ')})`,
        target: '≤ 150 MB, flat',
        pass: max <= 150 && growth <= 15,
      });
    }
    rows.push({
      name: 'Start to ready (second start)',
      a: { rps: 0, p50: 0, p99: 0, errors: 0 },
      value: Math.round(fg.readyMs),
      unit: 'ms',
      target: '≤ 1000 ms',
      pass: fg.readyMs <= 1000,
    });
  } finally {
    if (bare) await stop(bare);
    if (fg) await stop(fg.child);
    await rm(dataDir, { recursive: true, force: true });
  }

  const fmt = (n: number, d = 0) => n.toFixed(d);
  const lines = [
    `fleetgate bench (${quick ? 'quick: 1 s x 1 round' : `${DURATION} s x ${ROUNDS} rounds, median round`}; ${CONNECTIONS} connections; node ${process.version})`,
    '',
    '| measurement | fleetgate req/s | p50 / p99 ms | baseline req/s | p50 / p99 ms | ratio / value | target | pass |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.a.rps ? fmt(r.a.rps) : '—'} | ${r.a.rps ? `${r.a.p50} / ${r.a.p99}` : '—'} | ${r.b ? fmt(r.b.rps) : '—'} | ${r.b ? `${r.b.p50} / ${r.b.p99}` : '—'} | ${r.ratio !== undefined ? `${fmt(r.ratio, 2)}×` : `${fmt(r.value ?? 0, 1)} ${r.unit ?? ''}`} | ${r.target} | ${r.pass ? 'pass' : 'FAIL'} |`,
    ),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  await writeFile(
    path.join(REPO, 'bench/results.json'),
    JSON.stringify({ date: new Date().toISOString(), quick, node: process.version, rows }, null, 2) + '\n',
  );
}

await main();
