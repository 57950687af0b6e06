/**
 * Which of a store's schema migrations a database has run, which are still to run, and which it
 * has run that this code does not know (a newer release migrated it: the code is older than the
 * database), read from Kysely's bookkeeping table and schema_compat without changing anything.
 * `fleetgate migrate`, the start, readiness and the status report read it.
 */
import { sql, type QueryExecutorProvider } from 'kysely';

export interface MigrationState {
  /** Known to this code and run by the database, in order. */
  applied: string[];
  /** Known to this code and not yet run. */
  pending: string[];
  /** Run by the database and unknown to this code: a newer release's migrations. */
  unknown: string[];
  /**
   * The oldest code the schema still serves, as the newest migration that code must know
   * (schema_compat, migration 015); undefined before that migration.
   */
  oldestCode: string | undefined;
}

/** Kysely's bookkeeping table (its default name). */
const MIGRATION_TABLE = 'kysely_migration';

async function hasTable(
  db: QueryExecutorProvider,
  kind: 'sqlite' | 'postgres',
  table: string,
): Promise<boolean> {
  const { rows } =
    kind === 'sqlite'
      ? await sql<{
          n: number;
        }>`select count(*) as n from sqlite_master where type = 'table' and name = ${table}`.execute(db)
      : // The connection's own schema only: another schema's tables of the same name are not ours.
        await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
          where table_schema = current_schema() and table_name = ${table}`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0;
}

/** The state of `db` (on PostgreSQL, a connection whose search_path names the store's schema). */
export async function migrationState(
  db: QueryExecutorProvider,
  kind: 'sqlite' | 'postgres',
  known: readonly string[],
): Promise<MigrationState> {
  const names = [...known].sort();
  if (!(await hasTable(db, kind, MIGRATION_TABLE)))
    return { applied: [], pending: names, unknown: [], oldestCode: undefined };
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(db);
  const run = new Set(rows.map((r) => r.name));
  let oldestCode: string | undefined;
  if (await hasTable(db, kind, 'schema_compat')) {
    const { rows: compat } = await sql<{
      oldest_code: string;
    }>`select oldest_code from schema_compat where id = 'default'`.execute(db);
    oldestCode = compat[0]?.oldest_code;
  }
  return {
    applied: names.filter((n) => run.has(n)),
    pending: names.filter((n) => !run.has(n)),
    unknown: [...run].filter((n) => !known.includes(n)).sort(),
    oldestCode,
  };
}

/**
 * Thrown at start when the database has run migrations this code does not know and no longer
 * serves it (a contract step raised schema_compat past this code), or when this code's own
 * migrations are missing under a newer release's: nothing is migrated, backwards or forwards.
 */
export class SchemaAheadError extends Error {}

/**
 * Whether migrations may run: undefined when they may (nothing unknown applied); 'serve' when the
 * database is newer than this code but still serves it (expand steps only: an instance of the
 * previous release during a rolling upgrade), so nothing is applied; throws SchemaAheadError
 * when this code must not run on it.
 */
export function newerSchemaVerdict(state: MigrationState, known: readonly string[]): 'serve' | undefined {
  if (state.unknown.length === 0) return undefined;
  const code = [...known].sort().at(-1) ?? 'none';
  if (state.oldestCode !== undefined && !known.includes(state.oldestCode))
    throw new SchemaAheadError(
      `the database's schema is newer than this code (it has run ${state.unknown.join(', ')}; this code knows up to ${code}) and no longer serves it: it needs code that knows ${state.oldestCode} or later. Upgrade this instance; nothing was migrated.`,
    );
  if (state.pending.length > 0)
    throw new SchemaAheadError(
      `the database has run ${state.unknown.join(', ')}, which this code does not know, but not ${state.pending.join(', ')}, which it does: its schema comes from another line of releases. Nothing was migrated.`,
    );
  return 'serve';
}

/** How this code and the database's schema stand, for readiness and the status report. */
export interface SchemaCheck {
  /** The newest migration this code knows. */
  code: string;
  /** The newest migration the database has run ('none' before the first). */
  database: string;
  /** Migrations the database has run that this code does not know: it is newer than the code. */
  unknown: string[];
  /** False once the schema no longer serves this code (see newerSchemaVerdict). */
  serves: boolean;
  /** The oldest code the schema serves, when it says. */
  oldestCode?: string;
}

export function schemaCheck(state: MigrationState, known: readonly string[]): SchemaCheck {
  const ran = [...state.applied, ...state.unknown].sort();
  return {
    code: [...known].sort().at(-1) ?? 'none',
    database: ran.at(-1) ?? 'none',
    unknown: state.unknown,
    serves: state.oldestCode === undefined || known.includes(state.oldestCode),
    ...(state.oldestCode !== undefined ? { oldestCode: state.oldestCode } : {}),
  };
}
