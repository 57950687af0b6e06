/**
 * `npm run bench -- --backup [--quick] [--events N] [--store sqlite|postgres] [--out file]`
 * (default bench/backup-results.json): how long backing up and restoring take on a store of
 * 100,000 stored events, the figures in docs/operations.md ("Backup and restore"). Per store, a
 * service runs as `npm start` runs it (the emulator linked), the events are bulk-loaded through
 * the Store port as the scale bench does (bench/scale-events.ts), and each step is timed as the
 * operator runs it, a process each, from its spawn to its exit:
 *  - SQLite: `fleetgate backup` while the service runs, the service stopped, `fleetgate restore`
 *    into an empty data dir, and a start on the restored data dir to readiness;
 *  - PostgreSQL: `fleetgate backup` (keys and manifest) and `pg_dump` of the schema while the
 *    service runs, the service stopped, the dump loaded with `psql` into a new database,
 *    `fleetgate restore` against it, and a start on it to readiness.
 * Every restore is checked: the restored store holds as many stored events as the original.
 * Prints a table and writes results JSON; a bench reports, it asserts nothing about the times.
 * --quick: 2,000 events (a check that the harness works).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createStore } from '../src/store/create-store.js';
import { option, REPO, run, startFleetgate, stop } from './lib.js';
import { storedEvents } from './scale-events.js';

type Kind = 'sqlite' | 'postgres';

const quick = process.argv.includes('--quick');
const EVENTS = Number(option('--events', quick ? '2000' : '100000'));
const OUT = path.resolve(option('--out', path.join(REPO, 'bench/backup-results.json')));
const DATABASE_URL = process.env['FLEETGATE_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const BATCH = 5_000;

export interface Step {
  store: Kind;
  step: string;
  seconds: number;
  /** The size of what the step wrote (an archive, a dump), when it wrote one. */
  bytes?: number;
}

/** Runs a process to its end; its wall time. Fails with its output on a non-zero exit. */
function timed(command: string, args: string[], env: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) =>
    execFile(
      command,
      args,
      { cwd: REPO, env: { ...process.env, LOG_LEVEL: 'silent', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) =>
        err
          ? reject(new Error(`${command} ${args.join(' ')} failed: ${err.message}\n${stdout}${stderr}`))
          : resolve((performance.now() - started) / 1000),
    ),
  );
}

const cli = (args: string[], env: Record<string, string>) =>
  timed(process.execPath, [path.join(REPO, 'dist/cli.js'), ...args], env);

async function load(env: {
  databaseUrl: string | undefined;
  dataDir: string;
  schema?: string;
}): Promise<void> {
  const store = await createStore(env);
  try {
    const now = Date.now();
    for (let from = 0; from < EVENTS; from += BATCH)
      await store.insertEvents(storedEvents(from, Math.min(EVENTS, from + BATCH), now, 1_000));
  } finally {
    await store.close();
  }
}

async function storedCount(env: { databaseUrl: string | undefined; dataDir: string; schema?: string }) {
  const store = await createStore(env);
  try {
    return (await store.tableCounts())['stored_events'] ?? 0;
  } finally {
    await store.close();
  }
}

