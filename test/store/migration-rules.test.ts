/**
 * Every migration follows expand/contract, so instances of the previous release keep working
 * while a new one migrates (docs/operations.md, "Upgrading"). Held by behaviour, not by reading
 * the migrations' code: each one is applied alone, in order, to a fresh SQLite file and a fresh
 * PostgreSQL schema, and the catalog before and after is compared (schema-catalog.ts): no table or
 * column dropped or renamed, no type narrowed, no column made NOT NULL, no new NOT NULL column
 * without a default, no new unique index or constraint over existing columns. What a migration
 * may do anyway is in REVIEWED, with the reason, and a migration after 015 listed there must be a
 * contract step (it raises schema_compat.oldest_code). The checker itself is shown to catch each
 * kind of break on deliberately bad migrations.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { scopedToSchema } from '../../src/store/dialects/schema-introspector.js';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresDialect } from '../../src/store/dialects/postgres.js';
import { SqliteDialect } from '../../src/store/dialects/sqlite.js';
import type { Dialect } from '../../src/store/dialects/dialect.js';
import { contract, migrations } from '../../src/store/migrations.js';
import { requireService } from '../helpers/services.js';
import { breakingChanges, postgresCatalog, sqliteCatalog, type Catalog } from './schema-catalog.js';

const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgAvailable = await requireService('PostgreSQL', '127.0.0.1', 5432);

/**
 * Changes a migration makes that the rule would refuse, reviewed: the migration, each change as
 * breakingChanges() words it, and why the previous release still works. Empty: no migration so far
 * has needed one.
 */
const REVIEWED: Record<string, { change: string; reason: string }[]> = {};

/** Migrations from here on can be contract steps (schema_compat exists). */
const COMPAT_FROM = '015_schema_compat';

interface Engine {
  dialect: Dialect;
  migrator(m: Record<string, Migration>): Migrator;
  catalog(): Promise<Catalog>;
  close(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function sqliteEngine(): Promise<Engine> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-rules-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const dialect = new SqliteDialect(path.join(dir, 'rules.db'));
  return {
    dialect,
    migrator: (m) => new Migrator({ db: dialect.db, provider: { getMigrations: () => Promise.resolve(m) } }),
    catalog: () => sqliteCatalog(dialect.db),
    close: () => dialect.close(),
  };
}

async function postgresEngine(): Promise<Engine> {
  const schema = `fg_rules_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DB });
  await admin.connect();
  await admin.query(`create schema ${pg.escapeIdentifier(schema)}`);
  cleanups.push(async () => {
    await admin.query(`drop schema if exists ${pg.escapeIdentifier(schema)} cascade`);
    await admin.end();
  });
  const dialect = new PostgresDialect(DB, { schema, max: 1 });
  return {
    dialect,
    migrator: (m) =>
      new Migrator({
        // As the store migrates: introspecting only its schema, not the ones parallel tests drop.
        db: scopedToSchema(dialect.db, schema),
        provider: { getMigrations: () => Promise.resolve(m) },
        migrationTableSchema: schema,
      }),
    catalog: () => postgresCatalog(dialect.db, schema),
    close: () => dialect.close(),
  };
}

async function oldestCode(db: Kysely<any>): Promise<string | undefined> {
  try {
    const { rows } = await sql<{ oldest_code: string }>`select oldest_code from schema_compat`.execute(db);
    return rows[0]?.oldest_code;
  } catch {
    return undefined;
  }
}

/** Applies `all` one migration at a time; what each changed that the rule refuses. */
async function stepByStep(e: Engine, all: Record<string, Migration>) {
  const migrator = e.migrator(all);
  const steps: { name: string; changes: string[]; raisedOldestCode: boolean }[] = [];
  for (;;) {
    const before = await e.catalog();
    const floor = await oldestCode(e.dialect.db);
    const { error, results } = await migrator.migrateUp();
    if (error) throw error instanceof Error ? error : new Error('migration failed');
    const done = results?.[0];
    if (!done) break;
    expect(done.status).toBe('Success');
    const changes = breakingChanges(before, await e.catalog());
    const after = await oldestCode(e.dialect.db);
    steps.push({
      name: done.migrationName,
      changes,
      raisedOldestCode: floor !== undefined && after !== floor,
    });
  }
  return steps;
}

async function holdsEveryMigration(open: () => Promise<Engine>) {
  const e = await open();
  try {
    const all = migrations(e.dialect.ddl);
    const steps = await stepByStep(e, all);
    expect(steps.map((s) => s.name)).toEqual(Object.keys(all).sort());
    for (const s of steps) {
      const reviewed = REVIEWED[s.name] ?? [];
      expect(s.changes, `${s.name} breaks the previous release's code`).toEqual(
        reviewed.map((r) => r.change),
      );
      if (reviewed.length > 0 && s.name > COMPAT_FROM)
        expect(s.raisedOldestCode, `${s.name} contracts the schema: wrap it in contract()`).toBe(true);
    }
  } finally {
    await e.close();
  }
}

