/**
 * `npm run bench -- --quick` works end to end: it builds dist/, starts fleetgate the way
 * `npm start` does (a first start, then timed restarts), starts the bare baseline, measures every
 * row and writes the results. Only the harness is checked here, never the figures: timing on a
 * shared machine is not a test (the pass/fail of each target is the bench's own report).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/build-test-app.js';
import { runNode } from './run-node.js';

interface Row {
  name: string;
  a: { rps: number; p50: number; p99: number; errors: number; requests: number; cpuUs: number };
  b?: Row['a'];
  ratio?: number;
  cpuRatio?: number;
  value?: number;
  unit?: string;
  target: string;
  pass: boolean;
  info?: boolean;
}

describe('npm run bench -- --quick', () => {
  it('measures every row against its baseline and writes the results', { timeout: 240_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-bench-test-'));
    const out = path.join(dir, 'results.json');
    try {
      const { code, output } = await runNode(['--import', 'tsx', 'bench/run.ts', '--quick', '--out', out]);
      expect(code, output).toBe(0);
      const results = JSON.parse(await readFile(out, 'utf8')) as { quick: boolean; rows: Row[] };
      expect(results.quick).toBe(true);
      const names = results.rows.map((r) => r.name);
      for (const expected of [
        'GET /api/brand/tokens vs bare node:http',
        'GET /api/brand/themes vs bare node:http',
        'GET /api/brand vs bare node:http',
        'GET /api/brand/tokens 304 vs bare 200',
        'GET /api/brand/tokens 304 vs bare 304',
        "MCP tools/call get_brand_tokens vs the SDK's per-request handler",
        'Gateway GET /api/video/recordings vs emulator direct',
        'Gateway added p50, 1 connection (gateway minus emulator direct)',
        'Start to ready (restart, brand cache warm)',
      ]) {
        expect(names).toContain(expected);
      }
      expect(names.some((n) => n.startsWith('Service RSS after 3 rounds'))).toBe(true);
      const start = results.rows.find((r) => r.name.startsWith('Start to ready'));
      expect(start?.unit).toMatch(/^ms \(median of 2 restarts, \d+–\d+\)$/);
      // The added latency is read beside the floor: what a bare node:http proxy adds, timed alongside.
      const added = results.rows.find((r) => r.name.startsWith('Gateway added p50'));
      expect(added?.unit).toMatch(/a bare node:http proxy adds -?\d+\.\d\d ms/);
      // And each side's median per block of rounds, to show how far it drifts within the run.
      expect(added?.unit).toMatch(/blocks of 15 rounds -?\d+\.\d\d–-?\d+\.\d\d;/);
      expect(added?.unit).toMatch(/p50 \d+\.\d\d, blocks of 15 rounds -?\d+\.\d\d–-?\d+\.\d\d\)$/);
      // The soak's zero errors is correctness, not timing: it is asserted here too.
      const soak = results.rows.find((r) => r.name.startsWith('Soak: '));
      expect(soak?.a.requests).toBeGreaterThan(0);
      expect(soak?.a.errors).toBe(0);
      for (const r of results.rows) {
        if (r.b) {
          // A measured pair: both sides served requests without errors, and both ratios are real numbers.
          expect(r.a.requests, r.name).toBeGreaterThan(0);
          expect(r.b.requests, r.name).toBeGreaterThan(0);
          expect(r.a.errors + r.b.errors, r.name).toBe(0);
          expect(r.ratio, r.name).toBeGreaterThan(0);
          expect(r.cpuRatio, r.name).toBeGreaterThan(0);
          expect(Number.isFinite(r.cpuRatio), r.name).toBe(true);
        } else {
          // A latency p50 may round to 0 ms on a fast machine; sizes, times and counts may not.
          expect(Number.isFinite(r.value), r.name).toBe(true);
          // The gateway's added latency is a median of differences between two sides: any sign is possible.
          if (!r.name.startsWith('Gateway added')) expect(r.value, r.name).toBeGreaterThan(0);
        }
      }
      // The table on stdout has one line per row, each target judged MET or NOT MET.
      for (const n of names) expect(output).toContain(`| ${n} |`);
      for (const r of results.rows.filter((x) => !x.info))
        expect(output).toMatch(new RegExp(`\\| ${r.pass ? 'MET' : 'NOT MET'} \\|`));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("bench/phases.ts times the gateway's own share of a call", { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-phases-test-'));
    const out = path.join(dir, 'phases.json');
    try {
      const { code, output } = await runNode([
        '--import',
        'tsx',
        'bench/phases.ts',
        '--rounds',
        '12',
        '--out',
        out,
      ]);
      expect(code, output).toBe(0);
      const rows = JSON.parse(await readFile(out, 'utf8')) as Record<string, string>[];
      // This checkout's build, and the bare proxy timed the same way beside it.
      expect(rows.map((r) => r['build'])).toEqual([REPO, 'bare node:http proxy']);
      // Both phases were seen on every call: real durations, not the defaults of a missed channel.
      for (const r of rows) {
        expect(Number(r['before upstream µs'])).toBeGreaterThan(0);
        expect(Number(r['after upstream µs'])).toBeGreaterThan(0);
        expect(r['before, blocks']).toMatch(/^\d+ \d+ \d+$/);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
