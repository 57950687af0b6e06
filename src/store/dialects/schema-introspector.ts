/**
 * What Kysely's Migrator learns about the database, read from our own schema only. Its stock
 * PostgreSQL introspector lists every table of every schema (pg_get_serial_sequence on each), so
 * a schema another instance or test drops meanwhile fails our migration with "schema … does not
 * exist". The Migrator asks only which schemas and tables exist, by name.
 */
import { sql, type DatabaseIntrospector, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';

export function schemaIntrospector(conn: Kysely<unknown>, schema: string): DatabaseIntrospector {
  return {
    async getSchemas(): Promise<SchemaMetadata[]> {
      const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace
        where nspname = ${schema}`.execute(conn);
      return rows;
    },
    async getTables(): Promise<TableMetadata[]> {
      const { rows } = await sql<{ name: string; type: string }>`select table_name as name, table_type as type
        from information_schema.tables where table_schema = ${schema}`.execute(conn);
      return rows.map((r) => ({ name: r.name, schema, isView: r.type === 'VIEW', columns: [] }));
    },
    async getMetadata() {
      return { tables: await this.getTables() };
    },
  };
}

/** `conn` with its introspection narrowed to `schema`; every other member is conn's own. */
export function scopedToSchema<T>(conn: Kysely<T>, schema: string): Kysely<T> {
  const introspection = schemaIntrospector(conn as Kysely<unknown>, schema);
  return new Proxy(conn, {
    get(target, prop) {
      if (prop === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, prop, target);
      // Kysely's methods use private fields: they must run on the instance, not the proxy.
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