/** Deliberately bad migrations, each with what the checker must say about it. */
function badMigrations(kind: 'sqlite' | 'postgres'): { name: string; up: string[]; expect: string[] }[] {
  const both = [
    {
      name: '901_drop_column',
      up: ['alter table stored_events drop column agenda'],
      expect: ['drops column stored_events.agenda'],
    },
    {
      name: '902_rename_column',
      up: ['alter table webhook_receipts rename column event to event_type'],
      expect: [
        'drops column webhook_receipts.event',
        'adds NOT NULL column webhook_receipts.event_type without a default',
      ],
    },
    { name: '903_drop_table', up: ['drop table counters'], expect: ['drops table counters'] },
    {
      name: '904_unique_over_existing_rows',
      up: ['create unique index stored_events_topic on stored_events (topic)'],
      expect: [
        `adds a unique index on stored_events ${kind === 'sqlite' ? '(topic)' : 'USING btree (topic)'}`,
      ],
    },
  ];
  if (kind === 'sqlite') return both;
  return [
    ...both,
    {
      name: '905_not_null_without_default',
      up: ['alter table link add column region text not null'],
      expect: ['adds NOT NULL column link.region without a default'],
    },
    {
      name: '906_narrowed_type',
      up: ['alter table link alter column pmi type integer'],
      expect: ['changes the type of link.pmi from bigint to integer'],
    },
    {
      name: '907_made_not_null',
      up: ['alter table stored_events alter column timezone set not null'],
      expect: ['makes stored_events.timezone NOT NULL'],
    },
    {
      name: '908_default_dropped',
      up: ['alter table link alter column health drop default'],
      expect: ['drops the default of NOT NULL column link.health'],
    },
    {
      name: '909_check_on_existing_rows',
      up: ['alter table stored_events add constraint duration_positive check (duration > 0)'],
      expect: ['adds a constraint on stored_events: CHECK ((duration > 0))'],
    },
  ];
}

async function catchesEveryBreak(open: () => Promise<Engine>, kind: 'sqlite' | 'postgres') {
  const e = await open();
  try {
    const all = migrations(e.dialect.ddl);
    const raw = (statements: string[]): Migration => ({
      async up(db) {
        for (const s of statements) await sql.raw(s).execute(db);
      },
    });
    const bad = badMigrations(kind);
    const fixtures: Record<string, Migration> = {
      ...all,
      ...Object.fromEntries(bad.map((b) => [b.name, raw(b.up)])),
      // What expands only: a nullable column, a column with a default, a new table with its own
      // unique key, a plain index. Nothing to report.
      '950_expand_only': raw([
        'alter table stored_events add column venue text',
        "alter table link add column tier text not null default 'basic'",
        'create table venues (id text primary key, name text not null unique)',
        'create index stored_events_venue on stored_events (venue)',
      ]),
      '951_contract': contract(
        '950_expand_only',
        raw(['drop index stored_events_venue', 'alter table stored_events drop column venue']),
      ),
    };
    const steps = await stepByStep(e, fixtures);
    const byName = new Map(steps.map((s) => [s.name, s]));
    for (const b of bad) expect(byName.get(b.name)?.changes, b.name).toEqual(b.expect);
    expect(byName.get('950_expand_only')?.changes).toEqual([]);
    expect(byName.get('951_contract')).toEqual({
      name: '951_contract',
      changes: ['drops column stored_events.venue'],
      raisedOldestCode: true,
    });
    // The real migrations, applied before the fixtures, reported as in the first test.
    for (const name of Object.keys(all))
      expect(byName.get(name)?.changes).toEqual((REVIEWED[name] ?? []).map((r) => r.change));
  } finally {
    await e.close();
  }
}

describe('migrations follow expand/contract', () => {
  it('REVIEWED names only migrations that exist, each change with a reason', () => {
    const names = Object.keys(migrations(new SqliteDialect(':memory:').ddl));
    for (const [name, changes] of Object.entries(REVIEWED)) {
      expect(names).toContain(name);
      for (const c of changes) expect(c.reason.length).toBeGreaterThan(20);
    }
  });

  it('SQLite: no migration breaks the code of the release before it', () =>
    holdsEveryMigration(sqliteEngine));

  it.skipIf(!pgAvailable)('PostgreSQL: no migration breaks the code of the release before it', () =>
    holdsEveryMigration(postgresEngine),
  );

  it('SQLite: the check catches a dropped, renamed or unique-constrained column and a dropped table', () =>
    catchesEveryBreak(sqliteEngine, 'sqlite'));

  it.skipIf(!pgAvailable)(
    'PostgreSQL: the check catches drops, renames, narrowed types, new NOT NULLs, dropped defaults, new uniques and checks',
    () => catchesEveryBreak(postgresEngine, 'postgres'),
  );
});
