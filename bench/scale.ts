/**
 * `npm run bench -- --scale [--quick] [--scale-max N] [--store sqlite|postgres] [--requests N]
 * [--strict] [--out file]` (default bench/scale-results.json):
 * what each stored-event read and the event create cost as the store grows, on the embedded
 * SQLite store and on PostgreSQL. Two services run side by side per store, as `npm start` runs
 * them (emulator linked): one stays at the base size (1,000 stored events), the other grows
 * (100,000, then `--scale-max` if larger). Stored events are bulk-loaded through the Store port
 * (`insertEvents`, the service's own settings) while the services run. Every request goes
 * through HTTP with the API key, one at a time, the two services taking turns request by
 * request, so the machine's drift (a third from one minute to the next here) falls on both
 * sides alike and the ratio of the two medians is the cost of the size alone.
 * Prints one table and writes results JSON. Exits 0 whatever the figures (a bench reports),
 * unless --strict and a target is missed. --quick: 200 and 2,000 events, a few requests.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createStore } from '../src/store/create-store.js';
import { cpuUs, medianOf, option, REPO, run, startFleetgate, stop, type Fleetgate } from './lib.js';
import { FUNNELS, SEARCH_MATCHES, SEARCH_QUERY, storedEvents } from './scale-events.js';

type Kind = 'sqlite' | 'postgres';

const quick = process.argv.includes('--quick');
const strict = process.argv.includes('--strict');
const OUT = path.resolve(option('--out', path.join(REPO, 'bench/scale-results.json')));
const DATABASE_URL = process.env['FLEETGATE_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const BASE = quick ? 200 : 1_000;
/** The grown store's sizes, measured in turn against the base. */
const SIZES = (() => {
  const max = Number(option('--scale-max', quick ? '2000' : '100000'));
  if (!Number.isInteger(max) || max <= BASE) throw new Error(`--scale-max must be an integer above ${BASE}`);
  const steps = (quick ? [2_000] : [100_000]).filter((s) => s < max);
  return [...steps, max];
})();
const BATCH = 5_000;
/** Timed requests per side and measurement, after WARMUP untimed ones; fewer when BUDGET_MS runs out. */
const REQUESTS = Number(option('--requests', quick ? '8' : '300'));
const WARMUP = quick ? 2 : 20;
const BUDGET_MS = quick ? 10_000 : 45_000;
const MIN_REQUESTS = Math.min(REQUESTS, 10);
const PAGE = 50;
/** The deep cursor is the one after this many pages (fewer when the base store has fewer). */
const DEPTH = Math.max(1, Math.min(10, Math.floor(BASE / PAGE) - 1));
const FUNNEL = FUNNELS.includes('capital') ? 'capital' : (FUNNELS[0] ?? 'capital');
const READ_TARGET = 2;
const WRITE_TARGET = 1.5;
const STATUS_LIMIT = 1_000_000;
const TIMEOUT_MS = 120_000;

/** One measured service: a fleetgate process, its store settings and how many events it holds. */
interface Side {
  name: string;
  fg: Fleetgate;
  pid: number;
  dataDir: string;
  schema: string | undefined;
  databaseUrl: string | undefined;
  headers: Record<string, string>;
  agent: Agent;
  loaded: number;
}

/** One connection per side, kept alive: requests are sequential, so one is all a side uses. */
const newAgent = () => new Agent({ keepAlive: true, maxSockets: 1 });

interface Sized {
  /** Median latency of the timed requests, ms. */
  p50: number;
  /** The service process's CPU (user + system) per request, µs. */
  cpuUs: number;
  requests: number;
  /** Body size of the last answer, bytes. */
  bytes: number;
}

export interface ScaleRow {
  store: Kind;
  name: string;
  /** Stored events loaded into each side (the bench's own creates come on top). */
  sizes: [number, number];
  small: Sized;
  large: Sized;
  /** large p50 ÷ small p50 (status body: large bytes ÷ small bytes). */
  ratio: number;
  cpuRatio: number;
  target: string;
  pass: boolean;
}

interface Answer {
  status: number;
  body: Buffer;
  ms: number;
}

/** One request on the side's keep-alive connection; its status, body and latency (µs resolution). */
function send(side: Side, method: 'GET' | 'POST', url: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      `${side.fg.base}${url}`,
      {
        method,
        agent: side.agent,
        timeout: TIMEOUT_MS,
        headers: {
          ...side.headers,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.once('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
        res.once('error', reject);
      },
    );
    req.once('timeout', () => req.destroy(new Error(`${method} ${url}: no answer in ${TIMEOUT_MS} ms`)));
    req.once('error', reject);
    req.end(body);
  });
}

