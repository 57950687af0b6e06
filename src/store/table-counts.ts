/**
 * The row count of every table of the store, for a backup's manifest and the check of a
 * restore: read from the catalog, so a table a later migration adds is counted without a change
 * here. On PostgreSQL the counts are taken in one REPEATABLE READ transaction (one snapshot, as
 * a dump would see the database); SQLite's FTS index and its shadow tables are derived data, left
 * out (their content is event_search_docs).
 */
import { sql, type Kysely } from 'kysely';
import type { Tables } from './tables.js';

/** The tables FTS5 keeps beside a virtual table (its external content table is ours, counted). */
const FTS5_SHADOW = ['data', 'idx', 'content', 'docsize', 'config'];

export async function tableCounts(
  db: Kysely<Tables>,
  kind: 'sqlite' | 'postgres',
): Promise<Record<string, number>> {
  const count = async (q: Kysely<Tables>, names: string[]) => {
    const counts: Record<string, number> = {};
    for (const name of names.sort()) {
      const { rows } = await sql<{
        n: number | string;
      }>`select count(*) as n from ${sql.table(name)}`.execute(q);
      counts[name] = Number(rows[0]?.n ?? 0);
    }
    return counts;
  };
  if (kind === 'sqlite') {
    const { rows } = await sql<{ name: string; sql: string | null }>`select name, sql from sqlite_master
      where type = 'table' and name not like 'sqlite_%'`.execute(db);
    const virtual = rows.filter((r) => /^create virtual table/i.test(r.sql ?? '')).map((r) => r.name);
    const plain = rows
      .map((r) => r.name)
      .filter((n) => !virtual.some((v) => n === v || FTS5_SHADOW.some((s) => n === `${v}_${s}`)));
    return count(db, plain);
  }
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(trx);
      return count(
        trx,
        rows.map((r) => r.name),
      );
    });
}