async function sqlite(work: string, log: (l: string) => void): Promise<Step[]> {
  const steps: Step[] = [];
  const original = path.join(work, 'sqlite-original');
  const restored = path.join(work, 'sqlite-restored');
  const archive = path.join(work, 'sqlite.tar.gz');
  const fg = await startFleetgate(original);
  try {
    const loadStarted = performance.now();
    await load({ databaseUrl: undefined, dataDir: original });
    log(
      `  SQLite: ${EVENTS.toLocaleString('en-US')} events loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );
    const seconds = await cli(['backup', archive], { FLEETGATE_DATA_DIR: original });
    steps.push({
      store: 'sqlite',
      step: 'fleetgate backup (service running)',
      seconds,
      bytes: (await stat(archive)).size,
    });
  } finally {
    await stop(fg.child);
  }
  steps.push({
    store: 'sqlite',
    step: 'fleetgate restore (empty data dir)',
    seconds: await cli(['restore', archive], { FLEETGATE_DATA_DIR: restored }),
  });
  const again = await startFleetgate(restored);
  steps.push({ store: 'sqlite', step: 'start on the restored data to ready', seconds: again.readyMs / 1000 });
  await stop(again.child);
  const count = await storedCount({ databaseUrl: undefined, dataDir: restored });
  if (count !== EVENTS)
    throw new Error(`SQLite: the restored store holds ${count} stored events, not ${EVENTS}`);
  return steps;
}

async function postgres(work: string, log: (l: string) => void): Promise<Step[]> {
  const steps: Step[] = [];
  const tag = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const schema = `fg_backup_bench_${tag}`;
  const database = `fg_backup_bench_${tag}`;
  const restoredUrl = Object.assign(new URL(DATABASE_URL), { pathname: `/${database}` }).toString();
  const original = path.join(work, 'pg-original');
  const restored = path.join(work, 'pg-restored');
  const archive = path.join(work, 'pg-keys.tar.gz');
  const dump = path.join(work, 'fleetgate.sql');
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  const env = { DATABASE_URL, FLEETGATE_DB_SCHEMA: schema };
  try {
    const fg = await startFleetgate(original, env);
    try {
      const loadStarted = performance.now();
      await load({ databaseUrl: DATABASE_URL, dataDir: original, schema });
      log(
        `  PostgreSQL: ${EVENTS.toLocaleString('en-US')} events loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
      );
      const backup = await cli(['backup', archive], { ...env, FLEETGATE_DATA_DIR: original });
      steps.push({
        store: 'postgres',
        step: 'fleetgate backup (keys and manifest, service running)',
        seconds: backup,
        bytes: (await stat(archive)).size,
      });
      const dumped = await timed('pg_dump', [
        '--no-owner',
        `--schema=${schema}`,
        `--file=${dump}`,
        DATABASE_URL,
      ]);
      steps.push({
        store: 'postgres',
        step: 'pg_dump of the schema (service running)',
        seconds: dumped,
        bytes: (await stat(dump)).size,
      });
    } finally {
      await stop(fg.child);
    }
    await admin.query(`create database "${database}"`);
    steps.push({
      store: 'postgres',
      step: 'psql loading the dump into a new database',
      seconds: await timed('psql', ['--quiet', '--set=ON_ERROR_STOP=1', `--file=${dump}`, restoredUrl]),
    });
    const restoredEnv = { DATABASE_URL: restoredUrl, FLEETGATE_DB_SCHEMA: schema };
    steps.push({
      store: 'postgres',
      step: 'fleetgate restore (empty data dir)',
      seconds: await cli(['restore', archive], { ...restoredEnv, FLEETGATE_DATA_DIR: restored }),
    });
    const again = await startFleetgate(restored, restoredEnv);
    steps.push({
      store: 'postgres',
      step: 'start on the restored data to ready',
      seconds: again.readyMs / 1000,
    });
    await stop(again.child);
    const count = await storedCount({ databaseUrl: restoredUrl, dataDir: restored, schema });
    if (count !== EVENTS)
      throw new Error(`PostgreSQL: the restored store holds ${count} stored events, not ${EVENTS}`);
    return steps;
  } finally {
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.query(`drop database if exists "${database}" with (force)`);
    await admin.end();
  }
}

async function postgresAnswers(): Promise<boolean> {
  const c = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 2_000 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function main(): Promise<void> {
  const log = (line: string) => process.stderr.write(line + '\n');
  const only = option('--store', '');
  if (only && only !== 'sqlite' && only !== 'postgres') throw new Error('--store is sqlite or postgres');
  await run(['--import', 'tsx', path.join(REPO, 'scripts/build.ts')]);
  // Private: the archives hold keys, and backup refuses a folder others can read.
  const work = await mkdtemp(path.join(tmpdir(), 'fleetgate-backup-bench-'));
  const notes: string[] = [];
  const steps: Step[] = [];
  try {
    if (only !== 'postgres') steps.push(...(await sqlite(work, log)));
    if (only !== 'sqlite') {
      if (await postgresAnswers()) steps.push(...(await postgres(work, log)));
      else if (only === 'postgres') throw new Error(`PostgreSQL does not answer at ${DATABASE_URL}`);
      else notes.push(`PostgreSQL skipped: nothing answers at ${new URL(DATABASE_URL).host}.`);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const rows = steps.map(
    (s) =>
      `| ${s.store === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${s.step} | ${s.seconds.toFixed(2)} s | ${s.bytes === undefined ? '' : size(s.bytes)} |`,
  );
  process.stdout.write(
    [
      `Backup and restore with ${EVENTS.toLocaleString('en-US')} stored events (node ${process.version}):`,
      '',
      '| store | step | time | size |',
      '| --- | --- | --- | --- |',
      ...rows,
      ...notes.map((n) => `\n${n}`),
      '',
    ].join('\n'),
  );
  await writeFile(
    OUT,
    JSON.stringify(
      { date: new Date().toISOString(), quick, node: process.version, events: EVENTS, steps },
      null,
      2,
    ) + '\n',
  );
}
