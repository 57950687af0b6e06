/**
 * A bounded soak: the real service (npm start, sandbox mode) on loopback under mixed brand, MCP
 * and gateway traffic at high concurrency for a fixed time, then stopped. Passes with zero errors
 * and flat memory (heap sampled from the service's own /metrics). `runSoak(opts)` is what
 * bench/run.ts calls; `npm run soak [-- --seconds N --connections N]` runs it alone and exits 1
 * on failure. Traffic goes only to 127.0.0.1, and every loop ends on its own.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { run, REPO, startFleetgate, stop, type Fleetgate } from './lib.js';

export interface SoakOptions {
  /** How long the traffic runs (default 60). */
  seconds?: number;
  /** Concurrent connections (default 64). */
  connections?: number;
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
}

export interface SoakResult {
  seconds: number;
  connections: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  timeouts: number;
  heapMb: { early: number; late: number; growth: number };
  rssMb: { early: number; late: number };
  pass: boolean;
}

const MCP_CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_brand_theme', arguments: { key: 'freight' } },
});

/** One metric's value from the Prometheus text. */
const metric = (text: string, name: string) =>
  Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

export async function runSoak(opts: SoakOptions = {}): Promise<SoakResult> {
  const seconds = opts.seconds ?? 60;
  const connections = opts.connections ?? 64;
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-soak-'));
  const apiKey = `soak-${randomBytes(16).toString('hex')}`;
  let service: Fleetgate | undefined;
  try {
    // As npm start runs it (dist/, its node flags), with our own rate limits off (lib.ts).
    service = await startFleetgate(dataDir, { HOST: '127.0.0.1', FLEETGATE_API_KEY: apiKey });
    const base = service.base;
    const auth = { authorization: `Bearer ${apiKey}` };
    const samples: { heap: number; rss: number }[] = [];
    const sample = async () => {
      const text = await (await fetch(`${base}/metrics`, { headers: auth })).text();
      samples.push({
        heap: metric(text, 'fleetgate_nodejs_heap_size_used_bytes'),
        rss: metric(text, 'fleetgate_process_resident_memory_bytes'),
      });
    };
    const sampler = setInterval(
      () => void sample().catch(() => undefined),
      Math.max(1000, (seconds * 1000) / 30),
    );
    log(`soak: ${connections} connections for ${seconds}s against ${base} (brand, MCP, gateway)`);
    const result = await autocannon({
      url: base,
      connections,
      duration: seconds,
      timeout: 10,
      requests: [
        { method: 'GET', path: '/api/brand' },
        { method: 'GET', path: '/api/brand/themes/freight', headers: { 'accept-encoding': 'br' } },
        { method: 'GET', path: '/static/fleet/design-tokens.css', headers: { 'accept-encoding': 'gzip' } },
        {
          method: 'POST',
          path: '/mcp',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
          },
          body: MCP_CALL,
        },
        { method: 'GET', path: '/api/video/contacts?limit=5', headers: auth },
        { method: 'GET', path: '/api/video/events', headers: auth },
        { method: 'GET', path: '/api/video/status', headers: auth },
        { method: 'GET', path: '/llms.txt' },
      ],
    });
    clearInterval(sampler);
    await sample();
    const third = Math.max(1, Math.floor(samples.length / 3));
    const max = (xs: number[]) => Math.max(...xs.filter(Number.isFinite));
    // The heap's floor between collections is what a leak raises; peaks move with GC timing.
    const min = (xs: number[]) => Math.min(...xs.filter(Number.isFinite));
    const mb = (b: number) => Math.round((b / 1024 / 1024) * 10) / 10;
    // Early: after the first third (warm-up, caches filled); late: the last third.
    const early = samples.slice(third, 2 * third);
    const late = samples.slice(-third);
    const heapEarly = min(early.map((s) => s.heap));
    const heapLate = min(late.map((s) => s.heap));
    const growth = heapLate / heapEarly;
    const r: SoakResult = {
      seconds,
      connections,
      requests: result.requests.total,
      rps: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors,
      non2xx: result.non2xx,
      timeouts: result.timeouts,
      heapMb: { early: mb(heapEarly), late: mb(heapLate), growth: Math.round(growth * 100) / 100 },
      rssMb: { early: mb(max(early.map((s) => s.rss))), late: mb(max(late.map((s) => s.rss))) },
      pass: false,
    };
    // Flat: the late heap floor within 30% of the early one.
    r.pass = r.errors === 0 && r.non2xx === 0 && r.timeouts === 0 && r.requests > 0 && growth < 1.3;
    return r;
  } finally {
    if (service) await stop(service.child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : Number(process.argv[i + 1]);
};

if (import.meta.filename === process.argv[1]) {
  const seconds = arg('seconds');
  const connections = arg('connections');
  await run(['--import', 'tsx', path.join(REPO, 'scripts/build.ts')]);
  const r = await runSoak({
    ...(seconds !== undefined ? { seconds } : {}),
    ...(connections !== undefined ? { connections } : {}),
  });
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  process.exit(r.pass ? 0 : 1);
}
