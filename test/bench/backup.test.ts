/**
 * `npm run bench -- --backup --quick` works end to end: a service per store as `npm start` runs
 * it, 2,000 stored events loaded, each backup and restore step run as the operator runs it and
 * timed, every restore checked to hold the events (the bench fails otherwise), a table printed and
 * results written. Only the harness is checked, never the figures (timing on a shared machine is
 * not a test); PostgreSQL, pg_dump and psql are included where they answer (always in CI).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNode } from './run-node.js';
import { requireService } from '../helpers/services.js';

const postgres = await requireService('PostgreSQL', '127.0.0.1', 5432);

describe('npm run bench -- --backup --quick', () => {
  it(
    'times every backup and restore step on each store and checks each restore',
    { timeout: 300_000 },
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-backup-bench-test-'));
      const out = path.join(dir, 'backup.json');
      try {
        const { code, stdout, output } = await runNode([
          '--import',
          'tsx',
          'bench/run.ts',
          '--backup',
          '--quick',
          '--out',
          out,
          ...(postgres ? [] : ['--store', 'sqlite']),
        ]);
        expect(code, output).toBe(0);
        const results = JSON.parse(await readFile(out, 'utf8')) as {
          quick: boolean;
          events: number;
          steps: { store: string; step: string; seconds: number; bytes?: number }[];
        };
        expect(results.quick).toBe(true);
        expect(results.events).toBe(2000);
        const steps = (store: string) => results.steps.filter((s) => s.store === store).map((s) => s.step);
        expect(steps('sqlite')).toEqual([
          'fleetgate backup (service running)',
          'fleetgate restore (empty data dir)',
          'start on the restored data to ready',
        ]);
        if (postgres)
          expect(steps('postgres')).toEqual([
            'fleetgate backup (keys and manifest, service running)',
            'pg_dump of the schema (service running)',
            'psql loading the dump into a new database',
            'fleetgate restore (empty data dir)',
            'start on the restored data to ready',
          ]);
        for (const s of results.steps) {
          expect(s.seconds, s.step).toBeGreaterThan(0);
          expect(stdout).toContain(`| ${s.step} |`);
        }
        expect(results.steps.filter((s) => s.bytes !== undefined).every((s) => (s.bytes ?? 0) > 0)).toBe(
          true,
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
