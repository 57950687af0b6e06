/**
 * `npm run bench -- --scale --quick` works end to end: two services per store as `npm start`
 * runs them, stored events bulk-loaded at two sizes, every read and the create measured on both,
 * a table printed and results written. Only the harness is checked, never the figures (timing on
 * a shared machine is not a test); PostgreSQL is included where it answers (always in CI).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNode } from './run-node.js';
import { requireService } from '../helpers/services.js';

interface Sized {
  p50: number;
  cpuUs: number;
  requests: number;
  bytes: number;
}
interface Row {
  store: string;
  name: string;
  sizes: [number, number];
  small: Sized;
  large: Sized;
  ratio: number;
  target: string;
  pass: boolean;
}

const postgres = await requireService('PostgreSQL', '127.0.0.1', 5432);

describe('npm run bench -- --scale --quick', () => {
  it('measures every read and the create at both sizes on each store', { timeout: 300_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-scale-test-'));
    const out = path.join(dir, 'scale.json');
    try {
      const { code, stdout, output } = await runNode([
        '--import',
        'tsx',
        'bench/run.ts',
        '--scale',
        '--quick',
        '--out',
        out,
        ...(postgres ? [] : ['--store', 'sqlite']),
      ]);
      expect(code, output).toBe(0);
      const results = JSON.parse(await readFile(out, 'utf8')) as {
        quick: boolean;
        base: number;
        sizes: number[];
        stores: string[];
        rows: Row[];
      };
      expect(results.quick).toBe(true);
      expect(results.base).toBe(200);
      expect(results.sizes).toEqual([2000]);
      expect(results.stores).toEqual(postgres ? ['sqlite', 'postgres'] : ['sqlite']);
      for (const store of results.stores) {
        const rows = results.rows.filter((r) => r.store === store);
        expect(rows.map((r) => r.name)).toEqual([
          'GET /api/video/events?limit=50 (first page)',
          'GET /api/video/events?limit=50&cursor=… (page 4, following nextCursor)',
          'GET /api/video/events?funnel=capital&limit=50',
          'GET /api/video/search?q=ledger+kestrel (36 matches)',
          'GET /api/video/status?fresh=1',
          'status body',
          'POST /api/video/events (create)',
        ]);
        for (const r of rows) {
          expect(r.sizes, r.name).toEqual([200, 2000]);
          // Both sides answered every timed request (a failed one stops the bench) and sent a body.
          for (const side of [r.small, r.large]) {
            expect(side.requests, r.name).toBeGreaterThan(0);
            expect(side.bytes, r.name).toBeGreaterThan(0);
            expect(side.p50, r.name).toBeGreaterThan(0);
          }
          expect(Number.isFinite(r.ratio) && r.ratio > 0, r.name).toBe(true);
          expect(stdout).toContain(`| ${store} | ${r.name} | 200 → 2k |`);
        }
      }
      // A bench reports: a missed target is printed, not an exit code (that is --strict's job).
      expect(stdout).toMatch(/\| (pass|FAIL) \|/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