async function expectOk(side: Side, method: 'GET' | 'POST', url: string, body?: string): Promise<Answer> {
  const a = await send(side, method, url, body).catch((err: unknown) => {
    const child = side.fg.child;
    const gone = child.exitCode !== null || child.signalCode !== null;
    throw new Error(
      `${side.name}: ${method} ${url}: ${String(err)}${gone ? `; the service exited (${child.exitCode ?? child.signalCode}), its output:\n${side.fg.output().slice(-3000)}` : ''}`,
    );
  });
  if (a.status !== (method === 'POST' ? 201 : 200))
    throw new Error(
      `${side.name}: ${method} ${url} answered ${a.status}: ${a.body.toString().slice(0, 300)}`,
    );
  return a;
}

/** What one measurement asks of a side: the request for round `i`. */
type Ask = (side: Side, i: number) => Promise<Answer>;

/**
 * `ask` on both sides in turns, the order alternating each round; WARMUP untimed rounds first.
 * Each side's CPU is read from /proc across its timed rounds (the other side is idle meanwhile).
 */
async function interleave(sides: [Side, Side], ask: Ask): Promise<[Sized, Sized]> {
  const times: number[][] = [[], []];
  const bytes = [0, 0];
  let round = 0;
  for (; round < WARMUP; round++) for (const s of sides) await ask(s, round);
  const cpuBefore = sides.map((s) => cpuUs(s.pid));
  const started = Date.now();
  for (let n = 0; n < REQUESTS; n++, round++) {
    if (n >= MIN_REQUESTS && Date.now() - started > BUDGET_MS) break;
    for (let k = 0; k < 2; k++) {
      const side = (n + k) % 2;
      const a = await ask(sides[side] as Side, round);
      times[side]?.push(a.ms);
      bytes[side] = a.body.length;
    }
  }
  const sized = (side: number): Sized => {
    const t = times[side] ?? [];
    return {
      p50: medianOf(t),
      cpuUs: t.length ? (cpuUs(sides[side]?.pid ?? 0) - (cpuBefore[side] ?? 0)) / t.length : 0,
      requests: t.length,
      bytes: bytes[side] ?? 0,
    };
  };
  return [sized(0), sized(1)];
}

