/**
 * The expand/contract rule, checked by behaviour: a snapshot of a database's catalog (tables,
 * columns with type, nullability and default, unique indexes, check and foreign-key constraints)
 * read from information_schema/pg_catalog on PostgreSQL and from sqlite_master and its pragmas on
 * SQLite, and the list of what a migration changed between two snapshots that the previous
 * release's code could trip on: a table or column gone (a rename is one gone and one new), a type
 * changed other than widened, a column made NOT NULL or a NOT NULL column's default dropped, a
 * new NOT NULL column without a default, a new unique index or constraint over existing columns.
 */
import { sql, type Kysely } from 'kysely';

export interface Column {
  type: string;
  notNull: boolean;
  /** A default, an identity or a generated value: an insert that names no value still works. */
  filled: boolean;
}

export interface Table {
  columns: Map<string, Column>;
  /** Unique indexes and constraints, each as the columns or expression it covers. */
  uniques: Set<string>;
  /** Check and foreign-key constraints, each as its definition. */
  constraints: Set<string>;
}

export type Catalog = Map<string, Table>;

const table = (): Table => ({ columns: new Map(), uniques: new Set(), constraints: new Set() });

export async function postgresCatalog(db: Kysely<any>, schema: string): Promise<Catalog> {
  const cat: Catalog = new Map();
  const { rows: tables } = await sql<{ table_name: string }>`select table_name from information_schema.tables
    where table_schema = ${schema} and table_type = 'BASE TABLE'`.execute(db);
  for (const t of tables) cat.set(t.table_name, table());
  const { rows: columns } = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    character_maximum_length: number | null;
    numeric_precision: number | null;
    collation_name: string | null;
    is_nullable: 'YES' | 'NO';
    column_default: string | null;
    is_identity: 'YES' | 'NO';
    is_generated: 'ALWAYS' | 'NEVER';
  }>`select table_name, column_name, data_type, character_maximum_length, numeric_precision,
      collation_name, is_nullable, column_default, is_identity, is_generated
    from information_schema.columns where table_schema = ${schema}`.execute(db);
  for (const c of columns) {
    const type = [
      c.data_type,
      c.character_maximum_length !== null ? `(${c.character_maximum_length})` : '',
      c.collation_name ? ` collate ${c.collation_name}` : '',
    ].join('');
    cat.get(c.table_name)?.columns.set(c.column_name, {
      type,
      notNull: c.is_nullable === 'NO',
      filled: c.column_default !== null || c.is_identity === 'YES' || c.is_generated === 'ALWAYS',
    });
  }
  // From pg_index, filtered on plain columns before pg_get_indexdef runs: the pg_indexes view may
  // call it on another schema's index that a parallel test is dropping ("could not open relation").
  const { rows: uniques } = await sql<{ tablename: string; def: string }>`select t.relname as tablename,
      regexp_replace(pg_get_indexdef(x.indexrelid), '^CREATE UNIQUE INDEX \\S+ ON \\S+ ', '') as def
    from pg_index x join pg_class t on t.oid = x.indrelid join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = ${schema} and x.indisunique`.execute(db);
  for (const u of uniques) cat.get(u.tablename)?.uniques.add(u.def);
  const { rows: constraints } = await sql<{ table_name: string; def: string }>`select c.relname as table_name,
      pg_get_constraintdef(k.oid) as def
    from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema} and k.contype in ('c', 'f')`.execute(db);
  for (const k of constraints) cat.get(k.table_name)?.constraints.add(k.def);
  return cat;
}

export async function sqliteCatalog(db: Kysely<any>): Promise<Catalog> {
  const cat: Catalog = new Map();
  const { rows: tables } = await sql<{ name: string }>`select name from sqlite_master
    where type = 'table' and name not like 'sqlite_%'`.execute(db);
  for (const { name } of tables) {
    const t = table();
    cat.set(name, t);
    const { rows: columns } = await sql<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }>`select name, type, "notnull", dflt_value, pk from pragma_table_info(${name})`.execute(db);
    for (const c of columns)
      t.columns.set(c.name, {
        type: c.type.toLowerCase(),
        notNull: c.notnull === 1 || c.pk > 0,
        // An INTEGER PRIMARY KEY is the rowid: SQLite fills it.
        filled: c.dflt_value !== null || (c.pk > 0 && c.type.toLowerCase() === 'integer'),
      });
    const { rows: indexes } = await sql<{ name: string }>`select name from pragma_index_list(${name})
      where "unique" = 1`.execute(db);
    for (const i of indexes) {
      const { rows: cols } = await sql<{ name: string | null }>`select name from pragma_index_info(${i.name})
        order by seqno`.execute(db);
      t.uniques.add(`(${cols.map((c) => c.name ?? '<expression>').join(', ')})`);
    }
    const { rows: fks } = await sql<{
      from: string;
      table: string;
      to: string | null;
    }>`select "from", "table", "to"
      from pragma_foreign_key_list(${name})`.execute(db);
    for (const f of fks) t.constraints.add(`foreign key (${f.from}) references ${f.table}(${f.to ?? ''})`);
  }
  return cat;
}

/** A type change old code survives: a wider integer, a longer or unbounded text. */
function widened(from: string, to: string): boolean {
  const ints = ['smallint', 'integer', 'bigint'];
  const [fi, ti] = [ints.indexOf(from), ints.indexOf(to)];
  if (fi >= 0 && ti >= 0) return ti > fi;
  const varchar = /^character varying(?:\((\d+)\))?( collate .*)?$/;
  const f = varchar.exec(from);
  if (!f) return false;
  const sameCollation = (s: string) => (f[2] ?? '') === (s.match(/( collate .*)$/)?.[1] ?? '');
  if (to.startsWith('text')) return sameCollation(to);
  const t = varchar.exec(to);
  return (
    !!t && sameCollation(to) && (t[1] === undefined || (f[1] !== undefined && Number(t[1]) >= Number(f[1])))
  );
}

/** What `after` changed in `before` that code written for `before` may trip on, one line each. */
export function breakingChanges(before: Catalog, after: Catalog): string[] {
  const found: string[] = [];
  for (const [name, was] of before) {
    const now = after.get(name);
    if (!now) {
      found.push(`drops table ${name}`);
      continue;
    }
    for (const [col, c] of was.columns) {
      const n = now.columns.get(col);
      if (!n) {
        found.push(`drops column ${name}.${col}`);
        continue;
      }
      if (n.type !== c.type && !widened(c.type, n.type))
        found.push(`changes the type of ${name}.${col} from ${c.type} to ${n.type}`);
      if (n.notNull && !c.notNull) found.push(`makes ${name}.${col} NOT NULL`);
      if (n.notNull && c.filled && !n.filled)
        found.push(`drops the default of NOT NULL column ${name}.${col}`);
    }
    for (const [col, n] of now.columns)
      if (!was.columns.has(col) && n.notNull && !n.filled)
        found.push(`adds NOT NULL column ${name}.${col} without a default`);
    for (const u of now.uniques) if (!was.uniques.has(u)) found.push(`adds a unique index on ${name} ${u}`);
    for (const k of now.constraints)
      if (!was.constraints.has(k)) found.push(`adds a constraint on ${name}: ${k}`);
  }
  return found;
}