/** The cursor `DEPTH` pages into the list, following nextCursor as a client does. */
async function deepCursor(side: Side): Promise<string> {
  let cursor = '';
  for (let page = 0; page < DEPTH; page++) {
    const url = `/api/video/events?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const next = (
      JSON.parse((await expectOk(side, 'GET', url)).body.toString()) as { nextCursor: string | null }
    ).nextCursor;
    if (next === null) throw new Error(`${side.name}: the list ended before page ${DEPTH + 1}`);
    cursor = next;
  }
  return cursor;
}

/** A create as a booking page sends it: a future start, a funnel, sometimes a registration form. */
function newEvent(i: number): string {
  const start = new Date(Math.ceil(Date.now() / 900_000) * 900_000 + (1 + (i % 90)) * 86_400_000);
  return JSON.stringify({
    topic: `Scale bench consultation ${i}`,
    start_time: start.toISOString(),
    duration: 30,
    funnel: FUNNELS[i % FUNNELS.length] ?? null,
    registration: i % 3 === 0,
  });
}

/** Adds stored events to a side's store until it holds `size`, through the Store port. */
async function grow(side: Side, size: number, now: number, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const store = await createStore({
    databaseUrl: side.databaseUrl,
    dataDir: side.dataDir,
    ...(side.schema ? { schema: side.schema } : {}),
  });
  try {
    for (let from = side.loaded; from < size; from += BATCH)
      await store.insertEvents(storedEvents(from, Math.min(size, from + BATCH), now, BASE));
  } finally {
    await store.close();
  }
  if (side.databaseUrl && side.schema) await settle(side.databaseUrl, side.schema);
  const s = (performance.now() - started) / 1000;
  log(
    `  ${side.name}: ${side.loaded.toLocaleString('en-US')} → ${size.toLocaleString('en-US')} stored events in ${s.toFixed(1)} s (${Math.round((size - side.loaded) / s).toLocaleString('en-US')}/s)`,
  );
  side.loaded = size;
}

/**
 * PostgreSQL after a bulk load: VACUUM ANALYZE the schema's tables, the state autovacuum reaches
 * within a minute or so of such a load; measuring before it would time a planner that has not
 * seen the rows yet, and measuring while it runs would time both.
 */
async function settle(databaseUrl: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ t: string }>(
      `select quote_ident(schemaname) || '.' || quote_ident(tablename) as t from pg_tables where schemaname = $1`,
      [schema],
    );
    for (const r of rows) await c.query(`vacuum (analyze) ${r.t}`);
  } finally {
    await c.end();
  }
}

async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await c.end();
  }
}

async function postgresAnswers(databaseUrl: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2_000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

async function startSide(kind: Kind, name: string, tag: string): Promise<Side> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `fleetgate-scale-${kind}-${name}-`));
  const schema = kind === 'postgres' ? `fg_scale_bench_${tag}_${name}` : undefined;
  const apiKey = randomBytes(24).toString('base64url');
  const fg = await startFleetgate(dataDir, {
    FLEETGATE_API_KEY: apiKey,
    DATABASE_URL: schema ? DATABASE_URL : '',
    FLEETGATE_DB_SCHEMA: schema ?? '',
    // The services' own counters stay in memory: Redis is not what is measured.
    REDIS_URL: '',
  });
  return {
    name: `${kind} ${name}`,
    fg,
    pid: fg.child.pid ?? 0,
    dataDir,
    schema,
    databaseUrl: schema ? DATABASE_URL : undefined,
    headers: { authorization: `Bearer ${apiKey}` },
    agent: newAgent(),
    loaded: 0,
  };
}

/** Every row for one store: base and grown services, the grown one measured at each size. */
async function measureStore(kind: Kind, log: (line: string) => void): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = [];
  const tag = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const sides: Side[] = [];
  const now = Date.now();
  try {
    sides.push(await startSide(kind, 'base', tag), await startSide(kind, 'grown', tag));
    const pair = sides as [Side, Side];
    log(`${kind}:`);
    for (const s of pair) await grow(s, BASE, now, log);
    let created = 0;
    for (const size of SIZES) {
      await grow(pair[1], size, now, log);
      // Fresh connections for both: a long load keeps this process busy past the services'
      // keep-alive timeout, and a socket closed meanwhile would be reused before its end is read.
      for (const s of pair) {
        s.agent.destroy();
        s.agent = newAgent();
      }
      const sizes: [number, number] = [pair[0].loaded, size];
      const row = (name: string, m: [Sized, Sized], limit: number): ScaleRow => {
        const ratio = m[0].p50 > 0 ? m[1].p50 / m[0].p50 : 0;
        return {
          store: kind,
          name,
          sizes,
          small: m[0],
          large: m[1],
          ratio,
          cpuRatio: m[0].cpuUs > 0 ? m[1].cpuUs / m[0].cpuUs : 0,
          target: `≤ ${limit.toFixed(1)}×`,
          pass: ratio <= limit,
        };
      };
      const get =
        (url: (s: Side) => string): Ask =>
        (s) =>
          expectOk(s, 'GET', url(s));
      const measure = async (name: string, ask: Ask, limit = READ_TARGET) => {
        const r = row(name, await interleave(pair, ask), limit);
        rows.push(r);
        log(`  ${name}: ${r.small.p50.toFixed(2)} → ${r.large.p50.toFixed(2)} ms (${r.ratio.toFixed(2)}×)`);
        return r;
      };

      await measure(
        `GET /api/video/events?limit=${PAGE} (first page)`,
        get(() => `/api/video/events?limit=${PAGE}`),
      );
      const cursors = new Map<Side, string>();
      for (const s of pair) cursors.set(s, await deepCursor(s));
      await measure(
        `GET /api/video/events?limit=${PAGE}&cursor=… (page ${DEPTH + 1}, following nextCursor)`,
        get((s) => `/api/video/events?limit=${PAGE}&cursor=${encodeURIComponent(cursors.get(s) ?? '')}`),
      );
      await measure(
        `GET /api/video/events?funnel=${FUNNEL}&limit=${PAGE}`,
        get(() => `/api/video/events?funnel=${FUNNEL}&limit=${PAGE}`),
      );
      const q = encodeURIComponent(SEARCH_QUERY);
      for (const s of pair) {
        // The planted events must be found, or the row would time an empty search.
        const body = (await expectOk(s, 'GET', `/api/video/search?q=${q}`)).body.toString();
        if (!/kestrel/i.test(body))
          throw new Error(`${s.name}: search for "${SEARCH_QUERY}" found no stored event`);
      }
      await measure(
        `GET /api/video/search?q=${SEARCH_QUERY.replace(' ', '+')} (${SEARCH_MATCHES} matches)`,
        get(() => `/api/video/search?q=${q}`),
      );
      const status = await measure(
        'GET /api/video/status?fresh=1',
        get(() => '/api/video/status?fresh=1'),
      );
      rows.push({
        store: kind,
        name: 'status body',
        sizes,
        small: status.small,
        large: status.large,
        ratio: status.small.bytes > 0 ? status.large.bytes / status.small.bytes : 0,
        cpuRatio: 0,
        target: '< 1 MB',
        pass: status.large.bytes < STATUS_LIMIT,
      });
      await measure(
        'POST /api/video/events (create)',
        (s) => expectOk(s, 'POST', '/api/video/events', newEvent(created++)),
        WRITE_TARGET,
      );
    }
  } finally {
    for (const s of sides) {
      s.agent.destroy();
      await stop(s.fg.child);
      await rm(s.dataDir, { recursive: true, force: true });
      if (s.databaseUrl && s.schema) await dropSchema(s.databaseUrl, s.schema);
    }
  }
  return rows;
}

const count = (n: number) =>
  n >= 1_000_000 && n % 1_000_000 === 0
    ? `${n / 1_000_000}M`
    : n >= 1_000 && n % 1_000 === 0
      ? `${n / 1_000}k`
      : String(n);
const size = (bytes: number) =>
  bytes >= 1_000_000
    ? `${(bytes / 1_000_000).toFixed(1)} MB`
    : bytes >= 1_000
      ? `${(bytes / 1_000).toFixed(1)} kB`
      : `${bytes} B`;

export function table(rows: ScaleRow[], notes: string[]): string {
  const lines = [
    `fleetgate scale bench (${quick ? 'quick' : 'full'}: base ${count(BASE)} stored events against ${SIZES.map(count).join(', ')}; ${REQUESTS} timed requests per side after ${WARMUP} untimed, at most ${BUDGET_MS / 1000} s per measurement; node ${process.version})`,
    '',
    'Two services per store, one at each size, taking turns request by request. ms: median latency of sequential requests (one connection). CPU: the service process only (not the emulator, not PostgreSQL). Ratio: large ÷ small.',
    ...notes,
    '',
    '| store | measurement | events | ms | ratio | CPU µs/req | CPU ratio | requests | target | pass |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const body = r.name === 'status body';
      return `| ${[
        r.store,
        r.name,
        `${count(r.sizes[0])} → ${count(r.sizes[1])}`,
        body
          ? `${size(r.small.bytes)} → ${size(r.large.bytes)}`
          : `${r.small.p50.toFixed(2)} → ${r.large.p50.toFixed(2)}`,
        `${r.ratio.toFixed(2)}×`,
        body ? '—' : `${Math.round(r.small.cpuUs)} → ${Math.round(r.large.cpuUs)}`,
        // Under one 10 ms tick in all: too little CPU to divide by.
        body || r.cpuRatio === 0 ? '—' : `${r.cpuRatio.toFixed(2)}×`,
        body ? '—' : `${r.small.requests} / ${r.large.requests}`,
        r.target,
        r.pass ? 'pass' : 'FAIL',
      ].join(' | ')} |`;
    }),
  ];
  return lines.join('\n') + '\n';
}

export async function main(): Promise<void> {
  const log = (line: string) => process.stderr.write(line + '\n');
  const only = option('--store', '');
  if (only && only !== 'sqlite' && only !== 'postgres') throw new Error('--store is sqlite or postgres');
  const kinds: Kind[] = [];
  const notes: string[] = [];
  if (only !== 'postgres') kinds.push('sqlite');
  if (only !== 'sqlite') {
    if (await postgresAnswers(DATABASE_URL)) kinds.push('postgres');
    else if (only === 'postgres') throw new Error(`PostgreSQL does not answer at ${DATABASE_URL}`);
    else notes.push(`PostgreSQL skipped: nothing answers at ${new URL(DATABASE_URL).host}.`);
  }
  if (kinds.includes('postgres'))
    notes.push('PostgreSQL: a fresh schema per service, VACUUM ANALYZE after each load, dropped afterwards.');
  await run(['--import', 'tsx', path.join(REPO, 'scripts/build.ts')]);
  const rows: ScaleRow[] = [];
  for (const kind of kinds) rows.push(...(await measureStore(kind, log)));
  process.stdout.write(table(rows, notes));
  await writeFile(
    OUT,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        quick,
        node: process.version,
        base: BASE,
        sizes: SIZES,
        stores: kinds,
        rows,
      },
      null,
      2,
    ) + '\n',
  );
  if (strict && rows.some((r) => !r.pass)) process.exitCode = 1;
}
